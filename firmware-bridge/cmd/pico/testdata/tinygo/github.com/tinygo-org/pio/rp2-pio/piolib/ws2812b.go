// Package piolib is a stand-in for github.com/tinygo-org/pio/rp2-pio/piolib
// v0.3.0 (built only for rp2040 and rp2350) for the firmware's compile
// check: the declarations cmd/pico uses, with their real signatures, which
// the check compares with the module's source. It is never run.
package piolib

import (
	"machine"

	pio "github.com/tinygo-org/pio/rp2-pio"
)

// ws2812b.go
type WS2812B struct {
	sm     pio.StateMachine
	offset uint8
}

func NewWS2812B(sm pio.StateMachine, pin machine.Pin) (*WS2812B, error) {
	return &WS2812B{sm: sm}, nil
}

func (ws *WS2812B) WriteRaw(rawGRB []uint32) error { return nil }
