package hw

import (
	"strings"
	"time"
)

// PedalSection is [pedal]: the judge's pedal, its timing and its pin.
type PedalSection struct {
	Long     string `toml:"long"`     // a duration: held at least this long, a long press
	Double   string `toml:"double"`   // a duration: a second press this soon, a double press
	Pin      string `toml:"pin"`      // the pedal's Pi GPIO; "" = none on the Pi
	Pull     string `toml:"pull"`     // up | down | none
	Active   string `toml:"active"`   // low | high: the level while pressed
	Debounce string `toml:"debounce"` // a duration
}

func (c *PedalConfig) section() PedalSection {
	active := "high"
	if c.ActiveLow {
		active = "low"
	}
	return PedalSection{
		Long:     c.Timing.Long.String(),
		Double:   c.Timing.Double.String(),
		Pin:      c.Pin,
		Pull:     c.Pull.String(),
		Active:   active,
		Debounce: c.Debounce.String(),
	}
}

func (s *PedalSection) decode(c *PedalConfig, p *problems) {
	p.duration("pedal.long", s.Long, &c.Timing.Long)
	p.duration("pedal.double", s.Double, &c.Timing.Double)
	c.Pin = s.Pin
	switch s.Pull {
	case "up":
		c.Pull = PullUp
	case "down":
		c.Pull = PullDown
	case "none":
		c.Pull = PullNone
	default:
		p.add("pedal.pull", "%q is not a pull (up, down, none)", s.Pull)
	}
	switch s.Active {
	case "low":
		c.ActiveLow = true
	case "high":
		c.ActiveLow = false
	default:
		p.add("pedal.active", "%q is not a level (low, high)", s.Active)
	}
	p.duration("pedal.debounce", s.Debounce, &c.Debounce)
}

func (p *problems) checkPedal(pd *PedalConfig) {
	if pd.Timing.Long < 100*time.Millisecond || pd.Timing.Long > 10*time.Second {
		p.add("pedal.long", "%v is out of range 100ms..10s", pd.Timing.Long)
	}
	if pd.Timing.Double < 50*time.Millisecond || pd.Timing.Double > 2*time.Second {
		p.add("pedal.double", "%v is out of range 50ms..2s", pd.Timing.Double)
	}
	if pd.Debounce < 0 || pd.Debounce > 200*time.Millisecond {
		p.add("pedal.debounce", "%v is out of range 0s..200ms", pd.Debounce)
	}
	if pd.Pull > PullNone {
		p.add("pedal.pull", "%d is not a pull (up, down, none)", pd.Pull)
	}
	if strings.TrimSpace(pd.Pin) != pd.Pin || strings.ContainsFunc(pd.Pin, isControl) {
		p.add("pedal.pin", "%q is not a pin name (e.g. \"GPIO17\")", pd.Pin)
	}
}
