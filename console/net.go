package console

import (
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"sync"
	"time"

	"wolftable/internal/webguard"
)

// The connection layer (doc.go "Connections"): the listener refuses peers
// outside Options.Allow and caps the connections of one address; the
// http.Server times out slow requests and idle connections; the handler
// answers only the table's own host names.

// limits are the connection and stream caps and timeouts; the tests shrink
// them.
type limits struct {
	readHeader  time.Duration // the request line and headers
	read        time.Duration // the whole request, body included
	write       time.Duration // a reply (live streams set their own)
	idle        time.Duration // a keep-alive connection between requests
	maxHeader   int           // MaxHeaderBytes
	connsPerIP  int           // open connections of one address (/64 for IPv6)
	streamWrite time.Duration // one live-stream message
	public      int           // public live streams at once
	publicPerIP int           // public live streams of one address
	judge       int           // the judge's live streams at once (reserved: public ones never take them)
}

var defaultLimits = limits{
	readHeader:  10 * time.Second,
	read:        20 * time.Second,
	write:       30 * time.Second,
	idle:        60 * time.Second,
	maxHeader:   16 << 10,
	connsPerIP:  32,
	streamWrite: 10 * time.Second,
	public:      200,
	publicPerIP: 8,
	judge:       16,
}

// addrKey is what per-address limits count: an IPv4 address, or an IPv6
// address's /64 (webguard.Key).
func addrKey(ip netip.Addr) netip.Addr { return webguard.Key(ip) }

func netAddrIP(a net.Addr) (netip.Addr, bool) { return webguard.AddrIP(a) }

// HTTPServer is the http.Server to serve the console with: read, write and
// idle timeouts, a bound on the headers. Serve it on Listener(ln), and for
// HTTPS set TLSConfig and call ServeTLS(Listener(ln), "", "").
func (s *Server) HTTPServer() *http.Server {
	l := s.lim
	return webguard.NewServer(s, webguard.Limits{ReadHeader: l.readHeader, Read: l.read, Write: l.write, Idle: l.idle,
		MaxHeader: l.maxHeader}, s.log)
}

// Listener wraps ln: a peer outside Options.Allow is closed at accept,
// before a byte is read; so is a connection past the cap of open
// connections of one address (an IPv6 /64 counts as one), counted over
// every listener of the console (HTTP and HTTPS together).
func (s *Server) Listener(ln net.Listener) net.Listener {
	return webguard.Listener(ln, func(ip netip.Addr) bool { return allowed(s.opt.Allow, ip) }, s.lim.connsPerIP, &s.conns)
}

// hostNames are the names the console answers to besides addresses:
// localhost, the machine's host name (and its .local mDNS name) and
// Options.Hosts.
func hostNames(extra []string) map[string]bool {
	names := map[string]bool{"localhost": true}
	add := func(n string) {
		n = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(n)), ".")
		if n != "" {
			names[n] = true
		}
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		add(h)
		if !strings.Contains(h, ".") {
			add(h + ".local")
		}
	}
	for _, n := range extra {
		add(n)
	}
	return names
}

// splitHost is the host of a Host header, lower case, without the port,
// the brackets of an IPv6 literal or a trailing dot.
func splitHost(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	} else if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		h = h[1 : len(h)-1]
	}
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

// hostOK: the request names the console by a configured name, localhost or
// an address of this machine. Anything else is a request meant for another
// site, such as a DNS-rebinding page's, and gets 421.
func (s *Server) hostOK(r *http.Request) bool {
	h := splitHost(r.Host)
	if h == "" {
		return false
	}
	if s.hosts[h] {
		return true
	}
	ip, err := netip.ParseAddr(h)
	if err != nil {
		return false
	}
	ip = ip.Unmap().WithZone("")
	if ip.IsLoopback() {
		return true
	}
	if la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if lip, ok := netAddrIP(la); ok && lip.WithZone("") == ip {
			return true
		}
	}
	return s.own.has(ip)
}

// ownAddrs caches the machine's interface addresses, read again on a miss
// at most every ownAddrsTTL (no timer: nothing runs while idle).
type ownAddrs struct {
	mu    sync.Mutex
	addrs map[netip.Addr]bool
	read  time.Time
}

const ownAddrsTTL = 10 * time.Second

func (o *ownAddrs) has(ip netip.Addr) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.addrs[ip] {
		return true
	}
	if !o.read.IsZero() && time.Since(o.read) < ownAddrsTTL {
		return false
	}
	o.read = time.Now()
	o.addrs = map[netip.Addr]bool{}
	as, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range as {
		if p, err := netip.ParsePrefix(a.String()); err == nil {
			o.addrs[p.Addr().Unmap().WithZone("")] = true
		}
	}
	return o.addrs[ip]
}

// streamSlots counts the live streams: the public ones (at most
// limits.public, limits.publicPerIP of one address) and the judge's (at
// most limits.judge, their own slots: an audience never takes them).
type streamSlots struct {
	mu     sync.Mutex
	public int
	judge  int
	perIP  map[netip.Addr]int
}

// acquire takes a slot; release gives it back.
func (ss *streamSlots) acquire(judge bool, ip netip.Addr, lim limits) (release func(), ok bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if judge {
		if ss.judge >= lim.judge {
			return nil, false
		}
		ss.judge++
		return func() { ss.mu.Lock(); ss.judge--; ss.mu.Unlock() }, true
	}
	key := addrKey(ip)
	if ss.public >= lim.public || ss.perIP[key] >= lim.publicPerIP {
		return nil, false
	}
	if ss.perIP == nil {
		ss.perIP = map[netip.Addr]int{}
	}
	ss.public++
	ss.perIP[key]++
	return func() {
		ss.mu.Lock()
		ss.public--
		if ss.perIP[key]--; ss.perIP[key] <= 0 {
			delete(ss.perIP, key)
		}
		ss.mu.Unlock()
	}, true
}

// count is the number of open public and judge streams.
func (ss *streamSlots) count() (public, judge int) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.public, ss.judge
}

// deadlineWriter gives every write of a live stream its own deadline: a
// client that stops reading is cut when its socket's buffers are full,
// and its slot freed.
type deadlineWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (d deadlineWriter) Write(p []byte) (int, error) {
	_ = d.rc.SetWriteDeadline(time.Now().Add(d.d))
	return d.w.Write(p)
}

func (d deadlineWriter) flush() error {
	_ = d.rc.SetWriteDeadline(time.Now().Add(d.d))
	return d.rc.Flush()
}
