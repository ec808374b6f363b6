package webguard

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"
)

// TestListenerCapsConnections: one address holds at most the cap open (the
// rest closed at accept), another address is still served, a closed
// connection frees its place; an address the allow-list refuses is closed
// before a byte is read.
func TestListenerCapsConnections(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var open ConnCount
	l := DefaultLimits
	l.Read = 5 * time.Second
	srv := NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		SecurityHeaders(w.Header())
		fmt.Fprint(w, "ok")
	}), l, nil)
	go srv.Serve(Listener(ln, func(ip netip.Addr) bool { return ip.String() != "127.0.0.9" }, 4, &open))
	defer srv.Close()
	addr := ln.Addr().String()
	dial := func(from string) net.Conn {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	var held []net.Conn
	for range 20 {
		c := dial("127.0.0.5")
		fmt.Fprint(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n") // a body that never comes
		held = append(held, c)
	}
	alive := 0
	for _, c := range held {
		c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				alive++
			}
		}
	}
	if alive != 4 {
		t.Errorf("%d of 20 connections of one address held open; want 4", alive)
	}
	get := func(from string) (*http.Response, error) {
		c := dial(from)
		defer c.Close()
		fmt.Fprint(c, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		return http.ReadResponse(bufio.NewReader(c), nil)
	}
	resp, err := get("127.0.0.6")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("another address: %v %v", resp, err)
	}
	for k, want := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Content-Security-Policy": CSP} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if _, err := get("127.0.0.9"); err == nil {
		t.Error("an address the allow-list refuses was served")
	}
	for _, c := range held {
		c.Close()
	}
	for end := time.Now().Add(5 * time.Second); open.Open(netip.MustParseAddr("127.0.0.5")) != 0 && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := open.Open(netip.MustParseAddr("127.0.0.5")); n != 0 {
		t.Errorf("%d connections still counted after they closed", n)
	}
}

// TestServerTimesOutSlowRequests: a request whose headers never end is cut
// at ReadHeader.
func TestServerTimesOutSlowRequests(t *testing.T) {
	l := DefaultLimits
	l.ReadHeader = 100 * time.Millisecond
	ts := httptest.NewUnstartedServer(http.NotFoundHandler())
	ts.Config = NewServer(http.NotFoundHandler(), l, nil)
	ts.Start()
	defer ts.Close()
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprint(c, "GET / HTTP/1.1\r\nHost: x\r\n") // never ends
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	start := time.Now()
	_, err = bufio.NewReader(c).ReadString('\n')
	if err == nil {
		// the server may answer 408 before closing; then it closes
		_, err = bufio.NewReader(c).ReadString('\n')
	}
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the slow request was not cut in %v", time.Since(start))
	}
	if ts.Config.MaxHeaderBytes != DefaultLimits.MaxHeader || ts.Config.IdleTimeout == 0 || ts.Config.ReadTimeout == 0 {
		t.Errorf("server limits: %+v", ts.Config)
	}
}
