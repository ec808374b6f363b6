package console

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"wolftable/internal/webguard"
)

// TestLoginDoSPedal (item 4): six addresses sending wrong PINs over the
// network hold every login, the judge's right PIN too (the DoS); a long
// press of the pedal lets the judge in; the attackers' own guesses stay
// bounded in the window, and the window closes once the judge is in.
func TestLoginDoSPedal(t *testing.T) {
	s := quietServer(t, Options{}, nil)
	addr := netServer(t, s, nil)
	for i := 0; i < globalLimit+6; i++ {
		from := fmt.Sprintf("127.0.2.%d", 1+i%6)
		if code, _ := netLogin(t, from, addr, "000000"); code != http.StatusUnauthorized && code != http.StatusTooManyRequests {
			t.Fatalf("attack %d: %d", i, code)
		}
	}
	if code, _ := netLogin(t, "127.0.0.2", addr, rigPIN); code != http.StatusTooManyRequests {
		t.Fatalf("the judge's right PIN during the attack: %d; want 429 (the DoS this test reproduces)", code)
	}
	s.PedalHeld()
	// the attackers go on: an address locked out by its own failures gets
	// presenceTries more guess in the window, then waits again
	locked := "127.0.2.1"
	got := 0
	for i := 0; i < 10; i++ {
		if code, _ := netLogin(t, locked, addr, "000001"); code == http.StatusUnauthorized {
			got++
		}
	}
	if got != presenceTries {
		t.Errorf("a locked-out address tried %d PINs in the window; want %d", got, presenceTries)
	}
	code, cookie := netLogin(t, "127.0.0.2", addr, rigPIN)
	if code != http.StatusOK || cookie == nil {
		t.Fatalf("the judge after the pedal: %d, want 200 and a session", code)
	}
	if code, _ := netLogin(t, "127.0.0.3", addr, rigPIN); code != http.StatusTooManyRequests {
		t.Errorf("after the judge is in, the window is closed: %d, want 429", code)
	}
}

// TestPedalWindowOnePass (issue 27 item 4): with the global limit reached,
// the pedal's window lets the first good login past it, not everyone for
// two minutes: a fresh address gets one guess, not five, twenty more
// addresses at most webguard.WindowPasses-1 in all; after the judge is in,
// nobody passes. On the old console the fresh address guessed 5 times and
// every one of the twenty once.
func TestPedalWindowOnePass(t *testing.T) {
	clock := &fakeClock{now: rigStart}
	s := newTestServer(t, clock, nil)
	try := func(remote, pin string) int {
		r := request("POST", "/api/login", `{"pin":"`+pin+`"}`, nil)
		r.RemoteAddr = remote
		return serve(s, r).Code
	}
	for i := range globalLimit {
		if code := try(fmt.Sprintf("192.168.9.%d:1", 1+i), "000000"); code != http.StatusUnauthorized {
			t.Fatalf("attack %d: %d", i, code)
		}
	}
	s.PedalHeld()
	guessed := 0
	for range failLimit {
		if try("192.168.10.1:1", "000001") == http.StatusUnauthorized {
			guessed++
		}
	}
	if guessed != 1 {
		t.Errorf("a fresh address guessed %d PINs in the pedal's window; want 1", guessed)
	}
	spread := 0
	for i := range 20 {
		if try(fmt.Sprintf("192.168.11.%d:1", 1+i), "000002") == http.StatusUnauthorized {
			spread++
		}
	}
	if spread != webguard.WindowPasses-1 {
		t.Errorf("twenty more addresses guessed %d PINs in the window; want %d", spread, webguard.WindowPasses-1)
	}
	s.PedalHeld() // the judge presses again and is first in
	if code := try("192.168.12.1:1", rigPIN); code != http.StatusOK {
		t.Fatalf("the judge in a fresh window: %d", code)
	}
	if code := try("192.168.12.2:1", "000003"); code != http.StatusTooManyRequests {
		t.Errorf("a guess after the judge is in: %d, want 429 (the window is closed)", code)
	}
}

// TestThrottleTable (item 4): a failure with no lockout is forgotten once
// it leaves the minute (it held a place in the table for a day); a table
// full of locked-out addresses makes room instead of holding every login
// (for up to 21.7 h after the attack).
func TestThrottleTable(t *testing.T) {
	clock := &fakeClock{now: rigStart}
	a := newAuth([32]byte{1}, time.Hour, clock.Now)
	ip := func(i int) netip.Addr { return netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}) }
	for i := 0; i < 5000; i++ {
		a.check(ip(i), "x")
	}
	clock.Advance(failWindow + time.Second)
	a.admit(ip(0))
	if n := a.throttle.Tracked(); n != 0 {
		t.Errorf("%d addresses with one failure each still tracked a minute later", n)
	}
	for i := 0; i < maxTracked+500; i++ {
		for k := 0; k < failLimit; k++ {
			a.check(ip(i), "x")
		}
	}
	if n := a.throttle.Tracked(); n > maxTracked {
		t.Errorf("%d addresses tracked; at most %d", n, maxTracked)
	}
	clock.Advance(failWindow + time.Second) // the global window has passed
	if wait := a.admit(ip(1 << 20)); wait != 0 {
		t.Errorf("a new address waits %v with the table full; want 0", wait)
	}
	if n := a.throttle.Strikes(ip(maxTracked + 499)); n != 1 {
		t.Errorf("the latest locked-out address is forgotten: %d strikes", n)
	}
}

// TestThrottleIPv6By64 (item 4): the addresses of one IPv6 /64 share one
// lockout (a host may use the whole /64); another /64 does not.
func TestThrottleIPv6By64(t *testing.T) {
	s := newTestServer(t, &fakeClock{now: rigStart}, nil)
	try := func(remote, pin string) int {
		r := request("POST", "/api/login", `{"pin":"`+pin+`"}`, nil)
		r.RemoteAddr = remote
		return serve(s, r).Code
	}
	for i := 1; i <= failLimit; i++ {
		if code := try(fmt.Sprintf("[fd12:3456:789a:1::%x]:4000", i), "000000"); code != http.StatusUnauthorized {
			t.Fatalf("wrong PIN %d: %d", i, code)
		}
	}
	if code := try("[fd12:3456:789a:1:aaaa:bbbb:cccc:dddd]:4000", rigPIN); code != http.StatusTooManyRequests {
		t.Errorf("another address of the locked /64: %d, want 429", code)
	}
	if code := try("[fd12:3456:789a:2::1]:4000", rigPIN); code != http.StatusOK {
		t.Errorf("another /64: %d, want 200", code)
	}
}

// TestStateSurvivesRestart (items 4, 10): a PIN drawn on the first start is
// kept (as its hash) for the next; a session survives a restart of the
// console; the state directory holds neither the PIN, the cookie nor the
// CSRF token; a new PIN (console pin) is taken by the running console.
func TestStateSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	opt := Options{Table: &nopTable{}, StateDir: dir, Hosts: []string{testHost}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	s1, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	pin, _, ok := s1.GeneratedPIN()
	if !ok {
		t.Fatal("no PIN drawn on the first start")
	}
	cookie, csrf := login(t, s1, pin, "192.168.1.20:50000")
	s1.Close()

	s2, err := New(opt) // the restart
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if p, _, ok := s2.GeneratedPIN(); ok {
		t.Errorf("a new PIN %s on the second start", p)
	}
	r := request("GET", "/api/judge/session", "", nil)
	r.AddCookie(cookie)
	w := serve(s2, r)
	var rep sessionReply
	if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &rep) != nil || rep.CSRF != csrf {
		t.Fatalf("the session after a restart: %d %s", w.Code, w.Body)
	}
	r = request("POST", "/api/judge/repeat", "{}", map[string]string{csrfHeader: csrf})
	r.AddCookie(cookie)
	if w := serve(s2, r); w.Code != http.StatusConflict { // no game: past the session and CSRF checks
		t.Errorf("a power after the restart: %d %s", w.Code, w.Body)
	}
	login(t, s2, pin, "192.168.1.21:50000") // the same PIN

	var all []byte
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		fi, _ := e.Info()
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", e.Name(), fi.Mode().Perm())
		}
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		all = append(all, b...)
	}
	for what, secret := range map[string]string{"PIN": pin, "cookie": cookie.Value, "CSRF token": csrf} {
		if bytes.Contains(all, []byte(secret)) {
			t.Errorf("the state directory holds the %s", what)
		}
	}

	newPIN, err := NewPIN(dir)
	if err != nil {
		t.Fatal(err)
	}
	if newPIN == pin { // one in a million: draw again
		if newPIN, err = NewPIN(dir); err != nil {
			t.Fatal(err)
		}
	}
	r = request("POST", "/api/login", `{"pin":"`+pin+`"}`, nil)
	if w := serve(s2, r); w.Code != http.StatusUnauthorized {
		t.Errorf("the old PIN after console pin: %d, want 401", w.Code)
	}
	cookie, csrf = login(t, s2, newPIN, "192.168.1.22:50000")

	// logout is kept too
	r = request("POST", "/api/judge/logout", "{}", map[string]string{csrfHeader: csrf})
	r.AddCookie(cookie)
	if w := serve(s2, r); w.Code != http.StatusOK {
		t.Fatalf("logout: %d %s", w.Code, w.Body)
	}
	s2.Close()
	s3, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	r = request("GET", "/api/judge/state", "", nil)
	r.AddCookie(cookie)
	if w := serve(s3, r); w.Code != http.StatusUnauthorized {
		t.Errorf("a logged-out session after a restart: %d, want 401", w.Code)
	}
}

// syncBuffer is a log sink for several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestRejectedLoginsSummarised (item 10): 200 refused logins from several
// addresses give one line at once and one summary per period, not a WARN
// line each; nothing is logged once they stop; the PIN is never logged.
func TestRejectedLoginsSummarised(t *testing.T) {
	var buf syncBuffer
	s, err := New(Options{Table: &nopTable{}, Hosts: []string{testHost}, Log: slog.New(slog.NewTextHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pin, _, _ := s.GeneratedPIN()
	s.rejects.Every = 200 * time.Millisecond
	for i := 0; i < 200; i++ {
		r := request("POST", "/api/login", `{"pin":"x"}`, nil)
		r.RemoteAddr = fmt.Sprintf("192.168.3.%d:1", 1+i%20)
		serve(s, r)
	}
	time.Sleep(500 * time.Millisecond)
	out := buf.String()
	lines := strings.Count(out, "login refused") + strings.Count(out, "logins refused")
	if lines != 2 || !strings.Contains(out, "wrong_pin=") || !strings.Contains(out, "throttled=") {
		t.Errorf("%d log lines for 200 refused logins, want 2 (one, then a summary):\n%s", lines, out)
	}
	if strings.Contains(out, pin) {
		t.Errorf("the PIN is in the log:\n%s", out)
	}
	time.Sleep(300 * time.Millisecond)
	if after := buf.String(); after != out {
		t.Errorf("logged after the refusals stopped:\n%s", after[len(out):])
	}
}
