//go:build tinygo

// Command pico is the seat-panel bridge firmware for a Raspberry Pi Pico
// (RP2040). It is a thin shell around firmware-bridge/core: it wires the
// 74HC165 chain, the pedal and the WS2812 chain to GPIOs, moves bytes between
// USB CDC and core.Bridge, and calls Bridge.Tick every millisecond.
//
//	tinygo flash -target=pico -serial=usb ./firmware-bridge/cmd/pico
//
// The host must never open the port at 1200 baud: TinyGo's USB CDC stack
// resets the RP2040 into its UF2 bootloader when the host sets 1200 baud and
// drops DTR (the "1200-baud touch" used for flashing), before this program
// sees anything. The firmware itself never looks at the line coding.
//
// Only built by TinyGo (the tinygo build tag); go build and go vet skip it.
package main

import (
	"image/color"
	"machine"
	"time"

	"device/arm"

	"tinygo.org/x/drivers/ws2812"

	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/protocol"
)

// GPIO wiring (Pico pin numbers are GPIO numbers, not header pins).
const (
	pinPL    = machine.GPIO2  // 74HC165 /PL, parallel load, active low
	pinCP    = machine.GPIO3  // 74HC165 CP, clock, all registers in parallel
	pinQ7    = machine.GPIO4  // Q7 of the register holding seat 1's bits 0…7
	pinPedal = machine.GPIO15 // judge's pedal: switch to ground, internal pull-up
	pinLEDs  = machine.GPIO16 // WS2812 DIN, through a 3.3 V → 5 V level shifter
)

// config is this board: 12 seats of three 74HC165s each, the reference key
// map, keys to ground with pull-ups, the pedal on the bridge.
var config = core.Config{
	Firmware: protocol.Version{Major: 0, Minor: 1, Patch: 0},
	Scan: core.ScanConfig{
		Seats:          12,
		BitsPerSeat:    24,
		KeyMap:         core.DefaultKeyMap(24),
		ActiveLow:      true,
		Pedal:          pinPedal,
		PedalActiveLow: true,
	},
	PrivateLEDs: false,
}

const (
	tickEvery   = time.Millisecond      // scan rate: 1 kHz
	lightsEvery = 20 * time.Millisecond // WS2812 refresh: 50 Hz, enough for the pulse animation
)

// chain drives the 74HC165s by bit-banging three GPIOs.
type chain struct{}

var _ core.ShiftChain = chain{}

// settle waits out the 74HC165's minimum pulse widths and set-up times
// (about 100 ns at 3.3 V): a few dozen cycles at 125 MHz.
func settle() {
	for i := 0; i < 16; i++ {
		arm.Asm("nop")
	}
}

func (chain) Load() {
	pinPL.Low()
	settle()
	pinPL.High()
	settle()
}

func (chain) ShiftBit() bool {
	bit := pinQ7.Get()
	pinCP.High()
	settle()
	pinCP.Low()
	settle()
	return bit
}

func main() {
	pinPL.Configure(machine.PinConfig{Mode: machine.PinOutput})
	pinPL.High()
	pinCP.Configure(machine.PinConfig{Mode: machine.PinOutput})
	pinCP.Low()
	pinQ7.Configure(machine.PinConfig{Mode: machine.PinInput})
	pinPedal.Configure(machine.PinConfig{Mode: machine.PinInputPullup})
	pinLEDs.Configure(machine.PinConfig{Mode: machine.PinOutput})
	leds := ws2812.NewWS2812(pinLEDs) // PIO-driven on the RP2040: interrupts stay on

	bridge, err := core.NewBridge(config, chain{})
	if err != nil {
		for { // a build with a bad config: say so on the console, never panic
			println("bridge:", err.Error())
			time.Sleep(time.Second)
		}
	}

	serial := machine.Serial // USB CDC with -serial=usb
	var rx [64]byte
	var pixels [2 * protocol.MaxSeats]color.RGBA
	start := time.Now()
	next := time.Duration(0)
	lastLights := -lightsEvery
	for {
		now := time.Since(start)

		for serial.Buffered() > 0 {
			n := 0
			for n < len(rx) && serial.Buffered() > 0 {
				c, err := serial.ReadByte()
				if err != nil {
					break
				}
				rx[n] = c
				n++
			}
			bridge.HandleBytes(rx[:n])
		}

		out := bridge.Tick(uint64(now / time.Microsecond))
		// TinyGo's CDC driver drops writes until the host raises DTR (opens
		// the port); until then there is no one to hear, and unacked key
		// events wait in the bridge for the host to come.
		if len(out) > 0 && serial.DTR() {
			serial.Write(out)
		}

		if now-lastLights >= lightsEvery {
			lastLights = now
			frame := bridge.LightFrame() // GRB bytes
			n := 0
			for i := 0; i+2 < len(frame) && n < len(pixels); i += 3 {
				pixels[n] = color.RGBA{R: frame[i+1], G: frame[i], B: frame[i+2], A: 255}
				n++
			}
			leds.WriteColors(pixels[:n])
		}

		next += tickEvery
		if d := next - time.Since(start); d > 0 {
			time.Sleep(d)
		} else {
			next = time.Since(start) // late: no burst of catch-up ticks
		}
	}
}
