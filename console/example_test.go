package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"wolftable/console"
	"wolftable/daemon"
	"wolftable/engine"
	"wolftable/hw"
	"wolftable/hw/hwtest"
)

// table is how serve and sim implement console.Table: each new game gets a
// new daemon on the same hardware, with the console's OnEvent chained in.
type table struct {
	hw     hw.Table
	mu     sync.Mutex
	d      *daemon.Daemon
	cancel context.CancelFunc
	done   chan error
}

func (t *table) StartGame(ctx context.Context, ng console.NewGame) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cancel != nil { // end the running game
		t.cancel()
		<-t.done
	}
	d, err := daemon.New(daemon.Config{Game: ng.Game, Table: t.hw, OnEvent: ng.OnEvent,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}) // and Journal: a new journal for ng.Spec
	if err != nil {
		return err
	}
	run, cancel := context.WithCancel(context.Background())
	t.d, t.cancel, t.done = d, cancel, make(chan error, 1)
	go func(done chan error) { done <- d.Run(run) }(t.done)
	return nil
}

func (t *table) Submit(ctx context.Context, in engine.Input, source string) error {
	t.mu.Lock()
	d := t.d
	t.mu.Unlock()
	if d == nil {
		return daemon.ErrStopped
	}
	return d.Submit(ctx, in, source)
}

func (t *table) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cancel != nil {
		t.cancel()
		<-t.done
	}
}

// The judge logs in and starts a game; the god view shows the first night
// step.
func Example() {
	tab := &table{hw: hwtest.New(12)}
	defer tab.stop()
	srv, err := console.New(console.Options{Table: tab, PINHash: console.HashPIN("246810"),
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ts := httptest.NewServer(srv) // serve: srv.HTTPServer().Serve(srv.Listener(ln)) on console.listen
	defer ts.Close()

	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	post := func(path, csrf, body string) *http.Response {
		req, _ := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-CSRF-Token", csrf)
		resp, err := c.Do(req)
		if err != nil {
			panic(err)
		}
		return resp
	}
	resp := post("/api/login", "", `{"pin":"246810"}`)
	var session struct{ CSRF string }
	_ = json.NewDecoder(resp.Body).Decode(&session)
	resp.Body.Close()
	resp = post("/api/judge/start", session.CSRF, `{"board":"預女獵愚","deal":"random"}`)
	resp.Body.Close()
	fmt.Println("start:", resp.Status)

	var st console.JudgeState
	for i := 0; i < 500 && st.Step == nil; i++ {
		resp, err := c.Get(ts.URL + "/api/judge/state")
		if err != nil {
			panic(err)
		}
		_ = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println(st.Game.Name, st.PhaseLabel, st.Step.Label, len(st.Wake.Seats), "wolves")
	// Output:
	// start: 200 OK
	// 預女獵愚 第1夜 夜間：狼人 4 wolves
}

func ExampleHashPIN() {
	// config: [console] pin_hash = "sha256:…"
	fmt.Println(console.HashPIN("123456"))
	// Output: sha256:8d969eef6ecad3c29a3a629280e686cf0c3f5d5a86aff3ca12020c923adc6c92
}
