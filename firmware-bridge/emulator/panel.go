package emulator

import (
	"strconv"

	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/protocol"
)

// KeyFault is a seat key's defect, for exercising the self-test.
type KeyFault uint8

// The key faults.
const (
	NoFault    KeyFault = iota // the key works
	KeyMissing                 // the key does nothing: its contact never closes
	KeyBouncy                  // its contact chatters for BounceMicros (BounceTransitions transitions) on every press and release before it settles
	KeyStuck                   // its contact is closed whatever the finger does
	// KeyWorn: a worn contact that closes once more as the finger leaves
	// it, after the firmware's debounce has taken the release: one touch,
	// two presses, the second right after the first's release on the
	// bridge's own clock (whatever the host is doing).
	KeyWorn
)

func (f KeyFault) String() string {
	switch f {
	case NoFault:
		return "ok"
	case KeyMissing:
		return "missing"
	case KeyBouncy:
		return "bouncy"
	case KeyStuck:
		return "stuck"
	case KeyWorn:
		return "worn"
	}
	return "KeyFault(" + strconv.Itoa(int(f)) + ")"
}

// Contact bounce of a KeyBouncy key: the contact changes level
// BounceTransitions times, every BounceMicros/BounceTransitions µs, starting
// at the press (or release), then settles at the new level BounceMicros
// after it.
const (
	BounceMicros      = 3000
	BounceTransitions = 10
)

// contact is one switch on a seat panel or the pedal.
type contact struct {
	finger bool     // what the finger (or foot) is doing: true = pressed
	fault  KeyFault //
	since  uint64   // when finger last changed, µs on the emulator clock

	// What the firmware's scans have seen: the level, the first and the
	// latest scan at that level. Once they are core.DebounceMicros apart the
	// firmware has reported the edge (its debounce times the same samples).
	scanLevel             bool
	scanFirst, scanLatest uint64

	rebound rebound // a KeyWorn contact's closing after a release
}

// rebound is where a KeyWorn contact is in its extra closing.
type rebound uint8

const (
	reboundNone    rebound = iota
	reboundRelease         // the finger left: open until the firmware has taken the release
	reboundClosed          // closed again until the firmware has taken the press
)

// scanned records that a scan at now saw the contact closed or open.
func (c *contact) scanned(closed bool, now uint64) {
	if closed != c.scanLevel {
		c.scanLevel, c.scanFirst = closed, now
	}
	c.scanLatest = now
}

// registered reports whether the firmware has seen the contact settle at
// closed (true) or open (false) long enough to report it.
func (c *contact) registered(closed bool) bool {
	return c.scanLevel == closed && c.scanLatest-c.scanFirst >= core.DebounceMicros
}

// closed reports whether the contact is closed at now (µs on the emulator
// clock).
func (c *contact) closed(now uint64) bool {
	switch c.fault {
	case KeyMissing:
		return false
	case KeyStuck:
		return true
	case KeyBouncy:
		if d := now - c.since; now >= c.since && d < BounceMicros {
			// Transition k happens at since + k·step, k = 0…Transitions-1:
			// after an odd number of them the contact is at the new level.
			k := d/(BounceMicros/BounceTransitions) + 1
			return c.finger == (k%2 == 1)
		}
	case KeyWorn:
		return c.worn()
	}
	return c.finger
}

// worn is a KeyWorn contact's level: the finger's, but after each release
// it closes again, from the scan after the firmware took the release until
// the firmware has taken that press. The scans' state moves it on, so the
// second press follows the release by the debounce and a scan, on the
// emulator's clock.
func (c *contact) worn() bool {
	switch c.rebound {
	case reboundRelease:
		if !c.finger && c.registered(false) {
			c.rebound = reboundClosed
			return true
		}
	case reboundClosed:
		if c.finger || c.registered(true) {
			c.rebound = reboundNone
			return c.finger
		}
		return true
	}
	return c.finger
}

// panel is the seat panels on their 74HC165 chain and the pedal: a
// core.ShiftChain and a core.Pin. Keys are wired as on the reference panel
// (core.DefaultKeyMap): bit i is key i, contacts to ground with pull-ups, so
// a closed contact reads low. The Emulator's mutex guards it.
type panel struct {
	seats, bits int
	keys        [protocol.MaxSeats][protocol.NumSeatKeys]contact
	pedal       contact
	now         uint64 // set by the main loop before each scan

	latched [protocol.MaxSeats * protocol.MaxBitsPerSeat]bool
	pos     int
}

var (
	_ core.ShiftChain = (*panel)(nil)
	_ core.Pin        = (*pedalPin)(nil)
)

func newPanel(seats, bits int) *panel { return &panel{seats: seats, bits: bits} }

// key returns seat's contact for key, or an error if the panel has no such
// key.
func (p *panel) key(seat int, key protocol.Key) (*contact, error) {
	if seat < 1 || seat > p.seats {
		return nil, &SeatError{Seat: seat, Seats: p.seats}
	}
	if int(key) >= protocol.NumSeatKeys || int(key) >= p.bits {
		return nil, &KeyError{Key: key}
	}
	return &p.keys[seat-1][key], nil
}

// set moves seat's key under the finger at now.
func set(c *contact, pressed bool, now uint64) {
	if c.finger != pressed {
		c.finger = pressed
		c.since = now
		if c.fault == KeyWorn && !pressed {
			c.rebound = reboundRelease
		}
	}
}

// Load latches every contact's level at p.now (active low).
func (p *panel) Load() {
	p.pos = 0
	i := 0
	for s := 0; s < p.seats; s++ {
		for b := 0; b < p.bits; b++ {
			closed := false
			if b < protocol.NumSeatKeys {
				c := &p.keys[s][b]
				closed = c.closed(p.now)
				c.scanned(closed, p.now)
			}
			p.latched[i] = !closed
			i++
		}
	}
}

// ShiftBit returns the next latched level; past the chain, an open contact's.
func (p *panel) ShiftBit() bool {
	level := true
	if p.pos < p.seats*p.bits {
		level = p.latched[p.pos]
	}
	p.pos++
	return level
}

// pedalPin is the pedal's GPIO: a switch to ground with a pull-up.
type pedalPin struct{ p *panel }

func (pp *pedalPin) Get() bool {
	c := &pp.p.pedal
	closed := c.closed(pp.p.now)
	c.scanned(closed, pp.p.now)
	return !closed
}

// SeatError reports a seat number outside 1…Seats.
type SeatError struct {
	Seat, Seats int
}

func (e *SeatError) Error() string {
	return "emulator: seat " + strconv.Itoa(e.Seat) + " out of range 1…" + strconv.Itoa(e.Seats)
}

// KeyError reports a key the seat panel does not have.
type KeyError struct {
	Key protocol.Key
}

func (e *KeyError) Error() string {
	return "emulator: the seat panel has no key " + e.Key.String()
}
