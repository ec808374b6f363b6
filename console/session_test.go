package console

import (
	"crypto/tls"
	"io"
	"log/slog"
	"net/http"
	"testing"
)

// sessionCode is the status of GET /api/judge/session with cookie, over
// HTTPS when overTLS.
func sessionCode(h http.Handler, cookie *http.Cookie, overTLS bool) int {
	r := request("GET", "/api/judge/session", "", nil)
	r.AddCookie(cookie)
	if overTLS {
		r.TLS = &tls.ConnectionState{}
	}
	return serve(h, r).Code
}

// TestNewPINEndsSessions (issue 27 item 4): `wolftable console pin`
// (NewPIN) ends every session of the old PIN: in the running console at
// once, and in one started after a PIN made while it was stopped (the
// sessions file still lists them); a new PIN that happens to equal the old
// one is a new generation too. The new PIN's sessions survive a restart.
// Before the fix every check here answered 200 (sessions outlived the PIN).
func TestNewPINEndsSessions(t *testing.T) {
	dir := t.TempDir()
	opt := Options{Table: &nopTable{}, StateDir: dir, Hosts: []string{testHost}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	s1, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	pin, _, _ := s1.GeneratedPIN()
	a, _ := login(t, s1, pin, "192.168.1.20:50000")
	if c := sessionCode(s1, a, false); c != http.StatusOK {
		t.Fatalf("a fresh session: %d", c)
	}
	pin2, err := NewPIN(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c := sessionCode(s1, a, false); c != http.StatusUnauthorized {
		t.Errorf("the old PIN's session in the running console: %d, want 401", c)
	}

	b, _ := login(t, s1, pin2, "192.168.1.21:50000")
	s1.Close()
	pin3, err := NewPIN(dir) // while the daemon is stopped
	if err != nil {
		t.Fatal(err)
	}
	s2, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	if c := sessionCode(s2, b, false); c != http.StatusUnauthorized {
		t.Errorf("a session of the PIN before the restart: %d, want 401", c)
	}

	c3, _ := login(t, s2, pin3, "192.168.1.22:50000")
	if err := writeState(dir, pinFileName, pinFileText(pin3)); err != nil { // console pin drew the same PIN
		t.Fatal(err)
	}
	if c := sessionCode(s2, c3, false); c != http.StatusUnauthorized {
		t.Errorf("a session after a new PIN equal to the old: %d, want 401", c)
	}
	c4, _ := login(t, s2, pin3, "192.168.1.23:50000")
	s2.Close()
	s3, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	if c := sessionCode(s3, c4, false); c != http.StatusOK {
		t.Errorf("the current PIN's session after a restart: %d, want 200", c)
	}
}

// TestSessionBoundToScheme (issue 27 item 4): a cookie a plain-HTTP login
// set (anyone on the LAN may have read it) is refused over HTTPS, also
// after a restart; an HTTPS login's cookie works over HTTPS (and is not
// taken over plain HTTP). Before the fix the HTTP cookie was accepted over
// HTTPS (200).
func TestSessionBoundToScheme(t *testing.T) {
	dir := t.TempDir()
	opt := Options{Table: &nopTable{}, StateDir: dir, Hosts: []string{testHost}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	s1, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	pin, _, _ := s1.GeneratedPIN()
	plain, _ := login(t, s1, pin, "192.168.1.20:50000")
	r := request("POST", "/api/login", `{"pin":"`+pin+`"}`, nil)
	r.TLS = &tls.ConnectionState{}
	w := serve(s1, r)
	var secure *http.Cookie
	for _, c := range w.Result().Cookies() {
		if c.Name == sessionCookie {
			secure = c
		}
	}
	if w.Code != http.StatusOK || secure == nil || !secure.Secure {
		t.Fatalf("login over HTTPS: %d %v", w.Code, secure)
	}
	for i, h := range []*Server{s1, nil} {
		if i == 1 {
			s1.Close()
			if h, err = New(opt); err != nil {
				t.Fatal(err)
			}
			defer h.Close()
		}
		if c := sessionCode(h, plain, false); c != http.StatusOK {
			t.Errorf("start %d: the HTTP cookie over HTTP: %d, want 200", i+1, c)
		}
		if c := sessionCode(h, plain, true); c != http.StatusUnauthorized {
			t.Errorf("start %d: the HTTP cookie over HTTPS: %d, want 401", i+1, c)
		}
		if c := sessionCode(h, secure, true); c != http.StatusOK {
			t.Errorf("start %d: the HTTPS cookie over HTTPS: %d, want 200", i+1, c)
		}
		if c := sessionCode(h, secure, false); c != http.StatusUnauthorized {
			t.Errorf("start %d: the HTTPS cookie over HTTP: %d, want 401", i+1, c)
		}
	}
}

// TestHSTSOverTLSOnly (issue 27 item 4): every HTTPS answer, a refusal too,
// carries Strict-Transport-Security; a plain-HTTP one does not (browsers
// ignore it there). Before the fix no answer carried it.
func TestHSTSOverTLSOnly(t *testing.T) {
	s := newTestServer(t, &fakeClock{now: rigStart}, nil)
	for _, path := range []string{"/api/public/state", "/judge", "/api/judge/state"} {
		r := request("GET", path, "", nil)
		r.TLS = &tls.ConnectionState{}
		if got := serve(s, r).Header().Get("Strict-Transport-Security"); got != hstsValue {
			t.Errorf("%s over HTTPS: HSTS %q, want %q", path, got, hstsValue)
		}
		if got := serve(s, request("GET", path, "", nil)).Header().Get("Strict-Transport-Security"); got != "" {
			t.Errorf("%s over HTTP: HSTS %q", path, got)
		}
	}
	r := request("GET", "/", "", nil)
	r.TLS, r.RemoteAddr = &tls.ConnectionState{}, "8.8.8.8:1"
	if w := serve(s, r); w.Code != http.StatusForbidden || w.Header().Get("Strict-Transport-Security") != hstsValue {
		t.Errorf("a refusal over HTTPS: %d, HSTS %q", w.Code, w.Header().Get("Strict-Transport-Security"))
	}
}
