package deskserver

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"wolftable/desk"
	"wolftable/internal/webguard"
)

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// TestOperatorPINThrottle (issue 28 D6): 300 wrong operator PINs from 60
// IPv4 addresses, and 300 from 60 addresses of one IPv6 /64, lock out
// (at most the global cap, or one key's five, are checked at all) and the
// right PIN waits too; once the window (the /64: its lockout) has passed,
// the right PIN logs in. The old desk counted per full address: all 300
// were checked.
func TestOperatorPINThrottle(t *testing.T) {
	for _, c := range []struct {
		name    string
		addr    func(i int) string
		checked int
		wait    time.Duration
	}{
		{"60 IPv4 addresses", func(i int) string { return fmt.Sprintf("192.0.2.%d:5000", 1+i%60) }, webguard.GlobalLimit, webguard.FailWindow},
		{"one IPv6 /64", func(i int) string { return fmt.Sprintf("[2001:db8:0:1:%x::%x]:5000", i%60, 1+i) }, webguard.FailLimit, webguard.LockBase},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, _ := setup(t, 1)
			op, pin, err := openOperator(data)
			if err != nil {
				t.Fatal(err)
			}
			clock := &fakeClock{now: time.Date(2026, 12, 5, 14, 0, 0, 0, time.UTC)}
			op.now = clock.Now
			st, _ := desk.OpenStore(data, nil)
			pk, _ := desk.LoadPack("default")
			d := &Desk{opts: Options{Data: data}, Store: st, pack: pk, log: slog.New(slog.DiscardHandler), tables: map[string]*tableState{}, op: op}
			h := d.Handler()
			login := func(remote, p string) int {
				r := httptest.NewRequest("POST", "/login", strings.NewReader(url.Values{"pin": {p}}.Encode()))
				r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				r.RemoteAddr = remote
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				return w.Code
			}
			checked := 0
			for i := range 300 {
				wrong := fmt.Sprintf("%06d", (i*7919+1)%1000000)
				if wrong == pin {
					wrong = "x"
				}
				switch code := login(c.addr(i), wrong); code {
				case http.StatusUnauthorized:
					checked++
				case http.StatusTooManyRequests:
				default:
					t.Fatalf("wrong PIN %d: %d", i, code)
				}
			}
			if checked != c.checked {
				t.Errorf("%d of 300 wrong PINs checked; want %d", checked, c.checked)
			}
			if code := login(c.addr(7), pin); code != http.StatusTooManyRequests {
				t.Errorf("the right PIN during the lockout: %d, want 429", code)
			}
			clock.Advance(c.wait + time.Second)
			if code := login(c.addr(7), pin); code != http.StatusSeeOther {
				t.Errorf("the right PIN after the window: %d, want 303", code)
			}
		})
	}
}

// TestPublicTablesDelayed (issue 28 D4): a table's status and its end
// event reach the operator's live view at once, and the public tables
// and page only once they are older than the feed delay; the live view
// needs the operator's session. The old /api/public/tables served the
// live status (CORS *), ahead of the feed.
func TestPublicTablesDelayed(t *testing.T) {
	data, cs := setup(t, 1)
	d, err := Start(Options{Data: data, NATS: "127.0.0.1:0", HTTP: "127.0.0.1:0", FeedDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: cs[0], JournalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Status(desk.Status{Board: "seer-witch-hunter-idiot", BoardName: "預女獵愚", Phase: "day-3", Seats: 12, Alive: []int{2, 4, 6}})
	p.Event(desk.KindEnd, desk.Event{Result: "狼人", Fingerprint: "ABCD EFGH"})
	flush(t, p)
	waitFor(t, "the live status", func() bool { l := d.Tables(); return l[0].Status != nil && len(l[0].Events) == 1 })
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := c.Get(d.HTTPURL() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, path := range []string{"api/public/tables", "", "feed/T1", "api/public/feed/T1"} {
		if code, body := get(path); code != 200 || strings.Contains(body, "day-3") || strings.Contains(body, "第3天") ||
			strings.Contains(body, "預女獵愚") || strings.Contains(body, "狼人") {
			t.Errorf("/%s shows the live table before the feed delay: %d\n%s", path, code, body)
		}
	}
	if code, _ := get("api/desk/tables"); code != http.StatusUnauthorized {
		t.Errorf("the live view without a session: %d, want 401", code)
	}
	resp, err := c.PostForm(d.HTTPURL()+"login", url.Values{"pin": {d.NewPIN}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if code, body := get("api/desk/tables"); code != 200 || !strings.Contains(body, "day-3") || !strings.Contains(body, "ABCD EFGH") {
		t.Errorf("the operator's live view: %d\n%s", code, body)
	}
	if code, body := get(""); code != 200 || !strings.Contains(body, "第3天") {
		t.Errorf("the operator's page: %d, no live status", code)
	}
	if pub := d.PublicTables(time.Now().Add(time.Hour + time.Second)); pub[0].Status == nil || pub[0].Status.Phase != "day-3" || len(pub[0].Events) != 1 {
		t.Errorf("the public view an hour later: %+v", pub[0])
	}
}

// TestDeskHTTPHardened (issue 28 D7): the desk's answers carry the
// console's security headers, its server the console's timeouts and
// header bound, and one address holds at most the console's cap of open
// connections. The old desk had only a header timeout.
func TestDeskHTTPHardened(t *testing.T) {
	data, _ := setup(t, 1)
	d := startDesk(t, data)
	defer d.Close()
	resp, err := http.Get(d.HTTPURL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for k, want := range map[string]string{"Content-Security-Policy": webguard.CSP, "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if s := d.srv; s.ReadTimeout == 0 || s.IdleTimeout == 0 || s.WriteTimeout == 0 || s.MaxHeaderBytes != webguard.DefaultLimits.MaxHeader {
		t.Errorf("server limits: read %v idle %v write %v header %d", s.ReadTimeout, s.IdleTimeout, s.WriteTimeout, s.MaxHeaderBytes)
	}
	addr := strings.TrimSuffix(strings.TrimPrefix(d.HTTPURL(), "http://"), "/")
	var conns []net.Conn
	for range 100 {
		dl := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.5")}}
		cn, err := dl.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprint(cn, "POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n") // a body that never comes
		conns = append(conns, cn)
	}
	// every connection past the cap is closed by the server: wait for
	// that many to end, then the others must still be open
	limit := webguard.DefaultLimits.ConnsPerIP
	ended := make(chan int, len(conns))
	for i, cn := range conns {
		cn.SetReadDeadline(time.Now().Add(30 * time.Second))
		go func() {
			cn.Read(make([]byte, 1))
			ended <- i
		}()
	}
	closed := map[int]bool{}
	for len(closed) < len(conns)-limit {
		select {
		case i := <-ended:
			closed[i] = true
		case <-time.After(30 * time.Second):
			t.Fatalf("%d of %d connections past the cap closed", len(closed), len(conns)-limit)
		}
	}
	select {
	case i := <-ended:
		t.Errorf("connection %d closed too: more than the cap's were refused, or one held was cut", i)
	default:
	}
	for _, cn := range conns {
		cn.Close()
	}
}

// TestOperatorHTTPS: with Options.HTTPS, the plain HTTP page offers only a
// link to the HTTPS login, a PIN posted over plain HTTP is refused unread
// (no session), and the login over HTTPS — the desk's own certificate,
// the one the tables pin — gives a Secure session that the HTTPS page
// honours. Before, the PIN and the cookie crossed the LAN in clear.
func TestOperatorHTTPS(t *testing.T) {
	data, _ := setup(t, 1)
	d, err := Start(Options{Data: data, NATS: "127.0.0.1:0", HTTP: "127.0.0.1:0", HTTPS: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.HTTPSURL() == "" {
		t.Fatal("no HTTPS address")
	}
	resp, err := http.Get(d.HTTPURL())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(page), `name="pin"`) || !strings.Contains(string(page), "https://127.0.0.1:") {
		t.Errorf("the plain page offers a PIN field or no HTTPS link:\n%s", page)
	}
	nojar := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err = nojar.PostForm(d.HTTPURL()+"login", url.Values{"pin": {d.NewPIN}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || len(resp.Cookies()) != 0 {
		t.Errorf("a login over plain HTTP: %d, cookies %v; want 403 and none", resp.StatusCode, resp.Cookies())
	}
	cert, _ := desk.DeskCert(data)
	tc, _ := desk.ClientTLS([]string{desk.TLSPin(cert.Leaf)})
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Transport: &http.Transport{TLSClientConfig: tc}}
	resp, err = c.PostForm(d.HTTPSURL()+"login", url.Values{"pin": {d.NewPIN}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	u, _ := url.Parse(d.HTTPSURL())
	cs := jar.Cookies(u)
	if len(cs) != 1 {
		t.Fatalf("no session over HTTPS: %d", resp.StatusCode)
	}
	if code, _ := getWith(t, c, d.HTTPSURL()+"api/desk/tables"); code != 200 {
		t.Errorf("the live view over HTTPS: %d", code)
	}
	once := &http.Client{Transport: &http.Transport{TLSClientConfig: tc},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err = once.PostForm(d.HTTPSURL()+"login", url.Values{"pin": {d.NewPIN}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if sc := resp.Header.Get("Set-Cookie"); !strings.Contains(sc, "Secure") || !strings.Contains(sc, "HttpOnly") {
		t.Errorf("the session cookie over HTTPS: %q, want Secure and HttpOnly", sc)
	}
}

func getWith(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
