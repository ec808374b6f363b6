package desk_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"wolftable/desk"
	"wolftable/desk/desktest"
	"wolftable/journal"
)

// TestDrawCreditsSeats: with a locked plan for T1, a game whose signed
// journal draws the plan's players in reverse is credited by the draw
// (seat 1 is the plan's last player), a name typed without an id goes to
// the one registered player of that name, and a game without a draw is
// still credited by the plan. The table's roster is the plan's players
// with their names.
func TestDrawCreditsSeats(t *testing.T) {
	data := registered(t)
	csv := ""
	for i := 1; i <= 12; i++ {
		csv += fmt.Sprintf("P%02d,選手%02d,,\n", i, i)
	}
	if _, _, err := desk.ImportPlayers(data, []byte(csv)); err != nil {
		t.Fatal(err)
	}
	s, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Roster("T1"); len(r.Players) != 0 || r.Reason == "" {
		t.Fatalf("a roster without an open round: %+v", r)
	}
	if _, err := s.OpenRound([]string{"T1"}, 0); err != nil {
		t.Fatal(err)
	}
	r, err := s.ProposeRoundPlan(1, 12)
	if err != nil {
		t.Fatal(err)
	}
	if ro := s.Roster("T1"); len(ro.Players) != 0 || ro.Reason != "第 1 輪的座位表還沒鎖定" {
		t.Fatalf("a roster before the plan is locked: %+v", ro)
	}
	if _, err := s.LockPlan(1); err != nil {
		t.Fatal(err)
	}
	plan := r.Plan["T1"]
	ro := s.Roster("T1")
	if ro.Round != 1 || len(ro.Players) != 12 || ro.Players[3].ID != plan[3] || ro.Players[3].Name != "選手"+plan[3][1:] {
		t.Fatalf("roster %+v, plan %v", ro, plan)
	}
	draw := make([]journal.Drawn, 12)
	for i := range draw {
		id := plan[11-i]
		draw[i] = journal.Drawn{Seat: i + 1, PlayerID: id, Name: "桌上的" + id}
	}
	draw[5].PlayerID, draw[5].Name = "", "選手"+plan[6][1:] // typed at the table: a name only
	drawn := desktest.PlayDrawn(t, t.TempDir(), "seer-witch-hunter-idiot", 9, key(1), 0, draw)
	plain := desktest.Play(t, t.TempDir(), "seer-witch-hunter-idiot", 10, key(1), 0)
	for _, p := range []string{drawn, plain} {
		bs, _ := os.ReadFile(p)
		if _, err := s.Ingest(desk.Subject("T1", desk.KindRecord), "", filepath.Base(p), bs); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range s.Games() {
		for k, seat := range g.Seats {
			want := plan[k]
			if g.GameID == "t9" {
				want = plan[11-k]
			}
			if seat.PlayerID != want || seat.Player != "選手"+want[1:] {
				t.Errorf("game %s seat %d: %s %s, want %s", g.GameID, seat.Seat, seat.PlayerID, seat.Player, want)
			}
		}
	}
	pack, _ := desk.LoadPack("default")
	rows := s.Standings(pack)
	games := map[string]int{}
	for _, row := range rows {
		games[row.PlayerID] += row.Games
	}
	for _, id := range plan {
		if games[id] != 2 {
			t.Errorf("%s played %d games in the standings, want 2", id, games[id])
		}
	}
}
