package boards

import (
	"reflect"
	"strings"
	"testing"

	"wolftable/engine"
)

// The boards of rules-more.md E1/E2 made of roles seed 000 already has:
// id, name, players, composition, win, and the night orders of E1/E2 with
// E0.3's durations (steps as "kind/seconds", night 1 then later nights).
var knownRoleBoards = []struct {
	id, name     string
	players      int
	roles        string
	win          engine.WinRule
	night1, next string
}{
	{"swhi-003", "預女獵白", 12, "狼人*4 預言家 女巫 獵人 白痴 村民*4", engine.WinSides,
		"wolves/90 witch/30 seer/30 hunter/10 idiot/5", "wolves/60 witch/30 seer/30 hunter/10 idiot/5"},
	{"guard-whitewolfking-003", "守衛白狼王", 12, "狼人*3 白狼王 預言家 女巫 守衛 獵人 村民*4", engine.WinSides,
		"guard/30 wolves/90 witch/30 seer/30 hunter/10", "guard/30 wolves/60 witch/30 seer/30 hunter/10"},
	{"whitewolf-003", "白狼", 12, "狼人*3 白狼王 預言家 女巫 守衛 獵人 村民*4", engine.WinSides,
		"guard/30 wolves/90 witch/30 seer/30 hunter/10", "guard/30 wolves/60 witch/30 seer/30 hunter/10"},
	{"wolfbeauty-003", "狼美人", 12, "狼人*3 狼美人 預言家 女巫 守衛 白痴 村民*4", engine.WinSides,
		"guard/30 wolves/90 wolfbeauty/30 witch/30 seer/30 idiot/5", "guard/30 wolves/60 wolfbeauty/30 witch/30 seer/30 idiot/5"},
	{"knight-003", "騎士", 12, "狼人*3 白狼王 預言家 女巫 守衛 騎士 村民*4", engine.WinSides,
		"guard/30 wolves/90 witch/30 seer/30 knight/5", "guard/30 wolves/60 witch/30 seer/30 knight/5"},
	{"swh-9-001", "9人預女獵屠城局", 9, "獵人 女巫 預言家 狼人*3 村民*3", engine.WinTown,
		"wolves/90 witch/30 seer/30 hunter/10", "wolves/60 witch/30 seer/30 hunter/10"},
	{"swhg-12-001", "12人預女獵守屠邊局", 12, "獵人 女巫 預言家 守衛 村民*4 狼人*4", engine.WinSides,
		"guard/30 wolves/90 witch/30 seer/30 hunter/10", "guard/30 wolves/60 witch/30 seer/30 hunter/10"},
	{"swhi-12-001", "12人預女獵白屠邊局", 12, "獵人 女巫 預言家 白痴 村民*4 狼人*4", engine.WinSides,
		"wolves/90 witch/30 seer/30 hunter/10 idiot/5", "wolves/60 witch/30 seer/30 hunter/10 idiot/5"},
}

func stepsString(steps []engine.Step) string {
	var out []string
	for _, s := range steps {
		out = append(out, string(s.Kind)+"/"+itoa(s.Seconds))
	}
	return strings.Join(out, " ")
}

func itoa(n int) string {
	b := []byte{}
	for n > 0 || len(b) == 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// TestKnownRoleBoards: the E1/E2 boards of known roles, as rules-more.md
// writes them; the witch never saves herself on them (no board text says
// otherwise, G13); 守衛白狼王 and 白狼 have no 白狼王 status step (H14);
// the clock rule is minute_mod_n (H5).
func TestKnownRoleBoards(t *testing.T) {
	for _, c := range knownRoleBoards {
		b, err := Get(c.id)
		if err != nil {
			t.Errorf("%s: %v", c.id, err)
			continue
		}
		if b.Name != c.name || b.Players != c.players || b.Bottom() != 0 {
			t.Errorf("%s: name %s, %d players, %d bottom cards", c.id, b.Name, b.Players, b.Bottom())
		}
		got := map[engine.Role]int{}
		for _, r := range b.Roles {
			got[r]++
		}
		if want := multiset(t, c.roles); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: roles %v, want %v", c.id, got, want)
		}
		if b.Win != c.win {
			t.Errorf("%s: win %v, want %v", c.id, b.Win, c.win)
		}
		if got := stepsString(b.StepsFor(1)); got != c.night1 {
			t.Errorf("%s: night 1 %s, want %s", c.id, got, c.night1)
		}
		for _, n := range []int{2, 3, 9} {
			if got := stepsString(b.StepsFor(n)); got != c.next {
				t.Errorf("%s: night %d %s, want %s", c.id, n, got, c.next)
			}
		}
		if !b.Options.Sheriff || b.Options.WitchSelfSave != "never" || b.Options.ClockRule != "minute_mod_n" {
			t.Errorf("%s: options %+v", c.id, b.Options)
		}
	}
}

// TestTwoVillagersListsOneCardASeat: under thief.extra_cards two_villagers a
// board lists one card a seat (the deal adds the two 村民); a list of N+2
// cards is refused at the roles line.
func TestTwoVillagersListsOneCardASeat(t *testing.T) {
	src := "id t\nname 測\nplayers 12\nroles thief seer witch hunter guard werewolf*3 villager*6\noption thief.extra_cards two_villagers\nnight 1- thief/30 guard/30 wolves/90 witch/30 seer/30 hunter/10\n"
	if _, err := Parse("t.board", []byte(src)); err == nil || !strings.Contains(err.Error(), "two_villagers") {
		t.Fatalf("N+2 cards with two_villagers: %v", err)
	}
	ok := strings.Replace(src, "villager*6", "villager*4", 1)
	b, err := Parse("t.board", []byte(ok))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Roles) != 12 || b.Bottom() != 2 || len(b.Cards()) != 14 {
		t.Fatalf("%d listed, %d cards, %d bottom", len(b.Roles), len(b.Cards()), b.Bottom())
	}
}
