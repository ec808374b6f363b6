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
