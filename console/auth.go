package console

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"net/netip"
	"os"
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
	// maxTracked bounds the throttle's memory; past it the address whose
	// last failure is the oldest is forgotten.
	maxTracked = 4096
	// A long press of the pedal opens presenceWindow, in which the global
	// limit holds no login and a locked-out address may still try
	// presenceTries PINs (the judge at the table, against a flood).
	presenceWindow = 2 * time.Minute
	presenceTries  = 3
	maxSessions    = 64
	maxPINLen      = 64
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

// session is a logged-in judge device. Only the hash of its cookie is kept
// (in memory and in the state directory); the CSRF token is derived from
// the cookie, so a reloaded page, or the daemon after a restart, finds it.
// A session belongs to the PIN it logged in with (pinGen: a new PIN ends
// it) and to the scheme it was issued over (a cookie a plain-HTTP login
// set, which anyone on the LAN may have seen, is no good over HTTPS).
type session struct {
	csrf    string
	expires time.Time
	remote  string
	pinGen  string
	tls     bool
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
	pinGen  string      // the PIN's generation (parsePINFile), which sessions are bound to
	pinFile string      // the stored hash (state dir), reread when it changes; "" = none
	pinStat os.FileInfo // pinFile as last read
	store   string      // the sessions file; "" = memory only
	log     *slog.Logger

	mu       sync.Mutex
	sessions map[[32]byte]*session
	fails    map[netip.Addr]*failures // by addrKey
	global   []time.Time
	presence time.Time          // the pedal's window is open until then
	bypass   map[netip.Addr]int // PINs each address tried past its own lockout in the window
}

func newAuth(pinHash [32]byte, ttl time.Duration, now func() time.Time) *auth {
	return &auth{now: now, ttl: ttl, pinHash: pinHash, sessions: map[[32]byte]*session{}, fails: map[netip.Addr]*failures{},
		log: slog.New(slog.DiscardHandler)}
}

func cookieKey(token string) ([32]byte, bool) {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(b) != 32 {
		return [32]byte{}, false
	}
	return sha256.Sum256(b), true
}

// csrfFor is the CSRF token of a session cookie: an HMAC of the cookie, so
// neither needs to be stored and one does not give the other away.
func csrfFor(token string) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("wolftable console csrf"))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// openPresence opens the pedal's window (the judge held the pedal): until
// it closes, a login is not held by the throttle's global limit, and an
// address locked out by its own failures may still try presenceTries
// PINs. Wrong PINs still count as failures.
func (a *auth) openPresence() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.presence = a.now().Add(presenceWindow)
	a.bypass = map[netip.Addr]int{}
}

// admit reports how long the address must wait before trying a PIN; 0
// admits the attempt (and, in the pedal's window, counts a bypass).
func (a *auth) admit(ip netip.Addr) time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	a.prune(now)
	key := addrKey(ip)
	var wait time.Duration
	if f := a.fails[key]; f != nil && now.Before(f.until) {
		wait = f.until.Sub(now)
	}
	if now.Before(a.presence) {
		if wait == 0 {
			return 0
		}
		if n, ok := a.bypass[key]; (ok || len(a.bypass) < maxTracked) && n < presenceTries {
			a.bypass[key] = n + 1
			return 0
		}
		return wait
	}
	if wait > 0 {
		return wait
	}
	if len(a.global) >= globalLimit {
		return a.global[0].Add(failWindow).Sub(now)
	}
	return 0
}

// prune drops failures older than the window and addresses with nothing
// to remember: one without a lockout as soon as its failures leave the
// window, one locked out before a day after its last failure. a.mu is held.
func (a *auth) prune(now time.Time) {
	cut := now.Add(-failWindow)
	i := 0
	for i < len(a.global) && !a.global[i].After(cut) {
		i++
	}
	a.global = a.global[i:]
	if !now.Before(a.presence) {
		a.bypass = nil
	}
	for ip, f := range a.fails {
		j := 0
		for j < len(f.recent) && !f.recent[j].After(cut) {
			j++
		}
		f.recent = f.recent[j:]
		if len(f.recent) == 0 && !now.Before(f.until) && (f.strikes == 0 || now.Sub(f.last) > forgetAfter) {
			delete(a.fails, ip)
		}
	}
}

// evict makes room in a full table: the address whose last failure is the
// oldest goes (the global limit, not the table, bounds the guesses of many
// addresses). a.mu is held.
func (a *auth) evict() {
	var old netip.Addr
	var at time.Time
	for ip, f := range a.fails {
		if at.IsZero() || f.last.Before(at) {
			old, at = ip, f.last
		}
	}
	delete(a.fails, old)
}

// check verifies a PIN, counting a failure against the address.
func (a *auth) check(ip netip.Addr, pin string) bool {
	sum := sha256.Sum256([]byte(pin))
	a.mu.Lock()
	defer a.mu.Unlock()
	a.reloadPIN()
	ok := subtle.ConstantTimeCompare(sum[:], a.pinHash[:]) == 1
	now := a.now()
	key := addrKey(ip)
	if ok {
		delete(a.fails, key)
		a.presence = time.Time{} // the judge is in: the window closes
		a.bypass = nil
		return true
	}
	a.global = append(a.global, now)
	f := a.fails[key]
	if f == nil {
		if len(a.fails) >= maxTracked {
			a.evict()
		}
		f = &failures{}
		a.fails[key] = f
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

// reloadPIN reads the stored PIN hash again when its file changed (a new
// PIN from `wolftable console pin`); a new generation ends every session.
// a.mu is held.
func (a *auth) reloadPIN() {
	if a.pinFile == "" {
		return
	}
	fi, err := os.Stat(a.pinFile)
	if err != nil || (a.pinStat != nil && os.SameFile(fi, a.pinStat) && fi.ModTime().Equal(a.pinStat.ModTime()) && fi.Size() == a.pinStat.Size()) {
		return
	}
	h, gen, err := readPINFile(a.pinFile)
	if err != nil {
		a.log.Error("console: the stored PIN hash is unreadable; the previous one stays", "file", a.pinFile, "err", err)
		return
	}
	a.pinHash, a.pinStat = h, fi
	if gen != a.pinGen {
		a.pinGen = gen
		if len(a.sessions) > 0 {
			a.log.Info("console: a new PIN: every session ends", "sessions", len(a.sessions))
			clear(a.sessions)
			a.save()
		}
	}
}

func (a *auth) newSession(remote string, tls bool) (token string, s *session) {
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
	s = &session{csrf: csrfFor(token), expires: now.Add(a.ttl), remote: remote, pinGen: a.pinGen, tls: tls}
	a.sessions[key] = s
	a.save()
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
	a.reloadPIN()
	s := a.sessions[key]
	if s == nil || s.pinGen != a.pinGen || s.tls != (r.TLS != nil) {
		return nil, false
	}
	if !a.now().Before(s.expires) {
		delete(a.sessions, key)
		return nil, false
	}
	c2 := *s
	c2.csrf = csrfFor(c.Value)
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
		a.save()
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

// rejectLog logs refused logins without flooding the system log: the first
// after a quiet minute at once, then one summary a minute while they go
// on. Its timer runs only while logins are being refused.
type rejectLog struct {
	log   *slog.Logger
	every time.Duration

	mu        sync.Mutex
	timer     *time.Timer
	stopped   bool
	wrong     int
	throttled int
	addrs     map[netip.Addr]bool
}

// note counts a refused login: a wrong PIN, or one the throttle held.
func (l *rejectLog) note(wrong bool, remote string, ip netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped {
		return
	}
	if l.timer == nil {
		reason := "throttled"
		if wrong {
			reason = "wrong PIN"
		}
		l.log.Warn("console: login refused", "reason", reason, "remote", remote)
		l.timer = time.AfterFunc(l.every, l.flush)
		return
	}
	if wrong {
		l.wrong++
	} else {
		l.throttled++
	}
	if l.addrs == nil {
		l.addrs = map[netip.Addr]bool{}
	}
	if len(l.addrs) < maxTracked {
		l.addrs[addrKey(ip)] = true
	}
}

func (l *rejectLog) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped || l.wrong+l.throttled == 0 {
		l.timer = nil
		return
	}
	l.log.Warn("console: logins refused since the last report", "wrong_pin", l.wrong, "throttled", l.throttled,
		"addresses", len(l.addrs), "period", l.every)
	l.wrong, l.throttled, l.addrs = 0, 0, nil
	l.timer.Reset(l.every)
}

func (l *rejectLog) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
	if l.timer != nil {
		l.timer.Stop()
	}
}
