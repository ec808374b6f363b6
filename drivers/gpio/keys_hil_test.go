//go:build hil

package gpio

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"wolftable/hw"
	"wolftable/internal/hilsim"
)

// hold is a finger on a key: sampled 3 times, and for 50 ms, past the
// 10 ms debounce however fast or slow the polls come (the debouncer dates
// a sample by its poll's tick, which a busy VM reads late: 5 times the
// debounce leaves room for that).
const hold = 3

func held(mask uint16) hilsim.Step {
	return hilsim.Step{Closed: mask, Polls: hold, Min: 50 * time.Millisecond}
}

// press is the script of one clean press of the contacts in mask.
func press(mask uint16) []hilsim.Step { return []hilsim.Step{held(mask), held(0)} }

func keyEvent(k hilKey, e hw.Edge) string { return fmt.Sprintf("seat %d %v %v", k.seat, k.key, e) }

// keyEvents names the key events, in order, and fails on any other event.
func keyEvents(t *testing.T, evs []hw.Event) []string {
	t.Helper()
	var out []string
	for _, ev := range evs {
		if ev.Kind != hw.EventKey {
			t.Errorf("unexpected event: %s", eventList([]hw.Event{ev}))
			continue
		}
		if ev.At.IsZero() || !ev.At.Equal(ev.Key.At) {
			t.Errorf("key event times: %v, %v", ev.At, ev.Key.At)
		}
		out = append(out, fmt.Sprintf("seat %d %v %v", ev.Key.Seat, ev.Key.Key, ev.Key.Edge))
	}
	return out
}

// TestHILOpenExpanders: Open sets every mapped pin of every expander as an
// input with its pull-up on (IODIR and GPPU), and leaves the unmapped pins
// alone. Without the pull-ups an open contact floats and reads as pressed:
// the model reads it low, so the test below would see every key down.
func TestHILOpenExpanders(t *testing.T) {
	sim := hilSim(t)
	openHIL(t, sim, hilConfig(t, "")).settle(2)
	mapped := map[uint16]uint16{}
	for _, k := range hilKeys() {
		mapped[k.addr] |= 1 << k.pin
	}
	xs, err := sim.Expanders()
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range xs {
		if x.GPPU != mapped[x.Addr] {
			t.Errorf("expander %#x: pull-ups (GPPU) %016b, want the mapped pins %016b", x.Addr, x.GPPU, mapped[x.Addr])
		}
		if x.IODIR&mapped[x.Addr] != mapped[x.Addr] {
			t.Errorf("expander %#x: IODIR %016b: a mapped pin is an output", x.Addr, x.IODIR)
		}
		if x.IODIR != 0xffff || x.IPOL != 0 || x.IOCON != 0 {
			t.Errorf("expander %#x: IODIR %04x IPOL %04x IOCON %02x changed from power-on (ffff 0000 00)", x.Addr, x.IODIR, x.IPOL, x.IOCON)
		}
		if x.Polls == 0 {
			t.Errorf("expander %#x is not polled", x.Addr)
		}
	}
}

// TestHILEverySeatsKeys presses and releases every key of the 18 seats, one
// pin of every expander at a time: each comes as a down, then an up, of
// its own seat and key, and nothing else comes.
func TestHILEverySeatsKeys(t *testing.T) {
	sim := hilSim(t)
	r := openHIL(t, sim, hilConfig(t, ""))
	r.settle(hold) // a key held at power-on would show now
	if evs := r.take(); len(evs) > 0 {
		t.Fatalf("events with every key open: %s", eventList(evs))
	}
	keys := hilKeys()
	seats := map[int]int{}
	for pin := range hw.ExpanderPin(16) {
		var scripts []hilsim.Script
		var round []hilKey
		for _, k := range keys {
			if k.pin == pin {
				scripts = append(scripts, hilsim.Script{Addr: k.addr, Steps: press(1 << pin)})
				round = append(round, k)
			}
		}
		if len(round) == 0 {
			continue
		}
		if err := sim.Keys(scripts...); err != nil {
			t.Fatal(err)
		}
		r.scriptsDone()
		got := keyEvents(t, r.take())
		var want []string
		for _, k := range round {
			want = append(want, keyEvent(k, hw.Down), keyEvent(k, hw.Up))
		}
		// One seat's down comes before its up; across expanders the order
		// is the driver's scan order, so compare as sets of ordered pairs.
		for _, k := range round {
			d, u := slices.Index(got, keyEvent(k, hw.Down)), slices.Index(got, keyEvent(k, hw.Up))
			if d < 0 || u < d {
				t.Errorf("pin %v: %s: down at %d, up at %d in %v", pin, keyEvent(k, hw.Down), d, u, got)
			}
			seats[k.seat]++
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("pin %v of every expander:\n got %v\nwant %v%s", pin, got, want, r.diag())
		}
	}
	for s := 1; s <= hw.MaxSeats; s++ {
		if seats[s] != 7 {
			t.Errorf("seat %d: %d keys tested, want 7", s, seats[s])
		}
	}
}

// TestHILKeyBounce: a contact that chatters, one poll closed and one open,
// before it settles (and again when it opens) is one press; a one-poll
// blip alone is nothing.
func TestHILKeyBounce(t *testing.T) {
	sim := hilSim(t)
	r := openHIL(t, sim, hilConfig(t, ""))
	k := hilKeys()[20] // seat 3, on 0x21
	bit := uint16(1) << k.pin
	var steps []hilsim.Step
	for range 3 {
		steps = append(steps, hilsim.Step{Closed: bit, Polls: 1}, hilsim.Step{Polls: 1})
	}
	steps = append(steps, held(bit))
	for range 3 {
		steps = append(steps, hilsim.Step{Polls: 1}, hilsim.Step{Closed: bit, Polls: 1})
	}
	steps = append(steps, held(0))
	if err := sim.Keys(hilsim.Script{Addr: k.addr, Steps: steps}); err != nil {
		t.Fatal(err)
	}
	r.scriptsDone()
	if got, want := keyEvents(t, r.take()), []string{keyEvent(k, hw.Down), keyEvent(k, hw.Up)}; !slices.Equal(got, want) {
		t.Errorf("bouncing contact: %v, want %v%s", got, want, r.diag())
	}
	if err := sim.Keys(hilsim.Script{Addr: k.addr, Steps: []hilsim.Step{{Closed: bit, Polls: 1}, held(0)}}); err != nil {
		t.Fatal(err)
	}
	r.scriptsDone()
	if evs := r.take(); len(evs) > 0 {
		t.Errorf("a one-poll blip: %s", eventList(evs))
	}
}

// TestHILTwoSeatsAtOnce: two seats on one expander and one on another,
// pressed together: every down comes before any up.
func TestHILTwoSeatsAtOnce(t *testing.T) {
	sim := hilSim(t)
	r := openHIL(t, sim, hilConfig(t, ""))
	keys := hilKeys()
	a, b, c := keys[0], keys[9], keys[125] // seat 1 and seat 2 on 0x20, seat 18 on 0x27
	if a.addr != b.addr || a.seat == b.seat || c.addr == a.addr {
		t.Fatalf("keys %+v %+v %+v", a, b, c)
	}
	both := uint16(1)<<a.pin | uint16(1)<<b.pin
	long := func(mask uint16) hilsim.Step {
		return hilsim.Step{Closed: mask, Polls: 4 * hold, Min: 200 * time.Millisecond}
	}
	if err := sim.Keys(hilsim.Script{Addr: a.addr, Steps: []hilsim.Step{long(both), held(0)}}, hilsim.Script{Addr: c.addr, Steps: []hilsim.Step{long(1 << c.pin), held(0)}}); err != nil {
		t.Fatal(err)
	}
	r.scriptsDone()
	got := keyEvents(t, r.take())
	if len(got) != 6 {
		t.Fatalf("events: %v, want 3 downs and 3 ups", got)
	}
	for i, e := range got {
		if want := i < 3; strings.HasSuffix(e, "down") != want {
			t.Errorf("event %d: %s: the three keys were not down together: %v", i, e, got)
		}
	}
	for _, k := range []hilKey{a, b, c} {
		if !slices.Contains(got, keyEvent(k, hw.Down)) || !slices.Contains(got, keyEvent(k, hw.Up)) {
			t.Errorf("%s missing: %v", keyEvent(k, hw.Down), got)
		}
	}
}

// TestHILKeyHeldAtOpen: a key already held when the table opens is reported
// as a press once it has held for the debounce time, then its release.
func TestHILKeyHeldAtOpen(t *testing.T) {
	sim := hilSim(t)
	k := hilKeys()[40] // seat 6, on 0x22
	if err := sim.Keys(hilsim.Script{Addr: k.addr, Steps: []hilsim.Step{{Closed: 1 << k.pin}}}); err != nil {
		t.Fatal(err)
	}
	r := openHIL(t, sim, hilConfig(t, ""))
	r.until("the held key", 100, func() bool { return len(r.evs) > r.seen })
	if got := keyEvents(t, r.take()); !slices.Equal(got, []string{keyEvent(k, hw.Down)}) {
		t.Errorf("held at open: %v", got)
	}
	if err := sim.Keys(hilsim.Script{Addr: k.addr, Steps: []hilsim.Step{held(0)}}); err != nil {
		t.Fatal(err)
	}
	r.scriptsDone()
	if got := keyEvents(t, r.take()); !slices.Equal(got, []string{keyEvent(k, hw.Up)}) {
		t.Errorf("released: %v", got)
	}
}

// TestHILExpanderStopsAnswering: an expander that stops answering takes the
// link down, naming it and the kernel's error; the other expanders' keys
// still come meanwhile; when it answers again the link comes back up and
// its keys work.
func TestHILExpanderStopsAnswering(t *testing.T) {
	sim := hilSim(t)
	r := openHIL(t, sim, hilConfig(t, ""))
	if err := sim.SetNAK(0x23, true); err != nil {
		t.Fatal(err)
	}
	var down hw.Event
	r.until("link down", 50, func() bool {
		for _, ev := range r.evs[r.seen:] {
			if ev.Kind == hw.EventLink && !ev.Link.Up {
				down = ev
				return true
			}
		}
		return false
	})
	r.take()
	if d := down.Link.Detail; !strings.Contains(d, "擴充晶片 0x23") || !strings.Contains(d, "remote I/O error") || strings.Contains(d, "0x24") {
		t.Errorf("link down: %q, want expander 0x23 and the kernel's remote I/O error, no other", d)
	}
	keys := hilKeys()
	other := keys[0] // on 0x20
	if err := sim.Keys(hilsim.Script{Addr: other.addr, Steps: press(1 << other.pin)}); err != nil {
		t.Fatal(err)
	}
	r.scriptsDone()
	if got := keyEvents(t, r.take()); !slices.Equal(got, []string{keyEvent(other, hw.Down), keyEvent(other, hw.Up)}) {
		t.Errorf("a key on 0x20 while 0x23 is down: %v%s", got, r.diag())
	}
	if err := sim.SetNAK(0x23, false); err != nil {
		t.Fatal(err)
	}
	r.until("link up", 50, func() bool { return len(r.evs) > r.seen })
	if evs := r.take(); len(evs) != 1 || evs[0].Kind != hw.EventLink || !evs[0].Link.Up {
		t.Errorf("back: %s, want one link-up event", eventList(evs))
	}
	k := keys[3*16+5] // on 0x23
	if err := sim.Keys(hilsim.Script{Addr: k.addr, Steps: press(1 << k.pin)}); err != nil {
		t.Fatal(err)
	}
	r.scriptsDone()
	if got := keyEvents(t, r.take()); !slices.Equal(got, []string{keyEvent(k, hw.Down), keyEvent(k, hw.Up)}) {
		t.Errorf("a key on 0x23 once it answers again: %v%s", got, r.diag())
	}
}
