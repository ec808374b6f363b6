package console

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/daemon"
	"wolftable/daemon/daemontest"
	tableplay "wolftable/daemon/play"
	"wolftable/engine"
	"wolftable/hw/hwtest"
)

// rig is the virtual table of the console's tests: it implements Table with
// a real daemon on a fake clock and the hwtest table (seat keys, pedal).
type rig struct {
	t     testing.TB
	clock *daemontest.FakeClock
	srv   *Server
	bots  tableplay.Player
	// observe sees every event before the console does (daemon goroutine).
	observe func(daemon.Event)
	// observeStart sees every game the console starts (its spec).
	observeStart func(NewGame)

	mu     sync.Mutex
	d      *daemon.Daemon
	hw     *hwtest.Table
	g      *engine.Game
	cancel context.CancelFunc
	done   chan error
}

var _ Table = (*rig)(nil)

var rigStart = time.Date(2026, 11, 29, 20, 15, 0, 0, time.UTC)

const rigPIN = "246810"

// newRig makes a rig and its console (PIN rigPIN, the fake clock).
func newRig(t testing.TB, opt Options) *rig {
	t.Helper()
	r := &rig{t: t, clock: daemontest.NewFakeClock(rigStart)}
	opt.Table = r
	if opt.PINHash == "" {
		opt.PINHash = HashPIN(rigPIN)
	}
	if opt.Now == nil {
		opt.Now = r.clock.Now
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	srv, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	r.srv = srv
	t.Cleanup(func() {
		r.stop()
		_ = srv.Close()
	})
	return r
}

func (r *rig) StartGame(ctx context.Context, ng NewGame) error {
	if r.observeStart != nil {
		r.observeStart(ng)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopLocked()
	tab := hwtest.New(ng.Game.Players())
	tab.Now = r.clock.Now
	first := make(chan struct{})
	var once sync.Once
	d, err := daemon.New(daemon.Config{Game: ng.Game, Table: tab, Clock: r.clock,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Player: r.bots,
		OnEvent: func(e daemon.Event) {
			if r.observe != nil {
				r.observe(e)
			}
			ng.OnEvent(e)
			once.Do(func() { close(first) })
		}})
	if err != nil {
		return err
	}
	runCtx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx) }()
	r.d, r.hw, r.g, r.cancel, r.done = d, tab, ng.Game, cancel, done
	select {
	case <-first:
		return nil
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *rig) Submit(ctx context.Context, in engine.Input, source string) error {
	r.mu.Lock()
	d := r.d
	r.mu.Unlock()
	if d == nil {
		return daemon.ErrStopped
	}
	return d.Submit(ctx, in, source)
}

func (r *rig) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopLocked()
}

func (r *rig) stopLocked() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	<-r.done
	_ = r.hw.Close()
	r.d, r.cancel = nil, nil
}

// table is the hwtest table of the running game.
func (r *rig) table() *hwtest.Table {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hw
}

// start deals a game on the rig without HTTP.
func (r *rig) start(board string, deal []engine.Role, seed uint64) {
	r.t.Helper()
	b, err := boards.Get(board)
	if err != nil {
		r.t.Fatal(err)
	}
	if deal == nil {
		deal = engine.Deal(b, seed)
	}
	spec := GameSpec{Board: b, Deal: deal, Bottom: bottomOf(b, deal), Seed: seed}
	g, err := engine.New(spec.Config())
	if err != nil {
		r.t.Fatal(err)
	}
	if err := r.StartGame(context.Background(), NewGame{Spec: spec, Game: g, OnEvent: r.srv.Attach(spec, g)}); err != nil {
		r.t.Fatal(err)
	}
	r.settle()
}

// settle waits until the daemon has applied the timers due at the fake
// clock's time and the console has applied every event: daemon.Alive runs
// what is due before it answers, so it is a barrier however slow the
// machine (the old rig guessed "dropped" after 30 ms without progress).
func (r *rig) settle() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r.mu.Lock()
	d := r.d
	r.mu.Unlock()
	if d != nil {
		if err := d.Alive(ctx); errors.Is(err, context.DeadlineExceeded) {
			r.t.Fatalf("the daemon did not answer within a minute")
		}
	}
	r.srv.settle(ctx)
}

// step advances the fake clock to the next timer; false when none is set.
func (r *rig) step() bool {
	next, ok := r.clock.Next()
	if !ok {
		return false
	}
	r.clock.Advance(next.Sub(r.clock.Now()))
	r.settle()
	return true
}

// until advances timer by timer until the judge's state satisfies ok.
func (r *rig) until(what string, ok func(JudgeState) bool) JudgeState {
	r.t.Helper()
	for i := 0; i < 2000; i++ {
		st := r.srv.judgeState()
		if ok(st) {
			return st
		}
		if !r.step() {
			r.settle()
			if st := r.srv.judgeState(); ok(st) {
				return st
			}
			r.t.Fatalf("waiting for %s: no timer left (phase %s, step %+v)", what, st.Phase, st.Step)
		}
	}
	r.t.Fatalf("waiting for %s: too many steps", what)
	return JudgeState{}
}

// wait polls the judge's state (for inputs that arrive asynchronously,
// like seat keys) without moving the clock.
func (r *rig) wait(what string, ok func(JudgeState) bool) JudgeState {
	r.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r.settle()
		st := r.srv.judgeState()
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("waiting for %s: gave up (phase %s, step %+v, inputs %+v)", what, st.Phase, st.Step, st.Inputs)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func atNight(kind string) func(JudgeState) bool {
	return func(st JudgeState) bool { return st.Step != nil && st.Step.Step == "night" && st.Step.Kind == kind }
}

// client is an HTTP client of the console with a cookie jar.
type client struct {
	t    testing.TB
	base string
	hc   *http.Client
	csrf string
}

func newClient(t testing.TB, base string) *client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &client{t: t, base: base, hc: &http.Client{Jar: jar, Timeout: 20 * time.Second}}
}

func (c *client) do(method, path string, body any, hdr map[string]string) (int, []byte) {
	c.t.Helper()
	if body == nil && method == "POST" {
		body = struct{}{}
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = strings.NewReader(string(b))
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.csrf != "" {
		req.Header.Set(csrfHeader, c.csrf)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func (c *client) login(pin string) {
	c.t.Helper()
	code, b := c.do("POST", "/api/login", map[string]string{"pin": pin}, nil)
	if code != http.StatusOK {
		c.t.Fatalf("login: %d %s", code, b)
	}
	var rep sessionReply
	if err := json.Unmarshal(b, &rep); err != nil || rep.CSRF == "" {
		c.t.Fatalf("login reply %s: %v", b, err)
	}
	c.csrf = rep.CSRF
}

// power posts a judge power and fails the test unless it is accepted.
func (c *client) power(name string, body any) {
	c.t.Helper()
	if code, b := c.do("POST", "/api/judge/"+name, body, nil); code != http.StatusOK {
		c.t.Fatalf("power %s %v: %d %s", name, body, code, b)
	}
}

// sse reads a live stream's state messages into a channel until ctx ends.
func (c *client) sse(ctx context.Context, path string) (<-chan []byte, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", c.base+path, nil)
	if err != nil {
		return nil, err
	}
	hc := &http.Client{Jar: c.hc.Jar}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, errors.New(resp.Status)
	}
	out := make(chan []byte, 1024)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		buf := make([]byte, 0, 1<<16)
		chunk := make([]byte, 32<<10)
		for {
			n, err := resp.Body.Read(chunk)
			buf = append(buf, chunk[:n]...)
			for {
				i := strings.Index(string(buf), "\n\n")
				if i < 0 {
					break
				}
				msg := string(buf[:i])
				buf = buf[i+2:]
				for _, line := range strings.Split(msg, "\n") {
					if data, ok := strings.CutPrefix(line, "data: "); ok && data != "{}" {
						select {
						case out <- []byte(data):
						case <-ctx.Done():
							return
						}
					}
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return out, nil
}

// serve runs the rig's console on a test HTTP server.
func (r *rig) serve() *httptest.Server {
	ts := httptest.NewServer(r.srv)
	r.t.Cleanup(func() {
		_ = r.srv.Close() // ends the live streams, so Close does not wait on them
		ts.Close()
	})
	return ts
}
