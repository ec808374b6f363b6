//go:build hil

package selftest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"wolftable/hw"
	"wolftable/internal/hilsim"
)

// hilTech is a technician at the simulated GPIO table of the HIL VM: its
// fingers close the expanders' contacts (hil-i2c), its foot closes the
// pedal's switch (hil-gpio), and its eyes are the WS2812 chain read back
// from the SPI port (hil-spi). The table's faults are the simulated
// hardware's: a dead LED the eyes see dark, a key contact that never closes,
// one that bounces, one closed from the start. The runner is never told.
type hilTech struct {
	t      *testing.T
	sim    *hilsim.Sim
	cfg    *hw.Config
	faults []Fault

	mu     sync.Mutex
	wrong  map[int][]seenWrong
	judged map[int]bool
}

var (
	_ Technician = (*hilTech)(nil)
	_ Noter      = (*hilTech)(nil)
)

func newHILTech(t *testing.T, sim *hilsim.Sim, cfg *hw.Config, faults ...Fault) *hilTech {
	return &hilTech{t: t, sim: sim, cfg: cfg, faults: faults, wrong: map[int][]seenWrong{}, judged: map[int]bool{}}
}

func (h *hilTech) fault(kind FaultKind, seat int, key hw.Key) bool {
	for _, f := range h.faults {
		if f.Kind == kind && f.Seat == seat && (!kind.needsKey() || f.Key == key) {
			return true
		}
	}
	return false
}

func (h *hilTech) Name() string {
	return "HIL technician (the simulated table's contacts, switch and LED chain)"
}

// Pace: every press returns once the driver has polled it through, so
// little is on its way after PressKeys; Answer only bounds a failure.
func (h *hilTech) Pace() Pace {
	return Pace{Dwell: 0, Answer: 30 * time.Second, Settle: time.Second, Quiet: 50 * time.Millisecond}
}

// polls is the driver's progress: its reads of the pedal's line.
func (h *hilTech) polls() (uint64, error) {
	l, err := h.sim.Line("GPIO17")
	return l.Reads, err
}

// played waits until the scripts of the contacts and the pedal have played,
// and two more polls.
func (h *hilTech) played(ctx context.Context) error {
	var until uint64
	return hilsim.Progress(ctx, h.polls, 2000, 10*time.Second, func() (bool, error) {
		xs, err := h.sim.Expanders()
		if err != nil {
			return false, err
		}
		l, err := h.sim.Line("GPIO17")
		if err != nil {
			return false, err
		}
		done := l.Step == l.Steps
		for _, x := range xs {
			done = done && x.Step == x.Steps
		}
		switch {
		case !done:
			return false, nil
		case until == 0:
			until = l.Reads + 2
		}
		return l.Reads >= until, nil
	})
}

// LookAt implements Technician: the chain must show want, number lights
// and private indicators, every seat.
func (h *hilTech) LookAt(ctx context.Context, seat int, want []hw.SeatLight) error {
	h.mu.Lock()
	judged := h.judged[seat]
	h.mu.Unlock()
	if judged {
		return nil
	}
	tr, err := h.sim.LastTransfer()
	if err != nil {
		return err
	}
	leds, err := hilsim.DecodeWS2812(tr.Data)
	if err != nil {
		return err
	}
	seen := h.seen(leds)
	step := want[seat-1].Color.String()
	if want[seat-1].Private {
		step = "private"
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := 1; s <= len(want); s++ {
		got, ok := seen[s]
		if !ok {
			h.wrong[seat] = append(h.wrong[seat], seenWrong{step, fmt.Sprintf("seat %d not on the chain", s)})
			continue
		}
		if w := want[s-1].Color.String(); got.color != w {
			h.wrong[seat] = append(h.wrong[seat], seenWrong{step, fmt.Sprintf("seat %d showed %s", s, got.color)})
		}
		if h.cfg.GPIO.PrivateLED && got.private != want[s-1].Private {
			h.wrong[seat] = append(h.wrong[seat], seenWrong{step, fmt.Sprintf("seat %d's private indicator %v", s, map[bool]string{true: "on", false: "off"}[got.private])})
		}
	}
	return nil
}

type seatSeen struct {
	color   string
	private bool
}

// seen is what the eye sees of each seat along the chain: the config's LED
// order and grouping, a dead LED dark.
func (h *hilTech) seen(leds []hilsim.RGB) map[int]seatSeen {
	g := &h.cfg.GPIO
	group := g.LEDsPerSeat
	if g.PrivateLED {
		group++
	}
	out := map[int]seatSeen{}
	for i, seat := range g.Order(h.cfg.Seats) {
		if (i+1)*group > len(leds) {
			break
		}
		led := leds[i*group : (i+1)*group]
		if h.fault(FaultDeadLED, seat, 0) {
			led = make([]hilsim.RGB, group)
		}
		s := seatSeen{color: colorName(led[0])}
		for _, l := range led[1:g.LEDsPerSeat] {
			if colorName(l) != s.color {
				s.color = "mixed"
			}
		}
		if g.PrivateLED {
			p := led[group-1]
			s.private = p != hilsim.RGB{} && p.R == p.G && p.G == p.B
		}
		out[seat] = s
	}
	return out
}

func colorName(c hilsim.RGB) string {
	switch {
	case c == hilsim.RGB{}:
		return "off"
	case c.R > 0 && c.G == 0 && c.B == 0:
		return "red"
	case c.G > 0 && c.R == 0 && c.B == 0:
		return "green"
	case c.B > 0 && c.R == 0 && c.G == 0:
		return "blue"
	}
	return fmt.Sprintf("rgb(%d,%d,%d)", c.R, c.G, c.B)
}

// JudgeLights implements Technician: on the seat's own keys, OK if every
// step looked right, CLR if not (quicker than the pedal, whose short press
// waits out the double window); on the pedal where the seat has no such key.
func (h *hilTech) JudgeLights(ctx context.Context, seat int) error {
	h.mu.Lock()
	h.judged[seat] = true
	bad := len(h.wrong[seat]) > 0
	h.mu.Unlock()
	key, press := hw.KeyOK, hw.PedalShort
	if bad {
		key, press = hw.KeyCLR, hw.PedalLong
	}
	if _, _, ok := h.wired(seat, key); ok {
		return h.PressKeys(ctx, seat, []hw.Key{key})
	}
	return h.PressPedal(ctx, press)
}

// LightsNote implements Noter.
func (h *hilTech) LightsNote(seat int) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var order []string
	steps := map[string][]string{}
	for _, w := range h.wrong[seat] {
		if _, ok := steps[w.what]; !ok {
			order = append(order, w.what)
		}
		if !slices.Contains(steps[w.what], w.step) {
			steps[w.what] = append(steps[w.what], w.step)
		}
	}
	var parts []string
	for _, what := range order {
		parts = append(parts, what+" at "+strings.Join(steps[what], ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return "HIL technician saw: " + strings.Join(parts, "; ")
}

// PressPedal implements Technician: the switch closed to ground for 150 ms
// and 3 polls (short: past the 20 ms debounce, well short of the 1.2 s long
// press), 2.5 s (long: a stall of the VM can make the driver date the
// release a second early), or twice 150 ms with 150 ms open between
// (double).
func (h *hilTech) PressPedal(ctx context.Context, p hw.PedalPress) error {
	tap := hilsim.Drive{Level: "0", Reads: 3, Min: 150 * time.Millisecond}
	steps := []hilsim.Drive{tap}
	switch p {
	case hw.PedalLong:
		steps = []hilsim.Drive{{Level: "0", Reads: 3, Min: 2500 * time.Millisecond}}
	case hw.PedalDouble:
		steps = append(steps, hilsim.Drive{Level: "z", Reads: 3, Min: 150 * time.Millisecond}, tap)
	}
	if err := h.sim.Drive(0, append(steps, hilsim.Drive{Level: "z"})...); err != nil {
		return err
	}
	return h.played(ctx)
}

// touch is a finger on a key, or off it: 3 polls and 50 ms, past the 10 ms
// debounce however the polls come (a busy VM reads a poll's tick late). A
// bouncy key's contact opens for 2 polls and 40 ms: inside the 200 ms
// bounce window unless the polls come 100 ms apart.
func touch(mask uint16) hilsim.Step {
	return hilsim.Step{Closed: mask, Polls: 3, Min: 50 * time.Millisecond}
}

// PressKeys implements Technician: each key once, in order; a missing
// contact never closes, a stuck one is closed already, a bouncy one closes
// twice for one touch.
func (h *hilTech) PressKeys(ctx context.Context, seat int, keys []hw.Key) error {
	for _, k := range keys {
		addr, pin, ok := h.wired(seat, k)
		switch {
		case !ok:
			return fmt.Errorf("seat %d %v is not wired", seat, k)
		case h.fault(FaultMissingKey, seat, k), h.fault(FaultStuckKey, seat, k):
			continue
		}
		bit := uint16(1) << pin
		steps := []hilsim.Step{touch(bit), touch(0)}
		if h.fault(FaultBouncyKey, seat, k) {
			steps = []hilsim.Step{touch(bit), {Polls: 2, Min: 40 * time.Millisecond}, touch(bit), touch(0)}
		}
		if err := h.sim.Keys(h.withStuck(addr, steps)); err != nil {
			return err
		}
		if err := h.played(ctx); err != nil {
			return err
		}
	}
	return nil
}

// withStuck adds the expander's stuck contacts to every step of its script.
func (h *hilTech) withStuck(addr uint16, steps []hilsim.Step) hilsim.Script {
	stuck := h.stuckMask(addr)
	for i := range steps {
		steps[i].Closed |= stuck
	}
	return hilsim.Script{Addr: addr, Steps: steps}
}

func (h *hilTech) stuckMask(addr uint16) uint16 {
	var m uint16
	for _, f := range h.faults {
		if f.Kind != FaultStuckKey {
			continue
		}
		if a, pin, ok := h.wired(f.Seat, f.Key); ok && a == addr {
			m |= 1 << pin
		}
	}
	return m
}

// wired finds a seat's key on the expanders.
func (h *hilTech) wired(seat int, k hw.Key) (uint16, hw.ExpanderPin, bool) {
	for _, x := range h.cfg.GPIO.Expanders {
		for _, kp := range x.Keys {
			if kp.Seat == seat && kp.Key == k {
				return x.Address, kp.Pin, true
			}
		}
	}
	return 0, 0, false
}

// Listen implements Technician: the VM has no speaker to hear; it answers
// yes (only a Sound that played is listened to).
func (h *hilTech) Listen(ctx context.Context) error { return h.PressPedal(ctx, hw.PedalShort) }
