package console

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/daemon"
	"wolftable/engine"
)

// testHost is the Host of httptest.NewRequest's requests; the handler-level
// tests' consoles are configured with it as one of their host names.
const testHost = "example.com"

// request builds a request to the console from a LAN address.
func request(method, path, body string, hdr map[string]string) *http.Request {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	r := httptest.NewRequest(method, path, rd)
	r.RemoteAddr = "192.168.1.20:50000"
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	return r
}

func serve(h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// login logs in through the handler and returns the cookie and CSRF token.
func login(t *testing.T, h http.Handler, pin, remote string) (*http.Cookie, string) {
	t.Helper()
	r := request("POST", "/api/login", `{"pin":"`+pin+`"}`, nil)
	r.RemoteAddr = remote
	w := serve(h, r)
	if w.Code != http.StatusOK {
		t.Fatalf("login: %d %s", w.Code, w.Body)
	}
	var rep sessionReply
	if err := json.Unmarshal(w.Body.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	for _, c := range w.Result().Cookies() {
		if c.Name == sessionCookie {
			return c, rep.CSRF
		}
	}
	t.Fatal("login set no session cookie")
	return nil, ""
}

// fakeClock is a settable clock for sessions and the PIN throttle.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time          { return c.now }
func (c *fakeClock) Advance(d time.Duration) { c.now = c.now.Add(d) }

// nopTable is a Table that accepts everything and runs nothing.
type nopTable struct{ inputs []engine.Input }

func (n *nopTable) StartGame(ctx context.Context, ng NewGame) error { return nil }
func (n *nopTable) Submit(ctx context.Context, in engine.Input, source string) error {
	n.inputs = append(n.inputs, in)
	return nil
}

func newTestServer(t testing.TB, clock *fakeClock, tab Table) *Server {
	t.Helper()
	if tab == nil {
		tab = &nopTable{}
	}
	s, err := New(Options{Table: tab, PINHash: HashPIN(rigPIN), Now: clock.Now, Hosts: []string{testHost},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func judgeBody(rt route) string {
	if rt.method == "POST" {
		return "{}"
	}
	return ""
}

// TestJudgeEndpointsRefuseWithoutSession: every judge endpoint answers 401
// without a session, with a forged, malformed or expired cookie, and after
// logout.
func TestJudgeEndpointsRefuseWithoutSession(t *testing.T) {
	clock := &fakeClock{now: rigStart}
	s := newTestServer(t, clock, nil)
	good, csrf := login(t, s, rigPIN, "192.168.1.20:50000")
	other := newTestServer(t, clock, nil)
	foreign, foreignCSRF := login(t, other, rigPIN, "192.168.1.20:50000")
	cookies := map[string]*http.Cookie{
		"none":      nil,
		"forged":    {Name: sessionCookie, Value: randomToken()},
		"malformed": {Name: sessionCookie, Value: "not-a-token"},
		"empty":     {Name: sessionCookie, Value: ""},
		"other":     foreign,
	}
	routes := append(s.judgeRoutes(), route{"GET", "/api/judge/nothing-here", nil}, route{"POST", "/api/judge/nothing-here", nil})
	for _, rt := range routes {
		for name, c := range cookies {
			hdr := map[string]string{csrfHeader: csrf}
			if name == "other" {
				hdr[csrfHeader] = foreignCSRF
			}
			r := request(rt.method, rt.path, judgeBody(rt), hdr)
			if c != nil {
				r.AddCookie(c)
			}
			if w := serve(s, r); w.Code != http.StatusUnauthorized {
				t.Errorf("%s %s with cookie %s: %d, want 401", rt.method, rt.path, name, w.Code)
			}
		}
	}
	// expired: the same cookie after the session's time
	clock.Advance(12*time.Hour + time.Second)
	for _, rt := range routes {
		r := request(rt.method, rt.path, judgeBody(rt), map[string]string{csrfHeader: csrf})
		r.AddCookie(good)
		if w := serve(s, r); w.Code != http.StatusUnauthorized {
			t.Errorf("%s %s with an expired cookie: %d, want 401", rt.method, rt.path, w.Code)
		}
	}
	// logged out
	c2, csrf2 := login(t, s, rigPIN, "192.168.1.20:50000")
	r := request("POST", "/api/judge/logout", "{}", map[string]string{csrfHeader: csrf2})
	r.AddCookie(c2)
	if w := serve(s, r); w.Code != http.StatusOK {
		t.Fatalf("logout: %d %s", w.Code, w.Body)
	}
	r = request("GET", "/api/judge/state", "", nil)
	r.AddCookie(c2)
	if w := serve(s, r); w.Code != http.StatusUnauthorized {
		t.Errorf("state after logout: %d, want 401", w.Code)
	}
}

// TestJudgePostsNeedCSRF: with a good session, every state-changing judge
// endpoint answers 403 without the CSRF token, with a wrong one, with
// another session's, and from another origin; 415 for a non-JSON body.
func TestJudgePostsNeedCSRF(t *testing.T) {
	clock := &fakeClock{now: rigStart}
	tab := &nopTable{}
	s := newTestServer(t, clock, tab)
	c, csrf := login(t, s, rigPIN, "192.168.1.20:50000")
	_, csrf2 := login(t, s, rigPIN, "192.168.1.21:50000")
	bad := map[string]map[string]string{
		"no token":        {},
		"wrong token":     {csrfHeader: randomToken()},
		"empty token":     {csrfHeader: ""},
		"another session": {csrfHeader: csrf2},
		"cross origin":    {csrfHeader: csrf, "Origin": "http://evil.example"},
		"null origin":     {csrfHeader: csrf, "Origin": "null"},
		"cross site":      {csrfHeader: csrf, "Sec-Fetch-Site": "cross-site"},
		"same site":       {csrfHeader: csrf, "Sec-Fetch-Site": "same-site"},
	}
	posts := 0
	for _, rt := range append(s.judgeRoutes(), route{"POST", "/api/judge/nothing-here", nil}) {
		if rt.method != "POST" {
			continue
		}
		posts++
		for name, hdr := range bad {
			r := request("POST", rt.path, `{"seat":1}`, hdr)
			r.AddCookie(c)
			if w := serve(s, r); w.Code != http.StatusForbidden {
				t.Errorf("POST %s, %s: %d, want 403", rt.path, name, w.Code)
			}
		}
		r := request("POST", rt.path, "", map[string]string{csrfHeader: csrf, "Content-Type": "application/x-www-form-urlencoded"})
		r.Body = io.NopCloser(strings.NewReader("seat=1"))
		r.AddCookie(c)
		if w := serve(s, r); w.Code != http.StatusUnsupportedMediaType && rt.h != nil {
			t.Errorf("POST %s as a form: %d, want 415", rt.path, w.Code)
		}
	}
	if posts < len(powerNames)+2 {
		t.Fatalf("only %d POST endpoints checked", posts)
	}
	if len(tab.inputs) != 0 {
		t.Fatalf("refused requests reached the table: %v", tab.inputs)
	}
	// the same request with the token and the page's own origin goes through
	r := request("POST", "/api/judge/repeat", "{}", map[string]string{csrfHeader: csrf, "Origin": "http://example.com",
		"Sec-Fetch-Site": "same-origin"})
	r.Host = "example.com"
	r.AddCookie(c)
	if w := serve(s, r); w.Code != http.StatusConflict { // no game yet: 409 from the console, after the checks
		t.Errorf("a good request: %d %s, want 409 (no game)", w.Code, w.Body)
	}
}

// TestSessionCookie: HttpOnly, SameSite=Strict, the whole site, not readable
// by the page; the login reply carries the CSRF token and the session
// endpoint gives it back.
func TestSessionCookie(t *testing.T) {
	s := newTestServer(t, &fakeClock{now: rigStart}, nil)
	c, csrf := login(t, s, rigPIN, "192.168.1.20:50000")
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.MaxAge <= 0 {
		t.Errorf("cookie %+v: want HttpOnly, SameSite=Strict, Path=/ and a max age", c)
	}
	if c.Value == csrf || len(csrf) < 40 {
		t.Errorf("csrf token %q", csrf)
	}
	r := request("GET", "/api/judge/session", "", nil)
	r.AddCookie(c)
	w := serve(s, r)
	var rep sessionReply
	if err := json.Unmarshal(w.Body.Bytes(), &rep); err != nil || rep.CSRF != csrf {
		t.Errorf("session: %d %s", w.Code, w.Body)
	}
	if cc := w.Header().Get("Cache-Control"); cc != "no-store" {
		t.Errorf("judge replies are cached: %q", cc)
	}
}

// TestPINThrottle: five wrong PINs in a minute lock the address out (429,
// Retry-After), even for the right PIN; another address still logs in; the
// lock doubles; many addresses together are held too.
func TestPINThrottle(t *testing.T) {
	clock := &fakeClock{now: rigStart}
	s := newTestServer(t, clock, nil)
	try := func(pin, remote string) *httptest.ResponseRecorder {
		r := request("POST", "/api/login", `{"pin":"`+pin+`"}`, nil)
		r.RemoteAddr = remote
		return serve(s, r)
	}
	const a = "192.168.1.50:4000"
	for i := 0; i < failLimit; i++ {
		if w := try("000000", a); w.Code != http.StatusUnauthorized {
			t.Fatalf("wrong PIN %d: %d", i, w.Code)
		}
	}
	w := try(rigPIN, a)
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "60" {
		t.Fatalf("the right PIN while locked: %d, Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
	if w := try(rigPIN, "192.168.1.50:4001"); w.Code != http.StatusTooManyRequests {
		t.Errorf("another port of the same address: %d, want 429", w.Code)
	}
	if w := try(rigPIN, "192.168.1.51:4000"); w.Code != http.StatusOK {
		t.Errorf("another address: %d, want 200", w.Code)
	}
	clock.Advance(30 * time.Second)
	if w := try(rigPIN, a); w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "30" {
		t.Errorf("half way: %d %q", w.Code, w.Header().Get("Retry-After"))
	}
	clock.Advance(31 * time.Second)
	for i := 0; i < failLimit; i++ {
		try("111111", a)
	}
	if w := try(rigPIN, a); w.Header().Get("Retry-After") != "120" {
		t.Errorf("second lockout: %d, Retry-After %q, want 120", w.Code, w.Header().Get("Retry-After"))
	}
	clock.Advance(2*time.Minute + time.Second)
	if w := try(rigPIN, a); w.Code != http.StatusOK {
		t.Errorf("after the lockout: %d", w.Code)
	}

	// a guess spread over many addresses
	s2 := newTestServer(t, clock, nil)
	for i := 0; i < globalLimit; i++ {
		r := request("POST", "/api/login", `{"pin":"999999"}`, nil)
		r.RemoteAddr = "10.0." + strconv.Itoa(i/200) + "." + strconv.Itoa(i%200+1) + ":1000"
		if w := serve(s2, r); w.Code != http.StatusUnauthorized {
			t.Fatalf("spread guess %d: %d", i, w.Code)
		}
	}
	r := request("POST", "/api/login", `{"pin":"`+rigPIN+`"}`, nil)
	r.RemoteAddr = "10.9.9.9:1000"
	if w := serve(s2, r); w.Code != http.StatusTooManyRequests {
		t.Errorf("after %d failures from many addresses: %d, want 429", globalLimit, w.Code)
	}
	clock.Advance(failWindow + time.Second)
	if w := serve(s2, r); w.Code != http.StatusOK {
		t.Errorf("after the window: %d", w.Code)
	}
}

// TestBruteForceIsSlow: an attacker at one address tries PINs as fast as
// the console answers for a simulated day; the lockouts leave it a tiny
// fraction of the PIN space.
func TestBruteForceIsSlow(t *testing.T) {
	clock := &fakeClock{now: rigStart}
	s := newTestServer(t, clock, nil)
	tries := 0
	end := clock.now.Add(24 * time.Hour)
	for pin := 0; clock.now.Before(end); pin++ {
		r := request("POST", "/api/login", `{"pin":"`+pinString(pin)+`"}`, nil)
		r.RemoteAddr = "192.168.7.7:1"
		w := serve(s, r)
		switch w.Code {
		case http.StatusUnauthorized:
			tries++
			clock.Advance(100 * time.Millisecond)
		case http.StatusTooManyRequests:
			d, err := time.ParseDuration(w.Header().Get("Retry-After") + "s")
			if err != nil {
				t.Fatal(err)
			}
			clock.Advance(d)
		case http.StatusOK:
			if pinString(pin) != rigPIN {
				t.Fatalf("pin %d logged in", pin)
			}
		default:
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	}
	if tries > 200 {
		t.Fatalf("%d PINs tried in a day from one address; want at most 200", tries)
	}
}

func pinString(n int) string {
	b := []byte("000000")
	for i := 5; i >= 0; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b)
}

// TestLANOnly: addresses outside the LAN get 403 everywhere, the public view
// and the login too.
func TestLANOnly(t *testing.T) {
	s := newTestServer(t, &fakeClock{now: rigStart}, nil)
	for _, remote := range []string{"203.0.113.9:1234", "[2001:db8::1]:80", "8.8.8.8:53", "garbage"} {
		for _, path := range []string{"/", "/judge", "/api/public/state", "/api/login", "/api/judge/state", "/static/app.css"} {
			r := request("GET", path, "", nil)
			r.RemoteAddr = remote
			if w := serve(s, r); w.Code != http.StatusForbidden {
				t.Errorf("GET %s from %s: %d, want 403", path, remote, w.Code)
			}
		}
	}
	for _, remote := range []string{"127.0.0.1:1", "[::1]:1", "10.1.2.3:1", "172.20.0.5:1", "192.168.0.9:1", "[fe80::1%eth0]:1", "[::ffff:192.168.1.4]:1"} {
		r := request("GET", "/api/public/state", "", nil)
		r.RemoteAddr = remote
		if w := serve(s, r); w.Code != http.StatusOK {
			t.Errorf("GET from %s: %d, want 200", remote, w.Code)
		}
	}
}

// TestGeneratedPIN: without a configured hash, a 6-digit PIN is drawn; its
// hash is console.pin_hash's format; it logs in.
func TestGeneratedPIN(t *testing.T) {
	s, err := New(Options{Table: &nopTable{}, Hosts: []string{testHost}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pin, hash, ok := s.GeneratedPIN()
	if !ok || !regexp.MustCompile(`^[0-9]{6}$`).MatchString(pin) || hash != HashPIN(pin) ||
		!regexp.MustCompile(`^sha256:[0-9a-f]{64}$`).MatchString(hash) {
		t.Fatalf("GeneratedPIN = %q %q %v", pin, hash, ok)
	}
	login(t, s, pin, "127.0.0.1:9")
	s2 := newTestServer(t, &fakeClock{now: rigStart}, nil)
	if _, _, ok := s2.GeneratedPIN(); ok {
		t.Error("GeneratedPIN with a configured hash")
	}
	for _, bad := range []string{"sha256:", "md5:" + strings.Repeat("0", 64), "sha256:" + strings.Repeat("g", 64), strings.Repeat("0", 64)} {
		if _, err := New(Options{Table: &nopTable{}, PINHash: bad}); !errors.Is(err, ErrBadPINHash) {
			t.Errorf("pin_hash %q: %v", bad, err)
		}
	}
	// upper-case hex, as an editor may write it, is accepted
	up := "sha256:" + strings.ToUpper(strings.TrimPrefix(HashPIN("1234"), "sha256:"))
	s3, err := New(Options{Table: &nopTable{}, PINHash: up, Hosts: []string{testHost}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	login(t, s3, "1234", "127.0.0.1:9")
}

// TestSecurityHeaders: a strict CSP with no inline script on every answer.
func TestSecurityHeaders(t *testing.T) {
	s := newTestServer(t, &fakeClock{now: rigStart}, nil)
	for _, path := range []string{"/", "/judge", "/deal", "/api/public/state", "/static/judge.js"} {
		w := serve(s, request("GET", path, "", nil))
		if w.Code != http.StatusOK {
			t.Errorf("GET %s: %d", path, w.Code)
		}
		csp := w.Header().Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") || w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: CSP %q", path, csp)
		}
	}
	for _, page := range []string{"web/index.html", "web/judge.html", "web/deal.html"} {
		b, err := webFS.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		if regexp.MustCompile(`<script>|<script [^>]*>[^<]|\son[a-z]+=|style=`).Match(b) {
			t.Errorf("%s has inline script, handlers or styles (the CSP forbids them)", page)
		}
	}
}

// TestStreamLimit: past the public streams' cap, new ones get 503.
func TestStreamLimit(t *testing.T) {
	s := newTestServer(t, &fakeClock{now: rigStart}, nil)
	s.streams.public = s.lim.public
	if w := serve(s, request("GET", "/api/public/events", "", nil)); w.Code != http.StatusServiceUnavailable {
		t.Fatalf("stream %d: %d, want 503", s.lim.public+1, w.Code)
	}
	if n, _ := s.streams.count(); n != s.lim.public {
		t.Fatalf("refused stream still counted: %d", n)
	}
}

// TestAttachAndClose: an Attach without a board is refused quietly; after
// Close events are dropped, not queued.
func TestAttachAndClose(t *testing.T) {
	s := newTestServer(t, &fakeClock{now: rigStart}, nil)
	s.Attach(GameSpec{}, nil)(daemon.Event{At: rigStart})
	b, _ := boards.Get("seer-witch-hunter-idiot")
	on := s.Attach(GameSpec{Board: b, Deal: engine.Deal(b, 1), Seed: 1}, nil)
	s.settle(context.Background())
	if st := s.judgeState(); st.Game == nil || len(st.Seats) != 12 {
		t.Fatalf("attached game: %+v", st.Game)
	}
	_ = s.Close()
	for i := 0; i < 100; i++ {
		on(daemon.Event{At: rigStart, Effect: &engine.Effect{Kind: engine.EffSay, Line: "game.start"}, Text: "x"})
	}
	s.qmu.Lock()
	n := len(s.queue)
	s.qmu.Unlock()
	if n != 0 {
		t.Fatalf("%d events queued after Close", n)
	}
}

// TestStaticFiles: the embedded files, nothing else (no listing).
func TestStaticFiles(t *testing.T) {
	s := newTestServer(t, &fakeClock{now: rigStart}, nil)
	for path, want := range map[string]int{"/static/app.css": 200, "/static/judge.js": 200, "/static/": 404,
		"/static/nope.js": 404, "/static/%c0": 404, "/static/web/index.html": 404} {
		if w := serve(s, request("GET", path, "", nil)); w.Code != want {
			t.Errorf("GET %s: %d, want %d", path, w.Code, want)
		}
	}
	for _, path := range []string{"/static/../judge.html", "/static/.", "/static//app.css"} {
		if w := serve(s, request("GET", path, "", nil)); w.Code == 200 || w.Code >= 500 {
			t.Errorf("GET %s: %d, want a redirect or 404", path, w.Code)
		}
	}
}
