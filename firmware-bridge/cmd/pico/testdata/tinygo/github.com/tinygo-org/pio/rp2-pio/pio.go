// Package pio is a stand-in for github.com/tinygo-org/pio/rp2-pio v0.3.0
// (built only for rp2040 and rp2350) for the firmware's compile check: the
// declarations cmd/pico uses, with their real signatures, which the check
// compares with the module's source. It is never run.
package pio

// pio.go
var (
	PIO0 = &PIO{}
)

type PIO struct {
	usedSpaceMask uint32
	claimedSMMask uint8
}

func (pio *PIO) ClaimStateMachine() (sm StateMachine, err error) {
	return StateMachine{pio: pio}, nil
}

// statemachine.go
type StateMachine struct {
	pio *PIO

	index uint8
}
