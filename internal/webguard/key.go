package webguard

import (
	"net"
	"net/http"
	"net/netip"
)

// Key is what per-address limits count: an IPv4 address as it is, an IPv6
// address's /64 (zone dropped, an IPv4-mapped address unmapped).
func Key(ip netip.Addr) netip.Addr {
	ip = ip.Unmap().WithZone("")
	if ip.Is4() || !ip.IsValid() {
		return ip
	}
	return netip.PrefixFrom(ip, 64).Masked().Addr()
}

// AddrIP is the IP address of a connection's net.Addr.
func AddrIP(a net.Addr) (netip.Addr, bool) {
	switch a := a.(type) {
	case *net.TCPAddr:
		ip, ok := netip.AddrFromSlice(a.IP)
		return ip.Unmap(), ok
	case nil:
		return netip.Addr{}, false
	}
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return netip.Addr{}, false
	}
	return ap.Addr().Unmap().WithZone(""), true
}

// RemoteIP is the address a request came from (its RemoteAddr).
func RemoteIP(r *http.Request) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		a, err2 := netip.ParseAddr(r.RemoteAddr)
		if err2 != nil {
			return netip.Addr{}, false
		}
		return a.Unmap().WithZone(""), true
	}
	return ap.Addr().Unmap().WithZone(""), true
}
