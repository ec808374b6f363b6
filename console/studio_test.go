package console

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/engine"
)

// fakeStudio records what reached the studio's handler.
type fakeStudio struct {
	mu   sync.Mutex
	hits []string
}

func (f *fakeStudio) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.hits = append(f.hits, r.Method+" "+r.URL.Path+" "+string(b))
	f.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (f *fakeStudio) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.hits)
}

var studioRoutes = []route{
	{"GET", "/api/judge/voice/clips", nil},
	{"PUT", "/api/judge/voice/clips/seat.3", nil},
	{"GET", "/api/judge/voice/clips/seat.3/audio", nil},
	{"POST", "/api/judge/voice/name", nil},
	{"POST", "/api/judge/voice/activate", nil},
	{"POST", "/api/judge/voice/deactivate", nil},
	{"GET", "/api/judge/voice/export", nil},
	{"POST", "/api/judge/voice/import", nil},
}

// TestStudioGate: the studio's API answers 401 without a session, 403 to a
// change without the CSRF token or from another site, 409 to a change while
// a game is on (reads still pass), 404 where the table has no studio; what
// passes the checks reaches the studio with its body (an upload is audio,
// not JSON).
func TestStudioGate(t *testing.T) {
	clock := &fakeClock{now: rigStart}
	fs := &fakeStudio{}
	s, err := New(Options{Table: &nopTable{}, PINHash: HashPIN(rigPIN), Now: clock.Now, Hosts: []string{testHost},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Studio: fs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	c, csrf := login(t, s, rigPIN, "192.168.1.20:50000")
	send := func(rt route, cookie *http.Cookie, hdr map[string]string) int {
		r := request(rt.method, rt.path, "", hdr)
		r.Body = io.NopCloser(strings.NewReader("RIFF take"))
		r.Header.Set("Content-Type", "audio/wav")
		if cookie != nil {
			r.AddCookie(cookie)
		}
		return serve(s, r).Code
	}
	for _, rt := range studioRoutes {
		if code := send(rt, nil, map[string]string{csrfHeader: csrf}); code != http.StatusUnauthorized {
			t.Errorf("%s %s without a session: %d", rt.method, rt.path, code)
		}
		if code := send(rt, &http.Cookie{Name: sessionCookie, Value: randomToken()}, map[string]string{csrfHeader: csrf}); code != http.StatusUnauthorized {
			t.Errorf("%s %s with a forged cookie: %d", rt.method, rt.path, code)
		}
		if rt.method == "GET" {
			continue
		}
		for name, hdr := range map[string]map[string]string{
			"no token":     {},
			"wrong token":  {csrfHeader: randomToken()},
			"cross origin": {csrfHeader: csrf, "Origin": "http://evil.example"},
			"cross site":   {csrfHeader: csrf, "Sec-Fetch-Site": "cross-site"},
		} {
			if code := send(rt, c, hdr); code != http.StatusForbidden {
				t.Errorf("%s %s, %s: %d, want 403", rt.method, rt.path, name, code)
			}
		}
	}
	if n := fs.count(); n != 0 {
		t.Fatalf("%d refused requests reached the studio: %v", n, fs.hits)
	}
	for _, rt := range studioRoutes {
		if code := send(rt, c, map[string]string{csrfHeader: csrf}); code != http.StatusOK {
			t.Errorf("%s %s with session and token: %d", rt.method, rt.path, code)
		}
	}
	if fs.count() != len(studioRoutes) || !strings.HasSuffix(fs.hits[1], "RIFF take") {
		t.Fatalf("the studio got %v", fs.hits)
	}

	b, _ := boards.Get("seer-witch-hunter-idiot")
	s.Attach(GameSpec{Board: b, Deal: engine.Deal(b, 1), Seed: 1}, nil)
	s.settle(context.Background())
	before := fs.count()
	for _, rt := range studioRoutes {
		code := send(rt, c, map[string]string{csrfHeader: csrf})
		if want := map[bool]int{true: 200, false: 409}[rt.method == "GET"]; code != want {
			t.Errorf("%s %s during a game: %d, want %d", rt.method, rt.path, code, want)
		}
	}
	if got := fs.count() - before; got != 3 {
		t.Errorf("%d requests reached the studio during the game, want the 3 reads", got)
	}

	plain := newTestServer(t, clock, nil)
	c2, csrf2 := login(t, plain, rigPIN, "192.168.1.20:50000")
	r := request("GET", "/api/judge/voice/clips", "", map[string]string{csrfHeader: csrf2})
	r.AddCookie(c2)
	if w := serve(plain, r); w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "no_studio") {
		t.Errorf("no studio: %d %s", w.Code, w.Body)
	}
	if w := serve(s, request("GET", "/studio", "", nil)); w.Code != 200 || !strings.Contains(w.Body.String(), "錄音室") {
		t.Errorf("the studio page: %d", w.Code)
	}
}

// blockingStudio holds each request until its context ends, and reports
// the cause.
type blockingStudio struct {
	entered chan struct{}
	ended   chan error
}

func (b *blockingStudio) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.entered <- struct{}{}
	<-r.Context().Done()
	b.ended <- context.Cause(r.Context())
	writeError(w, http.StatusConflict, "cancelled", "已中止")
}

// TestStudioImportCancelledByGameStart (issue 27 item 4): a studio import
// admitted before a game and still running when one is attached (from the
// console, the pedal or --autostart: Attach) has its request's context
// cancelled with errGameStarted, so the studio stops before night 1.
// Before the fix nothing cancelled it: the test failed at "still running".
func TestStudioImportCancelledByGameStart(t *testing.T) {
	clock := &fakeClock{now: rigStart}
	bs := &blockingStudio{entered: make(chan struct{}, 1), ended: make(chan error, 1)}
	s, err := New(Options{Table: &nopTable{}, PINHash: HashPIN(rigPIN), Now: clock.Now, Hosts: []string{testHost},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Studio: bs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	c, csrf := login(t, s, rigPIN, "192.168.1.20:50000")
	r := request("POST", "/api/judge/voice/import", "", map[string]string{csrfHeader: csrf})
	r.Body = io.NopCloser(strings.NewReader("PK archive"))
	r.AddCookie(c)
	code := make(chan int, 1)
	go func() { code <- serve(s, r).Code }()
	<-bs.entered // the import is running

	b, _ := boards.Get("seer-witch-hunter-idiot")
	s.Attach(GameSpec{Board: b, Deal: engine.Deal(b, 1), Seed: 1}, nil)
	select {
	case cause := <-bs.ended:
		if !errors.Is(cause, errGameStarted) {
			t.Errorf("the import was cancelled by %v, want errGameStarted", cause)
		}
	case <-time.After(10 * time.Second): // only when it fails: nothing cancels the import
		t.Fatal("the import is still running after the game started")
	}
	if got := <-code; got != http.StatusConflict {
		t.Errorf("the import's answer: %d, want 409", got)
	}
}
