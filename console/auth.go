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

	"wolftable/internal/webguard"
)

// The judge's PIN, sessions, CSRF tokens and the PIN throttle (doc.go
// "Security").

const (
	sessionCookie = "wolftable_session"
	csrfHeader    = "X-CSRF-Token"
	pinPrefix     = "sha256:"

	// The PIN throttle is the desk's too (internal/webguard): an address
	// (an IPv6 /64) may fail failLimit times in failWindow, every address
	// together globalLimit times; the table holds at most maxTracked.
	failLimit   = webguard.FailLimit
	failWindow  = webguard.FailWindow
	globalLimit = webguard.GlobalLimit
	maxTracked  = webguard.MaxTracked
	// A long press of the pedal opens presenceWindow, in which a login the
	// throttle would hold gets presenceTries attempt past it per address
	// (webguard.WindowPasses in all), until the first login that succeeds
	// (the judge at the table, against a flood).
	presenceWindow = 2 * time.Minute
	presenceTries  = 1
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

type auth struct {
	now     func() time.Time
	ttl     time.Duration
	pinHash [32]byte
	pinGen  string      // the PIN's generation (parsePINFile), which sessions are bound to
	pinFile string      // the stored hash (state dir), reread when it changes; "" = none
	pinStat os.FileInfo // pinFile as last read
	store   string      // the sessions file; "" = memory only
	log     *slog.Logger

	throttle *webguard.Throttle

	mu       sync.Mutex
	sessions map[[32]byte]*session
}

func newAuth(pinHash [32]byte, ttl time.Duration, now func() time.Time) *auth {
	return &auth{now: now, ttl: ttl, pinHash: pinHash, sessions: map[[32]byte]*session{}, throttle: webguard.NewThrottle(now),
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
// it closes, a login the throttle would hold gets one attempt past it per
// address (webguard.WindowPasses in all), and the first login that
// succeeds closes it. Wrong PINs still count as failures.
func (a *auth) openPresence() { a.throttle.OpenWindow(presenceWindow) }

// admit reports how long the address must wait before trying a PIN; 0
// admits the attempt.
func (a *auth) admit(ip netip.Addr) time.Duration { return a.throttle.Admit(ip) }

// check verifies a PIN, counting a failure against the address.
func (a *auth) check(ip netip.Addr, pin string) bool {
	sum := sha256.Sum256([]byte(pin))
	a.mu.Lock()
	defer a.mu.Unlock()
	a.reloadPIN()
	ok := subtle.ConstantTimeCompare(sum[:], a.pinHash[:]) == 1
	if ok {
		a.throttle.Succeeded(ip) // the judge is in: the pedal's window closes
		return true
	}
	a.throttle.Failed(ip)
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

func remoteIP(r *http.Request) (netip.Addr, bool) { return webguard.RemoteIP(r) }

func allowed(allow []netip.Prefix, ip netip.Addr) bool {
	for _, p := range allow {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}
