package boards

import (
	"strings"
	"testing"

	"wolftable/engine"
)

// partE are the board ids of rules-more.md E0.4 (seeds 003, 001 and the
// named-only seed-000 boards): their orders and options follow E0–E2, not
// part C, and are checked here.
var partE = map[string]bool{
	"swhi-003": true, "guard-whitewolfking-003": true, "whitewolf-003": true, "wolfbeauty-003": true,
	"thief-cupid-a-003": true, "thief-cupid-b-003": true, "silence-elder-003": true, "black-market-003": true,
	"butterfly-003": true, "demon-003": true, "thief-succubus-003": true, "knight-003": true, "fox-003": true,
	"gambler-003": true, "cupid-7-001": true, "cupid-8-001": true, "cupid-9-001": true, "swh-9-001": true,
	"cupid-10-001": true, "cupid-11-001": true, "swhg-12-001": true, "swhi-12-001": true, "swhe-12-001": true,
	"thief-cupid-001": true, "wolfking-magician": true, "secret-admirer": true, "miracle-merchant": true,
	"misty-crow": true, "animal-dream": true,
}

// TestDayBoards: silence-elder-003 and butterfly-003 as rules-more.md E1
// writes them (compositions, E0.2 orders, E0.3 durations and hurry lines,
// H5's clock rule).
func TestDayBoards(t *testing.T) {
	type st = engine.Step
	tests := []struct {
		id, name, roles string
		n1, later       []st
	}{
		{"silence-elder-003", "禁言長老", "werewolf*4 seer witch silenceelder stalker villager*4",
			[]st{{Kind: "wolves", Seconds: 90, Hurry: 60}, {Kind: "witch", Seconds: 30, Hurry: 20}, {Kind: "seer", Seconds: 30}, {Kind: "stalker", Seconds: 30, Hurry: 20}, {Kind: "silenceelder", Seconds: 30, Hurry: 20}},
			[]st{{Kind: "wolves", Seconds: 60, Hurry: 30}, {Kind: "witch", Seconds: 30, Hurry: 20}, {Kind: "seer", Seconds: 30}, {Kind: "stalker", Seconds: 30, Hurry: 20}, {Kind: "silenceelder", Seconds: 30, Hurry: 20}}},
		{"butterfly-003", "花蝴蝶", "werewolf*4 seer hunter stalker butterfly villager*4",
			[]st{{Kind: "butterfly", Seconds: 30, Hurry: 20}, {Kind: "wolves", Seconds: 90, Hurry: 60}, {Kind: "seer", Seconds: 30}, {Kind: "stalker", Seconds: 30, Hurry: 20}, {Kind: "hunter", Seconds: 10}},
			[]st{{Kind: "butterfly", Seconds: 30, Hurry: 20}, {Kind: "wolves", Seconds: 60, Hurry: 30}, {Kind: "seer", Seconds: 30}, {Kind: "stalker", Seconds: 30, Hurry: 20}, {Kind: "hunter", Seconds: 10}}},
	}
	for _, tt := range tests {
		b, err := Get(tt.id)
		if err != nil {
			t.Fatal(err)
		}
		if b.Name != tt.name || b.Players != 12 || len(b.Roles) != 12 {
			t.Errorf("%s: %s, %d players", tt.id, b.Name, b.Players)
		}
		got := map[engine.Role]int{}
		for _, r := range b.Roles {
			got[r]++
		}
		want := multiset(t, tt.roles)
		for r, n := range want {
			if got[r] != n {
				t.Errorf("%s: %d %s, want %d", tt.id, got[r], r, n)
			}
		}
		if !b.Options.Sheriff || b.Options.ClockRule != "minute_mod_n" || b.Win != engine.WinSides {
			t.Errorf("%s: options %+v, win %v", tt.id, b.Options, b.Win)
		}
		for _, n := range []int{1, 2, 3, 9} {
			want := tt.later
			if n == 1 {
				want = tt.n1
			}
			steps := b.StepsFor(n)
			if len(steps) != len(want) {
				t.Errorf("%s night %d: %d steps, want %d", tt.id, n, len(steps), len(want))
				continue
			}
			for i := range want {
				if steps[i] != want[i] {
					t.Errorf("%s night %d step %d: %+v, want %+v", tt.id, n, i, steps[i], want[i])
				}
			}
		}
		if strings.Contains(b.Name, " ") {
			t.Errorf("%s: name %q", tt.id, b.Name)
		}
	}
}
