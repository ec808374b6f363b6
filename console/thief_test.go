package console

import (
	"os"
	"slices"
	"testing"

	"wolftable/boards"
	"wolftable/engine"
)

// TestGodViewThiefPick: on a thief board the god view shows both bottom
// cards, then which one the thief kept and which it buried, and the thief's
// seat as "盜賊→狼人"; the public view never shows a role.
func TestGodViewThiefPick(t *testing.T) {
	const path = "../scenarios/testboards/thief-test.board"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := boards.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	all := func() ([]*engine.Board, error) {
		x, err := boards.All()
		return append(x, b), err
	}
	r := newRig(t, Options{Boards: all})
	ts := r.serve()
	judge := newClient(t, ts.URL)
	judge.login(rigPIN)
	// seat 1 is the thief; a wolf card lies at the bottom (card 2)
	hand := []string{"盜賊", "村民", "女巫", "狼人", "預言家", "村民", "守衛", "狼人", "獵人", "村民", "愚者", "村民", "村民", "狼人"}
	judge.power("start", map[string]any{"board": b.ID, "deal": hand, "seed": "3"})
	st := r.wait("the thief game", func(st JudgeState) bool { return st.Game != nil && st.Game.Board == b.ID })
	if len(st.Game.Bottom) != 2 || st.Game.Bottom[1].Role != "werewolf" {
		t.Fatalf("bottom %+v", st.Game.Bottom)
	}
	st = r.until("the guard's step", atNight(string(engine.StepGuard)))
	kept, buried := st.Game.Bottom[1], st.Game.Bottom[0]
	if !kept.Kept || kept.Thief != 1 || kept.Buried || !buried.Buried || buried.Kept {
		t.Fatalf("the thief's pick in the god view: %+v", st.Game.Bottom)
	}
	if s := st.Seats[0]; s.Role != "werewolf" || s.RoleName != "狼人" || s.DealtName != "盜賊" || s.Camp != "wolf" {
		t.Fatalf("seat 1 in the god view: %+v", s)
	}
	found := false
	for _, rec := range st.Records {
		found = found || rec.Text == "盜賊 1號 拿底牌：狼人（埋牌：村民）"
	}
	if !found {
		t.Fatalf("no record of the pick: %+v", st.Records)
	}
}

// bottomOf is a deal's bottom cards: the board's cards no seat was dealt,
// in the board's order (none on most boards).
func bottomOf(b *engine.Board, deal []engine.Role) []engine.Role {
	left := slices.Clone(deal)
	var bottom []engine.Role
	for _, c := range b.Cards() {
		if i := slices.Index(left, c); i >= 0 {
			left = slices.Delete(left, i, i+1)
			continue
		}
		bottom = append(bottom, c)
	}
	return bottom
}
