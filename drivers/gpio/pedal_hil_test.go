//go:build hil

package gpio

import (
	"strings"
	"testing"
	"time"

	pgpio "periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"

	"wolftable/hw"
	"wolftable/internal/hilsim"
)

// pedalSteps is the pedal's switch closed (to level) and open in turn, each
// for at least the given time and 3 reads (past the 20 ms debounce however
// the polls come); the last step opens it for good. The test config's long
// press is 1.2 s and its double window 800 ms: a 150 ms tap and gap fit in
// them unless the VM stalls for over half a second; a long press is held
// 2.5 s, since such a stall can also make the driver date its release
// early (it dates a poll by its tick, which a late poll takes stale).
func pedalSteps(level string, ms ...int) []hilsim.Drive {
	var d []hilsim.Drive
	for i, n := range ms {
		l := "z"
		if i%2 == 0 {
			l = level
		}
		d = append(d, hilsim.Drive{Level: l, Reads: 3, Min: time.Duration(n) * time.Millisecond})
	}
	return append(d, hilsim.Drive{Level: "z"})
}

// pedalOnly checks that evs are exactly one pedal press of kind want.
func pedalOnly(t *testing.T, what string, evs []hw.Event, want hw.PedalPress) {
	t.Helper()
	if len(evs) != 1 || evs[0].Kind != hw.EventPedal || evs[0].Pedal != want || evs[0].At.IsZero() {
		t.Errorf("%s: %s, want one %v press", what, eventList(evs), want)
	}
}

// waitPedal plays the pedal's script and waits for its press: a short one
// comes once the double window (800 ms: at most 160 polls) has passed.
func (r *hilRig) waitPedal(steps []hilsim.Drive) []hw.Event {
	r.t.Helper()
	if err := r.sim.Drive(0, steps...); err != nil {
		r.t.Fatal(err)
	}
	r.pedalDone(0)
	r.until("the pedal press", 400, func() bool {
		for _, ev := range r.evs[r.seen:] {
			if ev.Kind == hw.EventPedal {
				return true
			}
		}
		return false
	})
	r.settle(5)
	return r.take()
}

// TestHILPedal: the pedal's pin gets its pull-up (the switch goes to
// ground), and a short, a long and a double press each come as one press of
// their kind. Without the pull-up the pin keeps the Pi's power-on
// pull-down, reads low with the switch open, and the pedal is held down
// from the start.
func TestHILPedal(t *testing.T) {
	sim := hilSim(t)
	r := openHIL(t, sim, hilConfig(t, ""))
	l, err := sim.Line(hilPedal)
	if err != nil {
		t.Fatal(err)
	}
	if l.Dir != "in" || l.Bias != "pull-up" || l.Level != 1 {
		t.Fatalf("pedal pin after Open: %s, bias %s, level %d; want an input with its pull-up on, reading 1", l.Dir, l.Bias, l.Level)
	}
	r.settle(30)
	if evs := r.take(); len(evs) > 0 {
		t.Fatalf("the pedal untouched: %s", eventList(evs))
	}
	pedalOnly(t, "short", r.waitPedal(pedalSteps("0", 150)), hw.PedalShort)
	pedalOnly(t, "long", r.waitPedal(pedalSteps("0", 2500)), hw.PedalLong)
	pedalOnly(t, "double", r.waitPedal(pedalSteps("0", 150, 150, 150)), hw.PedalDouble)
}

// TestHILPedalActiveHigh: wired the other way (to 3.3 V, pull = "down",
// active = "high") the pin gets its pull-down, whatever it had before, and
// a press is a high level.
func TestHILPedalActiveHigh(t *testing.T) {
	sim := hilSim(t)
	text := strings.Replace(hilConfigText(""), "pull = \"up\"\nactive = \"low\"", "pull = \"down\"\nactive = \"high\"", 1)
	cfg, err := hw.ParseConfig([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	// A program before left the pin pulled up: Open must pull it down.
	if _, err := host.Init(); err != nil {
		t.Fatal(err)
	}
	if err := gpioreg.ByName(hilPedal).In(pgpio.PullUp, pgpio.NoEdge); err != nil {
		t.Fatal(err)
	}
	r := openHIL(t, sim, cfg)
	if l, err := sim.Line(hilPedal); err != nil || l.Bias != "pull-down" || l.Level != 0 {
		t.Fatalf("pedal pin after Open: %+v %v; want its pull-down on, reading 0", l, err)
	}
	pedalOnly(t, "short", r.waitPedal(pedalSteps("1", 150)), hw.PedalShort)
	pedalOnly(t, "double", r.waitPedal(pedalSteps("1", 150, 150, 150)), hw.PedalDouble)
}
