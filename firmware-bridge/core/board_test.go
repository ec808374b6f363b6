package core_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/core/coretest"
	"wolftable/firmware-bridge/protocol"
)

// TestParseBoard: the build's strings, as make firmware passes them, and
// their defaults.
func TestParseBoard(t *testing.T) {
	for _, c := range []struct {
		seats, regs, fromLast string
		want                  core.Board
	}{
		{"", "", "", core.Board{Seats: 12, RegistersPerSeat: 3}},
		{"10", "2", "1", core.Board{Seats: 10, RegistersPerSeat: 2, FromLastSeat: true}},
		{"6", "3", "0", core.Board{Seats: 6, RegistersPerSeat: 3}},
		{"18", "", "", core.Board{Seats: 18, RegistersPerSeat: 3}},
	} {
		got, err := core.ParseBoard(c.seats, c.regs, c.fromLast)
		if err != nil || got != c.want {
			t.Errorf("ParseBoard(%q, %q, %q) = %+v, %v; want %+v", c.seats, c.regs, c.fromLast, got, err, c.want)
		}
	}
	for _, c := range []struct{ seats, regs, fromLast, field string }{
		{"5", "", "", "SEATS"}, {"19", "", "", "SEATS"}, {"twelve", "", "", "SEATS"},
		{"", "4", "", "REGISTERS"}, {"", "1", "", "REGISTERS"}, {"", "3 ", "", "REGISTERS"},
		{"", "", "yes", "FROM_LAST"}, {"", "", "2", "FROM_LAST"},
	} {
		_, err := core.ParseBoard(c.seats, c.regs, c.fromLast)
		var ce *core.ConfigError
		if !errors.As(err, &ce) || !strings.HasPrefix(ce.Field, c.field) {
			t.Errorf("ParseBoard(%q, %q, %q): %v, want a ConfigError on %s", c.seats, c.regs, c.fromLast, err, c.field)
		}
	}
}

// TestBoardFromLastSeat (L1): a board built FROM_LAST reads the keys and
// writes the LEDs from the last seat: a key of seat 1, on the panel
// farthest from the Pico, is seat 1's, and seat 1's light is the last pixel
// of the chain (with its private indicator after it).
func TestBoardFromLastSeat(t *testing.T) {
	const seats, regs = 8, 3
	board, err := core.ParseBoard("8", "3", "1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := board.Config(protocol.Version{Major: 1}, nil)
	cfg.PrivateLEDs = true
	chain := coretest.NewRegisters(seats*regs, true)
	chain.DS = false
	b, err := core.NewBridge(cfg, chain)
	if err != nil {
		t.Fatal(err)
	}
	far := (seats - 1) * regs                                                         // seat 1's first register: farthest from the Pico
	chain.Input[far][7-int(protocol.Key3)] = false                                    // key 3 on input E (bit 3)
	b.HandleBytes(protocol.Encode(&protocol.HostHello{Protocol: 1, Seats: seats}, 0)) // the host is there
	var evs []protocol.KeyEvent
	for now := uint64(0); now <= 20_000; now += 1000 {
		out := b.Tick(now)
		var d protocol.Decoder
		for len(out) > 0 {
			n, f, err := d.Feed(out)
			out = out[n:]
			if err == nil && f.Type == protocol.TypeKeyEvent {
				m, _ := f.Message()
				evs = append(evs, *m.(*protocol.KeyEvent))
			}
		}
	}
	if len(evs) != 1 || evs[0].Seat != 1 || evs[0].Key != protocol.Key3 {
		t.Errorf("key 3 on the far panel: events %+v, want seat 1 key 3", evs)
	}

	l := &protocol.Lights{Seats: seats}
	l.Seat[0] = protocol.SeatLight{R: 255, Flags: protocol.LightPrivate, Brightness: 255} // seat 1 red, private on
	l.Seat[7] = protocol.SeatLight{B: 255, Brightness: 255}                               // seat 8 blue
	b.HandleBytes(protocol.Encode(l, 1))
	frame := b.LightFrame()
	if len(frame) != seats*2*3 {
		t.Fatalf("frame of %d bytes, want %d", len(frame), seats*2*3)
	}
	if got := frame[:6]; !bytes.Equal(got, []byte{0, 0, 255, 0, 0, 0}) {
		t.Errorf("first pixels (seat 8, nearest the Pico): % x, want blue then a dark private indicator", got)
	}
	if got := frame[len(frame)-6:]; !bytes.Equal(got, []byte{0, 255, 0, 0, 255, 0}) {
		t.Errorf("last pixels (seat 1): % x, want red then its private indicator red", got)
	}

	// Built from seat 1, the same lights go the other way round.
	cfg = core.DefaultBoard.Config(protocol.Version{Major: 1}, nil)
	if cfg.Scan.ChainFromLastSeat || cfg.LightsFromLastSeat || cfg.Scan.Seats != 12 || cfg.Scan.BitsPerSeat != 24 || !cfg.Scan.TailLow {
		t.Errorf("DefaultBoard.Config = %+v", cfg)
	}
}
