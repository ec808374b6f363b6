package daemontest_test

import (
	"fmt"
	"testing"
	"time"

	"wolftable/daemon"
	"wolftable/daemon/daemontest"
)

// The fake clock is a daemon.Clock.
var _ daemon.Clock = (*daemontest.FakeClock)(nil)

// TestFakeClock: timers fire in time order, ties in the order they were
// set, each with the clock at its time; a stopped timer does not fire; a
// timer set by a firing one fires within the same Advance when due.
func TestFakeClock(t *testing.T) {
	start := time.Date(2026, 12, 3, 20, 0, 0, 0, time.UTC)
	c := daemontest.NewFakeClock(start)
	var got []string
	at := func(name string) func() {
		return func() { got = append(got, fmt.Sprintf("%s@%v", name, c.Now().Sub(start))) }
	}
	c.AfterFunc(3*time.Second, at("c"))
	c.AfterFunc(1*time.Second, at("a"))
	c.AfterFunc(1*time.Second, at("b"))
	stopped := c.AfterFunc(2*time.Second, at("never"))
	c.AfterFunc(2*time.Second, func() { at("d")(); c.AfterFunc(500*time.Millisecond, at("e")) })
	if !stopped.Stop() || stopped.Stop() {
		t.Error("Stop: want true, then false")
	}
	if next, ok := c.Next(); !ok || !next.Equal(start.Add(time.Second)) {
		t.Errorf("Next = %v %v, want start+1s", next, ok)
	}
	c.Advance(2600 * time.Millisecond)
	if want := "[a@1s b@1s d@2s e@2.5s]"; fmt.Sprint(got) != want {
		t.Errorf("fired %v, want %s", got, want)
	}
	if now := c.Now().Sub(start); now != 2600*time.Millisecond {
		t.Errorf("Now = start+%v, want start+2.6s", now)
	}
	c.Advance(time.Second)
	if want := "[a@1s b@1s d@2s e@2.5s c@3s]"; fmt.Sprint(got) != want {
		t.Errorf("fired %v, want %s", got, want)
	}
	if _, ok := c.Next(); ok {
		t.Error("Next: a timer is still pending")
	}
}
