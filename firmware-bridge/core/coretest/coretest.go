package coretest

import "wolftable/firmware-bridge/core"

// Chain is a fake 74HC165 chain of Seats×BitsPerSeat contacts, presented in
// the order core.Scanner reads them: seat 1 bit 0 first. It records how it is
// driven so tests can check the scan sequence.
type Chain struct {
	seats, bitsPerSeat int
	activeLow          bool
	closed             []bool // contact state, [seat-1][bit] flattened
	latched            []bool // levels latched by the last Load
	pos                int

	Loads  int // Load calls
	Shifts int // ShiftBit calls
}

var _ core.ShiftChain = (*Chain)(nil)

// NewChain returns a chain with every contact open. With activeLow a closed
// contact reads 0, as on a board with pull-ups.
func NewChain(seats, bitsPerSeat int, activeLow bool) *Chain {
	return &Chain{
		seats:       seats,
		bitsPerSeat: bitsPerSeat,
		activeLow:   activeLow,
		closed:      make([]bool, seats*bitsPerSeat),
		latched:     make([]bool, seats*bitsPerSeat),
	}
}

// Set closes or opens the contact on bit of seat (1-based). Out-of-range
// contacts are ignored.
func (c *Chain) Set(seat, bit int, closed bool) {
	if seat < 1 || seat > c.seats || bit < 0 || bit >= c.bitsPerSeat {
		return
	}
	c.closed[(seat-1)*c.bitsPerSeat+bit] = closed
}

// Press closes the contact on bit of seat.
func (c *Chain) Press(seat, bit int) { c.Set(seat, bit, true) }

// Release opens the contact on bit of seat.
func (c *Chain) Release(seat, bit int) { c.Set(seat, bit, false) }

// Load latches the contacts' levels.
func (c *Chain) Load() {
	c.Loads++
	c.pos = 0
	for i, closed := range c.closed {
		c.latched[i] = closed != c.activeLow
	}
}

// ShiftBit returns the next latched level. Past the end of the chain it
// returns the level of an open contact, as the serial input of a chain tied
// to its idle level would.
func (c *Chain) ShiftBit() bool {
	c.Shifts++
	level := c.activeLow // open contact
	if c.pos < len(c.latched) {
		level = c.latched[c.pos]
	}
	c.pos++
	return level
}

// Pin is a fake digital input.
type Pin struct {
	High bool
}

var _ core.Pin = (*Pin)(nil)

// Get returns the pin's level.
func (p *Pin) Get() bool { return p.High }
