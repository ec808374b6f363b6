package gpio

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/nrzled"

	"wolftable/hw"
)

// spiFreq is the SPI clock nrzled needs: 4 SPI bits per WS2812 bit at 800 kHz.
const spiFreq = 2500 * physic.KiloHertz

// Pulse: a pulsing light breathes once per pulsePeriod between
// pulseFloor/256 and full brightness; frames go out at most every
// pulseFrame while a light pulses.
const (
	pulsePeriod = time.Second
	pulseFloor  = 64
	pulseFrame  = 20 * time.Millisecond
)

// lights is the WS2812 chain.
type lights struct {
	dev        *nrzled.Dev
	order      []int // the seat of each LED group along the chain
	perSeat    int
	private    bool
	brightness uint8

	mu        sync.Mutex
	state     []hw.SeatLight // as last set; index 0 = seat 1
	pulsing   bool
	lastPulse time.Time
	halted    bool
}

func openLights(port spi.Port, cfg *hw.Config) (*lights, error) {
	g := &cfg.GPIO
	l := &lights{
		order:      slices.Clone(g.Order(cfg.Seats)),
		perSeat:    g.LEDsPerSeat,
		private:    g.PrivateLED,
		brightness: cfg.Brightness,
		state:      make([]hw.SeatLight, cfg.Seats),
	}
	n := l.groupSize() * cfg.Seats
	// nrzled sends 3 bytes of reset, 12 bytes per LED, 3 bytes of latch in
	// one transfer.
	if lim, ok := port.(conn.Limits); ok {
		if limit, need := lim.MaxTxSize(), 12*n+6; limit > 0 && limit < need {
			return nil, fmt.Errorf("gpio: lights: %s transfers at most %d bytes; %d LEDs need %d (raise spidev.bufsize)", port, limit, n, need)
		}
	}
	if pc, ok := port.(spi.PortCloser); ok {
		if err := pc.LimitSpeed(spiFreq); err != nil {
			return nil, fmt.Errorf("gpio: lights: %s cannot run at 2.5 MHz, which WS2812 timing needs: %w", port, err)
		}
	}
	dev, err := nrzled.NewSPI(port, &nrzled.Opts{NumPixels: n, Channels: 3, Freq: spiFreq})
	if err != nil {
		return nil, fmt.Errorf("gpio: lights: %s must run at 2.5 MHz (SPI mode 3, 8 bits) for WS2812 timing: %w", port, err)
	}
	l.dev = dev
	if err := l.write(l.frame(256)); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *lights) groupSize() int {
	if l.private {
		return l.perSeat + 1
	}
	return l.perSeat
}

// set shows a new state at once (pulsing lights at full brightness; the
// poll loop then makes them breathe).
func (l *lights) set(state []hw.SeatLight) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.halted {
		return ErrClosed
	}
	copy(l.state, state)
	l.pulsing = false
	for _, s := range state {
		l.pulsing = l.pulsing || s.Pulse
	}
	return l.write(l.frame(256))
}

// pulse rewrites the chain for the pulsing lights' brightness at now.
func (l *lights) pulse(now time.Time) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.pulsing || l.halted || now.Sub(l.lastPulse) < pulseFrame {
		return nil
	}
	l.lastPulse = now
	return l.write(l.frame(pulseLevel(now)))
}

// pulseLevel is the brightness factor, out of 256, of a pulsing light at
// now: a triangle wave from pulseFloor up to 256 and back each pulsePeriod.
func pulseLevel(now time.Time) int {
	phase := now.UnixNano() % int64(pulsePeriod)
	if phase < 0 {
		phase += int64(pulsePeriod)
	}
	tri := phase * 512 / int64(pulsePeriod) // 0..511
	if tri > 256 {
		tri = 512 - tri
	}
	return pulseFloor + int(tri)*(256-pulseFloor)/256
}

// frame is the chain's RGB bytes, 3 per LED in chain order; pulsing lights
// are scaled by pulse/256. l.mu must be held.
func (l *lights) frame(pulse int) []byte {
	out := make([]byte, 0, 3*l.groupSize()*len(l.order))
	for _, seat := range l.order {
		s := l.state[seat-1]
		b := int(s.Brightness)
		if b == 0 {
			b = int(l.brightness)
		}
		base := b
		if s.Pulse {
			b = b * pulse / 256
		}
		rgb := colorRGB(s.Color, uint8(b))
		for range l.perSeat {
			out = append(out, rgb[:]...)
		}
		if l.private {
			w := uint8(0)
			if s.Private {
				w = uint8(max(base/4, 1))
			}
			out = append(out, w, w, w)
		}
	}
	return out
}

// colorRGB is a light's colour at brightness b.
func colorRGB(c hw.Color, b uint8) [3]byte {
	switch c {
	case hw.Green:
		return [3]byte{0, b, 0}
	case hw.Red:
		return [3]byte{b, 0, 0}
	case hw.Blue:
		return [3]byte{0, 0, b}
	}
	return [3]byte{}
}

func (l *lights) write(rgb []byte) error {
	if _, err := l.dev.Write(rgb); err != nil {
		return fmt.Errorf("gpio: lights: %w", err)
	}
	return nil
}

// halt turns the chain off for good.
func (l *lights) halt() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.halted {
		return nil
	}
	l.halted = true
	if err := l.dev.Halt(); err != nil {
		return errors.New("gpio: lights: turning off: " + err.Error())
	}
	return nil
}
