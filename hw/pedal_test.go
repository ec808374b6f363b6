package hw_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"wolftable/hw"
)

// pedalStep is one call on a PedalClassifier: "down", "up" or "poll" at a
// time in ms, and the press it must return ("" for none).
type pedalStep struct {
	op   string
	ms   int
	want string
}

func runPedal(t *testing.T, timing hw.PedalTiming, steps []pedalStep) {
	t.Helper()
	c := hw.PedalClassifier{T: timing}
	t0 := time.Date(2026, 1, 2, 20, 0, 0, 0, time.UTC)
	for i, s := range steps {
		at := t0.Add(time.Duration(s.ms) * time.Millisecond)
		var p hw.PedalPress
		var ok bool
		switch s.op {
		case "down":
			p, ok = c.Edge(true, at)
		case "up":
			p, ok = c.Edge(false, at)
		case "poll":
			p, ok = c.Poll(at)
		default:
			t.Fatalf("step %d: bad op %q", i, s.op)
		}
		got := ""
		if ok {
			got = p.String()
		}
		if got != s.want {
			t.Fatalf("step %d (%s at %dms): got %q, want %q", i, s.op, s.ms, got, s.want)
		}
	}
}

func TestPedalClassifier(t *testing.T) {
	def := hw.DefaultPedalTiming() // long 800ms, double 350ms
	for _, tc := range []struct {
		name  string
		steps []pedalStep
	}{
		{"short", []pedalStep{
			{"down", 0, ""}, {"up", 120, ""},
			{"poll", 200, ""},
			{"poll", 470, ""}, // exactly the double window after the release: still waiting
			{"poll", 471, "short"},
			{"poll", 2000, ""}, // let out once
		}},
		{"long", []pedalStep{
			{"down", 0, ""},
			{"poll", 500, ""}, {"poll", 900, ""}, // held: nothing while down
			{"up", 1000, "long"},
			{"poll", 5000, ""},
		}},
		{"long threshold is inclusive", []pedalStep{
			{"down", 0, ""}, {"up", 800, "long"},
		}},
		{"just short of long", []pedalStep{
			{"down", 0, ""}, {"up", 799, ""}, {"poll", 1150, "short"},
		}},
		{"double", []pedalStep{
			{"down", 0, ""}, {"up", 100, ""},
			{"poll", 200, ""},
			{"down", 300, ""}, {"up", 400, "double"},
			{"poll", 2000, ""},
		}},
		{"double window is inclusive", []pedalStep{
			{"down", 0, ""}, {"up", 100, ""},
			{"down", 450, ""}, {"up", 500, "double"},
		}},
		{"pending short is not let out while the second press is held", []pedalStep{
			{"down", 0, ""}, {"up", 100, ""},
			{"down", 200, ""}, {"poll", 1000, ""}, {"up", 1500, "double"},
		}},
		{"second press after the window, polled between", []pedalStep{
			{"down", 0, ""}, {"up", 100, ""},
			{"poll", 451, "short"},
			{"down", 600, ""}, {"up", 700, ""}, {"poll", 1051, "short"},
		}},
		{"triple press is a double then a short", []pedalStep{
			{"down", 0, ""}, {"up", 80, ""},
			{"down", 200, ""}, {"up", 280, "double"},
			{"down", 400, ""}, {"up", 480, ""},
			{"poll", 831, "short"},
		}},
		{"repeated levels are ignored", []pedalStep{
			{"up", 0, ""}, // not down yet
			{"down", 10, ""}, {"down", 20, ""}, {"down", 900, ""},
			{"up", 950, "long"}, // held from 10ms, not from 900ms
			{"up", 960, ""},
			{"poll", 2000, ""},
		}},
		{"long then short", []pedalStep{
			{"down", 0, ""}, {"up", 1000, "long"},
			{"down", 1100, ""}, {"up", 1200, ""}, // the long press left nothing pending: a fresh press
			{"poll", 1551, "short"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { runPedal(t, def, tc.steps) })
	}
}

func TestPedalClassifierTiming(t *testing.T) {
	// Custom thresholds are honoured.
	timing := hw.PedalTiming{Long: 300 * time.Millisecond, Double: 100 * time.Millisecond}
	runPedal(t, timing, []pedalStep{
		{"down", 0, ""}, {"up", 300, "long"},
		{"down", 1000, ""}, {"up", 1050, ""},
		{"poll", 1150, ""}, {"poll", 1151, "short"}, // 101ms > 100ms: the window has closed
		{"down", 1160, ""}, {"up", 1200, ""}, // a new press, not a double
		{"poll", 1300, ""}, {"poll", 1301, "short"},
	})
}

func TestPedalClassifierSecondPressAfterWindowWithoutPoll(t *testing.T) {
	runPedal(t, hw.DefaultPedalTiming(), []pedalStep{
		{"down", 0, ""}, {"up", 100, ""},
		{"down", 600, "short"}, {"up", 700, ""}, {"poll", 1051, "short"},
	})
}

// ExamplePedalClassifier feeds the edges of a double press.
func ExamplePedalClassifier() {
	c := hw.PedalClassifier{T: hw.DefaultPedalTiming()}
	t0 := time.Date(2026, 1, 2, 20, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	var got []string
	for _, e := range []struct {
		down bool
		at   int
	}{{true, 0}, {false, 90}, {true, 250}, {false, 330}} {
		if p, ok := c.Poll(ms(e.at)); ok { // always Poll before Edge
			got = append(got, p.String())
		}
		if p, ok := c.Edge(e.down, ms(e.at)); ok {
			got = append(got, p.String())
		}
	}
	fmt.Println(strings.Join(got, " "))
	// Output: double
}
