package desk

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"wolftable/internal/atomicfile"
)

// The desk's TLS identity (issue 28 D2): a self-signed ECDSA certificate
// the desk makes once in DATA/tls (desk.crt, desk.key). Every table's
// credentials file pins it by the SHA-256 of its public key (TLSPin): a
// table talks only to the desk that registered it, whatever address it
// dials, and nothing between them (the venue's LAN, where the players'
// phones are) reads or alters the link. The nodes of a desk's cluster
// share the certificate and authenticate each other with it (mutual TLS
// on the routes).

// TLSServerName is the name in the desk's certificate the cluster's nodes
// verify each other by (the tables verify the pin instead).
const TLSServerName = "wolftable-desk"

const tlsValidity = 20 * 365 * 24 * time.Hour

// TLSFiles are the desk's certificate and key in its data folder.
func TLSFiles(data string) (cert, key string) {
	return filepath.Join(data, "tls", "desk.crt"), filepath.Join(data, "tls", "desk.key")
}

// DeskCert loads the desk's certificate from its data folder, or makes it
// on the first call. A certificate that is there but unreadable is an
// error, never replaced: every table's pin would break.
func DeskCert(data string) (tls.Certificate, error) {
	certFile, keyFile := TLSFiles(data)
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err == nil {
		cert.Leaf, err = x509.ParseCertificate(cert.Certificate[0])
		return cert, err
	}
	if _, serr := os.Stat(certFile); !errors.Is(serr, os.ErrNotExist) {
		return cert, fmt.Errorf("總台的 TLS 憑證 %s 無法讀取（不會重做：各桌的憑證檔釘選了它）：%w", certFile, err)
	}
	certPEM, keyPEM, err := selfSigned(time.Now())
	if err != nil {
		return cert, err
	}
	if err := os.MkdirAll(filepath.Dir(certFile), 0o700); err != nil {
		return cert, err
	}
	if err := atomicfile.Write(keyFile, keyPEM, 0o600); err != nil {
		return cert, err
	}
	if err := atomicfile.Write(certFile, certPEM, 0o644); err != nil {
		return cert, err
	}
	cert, err = tls.X509KeyPair(certPEM, keyPEM)
	if err == nil {
		cert.Leaf, err = x509.ParseCertificate(cert.Certificate[0])
	}
	return cert, err
}

func selfSigned(now time.Time) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: TLSServerName, Organization: []string{"wolftable 賽事總台"}},
		NotBefore:    now.Add(-24 * time.Hour), // a Pi without a clock may be behind
		NotAfter:     now.Add(tlsValidity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		DNSNames:     []string{TLSServerName, "localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), nil
}

// TLSPin is a certificate's pin: "sha256:" and the hex SHA-256 of its
// public key (SubjectPublicKeyInfo), as nats-server's pinned_certs count it.
func TLSPin(c *x509.Certificate) string {
	sum := sha256.Sum256(c.RawSubjectPublicKeyInfo)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// CertFingerprint is the SHA-256 of the whole certificate, as a browser
// shows it (AB:CD:…): what the operator compares before trusting the
// desk's HTTPS page.
func CertFingerprint(c *x509.Certificate) string {
	sum := sha256.Sum256(c.Raw)
	parts := make([]string, len(sum))
	for i, b := range sum {
		parts[i] = fmt.Sprintf("%02X", b)
	}
	return strings.Join(parts, ":")
}

// ValidPin checks a pin's form.
func ValidPin(p string) error {
	h, ok := strings.CutPrefix(p, "sha256:")
	if b, err := hex.DecodeString(h); !ok || err != nil || len(b) != 32 {
		return fmt.Errorf("TLS 指紋 %q 不對：要是 sha256: 加 64 個十六進位數字", p)
	}
	return nil
}

// ClientTLS is a table's TLS configuration: the desk's certificate is
// accepted only if its public key is one of pins (no CA, no host name:
// the pin is the desk's identity).
func ClientTLS(pins []string) (*tls.Config, error) {
	if len(pins) == 0 {
		return nil, errors.New("總台憑證檔沒有 tls_pins（總台憑證的指紋）：請用新版總台重新 desk table renew")
	}
	want := make([]string, len(pins))
	for i, p := range pins {
		if err := ValidPin(p); err != nil {
			return nil, err
		}
		want[i] = strings.ToLower(p)
	}
	return &tls.Config{
		MinVersion:         tls.VersionTLS12,
		InsecureSkipVerify: true, // replaced by the pin check below
		VerifyConnection: func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("desk: the server sent no certificate")
			}
			if got := TLSPin(cs.PeerCertificates[0]); !slices.Contains(want, got) {
				return fmt.Errorf("desk: the server's certificate %s is not the desk's (pinned %s)", got, strings.Join(want, ", "))
			}
			return nil
		},
	}, nil
}

// ServerTLS is the broker's client-port TLS configuration.
func ServerTLS(cert tls.Certificate) *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}
}

// RouteTLS is a cluster node's route TLS configuration: both ends show
// the desk's certificate and accept only it.
func RouteTLS(cert tls.Certificate) *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(cert.Leaf)
	return &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}, RootCAs: pool, ClientCAs: pool,
		ClientAuth: tls.RequireAndVerifyClientCert, ServerName: TLSServerName}
}
