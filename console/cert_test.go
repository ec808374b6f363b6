package console

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"slices"
	"testing"
	"time"
)

// TestCertNameConstrained (issue 27 item 4): the self-signed certificate a
// phone installs as a trust anchor carries critical name constraints (its
// own names and addresses, no CA below it), so its key, copied from the SD
// card, cannot vouch for another site: a certificate it signs for
// bank.example or 8.8.8.8 does not verify against it, one for the table's
// own name does. Before the fix the certificate was an unconstrained CA
// and both forged certificates verified (the test failed at "forged").
func TestCertNameConstrained(t *testing.T) {
	dir := t.TempDir()
	cert, src, err := LoadOrCreateCert("", "", dir, []string{"table7.local"})
	if err != nil || src != CertCreated {
		t.Fatalf("first start: %v %v", err, src)
	}
	ca, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	if !ca.IsCA || !ca.PermittedDNSDomainsCritical || !ca.MaxPathLenZero || ca.MaxPathLen != 0 {
		t.Fatalf("IsCA %v, constraints critical %v, MaxPathLen %d (zero %v)", ca.IsCA, ca.PermittedDNSDomainsCritical, ca.MaxPathLen, ca.MaxPathLenZero)
	}
	if !slices.Contains(ca.PermittedDNSDomains, "table7.local") || !slices.Equal(ca.PermittedDNSDomains, ca.DNSNames) {
		t.Errorf("permitted DNS %q, names %q", ca.PermittedDNSDomains, ca.DNSNames)
	}
	if len(ca.PermittedIPRanges) != len(ca.IPAddresses) || len(ca.IPAddresses) < 2 {
		t.Errorf("permitted IPs %v, addresses %v", ca.PermittedIPRanges, ca.IPAddresses)
	}
	for _, r := range ca.PermittedIPRanges {
		if ones, bits := r.Mask.Size(); ones != bits {
			t.Errorf("permitted range %v is wider than one address", r)
		}
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca)
	key := cert.PrivateKey.(*ecdsa.PrivateKey)
	verify := func(dns string, ip net.IP) error {
		leaf := signLeaf(t, ca, key, dns, ip)
		_, err := leaf.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
		return err
	}
	if err := verify("table7.local", net.IPv4(127, 0, 0, 1)); err != nil {
		t.Errorf("a certificate for the table's own name: %v", err)
	}
	for _, forged := range []struct {
		dns string
		ip  net.IP
	}{{"bank.example", nil}, {"", net.IPv4(8, 8, 8, 8)}, {"evil.local", nil}} {
		err := verify(forged.dns, forged.ip)
		var inv x509.CertificateInvalidError
		if !errors.As(err, &inv) || inv.Reason != x509.CANotAuthorizedForThisName {
			t.Errorf("forged %s %v: %v, want CANotAuthorizedForThisName", forged.dns, forged.ip, err)
		}
	}
	// and it serves itself: the table's own connection verifies
	if _, err := ca.Verify(x509.VerifyOptions{Roots: roots, DNSName: "table7.local"}); err != nil {
		t.Errorf("the certificate for its own name: %v", err)
	}
}

// TestCertReplacesUnconstrained (issue 27 item 4): a table upgraded with
// the unconstrained CA an older wolftable made gets a constrained one at
// start (CertReplaced, a new fingerprint), kept from then on; a venue's
// own certificate is never touched. Before the fix the old one was loaded
// as it was (the test failed at "upgrade").
func TestCertReplacesUnconstrained(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := SelfSignedFiles(dir)
	writeOldCert(t, certFile, keyFile)
	old, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	cert, src, err := LoadOrCreateCert("", "", dir, nil)
	if err != nil || src != CertReplaced || Fingerprint(cert) == Fingerprint(old) || unconstrainedCA(cert) {
		t.Fatalf("upgrade: %v %v, fingerprint changed %v, unconstrained %v", err, src, Fingerprint(cert) != Fingerprint(old), unconstrainedCA(cert))
	}
	again, src, err := LoadOrCreateCert("", "", dir, nil)
	if err != nil || src != CertLoaded || Fingerprint(again) != Fingerprint(cert) {
		t.Fatalf("next start: %v %v, same %v", err, src, Fingerprint(again) == Fingerprint(cert))
	}

	venue := t.TempDir()
	vc, vk := SelfSignedFiles(venue)
	writeOldCert(t, vc, vk)
	want, _ := os.ReadFile(vc)
	if _, src, err := LoadOrCreateCert(vc, vk, dir, nil); err != nil || src != CertLoaded {
		t.Fatalf("venue's certificate: %v %v", err, src)
	}
	if got, _ := os.ReadFile(vc); string(got) != string(want) {
		t.Error("the venue's certificate was rewritten")
	}
}

// signLeaf signs a server certificate for dns and ip with the table's key.
func signLeaf(t *testing.T, ca *x509.Certificate, caKey *ecdsa.PrivateKey, dns string, ip net.IP) *x509.Certificate {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "forged"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	if dns != "" {
		tmpl.DNSNames = []string{dns}
	}
	if ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &k.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// writeOldCert writes the certificate wolftable made before issue 27: a
// self-signed CA without name constraints.
func writeOldCert(t *testing.T, certFile, keyFile string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "wolftable old"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true, DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
}
