package core_test

import (
	"errors"
	"testing"

	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/core/coretest"
	"wolftable/firmware-bridge/protocol"
)

func scanConfig(chain *coretest.Chain) core.ScanConfig {
	return core.ScanConfig{
		Seats:       12,
		BitsPerSeat: 24,
		KeyMap:      core.DefaultKeyMap(24),
		ActiveLow:   true,
	}
}

func newScanner(t *testing.T) (*core.Scanner, *coretest.Chain) {
	t.Helper()
	chain := coretest.NewChain(12, 24, true)
	s, err := core.NewScanner(chain, scanConfig(chain))
	if err != nil {
		t.Fatal(err)
	}
	return s, chain
}

func drain(s *core.Scanner) []protocol.KeyEvent {
	var evs []protocol.KeyEvent
	for {
		e, ok := s.Next()
		if !ok {
			return evs
		}
		evs = append(evs, e)
	}
}

func TestScanReadsEveryBitOncePerTick(t *testing.T) {
	s, chain := newScanner(t)
	for i := range 3 {
		s.Tick(uint64(i) * 1000)
	}
	if chain.Loads != 3 || chain.Shifts != 3*12*24 {
		t.Errorf("3 ticks: %d loads, %d shifts; want 3, %d", chain.Loads, chain.Shifts, 3*12*24)
	}
}

func TestScanPressAndRelease(t *testing.T) {
	s, chain := newScanner(t)
	now := uint64(1_000_000)
	tick := func(ms int) {
		for range ms {
			s.Tick(now)
			now += 1000
		}
	}
	tick(10)
	chain.Press(7, int(protocol.KeyOK))
	pressedAt := now
	tick(4)
	if n := s.Pending(); n != 0 {
		t.Fatalf("event after 4 ms: %v", drain(s))
	}
	tick(2) // the 5 ms mark is in here
	evs := drain(s)
	// Dated when the scan first saw the contact closed, not when the
	// debounce ended.
	want := protocol.KeyEvent{Seat: 7, Key: protocol.KeyOK, Edge: protocol.EdgeDown, Counter: 1, Micros: uint32(pressedAt)}
	if len(evs) != 1 || evs[0] != want {
		t.Fatalf("events = %+v, want [%+v]", evs, want)
	}
	chain.Release(7, int(protocol.KeyOK))
	tick(10)
	evs = drain(s)
	if len(evs) != 1 || evs[0].Edge != protocol.EdgeUp || evs[0].Counter != 1 || evs[0].Seat != 7 || evs[0].Key != protocol.KeyOK {
		t.Fatalf("release events = %+v", evs)
	}
}

func TestScanPressCounters(t *testing.T) {
	s, chain := newScanner(t)
	now := uint64(0)
	press := func(seat int, k protocol.Key) {
		chain.Press(seat, int(k))
		for range 10 {
			s.Tick(now)
			now += 1000
		}
		chain.Release(seat, int(k))
		for range 10 {
			s.Tick(now)
			now += 1000
		}
	}
	press(3, protocol.Key5)
	press(3, protocol.Key5)
	press(4, protocol.Key5)
	press(3, protocol.KeyHand)
	press(3, protocol.Key5)
	type ev struct {
		seat    uint8
		key     protocol.Key
		edge    protocol.Edge
		counter uint16
	}
	var got []ev
	for _, e := range drain(s) {
		got = append(got, ev{e.Seat, e.Key, e.Edge, e.Counter})
	}
	d, u := protocol.EdgeDown, protocol.EdgeUp
	want := []ev{
		{3, protocol.Key5, d, 1}, {3, protocol.Key5, u, 1},
		{3, protocol.Key5, d, 2}, {3, protocol.Key5, u, 2},
		{4, protocol.Key5, d, 1}, {4, protocol.Key5, u, 1},
		{3, protocol.KeyHand, d, 1}, {3, protocol.KeyHand, u, 1},
		{3, protocol.Key5, d, 3}, {3, protocol.Key5, u, 3},
	}
	if len(got) != len(want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d = %v, want %v", i, got[i], want[i])
		}
	}
}

// TestScanBounce: a contact that changes level 10 times in 3 ms and then
// settles closed (an 11th change) is one press, reported once it has held
// for 5 ms and dated at the first scan that saw it leave the open level;
// the same on release is one release with the same counter. Checked at the
// real 1 kHz scan rate and at rates that see every bounce.
func TestScanBounce(t *testing.T) {
	for _, step := range []uint64{100, 333, 1000} {
		s, chain := newScanner(t)
		const seat, bit = 9, int(protocol.KeyBoom)
		// level(t) for a contact that bounces in [start, start+3 ms) and
		// then settles to final.
		level := func(now, start uint64, final bool) bool {
			if now < start {
				return !final
			}
			if d := now - start; d < 3000 {
				return ((d/300)%2 == 0) == final // a change every 300 µs
			}
			return final
		}
		var evs []protocol.KeyEvent
		var reportedAt []uint64
		// the first scan that saw the contact closed, and open again after
		// the press
		var firstClosed, firstOpen uint64
		for now := uint64(0); now < 100_000; now += step {
			closed := level(now, 10_000, true)
			if now >= 50_000 {
				closed = level(now, 50_000, false)
			}
			if closed && firstClosed == 0 {
				firstClosed = now
			}
			if !closed && now >= 50_000 && firstOpen == 0 {
				firstOpen = now
			}
			chain.Set(seat, bit, closed)
			s.Tick(now)
			for _, e := range drain(s) {
				evs = append(evs, e)
				reportedAt = append(reportedAt, now)
			}
		}
		if len(evs) != 2 {
			t.Fatalf("step %d µs: events = %+v, want one press and one release", step, evs)
		}
		down, up := evs[0], evs[1]
		if down.Edge != protocol.EdgeDown || down.Counter != 1 || up.Edge != protocol.EdgeUp || up.Counter != 1 {
			t.Errorf("step %d µs: events = %+v", step, evs)
		}
		// Dated at the first change the scans saw; reported only once the
		// contact had settled for 5 ms (it settles 3 ms after its first
		// change).
		for i, e := range []struct {
			name          string
			at, firstSeen uint64
		}{{"press", uint64(down.Micros), firstClosed}, {"release", uint64(up.Micros), firstOpen}} {
			if e.at != e.firstSeen {
				t.Errorf("step %d µs: %s dated %d µs, want %d µs, the first scan that saw the change", step, e.name, e.at, e.firstSeen)
			}
			if settled := e.firstSeen - e.firstSeen%10_000 + 3000; reportedAt[i] < settled+core.DebounceMicros-step {
				t.Errorf("step %d µs: %s reported at %d µs, before the contact had held for %d µs after settling at %d", step, e.name, reportedAt[i], core.DebounceMicros, settled)
			}
		}
	}
}

// TestScanFirstPressFirst: two keys pressed 1 ms apart, the first one
// bouncing for 3 ms and the second not, keep their order in the events'
// timestamps although the first is reported after the second.
func TestScanFirstPressFirst(t *testing.T) {
	s, chain := newScanner(t)
	bouncy := func(now, start uint64) bool { // closed from start, bouncing for 3 ms
		if now < start {
			return false
		}
		if d := now - start; d < 3000 {
			return (d/500)%2 == 0
		}
		return true
	}
	var evs []protocol.KeyEvent
	for now := uint64(0); now < 30_000; now += 250 {
		chain.Set(2, int(protocol.KeyHand), bouncy(now, 10_000))
		chain.Set(5, int(protocol.KeyHand), now >= 11_000)
		s.Tick(now)
		evs = append(evs, drain(s)...)
	}
	if len(evs) != 2 {
		t.Fatalf("events = %+v, want two presses", evs)
	}
	if evs[0].Seat != 5 || evs[1].Seat != 2 {
		t.Fatalf("events = %+v: the clean press should be reported first", evs)
	}
	if evs[1].Micros != 10_000 || evs[0].Micros != 11_000 {
		t.Errorf("seat 2 pressed at 10000 µs dated %d, seat 5 pressed at 11000 µs dated %d", evs[1].Micros, evs[0].Micros)
	}
}

func TestScanIgnoresShortGlitch(t *testing.T) {
	s, chain := newScanner(t)
	now := uint64(0)
	for i := range 100 {
		chain.Set(2, int(protocol.Key0), i >= 10 && i < 14) // closed for 4 ms
		s.Tick(now)
		now += 1000
	}
	if evs := drain(s); len(evs) != 0 {
		t.Errorf("a 4 ms glitch produced %+v", evs)
	}
}

func TestScanQueueOverflow(t *testing.T) {
	s, chain := newScanner(t)
	pressed := 0
	for seat := 1; seat <= 12 && pressed < 70; seat++ {
		for k := 0; k < protocol.NumSeatKeys && pressed < 70; k++ {
			chain.Press(seat, k)
			pressed++
		}
	}
	for now := uint64(0); now <= 10_000; now += 1000 {
		s.Tick(now)
	}
	if s.Pending() != core.QueueLen || s.Overflows() != 70-core.QueueLen {
		t.Fatalf("pending %d, overflows %d; want %d, %d", s.Pending(), s.Overflows(), core.QueueLen, 70-core.QueueLen)
	}
	// The queue kept the first 64 in scan order: seat 1 keys 0…16, seat 2 …
	for i, e := range drain(s) {
		if int(e.Seat) != 1+i/protocol.NumSeatKeys || int(e.Key) != i%protocol.NumSeatKeys {
			t.Fatalf("event %d = %+v, out of scan order", i, e)
		}
	}
}

func TestScanPedal(t *testing.T) {
	chain := coretest.NewChain(6, 16, true)
	pedal := &coretest.Pin{High: true} // active low: released
	cfg := core.ScanConfig{Seats: 6, BitsPerSeat: 16, KeyMap: core.DefaultKeyMap(16), ActiveLow: true, Pedal: pedal, PedalActiveLow: true}
	s, err := core.NewScanner(chain, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var evs []protocol.KeyEvent
	for now := uint64(0); now < 40_000; now += 1000 {
		pedal.High = !(now >= 10_000 && now < 20_000)
		s.Tick(now)
		evs = append(evs, drain(s)...)
	}
	if len(evs) != 2 || evs[0].Seat != 0 || evs[0].Key != protocol.KeyPedal || evs[0].Edge != protocol.EdgeDown ||
		evs[1].Edge != protocol.EdgeUp || evs[1].Counter != 1 {
		t.Fatalf("pedal events = %+v", evs)
	}
	for _, e := range evs {
		if err := e.Validate(); err != nil {
			t.Errorf("pedal event invalid: %v", err)
		}
	}
}

func TestScanKeyMapAndRawBits(t *testing.T) {
	chain := coretest.NewChain(6, 20, false)
	keyMap := make([]protocol.Key, 20)
	for i := range keyMap {
		keyMap[i] = core.NoKey
	}
	keyMap[19] = protocol.KeyBoom
	keyMap[0] = protocol.KeyOK
	s, err := core.NewScanner(chain, core.ScanConfig{Seats: 6, BitsPerSeat: 20, KeyMap: keyMap})
	if err != nil {
		t.Fatal(err)
	}
	if s.KeysPerSeat() != 2 {
		t.Errorf("KeysPerSeat = %d, want 2", s.KeysPerSeat())
	}
	chain.Press(6, 19)
	chain.Press(6, 5) // no key on bit 5
	chain.Press(1, 0)
	for now := uint64(0); now <= 10_000; now += 1000 {
		s.Tick(now)
	}
	evs := drain(s)
	if len(evs) != 2 || evs[0].Seat != 1 || evs[0].Key != protocol.KeyOK || evs[1].Seat != 6 || evs[1].Key != protocol.KeyBoom {
		t.Errorf("events = %+v", evs)
	}
	if got := s.RawBits(6); got != 1<<19|1<<5 {
		t.Errorf("RawBits(6) = %#x, want bits 19 and 5", got)
	}
	if got := s.RawBits(7); got != 0 {
		t.Errorf("RawBits(7) = %#x on a 6-seat chain", got)
	}
}

func TestScanConfigErrors(t *testing.T) {
	good := func() core.ScanConfig {
		return core.ScanConfig{Seats: 12, BitsPerSeat: 24, KeyMap: core.DefaultKeyMap(24)}
	}
	for _, tt := range []struct {
		field string
		edit  func(*core.ScanConfig)
	}{
		{"Scan.Seats", func(c *core.ScanConfig) { c.Seats = 5 }},
		{"Scan.Seats", func(c *core.ScanConfig) { c.Seats = 19 }},
		{"Scan.BitsPerSeat", func(c *core.ScanConfig) { c.BitsPerSeat = 15; c.KeyMap = core.DefaultKeyMap(15) }},
		{"Scan.BitsPerSeat", func(c *core.ScanConfig) { c.BitsPerSeat = 25; c.KeyMap = core.DefaultKeyMap(25) }},
		{"len(Scan.KeyMap)", func(c *core.ScanConfig) { c.KeyMap = c.KeyMap[:16] }},
		{"Scan.KeyMap[3]", func(c *core.ScanConfig) { c.KeyMap[3] = protocol.KeyPedal }},
		{"Scan.KeyMap[20]", func(c *core.ScanConfig) { c.KeyMap[20] = protocol.KeyOK }},
		{"Scan.KeyMap", func(c *core.ScanConfig) {
			for i := range c.KeyMap {
				c.KeyMap[i] = core.NoKey
			}
		}},
	} {
		cfg := good()
		tt.edit(&cfg)
		_, err := core.NewScanner(coretest.NewChain(12, 24, true), cfg)
		var ce *core.ConfigError
		if !errors.As(err, &ce) || ce.Field != tt.field {
			t.Errorf("%s: error = %v, want a ConfigError on it", tt.field, err)
		}
	}
	if _, err := core.NewScanner(coretest.NewChain(12, 24, true), good()); err != nil {
		t.Errorf("good config: %v", err)
	}
	err := &core.ConfigError{Field: "Scan.Seats", Value: 5, Reason: "out of range 6…18"}
	if got, want := err.Error(), "core: config Scan.Seats = 5: out of range 6…18"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
