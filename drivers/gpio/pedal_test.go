package gpio

import (
	"testing"
	"time"

	pgpio "periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/spi/spitest"

	"wolftable/hw"
)

// pedalScript is the pedal's level at every 5 ms poll from 0 to endMS:
// pressed during each [from, to) interval in ms.
func pedalScript(endMS int, pressed ...[2]int) (levels []pgpio.Level, ticks []time.Time) {
	for m := 0; m <= endMS; m += 5 {
		l := pgpio.High
		for _, p := range pressed {
			if m >= p[0] && m < p[1] {
				l = pgpio.Low
			}
		}
		levels = append(levels, l)
		ticks = append(ticks, ms(m))
	}
	return levels, ticks
}

func TestPedal(t *testing.T) {
	// Default timing: long 800 ms, double 350 ms; debounce 20 ms; polled
	// every 5 ms. The pedal pulls up and reads low when pressed.
	for _, tc := range []struct {
		name    string
		pressed [][2]int
		want    []hw.Event
	}{
		{"short", [][2]int{{100, 200}}, []hw.Event{
			// Down counts at 120, up at 220; the double window closes after 570.
			{Kind: hw.EventPedal, At: ms(575), Pedal: hw.PedalShort},
		}},
		{"long", [][2]int{{100, 1000}}, []hw.Event{
			{Kind: hw.EventPedal, At: ms(1020), Pedal: hw.PedalLong},
		}},
		{"double", [][2]int{{100, 180}, {300, 380}}, []hw.Event{
			{Kind: hw.EventPedal, At: ms(400), Pedal: hw.PedalDouble},
		}},
		{"bouncy short", [][2]int{{100, 105}, {110, 115}, {120, 200}, {205, 210}}, []hw.Event{
			// Flips at 100, 105, 110, 115, 120: down counts at 140. Up at
			// 200, a bounce at 205..210, up again from 210: counts at 230.
			{Kind: hw.EventPedal, At: ms(585), Pedal: hw.PedalShort},
		}},
		{"glitch", [][2]int{{100, 110}, {300, 315}}, nil},
		{"two shorts", [][2]int{{100, 150}, {700, 750}}, []hw.Event{
			{Kind: hw.EventPedal, At: ms(525), Pedal: hw.PedalShort},
			{Kind: hw.EventPedal, At: ms(1125), Pedal: hw.PedalShort},
		}},
		{"short then long", [][2]int{{100, 150}, {600, 1500}}, []hw.Event{
			{Kind: hw.EventPedal, At: ms(525), Pedal: hw.PedalShort},
			{Kind: hw.EventPedal, At: ms(1520), Pedal: hw.PedalLong},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			levels, ticks := pedalScript(2000, tc.pressed...)
			pin := &scriptPin{levels: levels}
			cfg := gpioConfig(6)
			cfg.Pedal.Pin = "GPIO17"
			r := openRig(t, cfg, Deps{SPI: &spitest.Record{}, Pedal: pin})
			r.ticks(ticks...)
			got := r.close()
			if pin.pull != pgpio.PullUp || pin.edge != pgpio.NoEdge {
				t.Errorf("pin set up with pull %s, edge %s; want pull up, no edge", pin.pull, pin.edge)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("events %+v\nwant %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("event %d: %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// An active-high pedal with a pull-down, and custom timing.
func TestPedalActiveHigh(t *testing.T) {
	var levels []pgpio.Level
	var ticks []time.Time
	for m := 0; m <= 1000; m += 5 {
		l := pgpio.Low
		if m >= 100 && m < 400 {
			l = pgpio.High
		}
		levels = append(levels, l)
		ticks = append(ticks, ms(m))
	}
	pin := &scriptPin{levels: levels}
	cfg := gpioConfig(6)
	cfg.Pedal = hw.PedalConfig{
		Timing:   hw.PedalTiming{Long: 250 * time.Millisecond, Double: 100 * time.Millisecond},
		Pin:      "GPIO27",
		Pull:     hw.PullDown,
		Debounce: 0,
	}
	r := openRig(t, cfg, Deps{SPI: &spitest.Record{}, Pedal: pin})
	r.ticks(ticks...)
	got := r.close()
	want := []hw.Event{{Kind: hw.EventPedal, At: ms(400), Pedal: hw.PedalLong}}
	if len(got) != 1 || got[0] != want[0] {
		t.Errorf("events %+v, want %+v", got, want)
	}
	if pin.pull != pgpio.PullDown {
		t.Errorf("pull %s, want down", pin.pull)
	}
}
