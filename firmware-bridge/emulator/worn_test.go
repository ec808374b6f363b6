package emulator_test

import (
	"testing"
	"time"

	"wolftable/firmware-bridge/emulator"
	"wolftable/firmware-bridge/protocol"
)

// A worn contact closes once more as the finger leaves it: one tap is two
// presses, the second dated a debounce and a scan after the first's
// release on the bridge's clock — the self-test's bounce, made by the
// contact and not by a second touch the host schedules.
func TestWornKeyPressesTwice(t *testing.T) {
	e := start(t, emulator.Config{})
	h := dial(t, e)
	h.hello()
	must(t, e.SetKeyFault(3, protocol.Key5, emulator.KeyWorn))
	must(t, e.Tap(3, protocol.Key5))
	evs := h.keyEvents(300 * time.Millisecond)
	want := []protocol.Edge{protocol.EdgeDown, protocol.EdgeUp, protocol.EdgeDown, protocol.EdgeUp}
	if len(evs) != len(want) {
		t.Fatalf("worn tap gave %+v, want two presses", evs)
	}
	for i, ev := range evs {
		if ev.Edge != want[i] || ev.Seat != 3 || ev.Key != protocol.Key5 {
			t.Fatalf("event %d: %+v, want %v of seat 3 key 5", i, ev, want[i])
		}
	}
	gap := time.Duration(evs[2].Micros-evs[1].Micros) * time.Microsecond
	if gap < 0 || gap > 10*time.Millisecond {
		t.Errorf("the second press came %v after the release, want a debounce and a scan", gap)
	}
	must(t, e.SetKeyFault(3, protocol.Key5, emulator.NoFault))
	must(t, e.Tap(3, protocol.Key5))
	if evs := h.keyEvents(300 * time.Millisecond); len(evs) != 2 {
		t.Errorf("the mended key gave %+v, want one press", evs)
	}
}
