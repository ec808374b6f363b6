package gpio

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/spi/spitest"

	"wolftable/hw"
)

// keysConfig: expander 0x20 has seat 1's OK on GPA0, seat 1's UP on GPA1
// and seat 2's OK on GPB7; expander 0x21 has seat 3's OK on GPA0.
func keysConfig() *hw.Config {
	cfg := gpioConfig(12)
	cfg.GPIO.Expanders = []hw.Expander{
		{Address: 0x20, Keys: []hw.KeyPin{
			{Pin: 0, Seat: 1, Key: hw.KeyOK}, {Pin: 1, Seat: 1, Key: hw.KeyUp}, {Pin: 15, Seat: 2, Key: hw.KeyOK},
		}},
		{Address: 0x21, Keys: []hw.KeyPin{{Pin: 0, Seat: 3, Key: hw.KeyOK}}},
	}
	return cfg
}

// keysSetup is the I2C traffic of Open for keysConfig, expanders at their
// power-on state (IODIR 0xFF: all inputs; GPPU 0x00: no pull-ups).
// mcp23xxx reads IODIRA and IODIRB of each expander when it is created;
// each mapped pin's In(PullUp) then finds it already an input and sets its
// bit in GPPUA (0x0C) or GPPUB (0x0D), read once and written per pin.
var keysSetup = []i2ctest.IO{
	{Addr: 0x20, W: []byte{0x00}, R: []byte{0xFF}}, // IODIRA
	{Addr: 0x20, W: []byte{0x01}, R: []byte{0xFF}}, // IODIRB
	{Addr: 0x20, W: []byte{0x0C}, R: []byte{0x00}}, // GPPUA
	{Addr: 0x20, W: []byte{0x0C, 0x01}},            // pull-up on GPA0
	{Addr: 0x20, W: []byte{0x0C, 0x03}},            // and GPA1
	{Addr: 0x20, W: []byte{0x0D}, R: []byte{0x00}}, // GPPUB
	{Addr: 0x20, W: []byte{0x0D, 0x80}},            // pull-up on GPB7
	{Addr: 0x21, W: []byte{0x00}, R: []byte{0xFF}},
	{Addr: 0x21, W: []byte{0x01}, R: []byte{0xFF}},
	{Addr: 0x21, W: []byte{0x0C}, R: []byte{0x00}},
	{Addr: 0x21, W: []byte{0x0C, 0x01}},
}

// pressedAt says which pins of an expander are closed at a time (ms).
type pressedAt func(addr uint16, m int) uint16

// keysPlayback is Open's traffic then, every 5 ms from 0 to endMS, one
// read of GPIOA+GPIOB (register 0x12, 2 bytes) per expander, with the
// pressed pins low.
func keysPlayback(endMS int, pressed pressedAt) (*i2ctest.Playback, []time.Time) {
	pb := &i2ctest.Playback{DontPanic: true, Ops: append([]i2ctest.IO(nil), keysSetup...)}
	var ticks []time.Time
	for m := 0; m <= endMS; m += 5 {
		for _, addr := range []uint16{0x20, 0x21} {
			levels := ^pressed(addr, m)
			pb.Ops = append(pb.Ops, i2ctest.IO{Addr: addr, W: []byte{0x12}, R: []byte{byte(levels), byte(levels >> 8)}})
		}
		ticks = append(ticks, ms(m))
	}
	return pb, ticks
}

// during returns the pins held between from and to (ms, [from, to)).
func during(spans ...struct {
	addr     uint16
	pins     uint16
	from, to int
}) pressedAt {
	return func(addr uint16, m int) uint16 {
		var p uint16
		for _, s := range spans {
			if s.addr == addr && m >= s.from && m < s.to {
				p |= s.pins
			}
		}
		return p
	}
}

type span = struct {
	addr     uint16
	pins     uint16
	from, to int
}

func keyEv(m, seat int, k hw.Key, e hw.Edge) hw.Event {
	return hw.Event{Kind: hw.EventKey, At: ms(m), Key: hw.KeyEvent{Seat: seat, Key: k, Edge: e, At: ms(m)}}
}

func TestKeys(t *testing.T) {
	// Debounce 10 ms, polled every 5 ms: a level counts on its third
	// consecutive sample.
	for _, tc := range []struct {
		name  string
		spans []span
		want  []hw.Event
	}{
		{"press", []span{{0x20, 1 << 0, 100, 200}}, []hw.Event{
			keyEv(110, 1, hw.KeyOK, hw.Down), keyEv(210, 1, hw.KeyOK, hw.Up),
		}},
		{"bouncing press is one press", []span{
			// GPA0 flips at 100, 105, 110, 115, 120 (3 times closed within
			// the debounce window), then holds; it bounces again on release.
			{0x20, 1 << 0, 100, 105}, {0x20, 1 << 0, 110, 115}, {0x20, 1 << 0, 120, 300},
			{0x20, 1 << 0, 305, 310},
		}, []hw.Event{
			keyEv(130, 1, hw.KeyOK, hw.Down), keyEv(320, 1, hw.KeyOK, hw.Up),
		}},
		{"glitch shorter than the window", []span{{0x20, 1 << 15, 100, 110}}, nil},
		{"keys on both ports and expanders", []span{
			{0x20, 1 << 1, 50, 150},  // seat 1 UP on GPA1
			{0x20, 1 << 15, 60, 400}, // seat 2 OK on GPB7
			{0x21, 1 << 0, 70, 100},  // seat 3 OK on the second expander
		}, []hw.Event{
			keyEv(60, 1, hw.KeyUp, hw.Down),
			keyEv(70, 2, hw.KeyOK, hw.Down),
			keyEv(80, 3, hw.KeyOK, hw.Down),
			keyEv(110, 3, hw.KeyOK, hw.Up),
			keyEv(160, 1, hw.KeyUp, hw.Up),
			keyEv(410, 2, hw.KeyOK, hw.Up),
		}},
		{"unmapped pins are ignored", []span{{0x20, 0x7F7C, 0, 500}, {0x21, 0xFFFE, 0, 500}}, nil},
		{"two keys at once", []span{{0x20, 1<<0 | 1<<1, 100, 200}}, []hw.Event{
			keyEv(110, 1, hw.KeyOK, hw.Down), keyEv(110, 1, hw.KeyUp, hw.Down),
			keyEv(210, 1, hw.KeyOK, hw.Up), keyEv(210, 1, hw.KeyUp, hw.Up),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pb, ticks := keysPlayback(500, during(tc.spans...))
			r := openRig(t, keysConfig(), Deps{SPI: &spitest.Record{}, I2C: pb})
			r.ticks(ticks...)
			got := r.close()
			if err := pb.Close(); err != nil {
				t.Errorf("playback: %v", err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("events:\n%s\nwant:\n%s", dump(got), dump(tc.want))
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("event %d: %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func dump(evs []hw.Event) string {
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(e.At.Sub(t0).String())
		b.WriteString(" ")
		switch e.Kind {
		case hw.EventKey:
			b.WriteString("seat ")
			b.WriteString(string(rune('0' + e.Key.Seat)))
			b.WriteString(" " + e.Key.Key.String() + " " + e.Key.Edge.String())
		case hw.EventPedal:
			b.WriteString("pedal " + e.Pedal.String())
		case hw.EventLink:
			b.WriteString("link " + e.Link.Detail)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// flakyBus fails the Tx calls whose numbers (from 0) are in fail, without
// passing them on.
type flakyBus struct {
	i2c.Bus
	mu   sync.Mutex
	n    int
	fail map[int]bool
}

func (b *flakyBus) Tx(addr uint16, w, r []byte) error {
	b.mu.Lock()
	n := b.n
	b.n++
	b.mu.Unlock()
	if b.fail[n] {
		return errors.New("i2c: no ACK")
	}
	return b.Bus.Tx(addr, w, r)
}

func TestKeysLink(t *testing.T) {
	// Seat 1 OK is held from 0 ms. Expander 0x21 stops answering at the 2nd
	// and 3rd polls; at the 4th both fail; from the 5th all is well.
	pb, ticks := keysPlayback(40, during(span{0x20, 1, 0, 100}))
	// Tx numbers: setup, then 2 per poll (0x20, 0x21).
	s := len(keysSetup)
	failing := map[int]bool{s + 3: true, s + 5: true, s + 6: true, s + 7: true}
	// A failed Tx is not passed on: drop its op from the playback.
	var ops []i2ctest.IO
	for i, op := range pb.Ops {
		if !failing[i] {
			ops = append(ops, op)
		}
	}
	pb.Ops = ops
	bus := &flakyBus{Bus: pb, fail: failing}
	r := openRig(t, keysConfig(), Deps{SPI: &spitest.Record{}, I2C: bus})
	r.ticks(ticks...)
	got := r.close()
	if err := pb.Close(); err != nil {
		t.Errorf("playback: %v", err)
	}
	want := []hw.Event{
		{Kind: hw.EventLink, At: ms(5), Link: hw.Link{Up: false, Detail: "按鍵擴充晶片 0x21 沒有回應（請檢查它的接線與位址）：i2c: no ACK"}},
		keyEv(10, 1, hw.KeyOK, hw.Down), // 0x20 still answers: its keys still count
		{Kind: hw.EventLink, At: ms(15), Link: hw.Link{Up: false, Detail: "按鍵擴充晶片 0x20 沒有回應（請檢查它的接線與位址）：i2c: no ACK；按鍵擴充晶片 0x21 沒有回應（請檢查它的接線與位址）：i2c: no ACK"}},
		{Kind: hw.EventLink, At: ms(20), Link: hw.Link{Up: true, Detail: "按鍵擴充晶片全部恢復回應"}},
	}
	if len(got) != len(want) {
		t.Fatalf("events:\n%s\nwant:\n%s", dump(got), dump(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("event %d: %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

func TestKeysOpenErrors(t *testing.T) {
	// The first expander does not answer at all.
	bus := &flakyBus{Bus: &i2ctest.Playback{DontPanic: true}, fail: map[int]bool{0: true}}
	_, err := Open(keysConfig(), Deps{SPI: &spitest.Record{}, I2C: bus, Tick: make(chan time.Time)})
	if err == nil || err.Error() != "按鍵擴充晶片 0x20（playback 上）設定失敗，請檢查它的接線與位址：i2c: no ACK" {
		t.Errorf("dead expander: %v", err)
	}
	// Setting a pull-up fails: the pin is named.
	pb := &i2ctest.Playback{DontPanic: true, Ops: keysSetup[:3]}
	bus = &flakyBus{Bus: pb, fail: map[int]bool{3: true}}
	_, err = Open(keysConfig(), Deps{SPI: &spitest.Record{}, I2C: bus, Tick: make(chan time.Time)})
	if err == nil || err.Error() != "按鍵擴充晶片 0x20 的腳位 A0（1號 OK）設定失敗：i2c: no ACK" {
		t.Errorf("pull-up: %v", err)
	}
	// A failed Open released the expanders' pins: opening again works.
	pb = &i2ctest.Playback{DontPanic: true, Ops: keysSetup}
	tb, err := Open(keysConfig(), Deps{SPI: &spitest.Record{}, I2C: pb, Tick: make(chan time.Time)})
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestDebouncer(t *testing.T) {
	var d debouncer
	hold := 10 * time.Millisecond
	for i, s := range []struct {
		level   bool
		m       int
		changed bool
	}{
		{false, 0, false},
		{true, 5, false}, {true, 10, false}, {true, 15, true}, // held 10 ms
		{true, 20, false},
		{false, 25, false}, {true, 26, false}, {false, 30, false}, {false, 39, false}, {false, 40, true},
	} {
		if got := d.sample(s.level, ms(s.m), hold); got != s.changed {
			t.Errorf("sample %d (%v at %d ms): changed %v, want %v", i, s.level, s.m, got, s.changed)
		}
	}
}
