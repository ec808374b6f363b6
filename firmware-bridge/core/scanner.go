package core

import (
	"strconv"

	"wolftable/firmware-bridge/protocol"
)

// ShiftChain is a chain of 74HC165 parallel-in, serial-out shift registers:
// /PL latches every register's eight inputs at once, then each CP rising edge
// moves the chain one bit towards Q7 of the last register.
//
// Seat order. The register whose Q7 the microcontroller reads is the first
// register of seat 1's panel (or of the last seat's, with
// ScanConfig.ChainFromLastSeat); its serial input DS comes from the next
// register of the same panel, and the panel's last register's DS from the
// next seat's first register, and so on. The Scanner reads
// BitsPerSeat bits per seat, seat by seat in that order, and numbers them in
// the order they come: bit 0 is input H (D7) of the panel's first register,
// which Q7 shows right after the load, bit 7 its input A (D0), bit 8 input H
// of the panel's second register, and so on.
//
// With ScanConfig.TailLow the DS of the register farthest from the
// microcontroller is tied to ground, and the Scanner shifts one bit more
// than the panels hold: that bit is DS's level, and reads high only when
// nothing drives Q7 (the chain is unplugged or cut and the input's pull-up
// wins).
type ShiftChain interface {
	// Load latches the parallel inputs of every register (pulses /PL low).
	Load()
	// ShiftBit returns the level at Q7 and clocks the chain once (pulses CP),
	// so that the next call returns the next bit.
	ShiftBit() bool
}

// Pin is a digital input, such as the judge's pedal. TinyGo's machine.Pin
// implements it.
type Pin interface {
	Get() bool
}

// NoKey marks a shift-register bit with no key wired to it.
const NoKey protocol.Key = 0xFF

// DebounceMicros is how long a contact's new level must hold before the
// Scanner reports the edge: 5 ms.
const DebounceMicros = 5000

// ScanConfig describes the keys the bridge scans.
type ScanConfig struct {
	Seats       int            // seats on the chain, protocol.MinSeats…MaxSeats
	BitsPerSeat int            // shift-register bits per seat panel, 16…24
	KeyMap      []protocol.Key // KeyMap[i] is the key on bit i of every seat's panel, or NoKey; len(KeyMap) == BitsPerSeat; seat keys only, each at most once
	ActiveLow   bool           // a closed contact reads 0 (inputs pulled up, keys to ground): the usual wiring

	ChainFromLastSeat bool // the register on the microcontroller's Q7 input is the last seat's, not seat 1's
	TailLow           bool // DS of the register farthest from the microcontroller is tied to ground: check one bit past the chain

	Pedal          Pin  // the judge's pedal on a bridge GPIO; nil if it is wired elsewhere
	PedalActiveLow bool // the pedal reads 0 when pressed
}

// DefaultKeyMap returns the key map of the reference seat panel: bit i is key
// i, Key0…KeyBoom on bits 0…16, and the rest unused. With 16 bits per seat
// the panel has no BOOM key.
func DefaultKeyMap(bitsPerSeat int) []protocol.Key {
	m := make([]protocol.Key, bitsPerSeat)
	for i := range m {
		m[i] = NoKey
		if i < protocol.NumSeatKeys {
			m[i] = protocol.Key(i)
		}
	}
	return m
}

func (c *ScanConfig) validate() error {
	if c.Seats < protocol.MinSeats || c.Seats > protocol.MaxSeats {
		return &ConfigError{"Scan.Seats", c.Seats, "out of range 6…18"}
	}
	if c.BitsPerSeat < protocol.MinBitsPerSeat || c.BitsPerSeat > protocol.MaxBitsPerSeat {
		return &ConfigError{"Scan.BitsPerSeat", c.BitsPerSeat, "out of range 16…24"}
	}
	if len(c.KeyMap) != c.BitsPerSeat {
		return &ConfigError{"len(Scan.KeyMap)", len(c.KeyMap), "differs from BitsPerSeat"}
	}
	var seen [protocol.NumKeys]bool
	keys := 0
	for i, k := range c.KeyMap {
		switch {
		case k == NoKey:
			continue
		case int(k) >= protocol.NumSeatKeys:
			return &ConfigError{"Scan.KeyMap[" + strconv.Itoa(i) + "]", int(k), "not a seat key"}
		case seen[k]:
			return &ConfigError{"Scan.KeyMap[" + strconv.Itoa(i) + "]", int(k), "duplicate key"}
		}
		seen[k] = true
		keys++
	}
	if keys == 0 {
		return &ConfigError{"Scan.KeyMap", 0, "maps no key"}
	}
	return nil
}

// contacts debounces up to 24 contacts.
type contacts struct {
	raw     uint32                          // level at the last scan, 1 = closed
	stable  uint32                          // debounced level
	leaving uint32                          // bits whose raw level has left the stable one since it last settled
	since   [protocol.MaxBitsPerSeat]uint64 // when each raw bit last changed, µs
	first   [protocol.MaxBitsPerSeat]uint64 // when each leaving bit first changed: the edge's time
}

// Scanner reads the seat panels through a ShiftChain, debounces every key
// and queues a protocol.KeyEvent for each debounced edge, numbering the
// presses of each key. The caller calls Tick about every millisecond; the
// Scanner itself keeps no clock.
type Scanner struct {
	chain          ShiftChain
	pedal          Pin
	pedalActiveLow bool
	seats, bits    int
	activeLow      bool
	keyOf          [protocol.MaxBitsPerSeat]protocol.Key
	mapped         uint32 // bits that have a key
	keysPerSeat    int

	fromLast, tailLow bool

	seat       [protocol.MaxSeats]contacts
	raw        [protocol.MaxSeats]uint32 // each seat's contacts at the last scan, faulty or not
	pedalState contacts

	// Chain faults (see Fault): seats that read every contact closed, and
	// whether the bit past the chain read high, at the last scan and at the
	// first.
	stuck, startStuck uint32 // bit n-1: seat n
	open, startOpen   bool
	scanned           bool
	presses           [protocol.MaxSeats + 1][protocol.NumKeys]uint16
	queue             EventQueue
}

// NewScanner returns a Scanner reading chain as cfg describes.
func NewScanner(chain ShiftChain, cfg ScanConfig) (*Scanner, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	s := &Scanner{
		chain:          chain,
		pedal:          cfg.Pedal,
		pedalActiveLow: cfg.PedalActiveLow,
		seats:          cfg.Seats,
		bits:           cfg.BitsPerSeat,
		activeLow:      cfg.ActiveLow,
		fromLast:       cfg.ChainFromLastSeat,
		tailLow:        cfg.TailLow,
	}
	for i, k := range cfg.KeyMap {
		s.keyOf[i] = k
		if k != NoKey {
			s.mapped |= 1 << i
			s.keysPerSeat++
		}
	}
	return s, nil
}

// Tick scans every seat (one Load, then Seats×BitsPerSeat shifts, one more
// with TailLow) and the pedal at time now, in µs since boot, and queues the
// edges that have held for DebounceMicros.
//
// A scan the chain cannot have produced is not debounced: when the bit past
// the chain reads high (TailLow) no seat is, and a seat that reads every one
// of its contacts closed (a register without power or a cut chain pulls its
// inputs low, and no panel has all its keys pressed) is skipped. Its keys
// keep their debounced state until the seat reads sensibly again, so a broken
// chain never reports presses; Fault says what was seen.
func (s *Scanner) Tick(now uint64) {
	s.chain.Load()
	all := uint32(1)<<s.bits - 1
	for i := 0; i < s.seats; i++ {
		var bits uint32
		for b := 0; b < s.bits; b++ {
			if s.chain.ShiftBit() != s.activeLow {
				bits |= 1 << b
			}
		}
		n := i
		if s.fromLast {
			n = s.seats - 1 - i
		}
		s.raw[n] = bits
	}
	s.open = s.tailLow && s.chain.ShiftBit()
	s.stuck = 0
	for n := 0; n < s.seats; n++ {
		if s.raw[n] == all {
			s.stuck |= 1 << n
			continue
		}
		if !s.open {
			s.update(&s.seat[n], s.raw[n], s.mapped, uint8(n+1), now)
		}
	}
	if !s.scanned {
		s.scanned = true
		s.startStuck, s.startOpen = s.stuck, s.open
	}
	if s.pedal != nil {
		var bit uint32
		if s.pedal.Get() != s.pedalActiveLow {
			bit = 1
		}
		s.update(&s.pedalState, bit, 1, 0, now)
	}
}

// ChainFault is what a Scanner has seen wrong with its chain.
type ChainFault struct {
	Stuck      uint32 // bit n-1 set: seat n read every contact closed at the last scan
	Open       bool   // the bit past the chain read high at the last scan (TailLow)
	StartStuck uint32 // Stuck at the first scan after boot
	StartOpen  bool   // Open at the first scan after boot
}

// Any reports whether a fault was seen at the first scan or the last.
func (f ChainFault) Any() bool {
	return f.Stuck != 0 || f.Open || f.StartStuck != 0 || f.StartOpen
}

// Fault returns the chain faults seen at the first and the last scan.
func (s *Scanner) Fault() ChainFault {
	return ChainFault{Stuck: s.stuck, Open: s.open, StartStuck: s.startStuck, StartOpen: s.startOpen}
}

// update debounces one seat's contacts (seat 0: the pedal, on bit 0). An
// edge is reported once the new level has held for DebounceMicros, and
// dated when the raw level first left the old one: a contact that bounces
// is dated at its first bounce, so that of two keys pressed together the
// first is the first, however long either bounced.
func (s *Scanner) update(c *contacts, bits, mask uint32, seat uint8, now uint64) {
	for i, changed := 0, bits^c.raw; changed != 0; i, changed = i+1, changed>>1 {
		if changed&1 == 0 {
			continue
		}
		c.since[i] = now
		if c.leaving&(1<<i) == 0 {
			c.leaving |= 1 << i
			c.first[i] = now
		}
	}
	c.raw = bits
	for i, pending := 0, c.leaving; pending != 0; i, pending = i+1, pending>>1 {
		if pending&1 == 0 || now-c.since[i] < DebounceMicros {
			continue
		}
		// The raw level has held for DebounceMicros: at the stable level
		// (a glitch, no edge) or at the other one (an edge).
		c.leaving &^= 1 << i
		if (c.raw^c.stable)&(1<<i) == 0 || mask&(1<<i) == 0 {
			continue
		}
		c.stable ^= 1 << i
		key := protocol.KeyPedal
		if seat != 0 {
			key = s.keyOf[i]
		}
		s.emit(seat, key, c.stable&(1<<i) != 0, c.first[i])
	}
}

func (s *Scanner) emit(seat uint8, key protocol.Key, down bool, at uint64) {
	n := &s.presses[seat][key]
	edge := protocol.EdgeUp
	if down {
		*n++
		edge = protocol.EdgeDown
	}
	s.queue.Push(protocol.KeyEvent{Seat: seat, Key: key, Edge: edge, Counter: *n, Micros: uint32(at)})
}

// Next removes and returns the oldest queued key event.
func (s *Scanner) Next() (protocol.KeyEvent, bool) { return s.queue.Pop() }

// Pending returns the number of queued key events.
func (s *Scanner) Pending() int { return s.queue.Len() }

// Overflows returns how many key events were dropped because the queue was
// full.
func (s *Scanner) Overflows() uint32 { return s.queue.Overflows() }

// RawBits returns seat's contacts at the last scan, before debouncing and
// the key map: bit i is set when the contact on bit i is closed. seat is
// 1…Seats; other seats read 0.
func (s *Scanner) RawBits(seat int) uint32 {
	if seat < 1 || seat > s.seats {
		return 0
	}
	return s.raw[seat-1]
}

// Seats returns the number of seats scanned.
func (s *Scanner) Seats() int { return s.seats }

// BitsPerSeat returns the number of shift-register bits per seat.
func (s *Scanner) BitsPerSeat() int { return s.bits }

// KeysPerSeat returns the number of keys the key map wires on each seat.
func (s *Scanner) KeysPerSeat() int { return s.keysPerSeat }
