package scenario_test

import (
	"os"
	"strings"
	"testing"

	"wolftable/scenario"
)

// TestSilenceGestureWindow: under silence.turn gesture_window the silenced
// seat's exile-day turn opens with the judge's gesture line and is a speech
// turn (15 s; the suite's idle judge ends it with the pedal); under the default its turn is the judge's line alone.
func TestSilenceGestureWindow(t *testing.T) {
	const file = "../scenarios/roles/silenceelder-gesture-window-option.wolf"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	run := func(src string) (lines map[string]int, turns int) {
		t.Helper()
		f, err := scenario.Parse(file, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		res := scenario.Run(f, getBoard)
		if res.ExitStatus() != 0 {
			t.Fatalf("exit %d: %v %v", res.ExitStatus(), res.Err, res.Failures)
		}
		lines = map[string]int{}
		for _, e := range res.Events {
			if e.Type == "say" {
				lines[e.Line]++
			}
			if e.Type == "speech" && e.Seat != nil && *e.Seat == 6 {
				turns++
			}
		}
		return lines, turns
	}
	lines, turns := run(string(src))
	if lines["speech.silenced.gesture"] != 1 || lines["speech.silenced"] != 0 || turns != 1 {
		t.Errorf("gesture_window: lines %v, 6's turns %d", lines, turns)
	}
	def := strings.Replace(string(src), "option silence.turn=gesture_window\n", "", 1)
	if def == string(src) {
		t.Fatal("the scenario no longer sets the option")
	}
	lines, turns = run(def)
	if lines["speech.silenced"] != 1 || lines["speech.silenced.gesture"] != 0 || turns != 0 {
		t.Errorf("skip_with_line: lines %v, 6's turns %d", lines, turns)
	}
}
