package emulator

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"wolftable/firmware-bridge/protocol"
)

// Timings of the scripted gestures. A tap or a pedal press is held well past
// the firmware's 5 ms debounce, and Tap and Pedal wait after the last
// release so that the next gesture is a new press.
const (
	TapHold         = 60 * time.Millisecond   // Tap holds the key this long
	TapGap          = 20 * time.Millisecond   // and then waits this long
	PedalShortHold  = 150 * time.Millisecond  // a short press
	PedalLongHold   = 1200 * time.Millisecond // a long press (hw's default threshold is 800 ms)
	PedalDoubleHold = 100 * time.Millisecond  // each press of a double press…
	PedalDoubleGap  = 150 * time.Millisecond  // …and the gap between them (hw's default window is 350 ms)

	// registerTimeout bounds how long a gesture waits for the firmware to
	// register a level (see Tap).
	registerTimeout = time.Second
)

// Tap presses seat's key, holds it for TapHold, releases it and waits
// TapGap. Like a person who holds a key until it clicks, it holds and waits
// at least until the firmware's scan has registered the press and then the
// release, even if the main loop runs late (a loaded machine, the race
// detector): a tap is never too short to be seen. It does not wait for a key
// whose fault keeps it from following the finger, for a hung firmware, nor
// more than a second of the emulator clock. On a manual clock it advances
// the clock (Config.ManualClock).
func (e *Emulator) Tap(seat int, key protocol.Key) error {
	ctx := context.Background()
	if err := e.Press(seat, key); err != nil {
		return err
	}
	if err := e.sleep(ctx, TapHold); err != nil {
		return err
	}
	e.waitRegistered(func() *contact { c, _ := e.panel.key(seat, key); return c }, true)
	if err := e.Release(seat, key); err != nil {
		return err
	}
	if err := e.sleep(ctx, TapGap); err != nil {
		return err
	}
	e.waitRegistered(func() *contact { c, _ := e.panel.key(seat, key); return c }, false)
	return nil
}

// waitRegistered waits until the firmware's scan has registered the contact
// at closed or open, or there is no point waiting, at most registerTimeout
// of the emulator clock.
func (e *Emulator) waitRegistered(contactOf func() *contact, closed bool) {
	for waited := time.Duration(0); waited < registerTimeout; waited += TickInterval {
		e.mu.Lock()
		c := contactOf()
		done := c.registered(closed) || e.plug == nil || e.hung || c.fault == KeyMissing || c.fault == KeyStuck
		e.mu.Unlock()
		if done || e.sleep(context.Background(), TickInterval) != nil {
			return
		}
	}
}

// PedalPress is a gesture on the judge's pedal.
type PedalPress uint8

// The pedal gestures.
const (
	PedalShort  PedalPress = iota // held PedalShortHold
	PedalLong                     // held PedalLongHold
	PedalDouble                   // two presses of PedalDoubleHold, PedalDoubleGap apart
)

func (p PedalPress) String() string {
	switch p {
	case PedalShort:
		return "short"
	case PedalLong:
		return "long"
	case PedalDouble:
		return "double"
	}
	return "PedalPress(" + strconv.Itoa(int(p)) + ")"
}

// ParsePedalPress reads "short", "long" or "double".
func ParsePedalPress(s string) (PedalPress, error) {
	for p := PedalShort; p <= PedalDouble; p++ {
		if p.String() == s {
			return p, nil
		}
	}
	return 0, fmt.Errorf("emulator: unknown pedal press %q (short, long, double)", s)
}

// Pedal steps on the judge's pedal with a gesture at human timings and
// returns after the last release and a TapGap; like Tap, it holds each level
// at least until the firmware has registered it. If ctx ends first, the foot
// comes off the pedal and Pedal returns ctx's error.
func (e *Emulator) Pedal(ctx context.Context, p PedalPress) error {
	if e.cfg.NoPedal {
		return ErrNoPedal
	}
	var steps []time.Duration // alternately held down and up
	switch p {
	case PedalShort:
		steps = []time.Duration{PedalShortHold}
	case PedalLong:
		steps = []time.Duration{PedalLongHold}
	case PedalDouble:
		steps = []time.Duration{PedalDoubleHold, PedalDoubleGap, PedalDoubleHold}
	default:
		return fmt.Errorf("emulator: unknown pedal press %d", p)
	}
	steps = append(steps, TapGap)
	defer e.setPedal(false)
	for i, d := range steps {
		down := i%2 == 0
		e.setPedal(down)
		if err := e.sleep(ctx, d); err != nil {
			return err
		}
		e.waitRegistered(func() *contact { return &e.panel.pedal }, down)
	}
	return nil
}

// PressPedal puts the foot on the pedal and keeps it there.
func (e *Emulator) PressPedal() error {
	if e.cfg.NoPedal {
		return ErrNoPedal
	}
	e.setPedal(true)
	return nil
}

// ReleasePedal lifts the foot from the pedal.
func (e *Emulator) ReleasePedal() error {
	if e.cfg.NoPedal {
		return ErrNoPedal
	}
	e.setPedal(false)
	return nil
}

func (e *Emulator) setPedal(down bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	set(&e.panel.pedal, down, e.clock())
}
