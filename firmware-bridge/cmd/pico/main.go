//go:build tinygo

// Command pico is the seat-panel bridge firmware for a Raspberry Pi Pico
// (RP2040). It is a thin shell around firmware-bridge/core: it wires the
// 74HC165 chain, the pedal and the WS2812 chain to GPIOs, and calls
// Bridge.Poll with the USB CDC port every millisecond.
//
//	make firmware            # or, in firmware-bridge:
//	tinygo build -target=pico -serial=usb -scheduler=tasks -o wolftable-bridge.uf2 ./cmd/pico
//
// Built with TinyGo 0.39 (see docs/wiring.md) and its single-core "tasks"
// scheduler: 0.39's rp2040 target defaults to "cores", which moves main
// between the two cores while the USB interrupt runs on core 0 and guards
// the CDC buffers on the calling core only (lost, doubled or stalled
// packets). The firmware starts no goroutine and needs no second core.
//
// The board is set at build time with -ldflags -X, for instance for 10
// seats of two registers wired from the last seat:
//
//	tinygo build … -ldflags "-X main.seats=10 -X main.registersPerSeat=2 -X main.chainFromLastSeat=1" ./cmd/pico
//
// TinyGo 0.39 sets only package-level strings declared without an
// initializer (a variable with one keeps it, silently), so the three are
// declared bare and read at start, an empty one taking its default
// (core.ParseBoard). pico_test.go fails if one gets an initializer.
//
// The host must never open the port at 1200 baud: TinyGo's USB CDC stack
// resets the RP2040 into its UF2 bootloader when the host sets 1200 baud and
// drops DTR (the "1200-baud touch" used for flashing), before this program
// sees anything. The firmware itself never looks at the line coding.
//
// Only built by TinyGo (the tinygo build tag); go build and go vet skip it,
// and its compile check (pico_test.go) type-checks it against stand-ins of
// TinyGo's packages, with the build tags TinyGo 0.39 sets for this build.
package main

import (
	"machine"
	"time"

	"device/arm"
	"device/rp"

	pio "github.com/tinygo-org/pio/rp2-pio"
	"github.com/tinygo-org/pio/rp2-pio/piolib"

	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/protocol"
)

// GPIO wiring (Pico pin numbers are GPIO numbers, not header pins).
const (
	pinPL    = machine.GPIO2  // 74HC165 /PL, parallel load, active low
	pinCP    = machine.GPIO3  // 74HC165 CP, clock, all registers in parallel
	pinQ7    = machine.GPIO4  // Q7 of seat 1's first register (the last seat's, with chainFromLastSeat)
	pinPedal = machine.GPIO15 // judge's pedal: switch to ground, internal pull-up
	pinLEDs  = machine.GPIO16 // WS2812 DIN, through a 3.3 V → 5 V level shifter
	pinFault = machine.LED    // the Pico's own LED: lit while the chain reads broken or the WS2812s fail
)

// The board, set with -ldflags "-X main.name=value": strings without an
// initializer, the only globals TinyGo 0.39's -X sets. Empty: the default
// (core.DefaultBoard: 12 seats of three 74HC165s each, chains from seat 1).
var (
	seats             string // 6…18
	registersPerSeat  string // 2 or 3: 16 or 24 contacts per seat panel
	chainFromLastSeat string // 1: the register on GP4 and the first LED are the last seat's
)

const (
	tickEvery      = time.Millisecond      // scan rate: 1 kHz
	lightsEvery    = 20 * time.Millisecond // WS2812 refresh: 50 Hz, enough for the pulse animation
	watchdogMillis = 500                   // the board restarts if the loop stalls this long
)

// firmware is this firmware's version, reported in Hello.
var firmware = protocol.Version{Major: 0, Minor: 3, Patch: 0}

// config is this board: the build's board (seats, registers, chain
// direction) with the reference key map, keys to ground with pull-ups, the
// far register's DS to ground, the pedal on the bridge.
func config() (core.Config, error) {
	board, err := core.ParseBoard(seats, registersPerSeat, chainFromLastSeat)
	if err != nil {
		return core.Config{}, err
	}
	return board.Config(firmware, pinPedal), nil
}

// settleLoops is core.SettleNanos in CPU cycles at the clock the board runs
// at, set once in main.
var settleLoops uint32

// settle waits at least core.SettleNanos: each iteration takes at least one
// cycle.
func settle() {
	for i := uint32(0); i < settleLoops; i++ {
		arm.Asm("nop")
	}
}

// chain drives the 74HC165s by bit-banging three GPIOs.
type chain struct{}

var _ core.ShiftChain = chain{}

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

// leds is the WS2812 chain on a PIO state machine: its timing does not
// depend on the CPU, and interrupts (USB) stay on while it is written.
type leds struct {
	ws     *piolib.WS2812B
	raw    [2 * protocol.MaxSeats]uint32
	failed bool // setting it up or the last write failed
}

func newLEDs() *leds {
	l := &leds{failed: true}
	sm, err := pio.PIO0.ClaimStateMachine()
	if err != nil {
		return l
	}
	ws, err := piolib.NewWS2812B(sm, pinLEDs)
	if err != nil {
		return l
	}
	l.ws, l.failed = ws, false
	return l
}

// show writes a frame of GRB bytes (core.Lights.Frame). It blocks while the
// PIO's FIFO takes the pixels: 30 µs a pixel, beyond the FIFO's eight.
func (l *leds) show(frame []byte) {
	if l.ws == nil {
		return
	}
	n := 0
	for i := 0; i+2 < len(frame) && n < len(l.raw); i += 3 {
		l.raw[n] = uint32(frame[i])<<24 | uint32(frame[i+1])<<16 | uint32(frame[i+2])<<8
		n++
	}
	l.failed = l.ws.WriteRaw(l.raw[:n]) != nil
}

func main() {
	pinFault.Configure(machine.PinConfig{Mode: machine.PinOutput})
	pinFault.Low()
	pinPL.Configure(machine.PinConfig{Mode: machine.PinOutput})
	pinPL.High()
	pinCP.Configure(machine.PinConfig{Mode: machine.PinOutput})
	pinCP.Low()
	// Pulled up: an unplugged chain reads all open, never all pressed.
	pinQ7.Configure(machine.PinConfig{Mode: machine.PinInputPullup})
	pinPedal.Configure(machine.PinConfig{Mode: machine.PinInputPullup})
	settleLoops = core.SettleCycles(machine.CPUFrequency(), core.SettleNanos)

	// Why the board started, before this firmware's watchdog runs; the host
	// sees it in Stats (protocol version 2).
	reset := core.ResetReasonOf(rp.WATCHDOG.REASON.Get(), rp.WATCHDOG.SCRATCH4.Get(), rp.VREG_AND_CHIP_RESET.CHIP_RESET.Get())
	println("bridge: started after a", reset.String(), "reset")

	cfg, err := config()
	cfg.ResetReason = reset
	var bridge *core.Bridge
	if err == nil {
		bridge, err = core.NewBridge(cfg, chain{})
	}
	if err != nil {
		for { // a build with a bad board: blink and say so on the console, never panic
			println("bridge:", err.Error())
			pinFault.Set(!pinFault.Get())
			time.Sleep(250 * time.Millisecond)
		}
	}
	lights := newLEDs()

	// From here on a stall of watchdogMillis restarts the board (a panic
	// halts TinyGo's runtime in a loop, which the watchdog ends too).
	machine.Watchdog.Configure(machine.WatchdogConfig{TimeoutMillis: watchdogMillis})
	if err := machine.Watchdog.Start(); err != nil {
		println("watchdog:", err.Error())
	}
	// Marks the watchdog as this firmware's: its reset, and only its, then
	// reads as a watchdog reset (core.ResetReasonOf).
	rp.WATCHDOG.SCRATCH4.Set(core.WatchdogMagic)

	var port core.Port = machine.Serial // USB CDC with -serial=usb
	start := time.Now()
	next := time.Duration(0)
	lastLights := -lightsEvery
	for {
		now := time.Since(start)
		bridge.Poll(port, uint64(now/time.Microsecond))
		if now-lastLights >= lightsEvery {
			lastLights = now
			lights.show(bridge.LightFrame())
			// The LED frame took a millisecond or so: drain USB's receive
			// buffer again (it holds 128 bytes and drops what does not fit).
			bridge.Receive(port)
			pinFault.Set(lights.failed || bridge.ChainFault().Any())
		}
		machine.Watchdog.Update()
		next += tickEvery
		if d := next - time.Since(start); d > 0 {
			time.Sleep(d)
		} else {
			next = time.Since(start) // late: no burst of catch-up ticks
		}
	}
}
