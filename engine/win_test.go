package engine_test

import (
	"testing"

	"wolftable/engine"
)

// winBoard is a constructed 6-seat board: two wolves, a seer, a witch and
// two villagers; seats are dealt in this order.
func winBoard(win engine.WinRule, third [][]int) *engine.Board {
	roles := []engine.Role{engine.Werewolf, engine.Werewolf, engine.Seer, engine.Witch, engine.Villager, engine.Villager}
	o := engine.DefaultOptions()
	o.Sheriff = false
	return &engine.Board{ID: "win-test", Name: "win test", Players: len(roles), Roles: roles, Options: o,
		Nights: []engine.NightPlan{{From: 1, Steps: []engine.Step{{Kind: engine.StepWolves, Seconds: 30}}}},
		Win:    win, Third: third}
}

// dqUntilOver takes seats out in order (點殺) and returns the winner once
// the game is over, and how many seats it took.
func dqUntilOver(t *testing.T, b *engine.Board, seats ...int) (engine.Winner, int) {
	t.Helper()
	g, err := engine.New(engine.Config{Board: b, Deal: b.Roles, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Start(); err != nil {
		t.Fatal(err)
	}
	for i, s := range seats {
		if _, err := g.Apply(engine.Judge(engine.JudgeDQ, s, 0)); err != nil {
			t.Fatalf("DQ %d: %v", s, err)
		}
		if over, w := g.Over(); over {
			return w, i + 1
		}
	}
	return engine.WinNone, len(seats)
}

func TestWinSidesAndTown(t *testing.T) {
	// 屠邊: the seer and the witch out (every 神) → the wolves win at once
	if w, n := dqUntilOver(t, winBoard(engine.WinSides, nil), 3, 4, 5); w != engine.WinWolves || n != 2 {
		t.Errorf("屠邊: got %q after %d seats, want 狼人 after 2", w, n)
	}
	// 屠城: every non-wolf must be out; the gods alone are not enough
	if w, n := dqUntilOver(t, winBoard(engine.WinTown, nil), 3, 4, 5, 6); w != engine.WinWolves || n != 4 {
		t.Errorf("屠城: got %q after %d seats, want 狼人 after 4", w, n)
	}
	// either rule: every wolf out → the good side
	if w, n := dqUntilOver(t, winBoard(engine.WinTown, nil), 1, 2); w != engine.WinGood || n != 2 {
		t.Errorf("good: got %q after %d seats, want 好人 after 2", w, n)
	}
}

func TestWinThirdCamp(t *testing.T) {
	// a third camp of seats 2 (a wolf) and 5 (a villager), as lovers would be
	third := [][]int{{2, 5}}
	// the other wolf out: the good side does not win while the camp lives
	// (its wolf counts for no wolf condition and is not W); every player
	// outside the camp out → 第三方
	if w, n := dqUntilOver(t, winBoard(engine.WinTown, third), 1, 3, 4, 6); w != engine.WinThird || n != 4 {
		t.Errorf("third camp: got %q after %d seats, want 第三方 after 4", w, n)
	}
	// the camp out with the other wolf → 好人
	if w, n := dqUntilOver(t, winBoard(engine.WinTown, third), 2, 5, 1); w != engine.WinGood || n != 3 {
		t.Errorf("third camp out: got %q after %d seats, want 好人 after 3", w, n)
	}
	// the wolves kill every non-wolf under 屠城, third camp included
	if w, n := dqUntilOver(t, winBoard(engine.WinTown, [][]int{{3, 5}}), 3, 4, 5, 6); w != engine.WinWolves || n != 4 {
		t.Errorf("屠城 with a camp: got %q after %d seats, want 狼人 after 4", w, n)
	}
}
