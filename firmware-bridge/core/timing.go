package core

// SettleNanos is how long the firmware holds the shift-register chain's /PL
// and CP at each level: the 74HC165's minimum pulse widths and set-up times
// are well under 100 ns at a 3.3 V supply (the datasheet's dynamic
// characteristics give them at 2.0 V and 4.5 V), and Q7 is read two such
// waits after the CP rising edge that moved it, longer than its propagation
// delay.
const SettleNanos = 100

// SettleCycles returns how many CPU cycles at cpuHz last at least nanos
// nanoseconds, rounded up. A busy loop of that many iterations, each at
// least one cycle, waits at least that long at any clock TinyGo runs the
// RP2040 at (125 MHz up to TinyGo 0.33, 200 MHz in later releases).
func SettleCycles(cpuHz, nanos uint32) uint32 {
	return uint32((uint64(cpuHz)*uint64(nanos) + 999_999_999) / 1_000_000_000)
}
