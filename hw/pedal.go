package hw

import "time"

// PedalTiming are the thresholds that classify pedal presses.
type PedalTiming struct {
	Long   time.Duration // held at least this long: a long press (default 800 ms)
	Double time.Duration // a second press starting within this of the first release: a double press (default 350 ms)
}

// DefaultPedalTiming is used when the config sets none.
func DefaultPedalTiming() PedalTiming {
	return PedalTiming{Long: 800 * time.Millisecond, Double: 350 * time.Millisecond}
}

// PedalClassifier turns debounced pedal edges into short, long and double
// presses. It keeps no clock: callers pass the edge times and call Poll to
// let a pending short press out once the double-press window has passed.
type PedalClassifier struct {
	T         PedalTiming
	down      bool
	downAt    time.Time
	pending   bool // a short press waiting to see if a second one follows
	releaseAt time.Time
	second    bool
}

// Edge feeds a debounced edge; it returns a press when one is complete.
func (c *PedalClassifier) Edge(down bool, at time.Time) (PedalPress, bool) {
	if down == c.down {
		return 0, false
	}
	c.down = down
	if down {
		c.downAt = at
		if c.pending {
			if at.Sub(c.releaseAt) <= c.T.Double {
				c.second = true
			} else {
				// the first press was a short one; nobody polled in between
				c.pending = false
				return PedalShort, true
			}
		}
		return 0, false
	}
	held := at.Sub(c.downAt)
	if c.second {
		c.second, c.pending = false, false
		return PedalDouble, true
	}
	if held >= c.T.Long {
		c.pending = false
		return PedalLong, true
	}
	c.pending, c.releaseAt = true, at
	return 0, false
}

// Poll lets out a short press whose double-press window has passed.
func (c *PedalClassifier) Poll(now time.Time) (PedalPress, bool) {
	if c.pending && !c.down && now.Sub(c.releaseAt) > c.T.Double {
		c.pending = false
		return PedalShort, true
	}
	return 0, false
}
