package webguard

import (
	"net/netip"
	"sync"
	"time"
)

// The throttle's limits (package doc).
const (
	// A key may fail FailLimit times in FailWindow; then it waits LockBase,
	// doubling with each further lockout up to LockMax.
	FailLimit  = 5
	FailWindow = time.Minute
	LockBase   = time.Minute
	LockMax    = time.Hour
	// A key's lockouts are forgotten ForgetAfter its last failure.
	ForgetAfter = 24 * time.Hour
	// Every key together may fail GlobalLimit times in FailWindow (a guess
	// spread over many addresses); then new attempts wait for the window.
	GlobalLimit = 30
	// MaxTracked bounds the table of keys; past it the key whose last
	// failure is the oldest is forgotten (the global limit, not the table,
	// bounds the guesses of many keys).
	MaxTracked = 4096
	// WindowPasses is how many attempts a presence window lets past the
	// holds (the global limit, a key's own lockout): one per key, and the
	// window closes at the first login that succeeds. A flood therefore
	// gets at most WindowPasses guesses more per window, never two minutes
	// of unthrottled guessing.
	WindowPasses = 8
)

type failures struct {
	recent  []time.Time // failures in the last FailWindow
	until   time.Time   // locked out until
	strikes int         // lockouts so far (the backoff's exponent)
	last    time.Time
}

// Throttle counts wrong PINs (package doc). The zero value is not usable:
// NewThrottle.
type Throttle struct {
	now func() time.Time

	mu     sync.Mutex
	fails  map[netip.Addr]*failures // by Key
	global []time.Time
	window time.Time           // the presence window is open until then
	passes map[netip.Addr]bool // keys that went past a hold in the window
}

// NewThrottle makes a throttle on the clock now (nil: time.Now).
func NewThrottle(now func() time.Time) *Throttle {
	if now == nil {
		now = time.Now
	}
	return &Throttle{now: now, fails: map[netip.Addr]*failures{}}
}

// OpenWindow opens a presence window for d (the judge held the table's
// pedal): until it closes, an attempt the throttle would hold gets through
// if its key has not had a pass in this window and fewer than
// WindowPasses were given; the first success closes it.
func (t *Throttle) OpenWindow(d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.window = t.now().Add(d)
	t.passes = map[netip.Addr]bool{}
}

// Admit reports how long the address must wait before it may try a PIN;
// 0 admits the attempt (in a presence window, possibly on its pass).
func (t *Throttle) Admit(ip netip.Addr) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	t.prune(now)
	key := Key(ip)
	var wait time.Duration
	if f := t.fails[key]; f != nil && now.Before(f.until) {
		wait = f.until.Sub(now)
	}
	if wait == 0 && len(t.global) >= GlobalLimit {
		wait = t.global[0].Add(FailWindow).Sub(now)
	}
	if wait <= 0 {
		return 0
	}
	if now.Before(t.window) && !t.passes[key] && len(t.passes) < WindowPasses {
		t.passes[key] = true
		return 0
	}
	return wait
}

// Failed counts a wrong PIN against the address (and the global limit).
func (t *Throttle) Failed(ip netip.Addr) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	key := Key(ip)
	t.global = append(t.global, now)
	f := t.fails[key]
	if f == nil {
		if len(t.fails) >= MaxTracked {
			t.evict()
		}
		f = &failures{}
		t.fails[key] = f
	}
	f.last = now
	f.recent = append(f.recent, now)
	if len(f.recent) >= FailLimit {
		f.until = now.Add(min(LockBase<<min(f.strikes, 10), LockMax))
		f.strikes++
		f.recent = nil
	}
}

// Succeeded forgets the address's failures and closes the presence window.
func (t *Throttle) Succeeded(ip netip.Addr) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.fails, Key(ip))
	t.window, t.passes = time.Time{}, nil
}

// Tracked is how many keys the throttle remembers.
func (t *Throttle) Tracked() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.fails)
}

// Strikes is how many lockouts the address's key had (0: none, or forgotten).
func (t *Throttle) Strikes(ip netip.Addr) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if f := t.fails[Key(ip)]; f != nil {
		return f.strikes
	}
	return 0
}

// prune drops failures older than the window and keys with nothing to
// remember: one without a lockout as soon as its failures leave the
// window, one locked out ForgetAfter its last failure. t.mu is held.
func (t *Throttle) prune(now time.Time) {
	cut := now.Add(-FailWindow)
	i := 0
	for i < len(t.global) && !t.global[i].After(cut) {
		i++
	}
	t.global = t.global[i:]
	if !now.Before(t.window) {
		t.passes = nil
	}
	for k, f := range t.fails {
		j := 0
		for j < len(f.recent) && !f.recent[j].After(cut) {
			j++
		}
		f.recent = f.recent[j:]
		if len(f.recent) == 0 && !now.Before(f.until) && (f.strikes == 0 || now.Sub(f.last) > ForgetAfter) {
			delete(t.fails, k)
		}
	}
}

// evict makes room in a full table: the key whose last failure is the
// oldest goes. t.mu is held.
func (t *Throttle) evict() {
	var old netip.Addr
	var at time.Time
	for k, f := range t.fails {
		if at.IsZero() || f.last.Before(at) {
			old, at = k, f.last
		}
	}
	delete(t.fails, old)
}
