package webguard

import (
	"log/slog"
	"net/http"
	"time"
)

// Limits are an HTTP server's timeouts and bounds.
type Limits struct {
	ReadHeader time.Duration // the request line and headers
	Read       time.Duration // the whole request, body included
	Write      time.Duration // a reply (live streams set their own deadlines)
	Idle       time.Duration // a keep-alive connection between requests
	MaxHeader  int           // MaxHeaderBytes
	ConnsPerIP int           // open connections of one key (Listener)
}

// DefaultLimits are the console's and the desk's.
var DefaultLimits = Limits{
	ReadHeader: 10 * time.Second,
	Read:       20 * time.Second,
	Write:      30 * time.Second,
	Idle:       60 * time.Second,
	MaxHeader:  16 << 10,
	ConnsPerIP: 32,
}

// NewServer is the http.Server to serve h with: l's timeouts and header
// bound, HTTP/1 only (no HTTP/2 over TLS: the limits and deadlines are per
// connection), the server's own errors (a LAN scanner's handshakes and cut
// connections) at debug level in log.
func NewServer(h http.Handler, l Limits, log *slog.Logger) *http.Server {
	proto := new(http.Protocols)
	proto.SetHTTP1(true)
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &http.Server{Handler: h, Protocols: proto, ReadHeaderTimeout: l.ReadHeader, ReadTimeout: l.Read, WriteTimeout: l.Write,
		IdleTimeout: l.Idle, MaxHeaderBytes: l.MaxHeader, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelDebug)}
}

// CSP is the content security policy of both web servers: their own
// scripts, styles and images only, no framing, no base, forms to
// themselves.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// SecurityHeaders sets CSP, nosniff, frame denial and no referrer on h.
func SecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
}
