package deskserver

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"

	"wolftable/desk"
	"wolftable/internal/webguard"
)

// The operator's HTTPS (Options.HTTPS): the same pages over TLS with the
// desk's own certificate (DATA/tls, the one the tables pin; `wolftable
// desk tls` shows its fingerprint for the operator's browser). With it,
// the plain HTTP page offers no login form, only a link to HTTPS, and a
// login over plain HTTP is refused unread: the PIN and the session cookie
// (Secure) never cross the venue's LAN in clear.

func (d *Desk) startHTTPS() error {
	if d.opts.HTTPS == "" {
		return nil
	}
	cert, err := desk.DeskCert(d.opts.Data)
	if err != nil {
		return err
	}
	if d.httpsLn, err = net.Listen("tcp", d.opts.HTTPS); err != nil {
		return fmt.Errorf("--https %s: %w", d.opts.HTTPS, err)
	}
	d.srvTLS = webguard.NewServer(d.Web(), webguard.DefaultLimits, d.log)
	d.srvTLS.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		d.srvTLS.ServeTLS(webguard.Listener(d.httpsLn, nil, webguard.DefaultLimits.ConnsPerIP, &d.conns), "", "")
	}()
	return nil
}

// HTTPSURL is the operator's HTTPS address ("" without Options.HTTPS).
func (d *Desk) HTTPSURL() string {
	if d.httpsLn == nil {
		return ""
	}
	return "https://" + hostPort(d.httpsLn.Addr()) + "/"
}

func hostPort(a net.Addr) string {
	t := a.(*net.TCPAddr)
	host := t.IP.String()
	if t.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, fmt.Sprint(t.Port))
}

// loginURL is where a request over plain HTTP must go to log in ("" when
// it may log in where it is).
func (d *Desk) loginURL(r *http.Request) string {
	if d.httpsLn == nil || r.TLS != nil {
		return ""
	}
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	_, port, _ := net.SplitHostPort(d.httpsLn.Addr().String())
	return "https://" + net.JoinHostPort(host, port) + "/"
}
