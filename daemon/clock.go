package daemon

import "time"

// Clock is the daemon's source of time: the real clock in the product, a
// fake one in tests (daemontest.FakeClock: nothing sleeps in tests).
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) Stopper
}

// Stopper stops a pending timer; it reports whether it stopped it. It is
// an alias of the interface type, not a type of its own, so that a Clock
// can be written without importing this package (daemontest.FakeClock,
// which the daemon's own tests use).
type Stopper = interface{ Stop() bool }

// RealClock is the wall clock.
type RealClock struct{}

func (RealClock) Now() time.Time { return time.Now() }

func (RealClock) AfterFunc(d time.Duration, f func()) Stopper { return time.AfterFunc(d, f) }
