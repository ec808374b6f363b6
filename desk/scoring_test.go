package desk

import "testing"

// TestStandingsCountTheSidePlayed: a win is counted by the side a seat
// played for at the end, not by its dealt card: the villager and the wolf
// who became lovers (第三方) win the third camp's game, the thief who kept a
// wolf card loses with the wolves, the other villager loses.
func TestStandingsCountTheSidePlayed(t *testing.T) {
	p, err := LoadPack("default")
	if err != nil {
		t.Fatal(err)
	}
	g := Game{Hash: "h1", Table: "T1", Winner: "第三方", Seats: []Seat{
		{Seat: 1, Player: "A", Role: "villager", Camp: "villager", Side: "第三方"},
		{Seat: 2, Player: "B", Role: "werewolf", Camp: "wolf", Side: "第三方"},
		{Seat: 3, Player: "C", Role: "werewolf", Camp: "wolf", Side: "狼人"}, // the thief's wolf card
		{Seat: 4, Player: "D", Role: "villager", Camp: "villager", Side: "好人"},
		{Seat: 5, Player: "E", Role: "villager", Camp: "villager"}, // an older record: the dealt card counts
	}}
	won := map[string]int{}
	for _, r := range Standings(p, []Game{g}) {
		won[r.Player] = r.Wins
	}
	want := map[string]int{"A": 1, "B": 1, "C": 0, "D": 0, "E": 0}
	for pl, w := range want {
		if won[pl] != w {
			t.Errorf("%s: %d wins, want %d (all: %v)", pl, won[pl], w, won)
		}
	}
}

// TestStandingsTies (issue 29 item 5): players the pack's tie-breaks
// cannot part share a rank and say Tied; the next rank skips them (1, 1,
// 3); "ppg" parts equal points by points per game.
func TestStandingsTies(t *testing.T) {
	p, err := ParsePack([]byte("name = \"t\"\nversion = 1\ntiebreak = [\"points\", \"player\"]\n[win]\ngood = 1\nwolf = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	win := func(h string, players ...string) Game {
		g := Game{Hash: h, Winner: "好人"}
		for i, pl := range players {
			g.Seats = append(g.Seats, Seat{Seat: i + 1, Player: pl, Camp: "villager", Side: "好人"})
		}
		return g
	}
	games := []Game{win("a", "甲", "乙"), win("b", "丙"), {Hash: "c", Winner: "好人", Seats: []Seat{{Seat: 1, Player: "丙", Camp: "wolf", Side: "狼人"}}}}
	rows := Standings(p, games)
	got := map[string]Row{}
	for _, r := range rows {
		got[r.Player] = r
	}
	if a, b, c := got["甲"], got["乙"], got["丙"]; a.Rank != 1 || b.Rank != 1 || !a.Tied || !b.Tied || c.Rank != 1 || !c.Tied {
		t.Fatalf("equal points: %+v", rows)
	}
	p.TieBreak = []string{"points", "ppg", "player"}
	rows = Standings(p, games)
	for _, r := range rows {
		got[r.Player] = r
	}
	if a, c := got["甲"], got["丙"]; a.Rank != 1 || !a.Tied || c.Rank != 3 || c.Tied {
		t.Fatalf("points per game: %+v", rows)
	}
}

// TestStandingsHeadToHead (issue 29 item 5): three players tied on
// points; with "h2h" the two who won a game they shared with another of
// the three rank above the one who did not (and stay tied with each
// other); the games in another order give the same rows.
func TestStandingsHeadToHead(t *testing.T) {
	p, err := ParsePack([]byte("name = \"h\"\nversion = 1\ntiebreak = [\"points\", \"h2h\", \"player\"]\n[win]\ngood = 1\nwolf = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	seat := func(n int, pl, side string) Seat {
		camp := map[string]string{"好人": "villager", "狼人": "wolf"}[side]
		return Seat{Seat: n, Player: pl, Camp: camp, Side: side}
	}
	games := []Game{
		{Hash: "g1", Winner: "好人", Seats: []Seat{seat(1, "甲", "好人"), seat(2, "乙", "狼人")}},  // 甲 beats 乙
		{Hash: "g2", Winner: "好人", Seats: []Seat{seat(1, "乙", "好人"), seat(2, "丙", "狼人")}},  // 乙 beats 丙
		{Hash: "g3", Winner: "狼人", Seats: []Seat{seat(1, "丙", "狼人"), seat(2, "路人", "好人")}}, // 丙 wins without the others
	}
	rank := func(rows []Row) map[string]Row {
		out := map[string]Row{}
		for _, r := range rows {
			out[r.Player] = r
		}
		return out
	}
	got := rank(Standings(p, games))
	if a, b, c := got["甲"], got["乙"], got["丙"]; a.Rank != 1 || b.Rank != 1 || !a.Tied || c.Rank != 3 || c.Tied {
		t.Fatalf("h2h: 甲 %+v 乙 %+v 丙 %+v", a, b, c)
	}
	rev := []Game{games[2], games[0], games[1]}
	if a, b := Standings(p, games), Standings(p, rev); len(a) != len(b) || a[0] != b[0] || a[2] != b[2] {
		t.Fatal("the order of the games changed the standings")
	}
	p.TieBreak = []string{"points", "player"}
	if c := rank(Standings(p, games))["丙"]; c.Rank != 1 || !c.Tied {
		t.Fatalf("without h2h: 丙 %+v", c)
	}
}
