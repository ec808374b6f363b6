package console

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// The judge's PIN, sessions, CSRF tokens and the PIN throttle (doc.go
// "Security").

const (
	sessionCookie = "wolftable_session"
	csrfHeader    = "X-CSRF-Token"
	pinPrefix     = "sha256:"

	// A remote address may fail the PIN failLimit times in failWindow; then
	// it waits lockBase, doubling with each further lockout up to lockMax.
	failLimit  = 5
	failWindow = time.Minute
	lockBase   = time.Minute
	lockMax    = time.Hour
	// An address's lockouts are forgotten a day after its last failure.
	forgetAfter = 24 * time.Hour
	// Every address together may fail globalLimit times in failWindow (a
	// guess spread over many addresses); then new logins wait for the window.
	globalLimit = 30
	// maxTracked bounds the throttle's memory; past it every login waits.
	maxTracked  = 4096
	maxSessions = 64
	maxPINLen   = 64
)

// ErrBadPINHash is returned by New for a console.pin_hash that is not
// "sha256:" and 64 hex digits.
var ErrBadPINHash = errors.New("console: pin_hash: want sha256:<64 hex digits>")

// HashPIN is the console.pin_hash of a PIN: "sha256:<hex>".
func HashPIN(pin string) string {
	sum := sha256.Sum256([]byte(pin))
	return pinPrefix + hex.EncodeToString(sum[:])
}

func parsePINHash(s string) ([32]byte, error) {
	var h [32]byte
	hexPart, ok := strings.CutPrefix(strings.TrimSpace(s), pinPrefix)
	if !ok || len(hexPart) != 64 {
		return h, ErrBadPINHash
	}
	b, err := hex.DecodeString(hexPart)
	if err != nil {
		return h, ErrBadPINHash
	}
	copy(h[:], b)
	return h, nil
}

// generatePIN draws a 6-digit PIN from crypto/rand.
func generatePIN() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", fmt.Errorf("console: PIN: %w", err)
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b)
}

// session is a logged-in judge device. Only the hash of its cookie is kept.
type session struct {
	csrf    string
	expires time.Time
	remote  string
}

type failures struct {
	recent  []time.Time // failures in the last failWindow
	until   time.Time   // locked until
	strikes int         // lockouts so far (the backoff's exponent)
	last    time.Time
}

type auth struct {
	now     func() time.Time
	ttl     time.Duration
	pinHash [32]byte

	mu       sync.Mutex
	sessions map[[32]byte]*session
	fails    map[netip.Addr]*failures
	global   []time.Time
}

func newAuth(pinHash [32]byte, ttl time.Duration, now func() time.Time) *auth {
	return &auth{now: now, ttl: ttl, pinHash: pinHash, sessions: map[[32]byte]*session{}, fails: map[netip.Addr]*failures{}}
}

func cookieKey(token string) ([32]byte, bool) {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(b) != 32 {
		return [32]byte{}, false
	}
	return sha256.Sum256(b), true
}

// throttled reports how long the address must wait before trying a PIN.
func (a *auth) throttled(ip netip.Addr) time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	a.prune(now)
	if f := a.fails[ip]; f != nil && now.Before(f.until) {
		return f.until.Sub(now)
	}
	if len(a.global) >= globalLimit {
		return a.global[0].Add(failWindow).Sub(now)
	}
	if len(a.fails) >= maxTracked {
		return failWindow
	}
	return 0
}

// prune drops failures older than the window and addresses with nothing
// to remember. a.mu is held.
func (a *auth) prune(now time.Time) {
	cut := now.Add(-failWindow)
	i := 0
	for i < len(a.global) && !a.global[i].After(cut) {
		i++
	}
	a.global = a.global[i:]
	for ip, f := range a.fails {
		j := 0
		for j < len(f.recent) && !f.recent[j].After(cut) {
			j++
		}
		f.recent = f.recent[j:]
		if len(f.recent) == 0 && !now.Before(f.until) && now.Sub(f.last) > forgetAfter {
			delete(a.fails, ip)
		}
	}
}

// check verifies a PIN, counting a failure against the address.
func (a *auth) check(ip netip.Addr, pin string) bool {
	sum := sha256.Sum256([]byte(pin))
	ok := subtle.ConstantTimeCompare(sum[:], a.pinHash[:]) == 1
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	if ok {
		delete(a.fails, ip)
		return true
	}
	a.global = append(a.global, now)
	f := a.fails[ip]
	if f == nil {
		f = &failures{}
		a.fails[ip] = f
	}
	f.last = now
	f.recent = append(f.recent, now)
	if len(f.recent) >= failLimit {
		f.until = now.Add(min(lockBase<<min(f.strikes, 10), lockMax))
		f.strikes++
		f.recent = nil
	}
	return false
}

func (a *auth) newSession(remote string) (token string, s *session) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	for k, s := range a.sessions {
		if !now.Before(s.expires) {
			delete(a.sessions, k)
		}
	}
	if len(a.sessions) >= maxSessions { // drop the one that expires first
		var oldest [32]byte
		var at time.Time
		for k, s := range a.sessions {
			if at.IsZero() || s.expires.Before(at) {
				oldest, at = k, s.expires
			}
		}
		delete(a.sessions, oldest)
	}
	token = randomToken()
	key, _ := cookieKey(token)
	s = &session{csrf: randomToken(), expires: now.Add(a.ttl), remote: remote}
	a.sessions[key] = s
	return token, s
}

// session returns the request's live session, if any.
func (a *auth) session(r *http.Request) (*session, bool) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return nil, false
	}
	key, ok := cookieKey(c.Value)
	if !ok {
		return nil, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.sessions[key]
	if s == nil {
		return nil, false
	}
	if !a.now().Before(s.expires) {
		delete(a.sessions, key)
		return nil, false
	}
	c2 := *s
	return &c2, true
}

func (a *auth) logout(r *http.Request) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return
	}
	if key, ok := cookieKey(c.Value); ok {
		a.mu.Lock()
		delete(a.sessions, key)
		a.mu.Unlock()
	}
}

func csrfOK(s *session, r *http.Request) bool {
	got := r.Header.Get(csrfHeader)
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.csrf)) == 1
}

// sameOrigin refuses requests a browser marks as coming from another site.
// Requests without the headers (curl, tests) pass: the CSRF token and the
// SameSite cookie still guard them.
func sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return false
	}
	if o := r.Header.Get("Origin"); o != "" {
		host, ok := strings.CutPrefix(o, "http://")
		if !ok {
			host, ok = strings.CutPrefix(o, "https://")
		}
		if !ok || !strings.EqualFold(host, r.Host) {
			return false
		}
	}
	return true
}

// DefaultAllow are the remote addresses the console serves when
// Options.Allow is nil: loopback, the private IPv4 ranges, link-local and
// IPv6 unique-local addresses (the table's LAN).
func DefaultAllow() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{"127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
		"169.254.0.0/16", "fc00::/7", "fe80::/10"} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}

func remoteIP(r *http.Request) (netip.Addr, bool) {
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

func allowed(allow []netip.Prefix, ip netip.Addr) bool {
	for _, p := range allow {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}
