package console

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The HTTPS console's certificate: the venue's own (console.tls_cert and
// tls_key) or a self-signed one kept in the state directory, made at
// install (`wolftable console cert`, run by the package) or at the first
// start. Phones trust it by its SHA-256 fingerprint, which `serve` shows.

const (
	certFileName = "tls_cert.pem"
	keyFileName  = "tls_key.pem"
	certValidity = 10 * 365 * 24 * time.Hour
)

// SelfSignedFiles are the paths of the self-signed certificate and key in
// a state directory.
func SelfSignedFiles(stateDir string) (cert, key string) {
	return filepath.Join(stateDir, certFileName), filepath.Join(stateDir, keyFileName)
}

// CertSource says where LoadOrCreateCert's certificate came from.
type CertSource int

const (
	// CertLoaded is the certificate already on disk (or the venue's own).
	CertLoaded CertSource = iota
	// CertCreated is a self-signed certificate made now: there was none.
	CertCreated
	// CertReplaced is a self-signed certificate made now in place of one
	// an older wolftable made without name constraints: phones that
	// trusted the old one should remove it (its key could vouch for any
	// site) and trust the new one.
	CertReplaced
)

// LoadOrCreateCert loads the certificate and key at certFile and keyFile,
// or, when both are "", the self-signed pair in stateDir, made first if it
// is missing (CertCreated) or if it is an older one without name
// constraints (CertReplaced). names are host names to put in a new
// certificate besides localhost, the machine's name and its addresses.
func LoadOrCreateCert(certFile, keyFile, stateDir string, names []string) (cert tls.Certificate, src CertSource, err error) {
	if certFile != "" || keyFile != "" {
		cert, err = tls.LoadX509KeyPair(certFile, keyFile)
		return cert, CertLoaded, err
	}
	certFile, keyFile = SelfSignedFiles(stateDir)
	cert, err = tls.LoadX509KeyPair(certFile, keyFile)
	src = CertCreated
	switch {
	case err == nil && !unconstrainedCA(cert):
		return cert, CertLoaded, nil
	case err == nil:
		src = CertReplaced // ours, and its key could sign for any site: never keep it
	default:
		if _, e1 := os.Stat(certFile); !errors.Is(e1, os.ErrNotExist) {
			return cert, CertLoaded, err // there, but unreadable: never overwrite a certificate phones may trust
		}
	}
	certPEM, keyPEM, err := selfSigned(names, time.Now())
	if err != nil {
		return cert, CertLoaded, err
	}
	if err := writeState(stateDir, keyFileName, keyPEM); err != nil {
		return cert, CertLoaded, err
	}
	if err := writeState(stateDir, certFileName, certPEM); err != nil {
		return cert, CertLoaded, err
	}
	cert, err = tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return cert, CertLoaded, err
	}
	return cert, src, nil
}

// unconstrainedCA reports a self-signed certificate that is a CA without
// critical name constraints on both its DNS names and its addresses (what
// wolftable made before issue 27): a phone that trusts it trusts whatever
// its key signs.
func unconstrainedCA(cert tls.Certificate) bool {
	if len(cert.Certificate) == 0 {
		return false
	}
	c, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		return false
	}
	return c.IsCA && !(c.PermittedDNSDomainsCritical && len(c.PermittedDNSDomains) > 0 && len(c.PermittedIPRanges) > 0)
}

// selfSigned makes an ECDSA P-256 certificate for the machine's names and
// addresses, valid for ten years. It is a CA, so that a phone can install
// it as its own trust anchor, but one with critical name constraints:
// exactly its own names and addresses, and no CA below it. A key copied
// from the SD card can then vouch for the table and nothing else.
func selfSigned(names []string, now time.Time) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, nil, err
	}
	host, _ := os.Hostname()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "wolftable " + host, Organization: []string{"wolftable"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(certValidity),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true, // a phone can install it as its own trust anchor
		MaxPathLenZero:        true, // and it signs no other CA
		// the constraints hold whatever its key signs to the table's own
		// names and addresses; critical, so a client that cannot read
		// them refuses the chain instead of ignoring them
		PermittedDNSDomainsCritical: true,
	}
	for n := range hostNames(names) {
		tmpl.DNSNames = append(tmpl.DNSNames, n)
	}
	slices.Sort(tmpl.DNSNames)
	tmpl.PermittedDNSDomains = tmpl.DNSNames
	tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}
	if as, err := net.InterfaceAddrs(); err == nil {
		for _, a := range as {
			if ipn, ok := a.(*net.IPNet); ok && !ipn.IP.IsLoopback() && !ipn.IP.IsLinkLocalUnicast() {
				tmpl.IPAddresses = append(tmpl.IPAddresses, ipn.IP)
			}
		}
	}
	for _, ip := range tmpl.IPAddresses {
		bits := 128
		if ip4 := ip.To4(); ip4 != nil {
			ip, bits = ip4, 32
		}
		tmpl.PermittedIPRanges = append(tmpl.PermittedIPRanges, &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)})
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	kb, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kb}), nil
}

// Fingerprint is the SHA-256 fingerprint of a certificate's leaf, as
// browsers show it: upper-case hex pairs joined by colons.
func Fingerprint(cert tls.Certificate) string {
	if len(cert.Certificate) == 0 {
		return ""
	}
	sum := sha256.Sum256(cert.Certificate[0])
	parts := make([]string, len(sum))
	for i, b := range sum {
		parts[i] = fmt.Sprintf("%02X", b)
	}
	return strings.Join(parts, ":")
}

// TLSConfig is the HTTPS console's TLS configuration: TLS 1.2 or later,
// HTTP/1.1 only (the connection limits and stream deadlines are per
// connection).
func TLSConfig(cert tls.Certificate) *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}}
}

// hstsValue is the Strict-Transport-Security of every HTTPS answer: a
// browser that trusts the certificate goes to HTTPS by itself for a year
// (one that only clicked through a warning ignores it, RFC 6797 8.1).
const hstsValue = "max-age=31536000"

// Redirect is the plain-HTTP handler when console.redirect_http is on (by
// default while there is an HTTPS console):
// the LAN and Host checks, then 308 to the same path on the HTTPS
// console's port.
func (s *Server) Redirect(httpsPort string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ip, ok := remoteIP(r)
		if !ok || !allowed(s.opt.Allow, ip) {
			writeError(w, http.StatusForbidden, "not_lan", "只服務本桌的區域網路")
			return
		}
		if !s.hostOK(r) {
			writeError(w, http.StatusMisdirectedRequest, "host", "網址不是本桌主控台的位址")
			return
		}
		host := splitHost(r.Host)
		if ip, err := netip.ParseAddr(host); err == nil {
			ip = ip.WithZone("") // the client's zone means nothing in a URL
			if host = ip.String(); ip.Is6() {
				host = "[" + host + "]"
			}
		}
		if httpsPort != "443" {
			host += ":" + httpsPort
		}
		http.Redirect(w, r, "https://"+host+r.URL.RequestURI(), http.StatusPermanentRedirect)
	})
}
