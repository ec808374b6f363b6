package boards

import (
	"reflect"
	"testing"

	"wolftable/engine"
)

// cupidBoards are seed 001's Cupid boards (rules-more.md E2): id, name,
// composition, 屠城, 丘比特's side with two wolf lovers, the witch's self-save.
var cupidBoards = []struct {
	id, name, roles, side, selfSave string
	players                         int
}{
	{"cupid-7-001", "7人2狼丘比特屠城局", "女巫 預言家 丘比特 狼人*2 村民*2", "wolves", "first_night", 7},
	{"cupid-8-001", "8人2狼丘比特屠城局", "女巫 預言家 丘比特 狼人*2 村民*3", "wolves", "first_night", 8},
	{"cupid-9-001", "9人3狼2神3民丘比特屠城局", "女巫 預言家 丘比特 狼人*3 村民*3", "good", "first_night", 9},
	{"cupid-10-001", "10人333丘比特屠城局", "獵人 女巫 預言家 丘比特 狼人*3 村民*3", "wolves", "never", 10},
	{"cupid-11-001", "11人四狼丘比特屠城局", "獵人 女巫 預言家 丘比特 狼人*4 村民*3", "good", "never", 11},
}

func TestCupidBoards(t *testing.T) {
	for _, c := range cupidBoards {
		b, err := Get(c.id)
		if err != nil {
			t.Fatal(err)
		}
		if b.Name != c.name || b.Players != c.players || b.Win != engine.WinTown {
			t.Errorf("%s: name %s, %d players, win %v", c.id, b.Name, b.Players, b.Win)
		}
		got := map[engine.Role]int{}
		for _, r := range b.Roles {
			got[r]++
		}
		if want := multiset(t, c.roles); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: roles %v, want %v", c.id, got, want)
		}
		if b.Options.CupidWolfPairSide != c.side || b.Options.WitchSelfSave != c.selfSave || !b.Options.Sheriff {
			t.Errorf("%s: options %+v", c.id, b.Options)
		}
	}
}
