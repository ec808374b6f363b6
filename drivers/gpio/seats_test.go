package gpio

import (
	"testing"

	"wolftable/hw"
)

// TestLightsFewerSeats: a table of 7 or 11 seats drives a chain of that
// many LED groups: the frame holds exactly those seats, the last seat's
// colour in the last group, and a frame for another seat count is refused.
func TestLightsFewerSeats(t *testing.T) {
	for _, n := range []int{7, 9, 11} {
		port := &connectSpy{}
		r := openRig(t, gpioConfig(n), Deps{SPI: port})
		lights := greens(n)
		lights[n-1].Color = hw.Red
		if err := r.table.SetLights(lights); err != nil {
			t.Fatal(err)
		}
		if err := r.table.SetLights(greens(12)); err == nil {
			t.Errorf("%d seats: a 12-seat frame was accepted", n)
		}
		r.close()
		if len(port.Ops) < 2 {
			t.Fatalf("%d seats: %d SPI writes", n, len(port.Ops))
		}
		colors := make([]hw.Color, n)
		for i := range colors {
			colors[i] = hw.Green
		}
		colors[n-1] = hw.Red
		want := nrz(rgbFrame(colors, 64))
		if got := port.Ops[1].W; string(got) != string(want) {
			t.Errorf("%d seats: frame\n got %x\nwant %x", n, got, want)
		}
		if off := nrz(make([]byte, 3*n)); string(port.Ops[0].W) != string(off) {
			t.Errorf("%d seats: Open did not write %d groups off", n, n)
		}
	}
}
