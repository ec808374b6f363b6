package core_test

import (
	"bytes"
	"testing"

	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/protocol"
)

func TestLightsFrame(t *testing.T) {
	l := core.NewLights(6, true)
	if f := l.Frame(); len(f) != 6*2*3 || !bytes.Equal(f, make([]byte, 36)) {
		t.Fatalf("before any Lights: % x, want 36 dark bytes", f)
	}
	m := &protocol.Lights{Seats: 6}
	m.Seat[0] = protocol.SeatLight{R: 255, G: 0, B: 0, Brightness: 255}                                 // red, full
	m.Seat[1] = protocol.SeatLight{R: 0, G: 200, B: 100, Brightness: 128}                               // green-ish, half
	m.Seat[2] = protocol.SeatLight{R: 10, G: 20, B: 30, Brightness: 0}                                  // off
	m.Seat[3] = protocol.SeatLight{R: 0, G: 0, B: 255, Flags: protocol.LightPrivate, Brightness: 255}   // blue, private on
	m.Seat[5] = protocol.SeatLight{R: 255, G: 255, B: 255, Flags: protocol.LightPrivate, Brightness: 1} // dim white
	l.Set(m)
	want := []byte{
		0, 255, 0, 0, 0, 0, // seat 1: GRB red; private off
		100, 0, 50, 0, 0, 0, // seat 2: 200·128/255 = 100, 100·128/255 = 50
		0, 0, 0, 0, 0, 0, // seat 3: brightness 0
		0, 0, 255, 0, 0, 255, // seat 4: blue, private indicator on
		0, 0, 0, 0, 0, 0, // seat 5: not set
		1, 1, 1, 1, 1, 1, // seat 6
	}
	if f := l.Frame(); !bytes.Equal(f, want) {
		t.Errorf("frame\n got % x\nwant % x", f, want)
	}
	if l.Pixels() != 12 {
		t.Errorf("Pixels = %d, want 12", l.Pixels())
	}

	// Without private LEDs: one pixel per seat.
	l = core.NewLights(6, false)
	l.Set(m)
	if f := l.Frame(); !bytes.Equal(f, []byte{0, 255, 0, 100, 0, 50, 0, 0, 0, 0, 0, 255, 0, 0, 0, 1, 1, 1}) {
		t.Errorf("frame without private LEDs: % x", f)
	}
}

func TestLightsFewerSeatsGoDark(t *testing.T) {
	l := core.NewLights(8, false)
	all := &protocol.Lights{Seats: 8}
	for i := range 8 {
		all.Seat[i] = protocol.SeatLight{R: 1, G: 2, B: 3, Brightness: 255}
	}
	l.Set(all)
	l.Set(&protocol.Lights{Seats: 6, Seat: all.Seat})
	if f := l.Frame(); !bytes.Equal(f[18:], make([]byte, 6)) {
		t.Errorf("seats 7 and 8 after a 6-seat Lights: % x, want dark", f[18:])
	}
	l = core.NewLights(6, false)
	l.Set(all) // 8 seats on a 6-seat chain: the extra two are ignored
	if n := len(l.Frame()); n != 18 {
		t.Errorf("frame is %d bytes, want 18", n)
	}
}

func TestLightsSelfTestColour(t *testing.T) {
	l := core.NewLights(6, true)
	m := &protocol.Lights{Seats: 6}
	m.Seat[2] = protocol.SeatLight{G: 255, Flags: protocol.LightPrivate | protocol.LightPulse, Brightness: 10}
	l.Set(m)
	l.SetRaw(3, 1, 2, 3)
	l.SetRaw(0, 9, 9, 9) // ignored
	l.SetRaw(7, 9, 9, 9) // ignored
	f := l.Frame()
	if !bytes.Equal(f[12:18], []byte{2, 1, 3, 0, 0, 0}) {
		t.Errorf("seat 3 under SetRaw: % x, want raw GRB and private off", f[12:18])
	}
	l.Set(m)
	if f := l.Frame(); bytes.Equal(f[12:15], []byte{2, 1, 3}) {
		t.Errorf("the next Lights did not clear the self-test colour")
	}
}

// TestLightsHoldWhenHostSilent: the host sets the lights and then says
// nothing for 10 s; the frame stays byte-identical the whole time.
func TestLightsHoldWhenHostSilent(t *testing.T) {
	h := newHarness(t)
	m := &protocol.Lights{Seats: 12}
	for i := range 12 {
		m.Seat[i] = protocol.SeatLight{R: uint8(20 * i), G: 255 - uint8(20*i), B: 7, Brightness: 180}
	}
	m.Seat[4].Flags = protocol.LightPrivate
	h.send(m)
	h.run(1)
	want := bytes.Clone(h.b.LightFrame())
	if bytes.Equal(want, make([]byte, len(want))) {
		t.Fatal("lights are dark after a Lights message")
	}
	for ms := 0; ms < 10_000; ms++ {
		h.run(1)
		if got := h.b.LightFrame(); !bytes.Equal(got, want) {
			t.Fatalf("after %d ms of host silence the frame changed:\n got % x\nwant % x", ms+1, got, want)
		}
	}
	if !h.b.HostSilent() {
		t.Error("host not counted silent after 10 s")
	}
}

// TestLightsPulse: a pulsing seat's brightness breathes but its colour
// holds; the other seats do not move.
func TestLightsPulse(t *testing.T) {
	l := core.NewLights(6, false)
	m := &protocol.Lights{Seats: 6}
	m.Seat[0] = protocol.SeatLight{R: 200, G: 100, B: 0, Flags: protocol.LightPulse, Brightness: 255}
	m.Seat[1] = protocol.SeatLight{R: 0, G: 0, B: 250, Brightness: 255}
	l.Set(m)
	var lo, hi byte = 255, 0
	for now := uint64(0); now < 3*core.PulseMicros; now += 10_000 {
		l.Tick(now)
		f := l.Frame()
		g, r, b := f[0], f[1], f[2]
		if b != 0 || r < g || int(r)-2*int(g) > 2 || 2*int(g)-int(r) > 2 {
			t.Fatalf("at %d µs pulsing seat is GRB %d %d %d: the colour moved", now, g, r, b)
		}
		lo, hi = min(lo, r), max(hi, r)
		if !bytes.Equal(f[3:6], []byte{0, 0, 250}) {
			t.Fatalf("at %d µs a steady seat changed: % x", now, f[3:6])
		}
	}
	if want := byte(200 * core.PulseFloor / 255); lo > want+1 || hi != 200 {
		t.Errorf("pulse range of red: %d…%d, want %d…200", lo, hi, want)
	}
}
