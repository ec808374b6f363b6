package emulator

import (
	"testing"

	"wolftable/firmware-bridge/core"
)

// A bouncy contact changes level BounceTransitions times within
// BounceMicros of the press, then holds the new level.
func TestBouncyContact(t *testing.T) {
	c := contact{fault: KeyBouncy}
	set(&c, true, 1000)
	transitions, level := 0, false
	for now := uint64(1000); now < 1000+BounceMicros; now += 10 {
		if l := c.closed(now); l != level {
			transitions++
			level = l
		}
	}
	if transitions != BounceTransitions {
		t.Errorf("%d transitions while bouncing, want %d", transitions, BounceTransitions)
	}
	for now := uint64(1000 + BounceMicros); now < 20000; now += 100 {
		if !c.closed(now) {
			t.Fatalf("open at %d µs, after the bounce", now)
		}
	}
}

func TestContactRegistered(t *testing.T) {
	var c contact
	for now := uint64(0); now < core.DebounceMicros; now += 1000 {
		c.scanned(true, now)
		if c.registered(true) {
			t.Fatalf("registered after %d µs", now)
		}
	}
	c.scanned(true, core.DebounceMicros)
	if !c.registered(true) || c.registered(false) {
		t.Error("not registered closed after the debounce time")
	}
	c.scanned(false, core.DebounceMicros+1000)
	if c.registered(true) || c.registered(false) {
		t.Error("registered at once after opening")
	}
}

func TestMissingAndStuck(t *testing.T) {
	m := contact{fault: KeyMissing}
	set(&m, true, 0)
	s := contact{fault: KeyStuck}
	if m.closed(100) || !s.closed(100) {
		t.Error("missing key closed, or stuck key open")
	}
}
