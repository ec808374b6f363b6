package engine_test

import (
	"testing"

	"wolftable/engine"
)

// TestStepInputs: the step's seat inputs as the engine holds them (what the
// judge's console lists): in order, a copy, and one fewer after an undo.
func TestStepInputs(t *testing.T) {
	g := newGame(t, "seer-witch-hunter-idiot", 3)
	if _, err := g.Start(); err != nil {
		t.Fatal(err)
	}
	if p := g.Awaiting(); p.Step != "night" || p.StepKind != "wolves" {
		t.Fatalf("first step %+v, want the wolves", p)
	}
	var wolves, good []int
	for s := 1; s <= g.Players(); s++ {
		if g.Seat(s).Role == engine.Werewolf {
			wolves = append(wolves, s)
		} else {
			good = append(good, s)
		}
	}
	if g.StepInputs() != nil && len(g.StepInputs()) != 0 {
		t.Fatalf("inputs before any: %+v", g.StepInputs())
	}
	a, b := engine.SeatTarget(wolves[0], good[0]), engine.SeatTarget(wolves[1], good[1])
	for _, in := range []engine.Input{a, b} {
		if _, err := g.Apply(in); err != nil {
			t.Fatal(err)
		}
	}
	got := g.StepInputs()
	if len(got) != 2 || got[0] != a || got[1] != b {
		t.Fatalf("StepInputs %+v, want %+v %+v", got, a, b)
	}
	got[0] = engine.SeatTarget(1, 1)
	if g.StepInputs()[0] != a {
		t.Fatal("StepInputs is not a copy")
	}
	if _, err := g.Apply(engine.Judge(engine.JudgeUndo, 0, 0)); err != nil {
		t.Fatal(err)
	}
	if got := g.StepInputs(); len(got) != 1 || got[0] != a {
		t.Fatalf("after an undo %+v, want %+v", got, a)
	}
}
