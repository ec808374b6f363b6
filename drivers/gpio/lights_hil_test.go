//go:build hil

package gpio

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"wolftable/hw"
	"wolftable/internal/hilsim"
)

// chain reads the SPI port's last transfer as the WS2812 chain takes it,
// checking the wire format the LEDs need: 2.5 MHz (400 ns per SPI bit, 800
// kHz per LED bit), 8-bit words, and the SPI mode nrzled asks for.
func chain(t *testing.T, sim *hilsim.Sim) (hilsim.Transfer, []hilsim.RGB) {
	t.Helper()
	tr, err := sim.LastTransfer()
	if err != nil {
		t.Fatal(err)
	}
	if tr.SpeedHz != 2_500_000 || tr.Bits != 8 || tr.Mode != 3 || tr.Truncated {
		t.Fatalf("SPI transfer %d: %d Hz, %d bits, mode %#x: want 2.5 MHz, 8 bits, mode 3", tr.N, tr.SpeedHz, tr.Bits, tr.Mode)
	}
	leds, err := hilsim.DecodeWS2812(tr.Data)
	if err != nil {
		t.Fatalf("SPI transfer %d: %v", tr.N, err)
	}
	return tr, leds
}

// wantChain is what the LEDs show for lights, from the package's
// documentation: along the chain the seats in led order, each
// leds_per_seat LEDs of its colour at its brightness (the table's when 0),
// then with private_led its indicator, white at a quarter of it (at least
// 1) while Private.
func wantChain(cfg *hw.Config, lights []hw.SeatLight) []hilsim.RGB {
	var out []hilsim.RGB
	for _, seat := range cfg.GPIO.Order(cfg.Seats) {
		l := lights[seat-1]
		b := l.Brightness
		if b == 0 {
			b = cfg.Brightness
		}
		var c hilsim.RGB
		switch l.Color {
		case hw.Red:
			c.R = b
		case hw.Green:
			c.G = b
		case hw.Blue:
			c.B = b
		}
		for range cfg.GPIO.LEDsPerSeat {
			out = append(out, c)
		}
		if cfg.GPIO.PrivateLED {
			var w uint8
			if l.Private {
				w = max(b/4, 1)
			}
			out = append(out, hilsim.RGB{R: w, G: w, B: w})
		}
	}
	return out
}

func diffChain(got, want []hilsim.RGB) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d LEDs, want %d", len(got), len(want))
	}
	var d []string
	for i := range got {
		if got[i] != want[i] {
			d = append(d, fmt.Sprintf("LED %d %+v, want %+v", i+1, got[i], want[i]))
		}
	}
	return strings.Join(d, "; ")
}

// everySeat is a frame with every seat different: its colour, brightness
// (seat 18: the table's) and private indicator (odd seats).
func everySeat() []hw.SeatLight {
	l := make([]hw.SeatLight, hw.MaxSeats)
	for i := range l {
		l[i] = hw.SeatLight{Color: []hw.Color{hw.Red, hw.Green, hw.Blue, hw.Off}[i%4], Brightness: uint8(10 * (i + 1)), Private: i%2 == 0}
	}
	l[17].Brightness = 0
	return l
}

// TestHILLights: Open turns the chain off; SetLights shows every seat's own
// colour, brightness and private indicator, for the default chain and for
// one wired in reverse with two LEDs per seat and no indicators; Close
// turns it off.
func TestHILLights(t *testing.T) {
	for _, tc := range []struct{ name, edit string }{
		{"default chain", ""},
		{"reversed, 2 per seat", "reversed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sim := hilSim(t)
			text := hilConfigText("")
			if tc.edit != "" {
				var order []string
				for s := hw.MaxSeats; s >= 1; s-- {
					order = append(order, fmt.Sprint(s))
				}
				text = strings.Replace(text, "private_led = true\n", "private_led = false\nleds_per_seat = 2\nled_order = ["+strings.Join(order, ", ")+"]\n", 1)
			}
			cfg, err := hw.ParseConfig([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			r := openHIL(t, sim, cfg)
			tr, leds := chain(t, sim)
			off := make([]hw.SeatLight, hw.MaxSeats)
			if d := diffChain(leds, wantChain(cfg, off)); tr.N != 1 || d != "" {
				t.Errorf("Open: transfer %d: %s; want one frame, every LED off", tr.N, d)
			}
			lights := everySeat()
			if err := r.tb.SetLights(lights); err != nil {
				t.Fatal(err)
			}
			tr, leds = chain(t, sim)
			if d := diffChain(leds, wantChain(cfg, lights)); tr.N != 2 || d != "" {
				t.Errorf("SetLights: transfer %d: %s", tr.N, d)
			}
			r.close()
			tr, leds = chain(t, sim)
			if d := diffChain(leds, wantChain(cfg, off)); tr.N != 3 || d != "" {
				t.Errorf("Close: transfer %d: %s; want the chain off", tr.N, d)
			}
		})
	}
}

// TestHILLightsPulse: a pulsing seat's light breathes between a quarter and
// all of its brightness, at most 50 frames a second, while the others hold;
// once nothing pulses the chain is written only by SetLights.
func TestHILLightsPulse(t *testing.T) {
	sim := hilSim(t)
	cfg := hilConfig(t, "")
	r := openHIL(t, sim, cfg)
	lights := make([]hw.SeatLight, hw.MaxSeats)
	lights[0] = hw.SeatLight{Color: hw.Green, Brightness: 100}
	lights[4] = hw.SeatLight{Color: hw.Blue, Brightness: 200, Pulse: true}
	if err := r.tb.SetLights(lights); err != nil {
		t.Fatal(err)
	}
	first, _ := chain(t, sim)
	start := time.Now()
	still := wantChain(cfg, lights)
	levels := map[uint8]bool{}
	frames := map[uint64]bool{}
	last := first
	r.until("the pulse", 400, func() bool {
		tr, leds := chain(t, sim)
		if tr.N == last.N {
			return false
		}
		last = tr
		frames[tr.N] = true
		b := leds[8].B // seat 5's LED (seats 1-4 have an LED and an indicator each)
		levels[b] = true
		if b < 200*64/256 || b > 200 || leds[8].R != 0 || leds[8].G != 0 {
			t.Errorf("frame %d: the pulsing light is %+v, want blue between 50 and 200", tr.N, leds[8])
		}
		for i := range leds {
			if i != 8 && leds[i] != still[i] {
				t.Errorf("frame %d: LED %d is %+v, want %+v: only the pulsing light changes", tr.N, i+1, leds[i], still[i])
			}
		}
		return len(levels) >= 8
	})
	took := time.Since(start)
	if n := last.N - first.N; float64(n) > took.Seconds()*50+1 {
		t.Errorf("%d pulse frames in %v: more than 50 a second", n, took)
	}
	t.Logf("%d pulse frames in %v, %d levels", last.N-first.N, took.Round(time.Millisecond), len(levels))

	lights[4].Pulse = false
	if err := r.tb.SetLights(lights); err != nil {
		t.Fatal(err)
	}
	set, leds := chain(t, sim)
	if d := diffChain(leds, wantChain(cfg, lights)); d != "" {
		t.Errorf("steady again: %s", d)
	}
	r.settle(30)
	if tr, _ := chain(t, sim); tr.N != set.N {
		t.Errorf("%d frames written in 30 polls with nothing pulsing", tr.N-set.N)
	}
}
