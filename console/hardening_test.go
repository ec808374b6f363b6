package console

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The connection-layer tests (issue 11, items 5, 7, 8) run a real
// http.Server on loopback. Linux routes all of 127.0.0.0/8 to lo, so a
// client bound to 127.0.0.N is another source address.

// netServer serves s on 127.0.0.1 the way `serve` does (HTTPServer on
// Listener); wrap, if set, wraps the raw listener first.
func netServer(t *testing.T, s *Server, wrap func(net.Listener) net.Listener) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if wrap != nil {
		ln = wrap(ln)
	}
	srv := s.HTTPServer()
	go srv.Serve(s.Listener(ln))
	t.Cleanup(func() {
		_ = s.Close()
		_ = srv.Close()
	})
	return ln.Addr().String()
}

// dialFrom connects to addr from the loopback address from (127.0.0.N).
func dialFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// closedWithin reports whether the server closes c (EOF or reset) within
// d, discarding whatever it sends first.
func closedWithin(c net.Conn, d time.Duration) bool {
	_ = c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// quietServer is a console with the test's limits, its log discarded.
func quietServer(t *testing.T, opt Options, lim func(*limits)) *Server {
	t.Helper()
	if opt.Table == nil {
		opt.Table = &nopTable{}
	}
	opt.PINHash = HashPIN(rigPIN)
	opt.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	if lim != nil {
		lim(&s.lim)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// TestSlowClientsCut (item 7): a request whose body trickles in, headers
// that never end and an idle keep-alive connection are all cut by the
// server's timeouts; before, a slow body held its connection (and its
// memory) for as long as the client liked.
func TestSlowClientsCut(t *testing.T) {
	s := quietServer(t, Options{}, func(l *limits) {
		l.readHeader, l.read, l.idle = 300*time.Millisecond, 600*time.Millisecond, 400*time.Millisecond
	})
	addr := netServer(t, s, nil)

	// a slow body: one byte every 50 ms of a 1000-byte login
	c := dialFrom(t, "127.0.0.2", addr)
	fmt.Fprintf(c, "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
	start := time.Now()
	stop := make(chan struct{})
	go func() {
		for i := 0; i < 200; i++ {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if _, err := c.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	if !closedWithin(c, 3*time.Second) {
		t.Errorf("a slow body was not cut in 3 s")
	} else if el := time.Since(start); el < 500*time.Millisecond {
		t.Errorf("cut after %v, before the read timeout", el)
	}
	close(stop)

	// headers that never end
	c = dialFrom(t, "127.0.0.2", addr)
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
	if !closedWithin(c, 2*time.Second) {
		t.Errorf("slow headers were not cut in 2 s")
	}

	// an idle keep-alive connection after one answered request
	c = dialFrom(t, "127.0.0.2", addr)
	fmt.Fprintf(c, "GET /api/public/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("state: %d", resp.StatusCode)
	}
	if !closedWithin(c, 2*time.Second) {
		t.Errorf("an idle keep-alive connection was not closed in 2 s")
	}
}

// TestConnectionsPerAddress (item 7): one address opening 300 connections
// (the attack opened 4,000) holds at most the cap; the rest are closed at
// accept; another address is still served; closing frees the count.
func TestConnectionsPerAddress(t *testing.T) {
	s := quietServer(t, Options{}, func(l *limits) { l.connsPerIP = 8 })
	addr := netServer(t, s, nil)
	var conns []net.Conn
	for i := 0; i < 300; i++ {
		c := dialFrom(t, "127.0.0.5", addr)
		fmt.Fprintf(c, "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n") // a body that never comes
		conns = append(conns, c)
	}
	open := 0
	for _, c := range conns {
		if !closedWithin(c, 100*time.Millisecond) {
			open++
		}
	}
	if open > 8 {
		t.Errorf("%d of 300 connections of one address held open; want at most 8", open)
	}
	if open == 0 {
		t.Errorf("no connection held at all")
	}
	get := func(from string) int {
		c := dialFrom(t, from, addr)
		fmt.Fprintf(c, "GET /api/public/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := get("127.0.0.6"); code != http.StatusOK {
		t.Errorf("another address while 127.0.0.5 is at its cap: %d", code)
	}
	if code := get("127.0.0.5"); code != 0 {
		t.Errorf("127.0.0.5 past its cap: %d, want the connection closed", code)
	}
	for _, c := range conns {
		c.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for get("127.0.0.5") != http.StatusOK {
		if time.Now().After(deadline) {
			t.Fatal("127.0.0.5 not served again after closing its connections")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestNonLANRefusedAtAccept (item 7): a peer outside Options.Allow is
// closed by the listener before anything is read or answered (before, the
// handler read its request and answered 403).
func TestNonLANRefusedAtAccept(t *testing.T) {
	s := quietServer(t, Options{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.7/32")}}, nil)
	addr := netServer(t, s, nil)
	c := dialFrom(t, "127.0.0.8", addr)
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	fmt.Fprintf(c, "GET /api/public/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	b, err := io.ReadAll(c)
	var ne net.Error
	if len(b) != 0 || (errors.As(err, &ne) && ne.Timeout()) {
		t.Errorf("a peer outside Allow got %q (%v); want the connection closed with no answer", b, err)
	}
	c = dialFrom(t, "127.0.0.7", addr)
	fmt.Fprintf(c, "GET /api/public/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("an allowed peer: %v %v", resp, err)
	}
	resp.Body.Close()
}

// TestForeignHostRefused (item 8): a DNS-rebinding page reaches the
// console by the attacker's name: its Host is refused with 421, on every
// path, the login too; localhost, loopback and the machine's own addresses
// and configured names are served.
func TestForeignHostRefused(t *testing.T) {
	s := quietServer(t, Options{Hosts: []string{"Table7.venue.example"}}, nil)
	for _, host := range []string{"evil.example", "evil.example:8080", "table7.venue.example.evil.example", "8.8.8.8", "[2001:db8::1]:80", ""} {
		for _, path := range []string{"/", "/judge", "/api/public/state", "/api/public/events", "/api/judge/state"} {
			r := request("GET", path, "", nil)
			r.Host = host
			if w := serve(s, r); w.Code != http.StatusMisdirectedRequest {
				t.Errorf("GET %s with Host %q: %d, want 421", path, host, w.Code)
			}
		}
		r := request("POST", "/api/login", `{"pin":"`+rigPIN+`"}`, nil)
		r.Host = host
		if w := serve(s, r); w.Code != http.StatusMisdirectedRequest || len(w.Result().Cookies()) != 0 {
			t.Errorf("login with Host %q: %d, want 421 and no cookie", host, w.Code)
		}
	}
	good := []string{"localhost", "localhost:8080", "LOCALHOST.", "127.0.0.1:8080", "127.0.0.9", "[::1]:8080",
		"table7.venue.example", "TABLE7.venue.example:8443"}
	if as, err := net.InterfaceAddrs(); err == nil {
		for _, a := range as {
			if p, err := netip.ParsePrefix(a.String()); err == nil && !p.Addr().IsLoopback() && p.Addr().Is4() {
				good = append(good, p.Addr().String()+":8080") // one of the machine's own addresses
				break
			}
		}
	}
	for _, host := range good {
		r := request("GET", "/api/public/state", "", nil)
		r.Host = host
		if w := serve(s, r); w.Code != http.StatusOK {
			t.Errorf("Host %q: %d, want 200", host, w.Code)
		}
	}

	// over the network: the address the client connected to is the
	// machine's own; the rebinding name is not
	addr := netServer(t, s, nil)
	for host, want := range map[string]int{addr: 200, "attacker.example:" + strings.Split(addr, ":")[1]: 421} {
		c := dialFrom(t, "127.0.0.2", addr)
		fmt.Fprintf(c, "GET /api/public/state HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", host)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s over the network: %d, want %d", host, resp.StatusCode, want)
		}
	}
}

// sseConn is a live stream read over a raw connection.
type sseConn struct {
	c  net.Conn
	br *bufio.Reader
}

// openStream requests path from the loopback address from; it returns the
// status and, for 200, the stream.
func openStream(t *testing.T, from, addr, path string, cookie *http.Cookie) (int, *sseConn) {
	t.Helper()
	c := dialFrom(t, from, addr)
	hdr := ""
	if cookie != nil {
		hdr = "Cookie: " + cookie.String() + "\r\n"
	}
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n%s\r\n", path, hdr)
	br := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("%s from %s: %v", path, from, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		c.Close()
		return resp.StatusCode, nil
	}
	return 200, &sseConn{c: c, br: bufio.NewReader(resp.Body)}
}

// next reads the stream up to its next "event: state" message and returns
// the message's id, or an error.
func (s *sseConn) next(d time.Duration) (string, error) {
	_ = s.c.SetReadDeadline(time.Now().Add(d))
	id := ""
	for {
		line, err := s.br.ReadString('\n')
		if err != nil {
			return "", err
		}
		if v, ok := strings.CutPrefix(line, "id: "); ok {
			id = strings.TrimSpace(v)
		}
		if line == "event: state\n" {
			return id, nil
		}
	}
}

// netLogin logs in over the network from a loopback address.
func netLogin(t *testing.T, from, addr, pin string) (int, *http.Cookie) {
	t.Helper()
	c := dialFrom(t, from, addr)
	body := `{"pin":"` + pin + `"}`
	fmt.Fprintf(c, "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("login from %s: %v", from, err)
	}
	resp.Body.Close()
	for _, ck := range resp.Cookies() {
		if ck.Name == sessionCookie {
			return resp.StatusCode, ck
		}
	}
	return resp.StatusCode, nil
}

// TestPublicStreamsLeaveJudgeLive (item 5): 200 public streams from 25
// addresses fill the public slots (the 201st and a 9th of one address get
// 503), and the judge still opens the god view's stream and gets its
// updates; before, the 200 streams took every slot and the judge got 503.
func TestPublicStreamsLeaveJudgeLive(t *testing.T) {
	s := quietServer(t, Options{}, nil)
	addr := netServer(t, s, nil)
	perIP := s.lim.publicPerIP
	var streams []*sseConn
	for i := 0; len(streams) < s.lim.public; i++ {
		from := fmt.Sprintf("127.0.1.%d", 10+i/perIP)
		code, st := openStream(t, from, addr, "/api/public/events", nil)
		if code != 200 {
			t.Fatalf("public stream %d from %s: %d", len(streams)+1, from, code)
		}
		if _, err := st.next(5 * time.Second); err != nil {
			t.Fatalf("public stream %d: %v", len(streams)+1, err)
		}
		streams = append(streams, st)
	}
	if code, _ := openStream(t, "127.0.1.200", addr, "/api/public/events", nil); code != http.StatusServiceUnavailable {
		t.Errorf("public stream %d: %d, want 503", s.lim.public+1, code)
	}
	if code, _ := openStream(t, "127.0.1.10", addr, "/api/public/events", nil); code != http.StatusServiceUnavailable {
		t.Errorf("public stream %d of one address: %d, want 503", perIP+1, code)
	}
	code, cookie := netLogin(t, "127.0.0.2", addr, rigPIN)
	if code != 200 {
		t.Fatalf("judge login: %d", code)
	}
	code, judge := openStream(t, "127.0.0.2", addr, "/api/judge/events", cookie)
	if code != 200 {
		t.Fatalf("the judge's stream with %d public streams open: %d, want 200", len(streams), code)
	}
	first, err := judge.next(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	s.noteStartFailure(errors.New("test")) // a change: the judge's stream sends it
	second, err := judge.next(5 * time.Second)
	if err != nil || second == first {
		t.Fatalf("the judge's stream after a change: id %q (was %q), %v", second, first, err)
	}
	if pub, j := s.streams.count(); pub != s.lim.public || j != 1 {
		t.Errorf("streams counted: %d public, %d judge", pub, j)
	}
}

// TestStreamReaderThatNeverReadsIsCut (item 5): a public client that opens
// the stream and never reads fills its socket's buffers; the next write
// misses its deadline, the stream ends and the address's slot is free
// again. Both ends' socket buffers are shrunk so that they fill quickly.
func TestStreamReaderThatNeverReadsIsCut(t *testing.T) {
	s := quietServer(t, Options{Heartbeat: time.Millisecond}, func(l *limits) {
		l.streamWrite, l.publicPerIP = 300*time.Millisecond, 1
	})
	addr := netServer(t, s, func(ln net.Listener) net.Listener { return smallBuffers{ln} })
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.3")}, Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 2048) })
	}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET /api/public/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") // and never read
	deadline := time.Now().Add(20 * time.Second)
	seen := false
	for {
		pub, _ := s.streams.count()
		if pub == 1 {
			seen = true
		}
		if seen && pub == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a client that never reads still holds its stream after 20 s (seen %v)", seen)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if code, st := openStream(t, "127.0.0.3", addr, "/api/public/events", nil); code != 200 {
		t.Fatalf("the address's slot after the cut: %d", code)
	} else if _, err := st.next(5 * time.Second); err != nil {
		t.Fatal(err)
	}
}

// smallBuffers shrinks the send buffer of every accepted connection.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(2048)
	}
	return c, err
}

// TestStreamsOutliveServerTimeouts (item 7): the server's read and write
// timeouts cut slow requests, not live streams: a stream open for three
// times both still gets the next change.
func TestStreamsOutliveServerTimeouts(t *testing.T) {
	s := quietServer(t, Options{}, func(l *limits) {
		l.readHeader, l.read, l.write, l.idle = 200*time.Millisecond, 200*time.Millisecond, 200*time.Millisecond, 200*time.Millisecond
	})
	addr := netServer(t, s, nil)
	code, st := openStream(t, "127.0.0.4", addr, "/api/public/events", nil)
	if code != 200 {
		t.Fatalf("stream: %d", code)
	}
	first, err := st.next(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(600 * time.Millisecond)
	s.noteStartFailure(errors.New("test"))
	if second, err := st.next(5 * time.Second); err != nil || second == first {
		t.Fatalf("a stream after the server's timeouts: id %q (was %q), %v", second, first, err)
	}
}
