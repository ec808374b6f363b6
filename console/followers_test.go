package console

import (
	"context"
	"testing"

	"wolftable/boards"
	"wolftable/engine"
)

// TestGodViewModels: the judge's god view shows the model a 野孩子 and a
// 混血兒 picked (here the engine's picks: nobody keys), and, once the child
// has turned, the card it plays (rules-more.md D2).
func TestGodViewModels(t *testing.T) {
	all, err := boards.LoadDir("../scenarios/testboards")
	if err != nil {
		t.Fatal(err)
	}
	var b *engine.Board
	for _, x := range all {
		if x.ID == "followers-10" {
			b = x
		}
	}
	if b == nil {
		t.Fatal("no test board followers-10")
	}
	r := newRig(t, Options{})
	deal := make([]engine.Role, 0, 10)
	for _, n := range []string{"狼人", "野孩子", "預言家", "混血兒", "熊", "隱狼", "女巫", "村民", "狼人", "村民"} {
		ri, _ := engine.LookupRole(n)
		deal = append(deal, ri.ID)
	}
	spec := GameSpec{Board: b, Deal: deal, Seed: 5}
	g, err := engine.New(spec.Config())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.StartGame(context.Background(), NewGame{Spec: spec, Game: g, OnEvent: r.srv.Attach(spec, g)}); err != nil {
		t.Fatal(err)
	}
	r.settle()
	st := r.until("both models picked", func(st JudgeState) bool {
		return len(st.Seats) == 10 && st.Seats[1].Model > 0 && st.Seats[3].Model > 0
	})
	for _, s := range []int{1, 3} {
		if m := st.Seats[s].Model; m == s+1 || m < 1 || m > 10 {
			t.Errorf("seat %d's model %d", s+1, m)
		}
	}
	for i, s := range st.Seats {
		if i != 1 && i != 3 && s.Model != 0 {
			t.Errorf("seat %d has a model %d", i+1, s.Model)
		}
		if s.Plays != "" {
			t.Errorf("seat %d plays %s before any turn", i+1, s.Plays)
		}
	}
}
