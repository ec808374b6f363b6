package console

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"strings"
	"testing"
	"time"
)

// TestTLSConsole (item 9): the console over HTTPS with the self-signed
// certificate made at first start (kept for the next), verified by a
// client that trusts it; the login's cookie is Secure there; the
// fingerprint is the certificate's; HTTP/1.1 only.
func TestTLSConsole(t *testing.T) {
	dir := t.TempDir()
	cert, src, err := LoadOrCreateCert("", "", dir, []string{"table7.local"})
	if err != nil || src != CertCreated {
		t.Fatalf("first start: %v %v", err, src)
	}
	again, src, err := LoadOrCreateCert("", "", dir, nil)
	if err != nil || src != CertLoaded || Fingerprint(again) != Fingerprint(cert) {
		t.Fatalf("second start: %v %v, fingerprint %s vs %s", err, src, Fingerprint(again), Fingerprint(cert))
	}
	_, keyFile := SelfSignedFiles(dir)
	if fi, err := os.Stat(keyFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", fi, err)
	}
	fp := Fingerprint(cert)
	if len(fp) != 95 || strings.ToUpper(fp) != fp {
		t.Errorf("fingerprint %q", fp)
	}

	s := quietServer(t, Options{}, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := s.HTTPServer()
	srv.TLSConfig = TLSConfig(cert)
	go srv.ServeTLS(s.Listener(ln), "", "")
	t.Cleanup(func() { _ = s.Close(); _ = srv.Close() })

	pool := x509.NewCertPool()
	certPEM, _ := SelfSignedFiles(dir)
	b, _ := os.ReadFile(certPEM)
	if blk, _ := pem.Decode(b); blk == nil || !pool.AppendCertsFromPEM(b) {
		t.Fatal("the certificate file is not PEM")
	}
	jar, _ := cookiejar.New(nil)
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "localhost"}, ForceAttemptHTTP2: true}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr, Jar: jar, Timeout: 10 * time.Second}
	base := "https://" + ln.Addr().String()
	resp, err := cl.Get(base + "/api/public/state")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.ProtoMajor != 1 || resp.TLS == nil {
		t.Fatalf("over TLS: %d %s", resp.StatusCode, resp.Proto)
	}
	if got := Fingerprint(tls.Certificate{Certificate: [][]byte{resp.TLS.PeerCertificates[0].Raw}}); got != fp {
		t.Errorf("served certificate %s, shown %s", got, fp)
	}
	resp, err = cl.Post(base+"/api/login", "application/json", strings.NewReader(`{"pin":"`+rigPIN+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var secure bool
	for _, c := range resp.Cookies() {
		if c.Name == sessionCookie {
			secure = c.Secure && c.HttpOnly
		}
	}
	if resp.StatusCode != 200 || !secure {
		t.Errorf("login over TLS: %d, cookie Secure and HttpOnly: %v", resp.StatusCode, secure)
	}
	resp, err = cl.Get(base + "/api/judge/state")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("the session over TLS: %d", resp.StatusCode)
	}
}

// TestRedirectToHTTPS (item 9): with redirect_http, plain HTTP answers 308
// to the same path on the HTTPS port, after the LAN and Host checks.
func TestRedirectToHTTPS(t *testing.T) {
	s := newTestServer(t, &fakeClock{now: rigStart}, nil)
	h := s.Redirect("8443")
	for host, want := range map[string]string{"127.0.0.1:8080": "https://127.0.0.1:8443/judge?x=1", "[::1]:8080": "https://[::1]:8443/judge?x=1",
		"example.com": "https://example.com:8443/judge?x=1"} {
		r := request("GET", "/judge?x=1", "", nil)
		r.Host = host
		w := serve(h, r)
		if w.Code != http.StatusPermanentRedirect || w.Header().Get("Location") != want {
			t.Errorf("Host %s: %d %q, want 308 %q", host, w.Code, w.Header().Get("Location"), want)
		}
	}
	r := request("GET", "/judge", "", nil)
	r.Host = "evil.example"
	if w := serve(h, r); w.Code != http.StatusMisdirectedRequest {
		t.Errorf("foreign Host: %d, want 421", w.Code)
	}
	r = request("GET", "/judge", "", nil)
	r.RemoteAddr = "8.8.8.8:1"
	if w := serve(h, r); w.Code != http.StatusForbidden {
		t.Errorf("non-LAN: %d, want 403", w.Code)
	}
	if w := serve(s.Redirect("443"), request("GET", "/", "", nil)); w.Header().Get("Location") != "https://example.com/" {
		t.Errorf("port 443: %q", w.Header().Get("Location"))
	}
}
