package gpio

import (
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/conntest"
	pgpio "periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/pin"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"

	"wolftable/hw"
)

// t0 is a whole second, so the pulse's phase is 0 there.
var t0 = time.Date(2026, 1, 2, 20, 0, 0, 0, time.UTC)

func ms(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }

// gpioConfig is a gpio-mode config with no expanders and no pedal.
func gpioConfig(seats int) *hw.Config {
	c := hw.DefaultConfig()
	c.Mode = hw.ModeGPIO
	c.Seats = seats
	return c
}

// rig is an open table with its tick channel and an event collector.
type rig struct {
	t      *testing.T
	table  *Table
	tick   chan time.Time
	mu     sync.Mutex
	events []hw.Event
	done   chan struct{}
}

func openRig(t *testing.T, cfg *hw.Config, d Deps) *rig {
	t.Helper()
	r := &rig{t: t, tick: make(chan time.Time), done: make(chan struct{})}
	d.Tick = r.tick
	tb, err := Open(cfg, d)
	if err != nil {
		t.Fatal(err)
	}
	r.table = tb
	go func() {
		defer close(r.done)
		for ev := range tb.Events() {
			r.mu.Lock()
			r.events = append(r.events, ev)
			r.mu.Unlock()
		}
	}()
	return r
}

// ticks sends one poll per time, in order.
func (r *rig) ticks(times ...time.Time) {
	for _, at := range times {
		r.tick <- at
	}
}

// close closes the table and returns every event after the first link-up.
func (r *rig) close() []hw.Event {
	r.t.Helper()
	if err := r.table.Close(); err != nil {
		r.t.Errorf("Close: %v", err)
	}
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.events) == 0 || r.events[0].Kind != hw.EventLink || !r.events[0].Link.Up {
		r.t.Fatalf("first event is not link up: %+v", r.events)
	}
	return r.events[1:]
}

// nrz encodes RGB bytes the way a WS2812 chain on a 2.5 MHz SPI port wants
// them, written from the datasheet rather than from nrzled: GRB order, most
// significant bit first, each bit as 4 SPI bits (1 = 1110, 0 = 1000), 3
// bytes of low line before and after.
func nrz(rgb []byte) []byte {
	out := []byte{0, 0, 0}
	for i := 0; i+2 < len(rgb); i += 3 {
		for _, c := range []byte{rgb[i+1], rgb[i], rgb[i+2]} {
			var w uint32
			for bit := 7; bit >= 0; bit-- {
				w <<= 4
				if c>>bit&1 == 1 {
					w |= 0b1110
				} else {
					w |= 0b1000
				}
			}
			out = binary.BigEndian.AppendUint32(out, w)
		}
	}
	return append(out, 0, 0, 0)
}

// rgbOf decodes one SPI write back to RGB bytes (the inverse of nrz).
func rgbOf(t *testing.T, w []byte) []byte {
	t.Helper()
	if len(w) < 6 || (len(w)-6)%12 != 0 {
		t.Fatalf("SPI write of %d bytes is not a frame", len(w))
	}
	body := w[3 : len(w)-3]
	var rgb []byte
	for i := 0; i < len(body); i += 12 {
		var grb [3]byte
		for c := range 3 {
			word := binary.BigEndian.Uint32(body[i+4*c:])
			for bit := 7; bit >= 0; bit-- {
				switch (word >> (4 * bit)) & 0xF {
				case 0b1110:
					grb[c] |= 1 << bit
				case 0b1000:
				default:
					t.Fatalf("bad NRZ symbol %04b at byte %d", (word>>(4*bit))&0xF, 3+i+4*c)
				}
			}
		}
		rgb = append(rgb, grb[1], grb[0], grb[2])
	}
	return rgb
}

func rgbFrame(seats []hw.Color, b byte) []byte {
	var out []byte
	for _, c := range seats {
		rgb := colorRGB(c, b)
		out = append(out, rgb[:]...)
	}
	return out
}

func greens(n int) []hw.SeatLight {
	l := make([]hw.SeatLight, n)
	for i := range l {
		l[i].Color = hw.Green
	}
	return l
}

// connectSpy records how nrzled connects to the port.
type connectSpy struct {
	spitest.Record
	f     physic.Frequency
	mode  spi.Mode
	bits  int
	limit physic.Frequency
}

func (c *connectSpy) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	c.f, c.mode, c.bits = f, mode, bits
	return c.Record.Connect(f, mode, bits)
}

func (c *connectSpy) LimitSpeed(f physic.Frequency) error {
	c.limit = f
	return nil
}

func TestLightsSeat3Red(t *testing.T) {
	port := &connectSpy{}
	r := openRig(t, gpioConfig(12), Deps{SPI: port})
	lights := greens(12)
	lights[2].Color = hw.Red
	if err := r.table.SetLights(lights); err != nil {
		t.Fatal(err)
	}
	if evs := r.close(); len(evs) != 0 {
		t.Errorf("events: %+v", evs)
	}
	if port.f != 2500*physic.KiloHertz || port.mode != spi.Mode3 || port.bits != 8 || port.limit != 2500*physic.KiloHertz {
		t.Errorf("connected at %s mode %d %d bits (limit %s); want 2.5MHz mode 3, 8 bits", port.f, port.mode, port.bits, port.limit)
	}
	ops := port.Ops
	if len(ops) != 3 {
		t.Fatalf("%d SPI writes, want 3 (off at Open, SetLights, off at Close)", len(ops))
	}
	off := nrz(make([]byte, 3*12))
	if string(ops[0].W) != string(off) || string(ops[2].W) != string(off) {
		t.Errorf("Open/Close did not write the chain off:\n%x\n%x", ops[0].W, ops[2].W)
	}
	// Brightness 64 (the default): green is G=0x40, red R=0x40.
	want := nrz(rgbFrame([]hw.Color{hw.Green, hw.Green, hw.Red, hw.Green, hw.Green, hw.Green, hw.Green, hw.Green, hw.Green, hw.Green, hw.Green, hw.Green}, 64))
	if got := ops[1].W; string(got) != string(want) {
		t.Errorf("seat 3 red, others green:\n got %x\nwant %x", got, want)
	}
	// The same, pinned by hand: 3 reset bytes; seat 1 G=0x40 R=0 B=0; seat
	// 2 alike; seat 3 G=0 R=0x40 B=0; 3 latch bytes.
	const x = 0x88
	pinned := []byte{0, 0, 0,
		0x8E, x, x, x, x, x, x, x, x, x, x, x,
		0x8E, x, x, x, x, x, x, x, x, x, x, x,
		x, x, x, x, 0x8E, x, x, x, x, x, x, x,
	}
	if got := ops[1].W; len(got) != 3+12*12+3 || string(got[:len(pinned)]) != string(pinned) || string(got[len(got)-3:]) != "\x00\x00\x00" {
		t.Errorf("frame %x does not start %x", got, pinned)
	}
}

func TestLightsOrderGroupsPrivate(t *testing.T) {
	cfg := gpioConfig(6)
	cfg.Brightness = 200
	cfg.GPIO.LEDsPerSeat = 2
	cfg.GPIO.PrivateLED = true
	cfg.GPIO.LEDOrder = []int{1, 2, 3, 6, 5, 4} // the chain turns back along the far side
	port := &spitest.Record{}
	r := openRig(t, cfg, Deps{SPI: port})
	lights := []hw.SeatLight{
		{Color: hw.Green},
		{Color: hw.Red, Private: true},
		{Color: hw.Blue, Brightness: 10},
		{},
		{Color: hw.Green, Private: true, Brightness: 2},
		{Color: hw.Red},
	}
	if err := r.table.SetLights(lights); err != nil {
		t.Fatal(err)
	}
	r.close()
	g, rd, bl := func(b byte) []byte { return []byte{0, b, 0} }, func(b byte) []byte { return []byte{b, 0, 0} }, func(b byte) []byte { return []byte{0, 0, b} }
	w := func(b byte) []byte { return []byte{b, b, b} }
	var want []byte
	for _, group := range [][]byte{
		append(append(g(200), g(200)...), w(0)...),    // seat 1
		append(append(rd(200), rd(200)...), w(50)...), // seat 2, private: dim white (brightness/4)
		append(append(bl(10), bl(10)...), w(0)...),    // seat 3, its own brightness
		append(append(rd(200), rd(200)...), w(0)...),  // seat 6
		append(append(g(2), g(2)...), w(1)...),        // seat 5: private at least 1
		make([]byte, 9),                               // seat 4: off
	} {
		want = append(want, group...)
	}
	if got := rgbOf(t, port.Ops[1].W); string(got) != string(want) {
		t.Errorf("chain RGB:\n got % d\nwant % d", got, want)
	}
}

func TestLightsPulse(t *testing.T) {
	port := &spitest.Record{}
	r := openRig(t, gpioConfig(6), Deps{SPI: port})
	lights := greens(6)
	lights[0].Pulse = true
	if err := r.table.SetLights(lights); err != nil {
		t.Fatal(err)
	}
	// At phase 0 the pulse is at its floor (64/256), at 250 ms 160/256, at
	// 500 ms full; no frame within 20 ms of the last one.
	r.ticks(ms(0), ms(5), ms(15), ms(250), ms(500))
	r.ticks(ms(505)) // no frame; its send returns once the 500 ms frame is out
	lights[0].Pulse = false
	if err := r.table.SetLights(lights); err != nil {
		t.Fatal(err)
	}
	r.ticks(ms(750)) // nothing pulses: no frame
	r.close()
	frames := []struct {
		seat1 byte
	}{{64}, {64 * 64 / 256}, {64 * 160 / 256}, {64}, {64}}
	ops := port.Ops[1 : len(port.Ops)-1] // not the off frames of Open and Close
	if len(ops) != len(frames) {
		t.Fatalf("%d frames, want %d", len(ops), len(frames))
	}
	for i, f := range frames {
		got := rgbOf(t, ops[i].W)
		want := append([]byte{0, f.seat1, 0}, rgbFrame([]hw.Color{hw.Green, hw.Green, hw.Green, hw.Green, hw.Green}, 64)...)
		if string(got) != string(want) {
			t.Errorf("frame %d: % d\nwant % d", i, got, want)
		}
	}
}

func TestPulseLevel(t *testing.T) {
	for _, tc := range []struct {
		at   time.Time
		want int
	}{
		{ms(0), 64}, {ms(250), 160}, {ms(500), 256}, {ms(750), 160}, {ms(1000), 64},
		{time.Unix(0, -250_000_000), 160}, // before 1970 too
	} {
		if got := pulseLevel(tc.at); got != tc.want {
			t.Errorf("pulseLevel(%v) = %d, want %d", tc.at, got, tc.want)
		}
	}
}

// smallPort cannot send a whole frame in one transfer.
type smallPort struct{ spitest.Record }

func (*smallPort) MaxTxSize() int { return 64 }

// slowPort cannot run at 2.5 MHz.
type slowPort struct {
	spitest.Record
	refuseLimit bool
}

func (p *slowPort) LimitSpeed(f physic.Frequency) error {
	if p.refuseLimit && f > physic.MegaHertz {
		return fmt.Errorf("slowport: %s is faster than 1MHz", f)
	}
	return nil
}

func (p *slowPort) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	if f > physic.MegaHertz {
		return nil, fmt.Errorf("slowport: %s is faster than 1MHz", f)
	}
	return p.Record.Connect(f, mode, bits)
}

func TestLightsErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		port spi.Port
		want string
	}{
		{"buffer", &smallPort{}, "gpio: lights: record transfers at most 64 bytes; 12 LEDs need 150 (raise spidev.bufsize)"},
		{"limit", &slowPort{refuseLimit: true}, "gpio: lights: record cannot run at 2.5 MHz, which WS2812 timing needs: slowport: 2.500MHz is faster than 1MHz"},
		{"connect", &slowPort{}, "gpio: lights: record must run at 2.5 MHz (SPI mode 3, 8 bits) for WS2812 timing: slowport: 2.500MHz is faster than 1MHz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb, err := Open(gpioConfig(12), Deps{SPI: tc.port, Tick: make(chan time.Time)})
			if err == nil {
				tb.Close()
				t.Fatal("opened")
			}
			if err.Error() != tc.want {
				t.Errorf("error:\n%v\nwant\n%s", err, tc.want)
			}
		})
	}
}

func TestSetLightsErrors(t *testing.T) {
	r := openRig(t, gpioConfig(6), Deps{SPI: &spitest.Record{}})
	if err := r.table.SetLights(greens(7)); err == nil || err.Error() != "gpio: SetLights: 7 lights for 6 seats" {
		t.Errorf("7 lights: %v", err)
	}
	r.close()
	if err := r.table.SetLights(greens(6)); err != ErrClosed {
		t.Errorf("after Close: %v", err)
	}
	if err := r.table.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// A failing SPI write is reported by SetLights.
func TestSetLightsBusError(t *testing.T) {
	port := &spitest.Playback{Playback: conntest.Playback{DontPanic: true}}
	port.Ops = []conntest.IO{{W: nrz(make([]byte, 18))}} // Open's off frame only
	tb, err := Open(gpioConfig(6), Deps{SPI: port, Tick: make(chan time.Time)})
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.SetLights(greens(6)); err == nil || !strings.HasPrefix(err.Error(), "gpio: lights: ") {
		t.Errorf("SetLights on a failing bus: %v", err)
	}
	tb.Close() // its off frame fails too
}

func TestOpenConfigErrors(t *testing.T) {
	if _, err := Open(hw.DefaultConfig(), Deps{}); err == nil || err.Error() != `gpio: config mode is "virtual", not "gpio"` {
		t.Errorf("virtual config: %v", err)
	}
	bad := gpioConfig(12)
	bad.Seats = 30
	if _, err := Open(bad, Deps{}); err == nil || !strings.Contains(err.Error(), "table.seats: 30 is out of range 6..18") {
		t.Errorf("bad config: %v", err)
	}
	if _, err := Open(nil, Deps{}); err == nil {
		t.Error("nil config opened")
	}
}

// scriptPin is a pedal pin whose level follows a script, one level per Read
// (the table reads the pedal once per poll); past the end it holds the last
// level.
type scriptPin struct {
	mu     sync.Mutex
	levels []pgpio.Level
	reads  int
	pull   pgpio.Pull
	edge   pgpio.Edge
}

var _ pgpio.PinIn = (*scriptPin)(nil)

func (p *scriptPin) String() string   { return "scriptpin" }
func (p *scriptPin) Halt() error      { return nil }
func (p *scriptPin) Name() string     { return "scriptpin" }
func (p *scriptPin) Number() int      { return 17 }
func (p *scriptPin) Function() string { return string(p.Func()) }
func (p *scriptPin) Func() pin.Func   { return pgpio.IN }
func (p *scriptPin) In(pull pgpio.Pull, edge pgpio.Edge) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pull, p.edge = pull, edge
	return nil
}
func (p *scriptPin) Read() pgpio.Level {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.levels) == 0 {
		return pgpio.High
	}
	l := p.levels[min(p.reads, len(p.levels)-1)]
	p.reads++
	return l
}
func (p *scriptPin) WaitForEdge(time.Duration) bool { return false }
func (p *scriptPin) Pull() pgpio.Pull               { return p.pull }
func (p *scriptPin) DefaultPull() pgpio.Pull        { return pgpio.PullUp }
