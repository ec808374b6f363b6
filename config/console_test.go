package config

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConsoleKeys: the console's host names, state directory and HTTPS
// keys, their defaults and their errors.
func TestConsoleKeys(t *testing.T) {
	c, err := Parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.StateDirPath() != "/var/lib/wolftable/console" || c.TLSAddr() != "127.0.0.1:8443" || !c.RedirectsHTTP() || len(c.Console.Hosts) != 0 {
		t.Errorf("defaults: state %q, tls %q, %+v", c.StateDirPath(), c.TLSAddr(), c.Console)
	}
	c, err = Parse([]byte("[journal]\ndir = \"/srv/t/journals/\"\n[console]\nlisten = \"0.0.0.0:0\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.StateDirPath() != "/srv/t/console" || c.TLSAddr() != "0.0.0.0:0" {
		t.Errorf("beside the journals: %q; port 0: %q", c.StateDirPath(), c.TLSAddr())
	}
	dir := t.TempDir()
	cert, key := writePair(t, dir)
	c, err = Parse([]byte(`[console]
listen = "0.0.0.0:80"
hosts = ["table7.local", "Wolf.Venue.example."]
state_dir = "/srv/wt"
tls_listen = "0.0.0.0:443"
tls_cert = "` + cert + `"
tls_key = "` + key + `"
redirect_http = true
`))
	if err != nil {
		t.Fatal(err)
	}
	if c.StateDirPath() != "/srv/wt" || c.TLSAddr() != "0.0.0.0:443" || !c.RedirectsHTTP() || len(c.Console.Hosts) != 2 || c.Console.TLSKey != key {
		t.Errorf("parsed: %+v", c.Console)
	}
	if c, err := Parse([]byte("[console]\ntls_listen = \"off\"\n")); err != nil || c.TLSAddr() != "" || c.RedirectsHTTP() {
		t.Errorf("tls_listen off: %q %v, redirects %v", c.TLSAddr(), err, c.RedirectsHTTP())
	}
	// issue 27: with HTTPS, plain HTTP redirects unless the file says no
	if c, err := Parse([]byte("[console]\nredirect_http = false\n")); err != nil || c.RedirectsHTTP() || c.TLSAddr() == "" {
		t.Errorf("redirect_http = false: %v, redirects %v", err, c.RedirectsHTTP())
	}
	if c, err := Parse([]byte("[console]\nlisten = \"off\"\n")); err != nil || c.TLSAddr() != "" {
		t.Errorf("no console, no HTTPS: %v", err)
	}
	bad := []struct{ src, want string }{
		{"[console]\nhosts = [\"http://x.local\"]\n", "console.hosts"},
		{"[console]\nhosts = [\"x.local:8080\"]\n", "console.hosts"},
		{"[console]\nhosts = [\"\"]\n", "console.hosts"},
		{"[console]\nstate_dir = \"rel/dir\"\n", "console.state_dir"},
		{"[console]\ntls_listen = \"8443\"\n", "console.tls_listen"},
		{"[console]\nlisten = \"0.0.0.0:8443\"\n", "console.tls_listen"},
		{"[console]\ntls_cert = \"" + cert + "\"\n", "console.tls_cert"},
		{"[console]\ntls_cert = \"" + cert + "\"\ntls_key = \"" + cert + "\"\n", "console.tls_cert"},
		{"[console]\ntls_cert = \"/nonexistent.pem\"\ntls_key = \"" + key + "\"\n", "console.tls_cert"},
		{"[console]\ntls_cert = \"/dev/zero\"\ntls_key = \"" + key + "\"\n", "console.tls_cert"},
		{"[console]\ntls_listen = \"off\"\nredirect_http = true\n", "console.redirect_http"},
		{"[console]\nredirect = true\n", "console.redirect"},
	}
	for _, b := range bad {
		_, err := Parse([]byte(b.src))
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%q: got %v, want %q", b.src, err, b.want)
		}
	}
}

// writePair writes a self-signed certificate and its key as PEM files.
func writePair(t *testing.T, dir string) (cert, key string) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "t"}, NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(k)
	cert, key = filepath.Join(dir, "c.pem"), filepath.Join(dir, "k.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	return cert, key
}

// TestStudioDir: the voice studio's folder, beside the journals by
// default, or an absolute path.
func TestStudioDir(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"", "/var/lib/wolftable/voice"},
		{"[journal]\ndir = \"/srv/t/journals/\"\n", "/srv/t/voice"},
		{"[voice]\nstudio_dir = \"/srv/studio\"\n", "/srv/studio"},
	} {
		cfg, err := Parse([]byte(c.file))
		if err != nil || cfg.StudioDirPath() != c.want {
			t.Errorf("%q: %v %q, want %q", c.file, err, cfg.StudioDirPath(), c.want)
		}
	}
	_, err := Parse([]byte("[voice]\nstudio_dir = \"rel/voice\"\n"))
	var e *Error
	if !errors.As(err, &e) || e.Key != "voice.studio_dir" || e.Line != 2 {
		t.Errorf("a relative studio_dir: %v", err)
	}
}

// TestVoiceCacheDir: the decoded voice's folder, beside the journals by
// default, an absolute path, or "off" for none; a relative one is refused
// with its line.
func TestVoiceCacheDir(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"", "/var/lib/wolftable/voice-cache"},
		{"[journal]\ndir = \"/srv/t/journals/\"\n", "/srv/t/voice-cache"},
		{"[voice]\ncache_dir = \"/var/cache/wolftable\"\n", "/var/cache/wolftable"},
		{"[voice]\ncache_dir = \"off\"\n", ""},
	} {
		cfg, err := Parse([]byte(c.file))
		if err != nil || cfg.CacheDirPath() != c.want {
			t.Errorf("%q: %v %q, want %q", c.file, err, cfg.CacheDirPath(), c.want)
		}
	}
	_, err := Parse([]byte("[voice]\ncache_dir = \"cache\"\n"))
	var e *Error
	if !errors.As(err, &e) || e.Key != "voice.cache_dir" || e.Line != 2 {
		t.Errorf("a relative cache_dir: %v", err)
	}
}
