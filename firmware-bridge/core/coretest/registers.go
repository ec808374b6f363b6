package coretest

import "wolftable/firmware-bridge/core"

// Registers is a chain of 74HC165s as it is wired, for tests that must not
// assume the order core reads it in: register 0's Q7 goes to the
// microcontroller, register r's DS comes from register r+1's Q7, and the
// last register's DS is tied to the level DS. Load latches every input;
// each ShiftBit returns Q7 and clocks the chain once, as the datasheet's
// timing diagram has it: after a load Q7 shows register 0's input H, then G
// … A, then register 1's H, and after the last register's A the level of DS.
type Registers struct {
	Input [][8]bool // Input[r][i]: the level on register r's input i (0 = A … 7 = H)
	DS    bool      // the far end's serial input

	shift []bool // the chain's flip-flops, Q7 first
}

var _ core.ShiftChain = (*Registers)(nil)

// NewRegisters returns a chain of n registers with every input at level.
func NewRegisters(n int, level bool) *Registers {
	r := &Registers{Input: make([][8]bool, n), shift: make([]bool, 8*n)}
	for i := range r.Input {
		for j := range r.Input[i] {
			r.Input[i][j] = level
		}
	}
	return r
}

// Load latches the inputs: register r's input H into the flip-flop nearest
// its Q7.
func (r *Registers) Load() {
	for i, in := range r.Input {
		for j := 0; j < 8; j++ {
			r.shift[8*i+j] = in[7-j]
		}
	}
}

// ShiftBit returns Q7 of register 0 and moves every bit one flip-flop
// towards it, DS entering at the far end.
func (r *Registers) ShiftBit() bool {
	if len(r.shift) == 0 {
		return r.DS
	}
	q7 := r.shift[0]
	copy(r.shift, r.shift[1:])
	r.shift[len(r.shift)-1] = r.DS
	return q7
}
