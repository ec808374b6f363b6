package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"wolftable/console"
	"wolftable/hw"
	"wolftable/hw/hwtest"
)

// consoleConfig writes a config whose journals and console state are in dir.
func consoleConfig(t *testing.T, dir, extra string) string {
	t.Helper()
	cfg := filepath.Join(dir, "config.toml")
	body := fmt.Sprintf("[journal]\ndir = %q\n[console]\nlisten = \"127.0.0.1:0\"\n%s", filepath.Join(dir, "journals"), extra)
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// startTestConsole starts the console the way serve does; it returns the
// banner and the HTTP and HTTPS addresses and fingerprint it shows.
func startTestConsole(t *testing.T, cfg string, log io.Writer) (banner, plain, secure, fp string, stop func(), con *console.Server) {
	t.Helper()
	c, err := loadConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	con, stop, err = startConsoleWith(context.Background(), consoleSetupFrom(c, 1), newGameHost(), &out,
		slog.New(slog.NewTextHandler(log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	banner = out.String()
	if m := regexp.MustCompile(`主控台：http://([0-9.:]+)/`).FindStringSubmatch(banner); m != nil {
		plain = m[1]
	}
	if m := regexp.MustCompile(`主控台（HTTPS）：https://([0-9.:]+)/　憑證 SHA-256 指紋(?:（[^）]+）)?：([0-9A-F:]{95})`).FindStringSubmatch(banner); m != nil {
		secure, fp = m[1], m[2]
	}
	return banner, plain, secure, fp, stop, con
}

// pinnedClient trusts exactly the certificate with fingerprint fp, as a
// phone does once the judge has compared the fingerprint.
func pinnedClient(fp string) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true,
			VerifyConnection: func(cs tls.ConnectionState) error {
				if got := console.Fingerprint(tls.Certificate{Certificate: [][]byte{cs.PeerCertificates[0].Raw}}); got != fp {
					return fmt.Errorf("fingerprint %s, want %s", got, fp)
				}
				return nil
			}}}}
}

func postLogin(t *testing.T, cl *http.Client, base, pin string) (int, *http.Cookie) {
	t.Helper()
	resp, err := cl.Post(base+"/api/login", "application/json", strings.NewReader(`{"pin":"`+pin+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, c := range resp.Cookies() {
		if c.Name == "wolftable_session" {
			return resp.StatusCode, c
		}
	}
	return resp.StatusCode, nil
}

// TestServeConsoleTLSAndRestart (items 9, 10, 4): serve's console makes a
// self-signed certificate at first start and shows its fingerprint; the
// PIN drawn then is not shown off a terminal nor logged; `wolftable
// console pin` makes one that logs in over HTTPS with a Secure cookie; a
// restart keeps the certificate, the PIN and the session; `console cert`
// shows the same fingerprint.
func TestServeConsoleTLSAndRestart(t *testing.T) {
	dir := t.TempDir()
	cfg := consoleConfig(t, dir, "")
	var log bytes.Buffer
	banner, plain, secure, fp, stop, con := startTestConsole(t, cfg, &log)
	if plain == "" || secure == "" || !strings.Contains(banner, "本次新建") {
		t.Fatalf("banner:\n%s", banner)
	}
	if pin, _, ok := con.GeneratedPIN(); !ok || strings.Contains(banner, pin) || strings.Contains(log.String(), pin) {
		t.Fatalf("the first start's PIN (%v) is shown off a terminal or logged:\n%s\n%s", ok, banner, log.String())
	}
	if !strings.Contains(banner, "wolftable console pin") {
		t.Errorf("the banner does not say how to get a PIN:\n%s", banner)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"console", "pin", "--config", cfg}, &out, &errOut); code != 0 {
		t.Fatalf("console pin: %d %s", code, errOut.String())
	}
	m := regexp.MustCompile(`新的裁判 PIN：([0-9]{6})`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("console pin printed %q", out.String())
	}
	pin := m[1]
	cl := pinnedClient(fp)
	base := "https://" + secure
	code, cookie := postLogin(t, cl, base, pin)
	if code != 200 || cookie == nil || !cookie.Secure || !cookie.HttpOnly {
		t.Fatalf("login over HTTPS with the new PIN: %d, cookie %+v", code, cookie)
	}
	stop()

	banner2, _, secure2, fp2, _, con2 := startTestConsole(t, cfg, &log)
	if fp2 != fp || strings.Contains(banner2, "本次新建") {
		t.Errorf("a restart made another certificate: %s vs %s\n%s", fp2, fp, banner2)
	}
	if _, _, ok := con2.GeneratedPIN(); ok || strings.Contains(banner2, "PIN") {
		t.Errorf("a restart drew a new PIN:\n%s", banner2)
	}
	resp, err := cl.Get("https://" + secure2 + "/api/judge/state") // the jar's cookie from before the restart
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("the session after a restart: %d, want 200", resp.StatusCode)
	}
	out.Reset()
	if code := run([]string{"console", "cert", "--config", cfg}, &out, &errOut); code != 0 || !strings.Contains(out.String(), fp) {
		t.Errorf("console cert: %d %q, want fingerprint %s", code, out.String(), fp)
	}
	if strings.Contains(log.String(), pin) {
		t.Errorf("the PIN is in the log")
	}
}

// TestServeConsoleRedirect (item 9): with redirect_http, the plain-HTTP
// console redirects to the HTTPS one; with a configured host name, a
// foreign Host is refused (421).
func TestServeConsoleRedirect(t *testing.T) {
	dir := t.TempDir()
	cfg := consoleConfig(t, dir, "redirect_http = true\nhosts = [\"table7.local\"]\n")
	_, plain, secure, fp, _, _ := startTestConsole(t, cfg, io.Discard)
	cl := pinnedClient(fp)
	req, _ := http.NewRequest("GET", "http://"+plain+"/judge", nil)
	req.Host = "table7.local"
	resp, err := cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	_, port, _ := net.SplitHostPort(secure)
	if want := "https://table7.local:" + port + "/judge"; resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != want {
		t.Errorf("plain HTTP: %d %q, want 308 %q", resp.StatusCode, resp.Header.Get("Location"), want)
	}
	req, _ = http.NewRequest("GET", "https://"+secure+"/api/public/state", nil)
	req.Host = "rebound.attacker.example"
	resp, err = cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("foreign Host over HTTPS: %d, want 421", resp.StatusCode)
	}
}

// TestServeConsoleRedirectsByDefault (issue 27 item 4): with HTTPS up and
// no redirect_http key, plain HTTP answers 308 to HTTPS, the login too
// (no session cookie is set over HTTP), and HTTPS answers carry HSTS;
// redirect_http = false serves plain HTTP. Before the fix the plain-HTTP
// page and login answered 200 and HTTPS sent no Strict-Transport-Security.
func TestServeConsoleRedirectsByDefault(t *testing.T) {
	cfg := consoleConfig(t, t.TempDir(), "")
	_, plain, secure, fp, _, _ := startTestConsole(t, cfg, io.Discard)
	if plain == "" || secure == "" {
		t.Fatal("no HTTP or HTTPS console")
	}
	cl := pinnedClient(fp)
	_, port, _ := net.SplitHostPort(secure)
	resp, err := cl.Get("http://" + plain + "/judge")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := "https://127.0.0.1:" + port + "/judge"; resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != want {
		t.Errorf("plain HTTP page: %d %q, want 308 %q", resp.StatusCode, resp.Header.Get("Location"), want)
	}
	code, cookie := postLogin(t, cl, "http://"+plain, "000000")
	if code != http.StatusPermanentRedirect || cookie != nil {
		t.Errorf("plain HTTP login: %d, cookie %v; want 308 and none", code, cookie)
	}
	resp, err = cl.Get("https://" + secure + "/api/public/state")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Strict-Transport-Security"), "max-age=") {
		t.Errorf("HTTPS: %d, HSTS %q", resp.StatusCode, resp.Header.Get("Strict-Transport-Security"))
	}

	cfg = consoleConfig(t, t.TempDir(), "redirect_http = false\n")
	_, plain, _, _, _, _ = startTestConsole(t, cfg, io.Discard)
	resp, err = cl.Get("http://" + plain + "/api/public/state")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Strict-Transport-Security") != "" {
		t.Errorf("redirect_http = false: %d, HSTS %q over HTTP", resp.StatusCode, resp.Header.Get("Strict-Transport-Security"))
	}
}

// TestPedalHoldOpensLogin (item 4): serve's table wrapper passes every
// event on (the daemon still gets the press) and a long press of the
// pedal lets the judge's right PIN past a flood of wrong ones from six
// addresses.
func TestPedalHoldOpensLogin(t *testing.T) {
	dir := t.TempDir()
	cfg := consoleConfig(t, dir, "tls_listen = \"off\"\n")
	_, addr, _, _, _, con := startTestConsole(t, cfg, io.Discard)
	var out bytes.Buffer
	if code := run([]string{"console", "pin", "--config", cfg}, &out, io.Discard); code != 0 {
		t.Fatal("console pin failed")
	}
	pin := regexp.MustCompile(`[0-9]{6}`).FindString(out.String())
	tab := hwtest.New(12)
	wrapped := watchPedal(tab, con.PedalHeld) // as serve does
	loginFrom := func(from, pin string) int {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		tr := &http.Transport{DialContext: d.DialContext}
		defer tr.CloseIdleConnections()
		cl := &http.Client{Timeout: 5 * time.Second, Transport: tr}
		resp, err := cl.Post("http://"+addr+"/api/login", "application/json", strings.NewReader(`{"pin":"`+pin+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for i := 0; i < 36; i++ {
		loginFrom(fmt.Sprintf("127.0.3.%d", 1+i%6), "000000")
	}
	if code := loginFrom("127.0.0.2", pin); code != http.StatusTooManyRequests {
		t.Fatalf("the judge during the flood: %d, want 429", code)
	}
	tab.Pedal(hw.PedalShort)
	if code := loginFrom("127.0.0.2", pin); code != http.StatusTooManyRequests {
		t.Fatalf("the judge after a short press: %d, want 429", code)
	}
	tab.Pedal(hw.PedalLong)
	for _, want := range []hw.PedalPress{hw.PedalShort, hw.PedalLong} {
		select {
		case ev := <-wrapped.Events():
			if ev.Kind != hw.EventPedal || ev.Pedal != want {
				t.Fatalf("forwarded %+v, want pedal %v", ev, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the wrapper did not pass the press on")
		}
	}
	if code := loginFrom("127.0.0.2", pin); code != http.StatusOK {
		t.Errorf("the judge after holding the pedal: %d, want 200", code)
	}
}

// TestServeConsoleWithoutHTTPS: a taken HTTPS port does not stop the
// console (nor serve): it goes on over HTTP and says why.
func TestServeConsoleWithoutHTTPS(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	dir := t.TempDir()
	cfg := consoleConfig(t, dir, fmt.Sprintf("tls_listen = %q\n", busy.Addr().String()))
	banner, plain, secure, _, _, _ := startTestConsole(t, cfg, io.Discard)
	if plain == "" || secure != "" || !strings.Contains(banner, "HTTPS 未啟動") {
		t.Fatalf("banner:\n%s", banner)
	}
	resp, err := http.Get("http://" + plain + "/api/public/state")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("HTTP: %d", resp.StatusCode)
	}
}
