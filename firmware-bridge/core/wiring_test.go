package core_test

import (
	"testing"

	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/core/coretest"
	"wolftable/firmware-bridge/protocol"
)

// inputOf returns the register (of a panel's three, 0 nearest the Pico)
// and its input letter that carry bit of a seat panel, as docs/wiring.md
// tables them: bit 0 on the first register's H, bit 7 on its A, bit 8 on the
// second register's H, …
func inputOf(bit int) (reg int, input byte) { return bit / 8, byte('H' - bit%8) }

// TestScanWiringOrder feeds the scanner a chain of 74HC165s wired as
// docs/wiring.md draws it, register by register and input by input, and
// checks which seat and key each contact reports: seat 1's panel nearest
// the Pico by default, the last seat's with ChainFromLastSeat.
func TestScanWiringOrder(t *testing.T) {
	const seats, regs = 12, 3
	for _, fromLast := range []bool{false, true} {
		// position of a seat's panel along the chain, 0 nearest the Pico
		pos := func(seat int) int { return seat - 1 }
		if fromLast {
			pos = func(seat int) int { return seats - seat }
		}
		for _, c := range []struct {
			seat int
			key  protocol.Key
		}{{1, protocol.Key0}, {1, protocol.KeyOK}, {2, protocol.Key7}, {5, protocol.KeyDown}, {11, protocol.KeyBoom}, {12, protocol.Key9}} {
			chain := coretest.NewRegisters(seats*regs, true) // keys open: pulled up
			chain.DS = false                                 // DS of the far register to GND
			s, err := core.NewScanner(chain, core.ScanConfig{
				Seats: seats, BitsPerSeat: 8 * regs, KeyMap: core.DefaultKeyMap(8 * regs), ActiveLow: true,
				ChainFromLastSeat: fromLast, TailLow: true,
			})
			if err != nil {
				t.Fatal(err)
			}
			reg, input := inputOf(int(c.key))
			chain.Input[pos(c.seat)*regs+reg][input-'A'] = false // the key closes its input to GND
			var evs []protocol.KeyEvent
			for now := uint64(0); now <= 10_000; now += 1000 {
				s.Tick(now)
				evs = append(evs, drain(s)...)
			}
			if len(evs) != 1 || int(evs[0].Seat) != c.seat || evs[0].Key != c.key || evs[0].Edge != protocol.EdgeDown {
				t.Errorf("fromLast %v: seat %d key %v (register %d of its panel, input %c): events %+v",
					fromLast, c.seat, c.key, reg, input, evs)
			}
			if f := s.Fault(); f.Any() {
				t.Errorf("fromLast %v: a healthy chain reports %+v", fromLast, f)
			}
			if got := s.RawBits(c.seat); got != 1<<c.key {
				t.Errorf("fromLast %v: RawBits(%d) = %#x, want bit %d", fromLast, c.seat, got, c.key)
			}
		}
	}
}

// TestScanAllLowStreamNoEvents: a chain whose every bit reads low (the
// registers without power, or Q7 shorted to ground) looks, with keys active
// low, like every key of every seat held down. It must report nothing.
func TestScanAllLowStreamNoEvents(t *testing.T) {
	chain := coretest.NewChain(12, 24, true)
	for seat := 1; seat <= 12; seat++ {
		for bit := range 24 {
			chain.Press(seat, bit)
		}
	}
	s, err := core.NewScanner(chain, scanConfig(chain))
	if err != nil {
		t.Fatal(err)
	}
	for now := uint64(0); now < 100_000; now += 1000 {
		s.Tick(now)
	}
	if evs := drain(s); len(evs) != 0 {
		t.Fatalf("an all-low chain reported %d events: %+v …", len(evs), evs[0])
	}
}

// TestScanChainFaults: what the scanner reports, and does not, for a chain
// that is unpowered (all low), unplugged (Q7 left to its pull-up: all high,
// the bit past the chain too) or has one panel without power; and that a
// chain that recovers reports keys again.
func TestScanChainFaults(t *testing.T) {
	const seats, regs = 8, 2
	cfg := core.ScanConfig{Seats: seats, BitsPerSeat: 8 * regs, KeyMap: core.DefaultKeyMap(8 * regs), ActiveLow: true, TailLow: true}
	run := func(s *core.Scanner, ms int, now *uint64) []protocol.KeyEvent {
		var evs []protocol.KeyEvent
		for range ms {
			s.Tick(*now)
			*now += 1000
			evs = append(evs, drain(s)...)
		}
		return evs
	}
	allSeats := uint32(1)<<seats - 1

	t.Run("unpowered", func(t *testing.T) {
		chain := coretest.NewRegisters(seats*regs, false)
		s, _ := core.NewScanner(chain, cfg)
		now := uint64(0)
		if evs := run(s, 50, &now); len(evs) != 0 {
			t.Errorf("events %+v", evs)
		}
		if f := s.Fault(); f.Stuck != allSeats || f.StartStuck != allSeats || f.Open {
			t.Errorf("fault %+v, want every seat stuck", f)
		}
	})
	t.Run("unplugged", func(t *testing.T) {
		chain := coretest.NewRegisters(seats*regs, true)
		chain.DS = true // nothing drives Q7: the pull-up reads high, past the chain too
		s, _ := core.NewScanner(chain, cfg)
		now := uint64(0)
		run(s, 10, &now)
		if f := s.Fault(); !f.Open || !f.StartOpen || f.Stuck != 0 {
			t.Errorf("fault %+v, want open", f)
		}
	})
	t.Run("one panel unpowered, then repaired", func(t *testing.T) {
		chain := coretest.NewRegisters(seats*regs, true)
		for r := 2 * regs; r < 3*regs; r++ { // seat 3
			chain.Input[r] = [8]bool{}
		}
		chain.Input[0][7] = false // seat 1 presses key 0 (register 0, input H)
		s, _ := core.NewScanner(chain, cfg)
		now := uint64(0)
		evs := run(s, 20, &now)
		if len(evs) != 1 || evs[0].Seat != 1 || evs[0].Key != protocol.Key0 {
			t.Errorf("events %+v, want seat 1's key 0 only", evs)
		}
		if f := s.Fault(); f.Stuck != 1<<2 || f.StartStuck != 1<<2 {
			t.Errorf("fault %+v, want seat 3 stuck", f)
		}
		for r := 2 * regs; r < 3*regs; r++ {
			chain.Input[r] = [8]bool{true, true, true, true, true, true, true, true}
		}
		chain.Input[2*regs][6] = false // seat 3 presses key 1 (input G)
		evs = run(s, 20, &now)
		if len(evs) != 1 || evs[0].Seat != 3 || evs[0].Key != protocol.Key1 {
			t.Errorf("after repair: events %+v, want seat 3's key 1", evs)
		}
		if f := s.Fault(); f.Stuck != 0 || f.StartStuck != 1<<2 || !f.Any() {
			t.Errorf("after repair: fault %+v, want only the start flagged", f)
		}
	})
}

// TestHelloChainFault: the Hello carries CapChainFault when the chain read
// broken, and not otherwise.
func TestHelloChainFault(t *testing.T) {
	for _, broken := range []bool{false, true} {
		chain := coretest.NewRegisters(6*2, true)
		if broken {
			chain.DS = true
		}
		b, err := core.NewBridge(core.Config{Scan: core.ScanConfig{Seats: 6, BitsPerSeat: 16, KeyMap: core.DefaultKeyMap(16), ActiveLow: true, TailLow: true}}, chain)
		if err != nil {
			t.Fatal(err)
		}
		b.Tick(0)
		b.HandleBytes(protocol.Encode(&protocol.HostHello{Protocol: protocol.ProtocolVersion, Seats: 6}, 0))
		var hello *protocol.Hello
		var dec protocol.Decoder
		for p := b.Tick(1000); len(p) > 0; {
			n, f, err := dec.Feed(p)
			p = p[n:]
			if err == nil && f.Type == protocol.TypeHello {
				m, _ := f.Message()
				hello = m.(*protocol.Hello)
			}
		}
		if hello == nil {
			t.Fatalf("broken %v: no Hello", broken)
		}
		if got := hello.Caps&protocol.CapChainFault != 0; got != broken {
			t.Errorf("broken %v: Hello caps %#x", broken, hello.Caps)
		}
	}
}
