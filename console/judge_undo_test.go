package console

import (
	"errors"
	"testing"
	"time"

	"wolftable/daemon"
	"wolftable/engine"
)

// TestUndoShowsWhatTheEngineKept: an undo takes back the step's last input
// and the engine drops the others that no longer apply (their target was
// DQ'd since); the judge's list shows exactly what the engine kept, each
// with who gave it.
func TestUndoShowsWhatTheEngineKept(t *testing.T) {
	m := judgeModel{stepSeq: 3} // the wolves' step, say
	at := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)
	seat := func(s, target int, source string) daemon.Event {
		in := engine.SeatTarget(s, target)
		return daemon.Event{At: at, Input: &in, Source: source}
	}
	pr := &probe{seq: 3}
	m.apply(seat(1, 9, "seat-1"), pr, 1)
	m.apply(seat(2, 5, "console:judge"), pr, 1)
	m.apply(seat(3, 9, "seat-3"), pr, 1)
	refused := engine.SeatTarget(4, 5)
	m.apply(daemon.Event{At: at, Input: &refused, Source: "seat-4", Err: errors.New("seat 4 does not act")}, pr, 1)
	if len(m.inputs) != 3 {
		t.Fatalf("inputs before the undo: %+v", m.inputs)
	}
	// 5 was DQ'd; the undo takes 3→9 back and the replay drops 2→5
	undo := engine.Judge(engine.JudgeUndo, 0, 0)
	m.apply(daemon.Event{At: at, Input: &undo, Source: "console:judge"}, &probe{seq: 3, inputs: []engine.Input{engine.SeatTarget(1, 9)}}, 1)
	if len(m.inputs) != 1 || m.inputs[0].Seat != 1 || m.inputs[0].Target != 9 || m.inputs[0].Source != "seat-1" {
		t.Fatalf("after the undo the judge sees %+v, the engine holds only 1→9", m.inputs)
	}
}

func TestKeptInputs(t *testing.T) {
	v := func(s, target int, src string) InputView {
		return InputView{Seat: s, Action: actionNames[engine.ActTarget], Target: target, Source: src}
	}
	shown := []InputView{v(1, 9, "a"), v(2, 9, "b"), v(1, 9, "c"), v(3, 4, "d")}
	got := keptInputs(shown, []engine.Input{engine.SeatTarget(1, 9), engine.SeatTarget(1, 9)})
	if len(got) != 2 || got[0].Source != "a" || got[1].Source != "c" {
		t.Fatalf("kept %+v", got)
	}
	if got := keptInputs(shown, nil); len(got) != 0 {
		t.Fatalf("nothing kept: %+v", got)
	}
	// shown must not change under the caller
	if shown[1].Source != "b" {
		t.Fatal("keptInputs wrote into its argument")
	}
}
