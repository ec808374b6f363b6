package webguard

import (
	"fmt"
	"net/netip"
	"sync"
	"testing"
	"time"
)

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// attempt is a login through the throttle: admitted or held, then right
// or wrong. It reports whether the PIN was checked at all.
func attempt(th *Throttle, ip netip.Addr, right bool) (checked bool) {
	if th.Admit(ip) > 0 {
		return false
	}
	if right {
		th.Succeeded(ip)
	} else {
		th.Failed(ip)
	}
	return true
}

// TestSpreadGuessesHeld: 300 wrong PINs from 60 IPv4 addresses, and 300
// from 60 addresses of one IPv6 /64, in a burst: at most GlobalLimit (the
// spread) or FailLimit (the /64: one key) are checked; the right PIN waits
// too, and gets in once the window (the /64: its lockout) has passed.
func TestSpreadGuessesHeld(t *testing.T) {
	for _, c := range []struct {
		name    string
		addr    func(i int) netip.Addr
		checked int
		wait    time.Duration
	}{
		{"60 IPv4 addresses", func(i int) netip.Addr { return netip.AddrFrom4([4]byte{192, 168, 7, byte(1 + i%60)}) }, GlobalLimit, FailWindow},
		{"one IPv6 /64", func(i int) netip.Addr {
			return netip.MustParseAddr(fmt.Sprintf("fd12:3456:789a:1:%x::%x", i%60, 1+i%60))
		}, FailLimit, LockBase},
	} {
		t.Run(c.name, func(t *testing.T) {
			clk := &clock{now: time.Date(2026, 12, 5, 14, 0, 0, 0, time.UTC)}
			th := NewThrottle(clk.Now)
			checked := 0
			for i := range 300 {
				if attempt(th, c.addr(i), false) {
					checked++
				}
			}
			if checked != c.checked {
				t.Errorf("%d of 300 wrong PINs checked; want %d", checked, c.checked)
			}
			judge := c.addr(7)
			if w := th.Admit(judge); w <= 0 || w > c.wait {
				t.Errorf("the right PIN right after the burst: wait %v; want held up to %v", w, c.wait)
			}
			clk.Advance(c.wait + time.Second)
			if !attempt(th, judge, true) {
				t.Errorf("the right PIN after the window is still held (%v)", th.Admit(judge))
			}
		})
	}
}

// TestWindowOnePassEach: with the global limit reached, a presence window
// (the pedal) lets each key one attempt past it, WindowPasses in all,
// never an address's whole series of guesses; the first success closes
// it. On the old console, every address not locked out guessed freely for
// the window's two minutes.
func TestWindowOnePassEach(t *testing.T) {
	clk := &clock{now: time.Date(2026, 12, 5, 14, 0, 0, 0, time.UTC)}
	th := NewThrottle(clk.Now)
	ip := func(i int) netip.Addr { return netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}) }
	for i := range GlobalLimit {
		th.Failed(ip(1000 + i))
	}
	th.OpenWindow(2 * time.Minute)
	fresh := ip(1)
	checked := 0
	for range 10 {
		if attempt(th, fresh, false) {
			checked++
		}
	}
	if checked != 1 {
		t.Errorf("one fresh address guessed %d times in the window; want 1", checked)
	}
	spread := 0
	for i := range 40 {
		if attempt(th, ip(100+i), false) {
			spread++
		}
	}
	if spread != WindowPasses-1 {
		t.Errorf("40 more addresses guessed %d times in the window; want %d", spread, WindowPasses-1)
	}
	// a new press: the judge, first in, closes it for everyone
	th.OpenWindow(2 * time.Minute)
	if !attempt(th, ip(500), true) {
		t.Fatal("the judge's login in a fresh window was held")
	}
	if attempt(th, ip(501), false) {
		t.Error("a login after the judge's success went past the global limit")
	}
	clk.Advance(FailWindow + time.Second)
	if !attempt(th, ip(502), true) {
		t.Error("a login after the global window was held")
	}
}

// TestThrottleTable: a failure with no lockout is forgotten once it leaves
// the window; a table full of locked-out keys makes room instead of
// holding every login; lockouts double.
func TestThrottleTable(t *testing.T) {
	clk := &clock{now: time.Date(2026, 12, 5, 14, 0, 0, 0, time.UTC)}
	th := NewThrottle(clk.Now)
	ip := func(i int) netip.Addr { return netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}) }
	for i := range 5000 {
		th.Failed(ip(i))
	}
	clk.Advance(FailWindow + time.Second)
	th.Admit(ip(0))
	if n := th.Tracked(); n != 0 {
		t.Errorf("%d keys with one failure each still tracked a window later", n)
	}
	for i := range MaxTracked + 500 {
		for range FailLimit {
			th.Failed(ip(i))
		}
	}
	if n := th.Tracked(); n > MaxTracked {
		t.Errorf("%d keys tracked; at most %d", n, MaxTracked)
	}
	clk.Advance(FailWindow + time.Second)
	if w := th.Admit(ip(1 << 20)); w != 0 {
		t.Errorf("a new key waits %v with the table full; want 0", w)
	}
	if s := th.Strikes(ip(MaxTracked + 499)); s != 1 {
		t.Errorf("the latest locked-out key: %d strikes, want 1", s)
	}
	a := ip(1 << 21)
	for range FailLimit {
		th.Failed(a)
	}
	clk.Advance(LockBase + time.Second)
	for range FailLimit {
		th.Failed(a)
	}
	if w := th.Admit(a); w <= LockBase || w > 2*LockBase {
		t.Errorf("second lockout: %v, want up to %v", w, 2*LockBase)
	}
}

func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.7":                  "192.0.2.7",
		"::ffff:192.0.2.7":           "192.0.2.7",
		"fd12:3456:789a:1:aaaa::1":   "fd12:3456:789a:1::",
		"fe80::1%eth0":               "fe80::",
		"2001:db8:0:2:ffff:ffff::ff": "2001:db8:0:2::",
	} {
		if got := Key(netip.MustParseAddr(in)).String(); got != want {
			t.Errorf("Key(%s) = %s, want %s", in, got, want)
		}
	}
}
