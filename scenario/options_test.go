package scenario_test

import (
	"os"
	"strings"
	"testing"

	"wolftable/scenario"
)

// withAndWithout reads a scenario file that sets option line, runs it as
// written and without that line, and hands each run's events to count.
func withAndWithout(t *testing.T, file, line string, count func([]scenario.Event) int) (with, without int) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	def := strings.Replace(string(src), line+"\n", "", 1)
	if def == string(src) {
		t.Fatalf("%s no longer has the line %q", file, line)
	}
	run := func(src string) int {
		t.Helper()
		f, err := scenario.Parse(file, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		res := scenario.Run(f, getBoard)
		if res.ExitStatus() != 0 {
			t.Fatalf("exit %d: %v %v", res.ExitStatus(), res.Err, res.Failures)
		}
		return count(res.Events)
	}
	return run(string(src)), run(def)
}

func said(line string) func([]scenario.Event) int {
	return func(evs []scenario.Event) int {
		n := 0
		for _, e := range evs {
			if e.Type == "say" && e.Line == line {
				n++
			}
		}
		return n
	}
}

// TestHunterStepLeftOutAfterHisShot: under night.skip_dead_revealed_hunter
// the 獵人 step is left out of night 2 once the exiled hunter has shot; the
// same game under the default keeps it (A3, A15).
func TestHunterStepLeftOutAfterHisShot(t *testing.T) {
	on, off := withAndWithout(t, "../scenarios/roles/hunter-step-left-out-after-his-shot.wolf",
		"option night.skip_dead_revealed_hunter=on", said("night.hunter.open"))
	if on != 1 || off != 2 {
		t.Errorf("the 獵人 step opened %d times over two nights with the option (want 1: night 1 only), %d without (want 2)", on, off)
	}
	// a hunter out without a shot showed no card: his step stays (A15)
	on, off = withAndWithout(t, "../scenarios/roles/hunter-step-kept-when-he-did-not-shoot.wolf",
		"option night.skip_dead_revealed_hunter=on", said("night.hunter.open"))
	if on != 2 || off != 2 {
		t.Errorf("a hunter who did not shoot: the 獵人 step opened %d times with the option, %d without (want 2 and 2)", on, off)
	}
}

// TestSilenceGestureWindow: under silence.turn gesture_window (preset
// seed003's value, rules-more.md I3) the silenced seat's exile-day turn
// opens with the judge's gesture line and is a speech turn (15 s; the
// suite's idle judge ends it with the pedal); under skip_with_line (the
// default, written in the file) its turn is the judge's line alone.
func TestSilenceGestureWindow(t *testing.T) {
	const file, opt = "../scenarios/roles/silenceelder-skip-with-line-option.wolf", "option silence.turn=skip_with_line"
	turns := func(evs []scenario.Event) int {
		n := 0
		for _, e := range evs {
			if e.Type == "speech" && e.Seat != nil && *e.Seat == 6 {
				n++
			}
		}
		return n
	}
	if on, off := withAndWithout(t, file, opt, said("speech.silenced.gesture")); on != 0 || off != 1 {
		t.Errorf("the gesture line said %d times with skip_with_line (want 0), %d under the preset (want 1)", on, off)
	}
	if on, off := withAndWithout(t, file, opt, said("speech.silenced")); on != 1 || off != 0 {
		t.Errorf("the plain silenced line said %d times with skip_with_line (want 1), %d under the preset (want 0)", on, off)
	}
	if on, off := withAndWithout(t, file, opt, turns); on != 0 || off != 1 {
		t.Errorf("seat 6 had %d speech turns with skip_with_line (want 0), %d under the preset (want 1)", on, off)
	}
}
