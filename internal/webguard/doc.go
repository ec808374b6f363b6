// Package webguard is the HTTP hardening the judge's console and the
// tournament desk share: one PIN throttle, one connection cap, one set of
// server timeouts and security headers, so that a fix to one is a fix to
// both.
//
//   - Key: what every per-address limit counts. An IPv4 address is its own
//     key; an IPv6 address counts by its /64, since one host may use a
//     whole /64. IPv4 is not grouped by /24: a venue's LAN is one /24, and
//     the judge's phone would share the attacker's lockout.
//   - Throttle: wrong PINs per key (FailLimit in FailWindow lock the key
//     out for LockBase, doubling per further lockout up to LockMax), a
//     global cap (GlobalLimit failures in FailWindow from every key
//     together hold new attempts), a bounded table of keys, and an optional
//     presence window (the console's pedal: OpenWindow) that lets a bounded
//     number of attempts past the holds, one per key, and closes at the
//     first login that succeeds.
//   - RejectLog: refused logins logged once, then summarised per period.
//   - Listener: a per-key cap of open connections, and an optional
//     allow-list checked at accept, before a byte is read.
//   - NewServer: read, write and idle timeouts, MaxHeaderBytes, HTTP/1
//     only (the limits are per connection); SecurityHeaders: CSP, nosniff,
//     frame denial, no referrer.
package webguard
