package serial

import "time"

// clockSamples is how many uptime samples bridgeClock keeps: a minute's worth
// at ClockSyncInterval, short enough to follow the two crystals' drift.
const clockSamples = 6

// bridgeClock maps the bridge's µs timestamps to host time. Each Stats
// answer gives the bridge's uptime, so recv - uptime is a boot time no
// earlier than the true one (the answer took time to come, and the uptime
// is truncated to ms); the smallest recent one is the best estimate.
type bridgeClock struct {
	samples [clockSamples]time.Time
	n, i    int
	boot    time.Time
}

// sample records the bridge's uptime received at recv.
func (c *bridgeClock) sample(recv time.Time, uptimeMillis uint32) {
	c.samples[c.i] = recv.Add(-time.Duration(uptimeMillis) * time.Millisecond)
	c.i = (c.i + 1) % clockSamples
	c.n = min(c.n+1, clockSamples)
	c.boot = c.samples[0]
	for _, s := range c.samples[1:c.n] {
		if s.Before(c.boot) {
			c.boot = s
		}
	}
}

// at returns the host time of the bridge timestamp micros (µs since boot,
// wrapping every 71 minutes), received at now: the latest such instant not
// after now. Before the first sample it is now.
func (c *bridgeClock) at(micros uint32, now time.Time) time.Time {
	if c.n == 0 {
		return now
	}
	bridgeNow := uint32(now.Sub(c.boot) / time.Microsecond)
	ago := int32(bridgeNow - micros)
	if ago <= 0 { // the estimate runs a little late: the edge is just now
		return now
	}
	return now.Add(-time.Duration(ago) * time.Microsecond)
}
