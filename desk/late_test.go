package desk_test

import (
	"os"
	"strings"
	"testing"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

// TestLateGameFlagged (issue 28 D8): T1's game of 16:00 is stored first
// (round 1), then T1's game of 15:00 arrives: it is held for the
// operator — not counted, round 1 still the 16:00 game — until accepted
// into a round (a taken round is refused; the next free one by default)
// or set aside; the decision survives a reopen and a recompute. The old
// desk numbered rounds by start time: the late game became round 1 and
// the 16:00 game round 2, silently.
func TestLateGameFlagged(t *testing.T) {
	data := registered(t)
	s, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	jdir := t.TempDir()
	later, _ := os.ReadFile(desktest.Play(t, jdir, "seer-witch-hunter-idiot", 2, key(1), 0))
	earlier, _ := os.ReadFile(desktest.Play(t, jdir, "seer-witch-hunter-idiot", 1001, key(1), 0)) // seed%1000 = 1: an hour earlier
	other, _ := os.ReadFile(desktest.Play(t, jdir, "seer-witch-hunter-idiot", 1003, key(2), 0))
	for _, c := range []struct {
		table string
		data  []byte
	}{{"T1", later}, {"T1", earlier}, {"T2", other}} {
		if out, err := s.Ingest(desk.Subject(c.table, desk.KindRecord), "", "x.wtj", c.data); out != desk.Stored || err != nil {
			t.Fatalf("ingest: %v %v", out, err)
		}
	}
	rounds := func(st *desk.Store) map[string]int {
		out := map[string]int{}
		for _, g := range st.Games() {
			out[g.Table+"/"+g.GameID] = g.Round
		}
		return out
	}
	if got := rounds(s); len(got) != 2 || got["T1/t2"] != 1 || got["T2/t1003"] != 1 {
		t.Fatalf("counted games and rounds: %v (want T1's 16:00 game in round 1, the late one held)", got)
	}
	late := s.Late()
	if len(late) != 1 || late[0].GameID != "t1001" || !strings.Contains(late[0].Late, "更早開局") || late[0].Decision != "" {
		t.Fatalf("late games: %+v", late)
	}
	hash := late[0].Hash
	if _, err := s.Decide(hash, true, 1); err == nil {
		t.Error("accepted into round 1, which T1's 16:00 game has")
	}
	if _, err := s.Decide(s.Games()[0].Hash, false, 0); err == nil {
		t.Error("a game counted on time was set aside")
	}
	if g, err := s.Decide(hash, false, 0); err != nil || g.Decision != desk.DecisionSetAside || len(s.Games()) != 2 {
		t.Fatalf("set aside: %+v %v, %d counted", g, err, len(s.Games()))
	}
	if g, err := s.Decide(hash, true, 0); err != nil || g.Round != 2 {
		t.Fatalf("accepted: %+v %v (want the next free round, 2)", g, err)
	}
	s2, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	re, err := s2.Recompute()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"T1/t2": 1, "T1/t1001": 2, "T2/t1003": 1}
	for name, st := range map[string]map[string]int{"reopened": rounds(s2), "recomputed": roundsOf(re)} {
		if len(st) != 3 || st["T1/t2"] != want["T1/t2"] || st["T1/t1001"] != want["T1/t1001"] || st["T2/t1003"] != 1 {
			t.Errorf("%s: %v, want %v", name, st, want)
		}
	}
}

func roundsOf(games []desk.Game) map[string]int {
	out := map[string]int{}
	for _, g := range games {
		out[g.Table+"/"+g.GameID] = g.Round
	}
	return out
}
