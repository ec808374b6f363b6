package boards

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"wolftable/engine"
)

// thiefBoards are the four 14-card boards of seeds 003 and 001 with 盜賊
// (rules-more.md E1 thief-cupid-a-003, thief-cupid-b-003, thief-succubus-003;
// E2 thief-cupid-001): 12 seats, two bottom cards, 屠邊 (the third camp of the
// lovers is automatic), the night orders of E1/E2 with E0.3's durations and
// hurry points (steps written as formatStep writes them).
var thiefBoards = []struct {
	id, name, roles, preset string
	night1, next            string
	options                 map[string]string
}{
	{"thief-cupid-a-003", "盜賊丘比特（5民3狼）", "村民*5 狼人*3 預言家 女巫 獵人 守衛 丘比特 盜賊", "seed003",
		"thief/30/hurry=20 cupid/30/hurry=20 lovers/15 guard/30 wolves/90/hurry=60 witch/30/hurry=20 seer/30 hunter/10",
		"guard/30 wolves/60/hurry=30 witch/30/hurry=20 seer/30 hunter/10",
		map[string]string{"cupid.wolf_pair_side": "wolves", "cupid.category": "by_ratio", "lovers.cupid_must_die": "false"}},
	{"thief-cupid-b-003", "盜賊丘比特（4民4狼）", "村民*4 狼人*4 預言家 女巫 獵人 丘比特 盜賊 白痴", "seed003",
		"thief/30/hurry=20 cupid/30/hurry=20 lovers/15 wolves/90/hurry=60 witch/30/hurry=20 seer/30 hunter/10 idiot/5",
		"wolves/60/hurry=30 witch/30/hurry=20 seer/30 hunter/10 idiot/5",
		map[string]string{"cupid.wolf_pair_side": "wolves", "cupid.category": "by_ratio", "lovers.cupid_must_die": "false"}},
	{"thief-succubus-003", "盜賊魅魔", "村民*5 狼人*3 魅魔 預言家 女巫 獵人 守衛 盜賊", "seed003",
		"thief/30/hurry=20 guard/30 wolves/90/hurry=60/mark=succubus succubus/30/hurry=20 succubuslovers/30 witch/30/hurry=20 seer/30 hunter/10",
		"guard/30 wolves/60/hurry=30 witch/30/hurry=20 seer/30 hunter/10",
		map[string]string{"succubus.later_nights": "with_wolves"}},
	{"thief-cupid-001", "14張盜賊丘比特屠邊局", "獵人 女巫 預言家 白痴 丘比特 盜賊 村民*5 狼人*3", "seed001",
		"thief/30/hurry=20 cupid/30/hurry=20 lovers/15 wolves/90/hurry=60 witch/30/hurry=20 seer/30 hunter/10 idiot/5",
		"wolves/60/hurry=30 witch/30/hurry=20 seer/30 hunter/10 idiot/5",
		map[string]string{"cupid.wolf_pair_side": "wolves", "cupid.category": "neither", "lovers.cupid_must_die": "true", "hunter.shoot_causes": "any_but_poison_grief"}},
}

func formatSteps(steps []engine.Step) string {
	var out []string
	for _, s := range steps {
		out = append(out, formatStep(s))
	}
	return strings.Join(out, " ")
}

// TestThiefBoards: the four thief boards as rules-more.md E1/E2 write them;
// their seed's preset (E0.1: seed003 makes 丘比特 by_ratio, case ① on both
// Cupid boards, H8; both give H5's clock rule); the witch never saves
// herself; the thief's bottom is listed (G9) and redealt (G10, H9).
func TestThiefBoards(t *testing.T) {
	for _, c := range thiefBoards {
		b, err := Get(c.id)
		if err != nil {
			t.Errorf("%s: %v", c.id, err)
			continue
		}
		if !partE[c.id] {
			t.Errorf("%s is not in partE", c.id)
		}
		if b.Name != c.name || b.Players != 12 || len(b.Roles) != 14 || b.Bottom() != 2 {
			t.Errorf("%s: name %s, %d players, %d cards, %d bottom cards", c.id, b.Name, b.Players, len(b.Roles), b.Bottom())
		}
		if byName, err := Get(c.name); err != nil || byName.ID != c.id {
			t.Errorf("Get(%q) = %v, %v", c.name, byName, err)
		}
		got := map[engine.Role]int{}
		for _, r := range b.Roles {
			got[r]++
		}
		if want := multiset(t, c.roles); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: roles %v, want %v", c.id, got, want)
		}
		if b.Win != engine.WinSides {
			t.Errorf("%s: win %v, want 屠邊", c.id, b.Win)
		}
		if got := formatSteps(b.StepsFor(1)); got != c.night1 {
			t.Errorf("%s: night 1\n got %s\nwant %s", c.id, got, c.night1)
		}
		for _, n := range []int{2, 3, 9} {
			if got := formatSteps(b.StepsFor(n)); got != c.next {
				t.Errorf("%s: night %d\n got %s\nwant %s", c.id, n, got, c.next)
			}
		}
		if b.Preset != c.preset || !b.Options.Sheriff || b.Options.SheriffWeight != 2 || b.Options.WitchSelfSave != "never" || b.Options.ClockRule != "minute_mod_n" ||
			b.Options.ThiefExtraCards != "listed" || b.Options.ThiefTwoWolves != "redeal" {
			t.Errorf("%s: preset %q, options %+v", c.id, b.Preset, b.Options)
		}
		for k, v := range c.options {
			if got, _ := b.Options.Get(k); got != v {
				t.Errorf("%s: %s = %s, want %s", c.id, k, got, v)
			}
		}
	}
}

// TestThiefBoardDeals: every deal of a thief board gives the 12 seats and
// the two bottom cards the board's 14 cards, and never leaves a forbidden
// bottom (two wolf-camp cards, or 盜賊 with one: G10, H9) — on
// thief-succubus-003 that keeps 魅魔 always in play.
func TestThiefBoardDeals(t *testing.T) {
	for _, c := range thiefBoards {
		b, err := Get(c.id)
		if err != nil {
			t.Fatal(err)
		}
		want := append([]engine.Role(nil), b.Roles...)
		slices.Sort(want)
		thiefBuried, cupidBuried := 0, 0
		for seed := uint64(1); seed <= 500; seed++ {
			seats, bottom := engine.DealCards(b, seed)
			if len(seats) != 12 || len(bottom) != 2 {
				t.Fatalf("%s seed %d: %d seats, %d bottom cards", c.id, seed, len(seats), len(bottom))
			}
			all := append(append([]engine.Role(nil), seats...), bottom...)
			slices.Sort(all)
			if !slices.Equal(all, want) {
				t.Fatalf("%s seed %d: deal %v + %v is not the board's cards", c.id, seed, seats, bottom)
			}
			wolves := 0
			for _, r := range bottom {
				if r.IsWolf() {
					wolves++
				}
			}
			hasThief := slices.Contains(bottom, engine.Thief)
			if wolves >= 2 || hasThief && wolves > 0 {
				t.Fatalf("%s seed %d: forbidden bottom %v", c.id, seed, bottom)
			}
			if hasThief {
				thiefBuried++
			}
			if slices.Contains(bottom, engine.Cupid) {
				cupidBuried++
			}
			if c.id == "thief-succubus-003" && !slices.Contains(seats, engine.Succubus) && !(slices.Contains(bottom, engine.Succubus) && slices.Contains(seats, engine.Thief)) {
				t.Fatalf("%s seed %d: 魅魔 is not in play (seats %v, bottom %v)", c.id, seed, seats, bottom)
			}
		}
		// the thief card and (on the Cupid boards) the Cupid card do lie in
		// the bottom sometimes: the deal does not avoid them ([001] "偶尔可能出现没有盗贼的局")
		if thiefBuried == 0 || strings.Contains(c.id, "cupid") && cupidBuried == 0 {
			t.Errorf("%s: in 500 deals the bottom held 盜賊 %d times, 丘比特 %d times", c.id, thiefBuried, cupidBuried)
		}
	}
}
