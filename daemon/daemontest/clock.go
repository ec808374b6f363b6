// Package daemontest holds fakes of the daemon's outside world for tests:
// a manual clock. It imports nothing of the module, so the daemon's own
// tests can use it as well as other packages' (console's).
package daemontest

import (
	"sort"
	"sync"
	"time"
)

// FakeClock is a manual clock for tests, a daemon.Clock: nothing runs until
// Advance, which fires the due timers in time order. Safe for concurrent use.
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
	seq    int
}

type fakeTimer struct {
	c    *FakeClock
	at   time.Time
	seq  int
	f    func()
	done bool
}

// Stop stops the timer; it reports whether it was still pending.
func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.done
	t.done = true
	return was
}

// NewFakeClock starts at a fixed time.
func NewFakeClock(start time.Time) *FakeClock { return &FakeClock{now: start} }

// Now is the clock's time: the start plus every Advance.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc arranges for f to run when an Advance passes d from now. Its
// result is daemon.Stopper (an alias of this interface type, so this
// package need not import the daemon).
func (c *FakeClock) AfterFunc(d time.Duration, f func()) interface{ Stop() bool } {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &fakeTimer{c: c, at: c.now.Add(d), seq: c.seq, f: f}
	c.timers = append(c.timers, t)
	return t
}

// Next returns when the next pending timer fires.
func (c *FakeClock) Next() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var best *fakeTimer
	for _, t := range c.timers {
		if !t.done && (best == nil || t.at.Before(best.at) || (t.at.Equal(best.at) && t.seq < best.seq)) {
			best = t
		}
	}
	if best == nil {
		return time.Time{}, false
	}
	return best.at, true
}

// Advance moves the clock forward by d, firing due timers in time order
// (timers due at the same time in the order they were set), each with the
// clock at its time. A timer a firing sets is fired too when it is due.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		sort.SliceStable(c.timers, func(i, j int) bool {
			if c.timers[i].at.Equal(c.timers[j].at) {
				return c.timers[i].seq < c.timers[j].seq
			}
			return c.timers[i].at.Before(c.timers[j].at)
		})
		var due *fakeTimer
		for _, t := range c.timers {
			if !t.done && !t.at.After(end) {
				due = t
				break
			}
		}
		if due == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		due.done = true
		c.now = due.at
		c.mu.Unlock()
		due.f()
	}
}
