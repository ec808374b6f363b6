package webguard

import (
	"net"
	"net/netip"
	"sync"
)

// ConnCount counts the open connections of each key, over every listener
// that shares it (a console's HTTP and HTTPS together).
type ConnCount struct {
	mu sync.Mutex
	n  map[netip.Addr]int
}

// Open is the number of connections the address's key holds open.
func (o *ConnCount) Open(ip netip.Addr) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.n[Key(ip)]
}

// Listener wraps ln: a peer allow refuses (nil: everyone) is closed at
// accept, before a byte is read; so is a connection past max open
// connections of one key, counted in open.
func Listener(ln net.Listener, allow func(netip.Addr) bool, max int, open *ConnCount) net.Listener {
	return &limitListener{Listener: ln, allow: allow, max: max, open: open}
}

type limitListener struct {
	net.Listener
	allow func(netip.Addr) bool
	max   int
	open  *ConnCount
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip, ok := AddrIP(c.RemoteAddr())
		if !ok || (l.allow != nil && !l.allow(ip)) {
			_ = c.Close()
			continue
		}
		key := Key(ip)
		o := l.open
		o.mu.Lock()
		if o.n[key] >= l.max {
			o.mu.Unlock()
			_ = c.Close()
			continue
		}
		if o.n == nil {
			o.n = map[netip.Addr]int{}
		}
		o.n[key]++
		o.mu.Unlock()
		return &countedConn{Conn: c, release: func() {
			o.mu.Lock()
			if o.n[key]--; o.n[key] <= 0 {
				delete(o.n, key)
			}
			o.mu.Unlock()
		}}, nil
	}
}

type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
