package gpio

import (
	"fmt"
	"time"

	pgpio "periph.io/x/conn/v3/gpio"

	"wolftable/hw"
)

// pedalReader samples the pedal's pin on every poll, debounces it and
// classifies its presses.
type pedalReader struct {
	pin        pgpio.PinIn
	activeLow  bool
	hold       time.Duration
	deb        debouncer
	classifier hw.PedalClassifier
}

func openPedal(pin pgpio.PinIn, c *hw.PedalConfig) (*pedalReader, error) {
	pull := pgpio.PullUp
	switch c.Pull {
	case hw.PullDown:
		pull = pgpio.PullDown
	case hw.PullNone:
		pull = pgpio.Float
	}
	if err := pin.In(pull, pgpio.NoEdge); err != nil {
		return nil, fmt.Errorf("gpio: pedal: %s as input with pull %s: %w", pin, pull, err)
	}
	return &pedalReader{
		pin:        pin,
		activeLow:  c.ActiveLow,
		hold:       c.Debounce,
		classifier: hw.PedalClassifier{T: c.Timing},
	}, nil
}

// scan samples the pin at now and returns the presses completed.
func (p *pedalReader) scan(now time.Time) []hw.PedalPress {
	var out []hw.PedalPress
	down := (p.pin.Read() == pgpio.Low) == p.activeLow
	if p.deb.sample(down, now, p.hold) {
		// Poll first: a short press whose double window has passed must
		// come out before a new press starts (see hw.PedalClassifier).
		if press, ok := p.classifier.Poll(now); ok {
			out = append(out, press)
		}
		if press, ok := p.classifier.Edge(p.deb.stable, now); ok {
			out = append(out, press)
		}
	}
	if press, ok := p.classifier.Poll(now); ok {
		out = append(out, press)
	}
	return out
}
