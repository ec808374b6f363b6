package boards

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"wolftable/engine"
)

// The boards of rules.md part C: id, name, composition (as written there).
var partC = []struct {
	id, name string
	roles    string
}{
	{"seer-witch-hunter-idiot", "預女獵愚", "狼人*4 預言家 女巫 獵人 愚者 村民*4"},
	{"wolfking-guard", "狼王守衛", "狼人*3 狼王 預言家 女巫 獵人 守衛 村民*4"},
	{"wolfbeauty-knight", "狼美騎士", "狼人*3 狼美人 預言家 女巫 守衛 騎士 村民*4"},
	{"wolfking-dreamweaver", "狼王攝夢人", "狼人*3 狼王 預言家 女巫 獵人 攝夢人 村民*4"},
	{"whitewolfking-guard", "白狼王守衛", "狼人*3 白狼王 預言家 女巫 獵人 守衛 村民*4"},
	{"whitewolfking-knight", "白狼王騎士", "狼人*3 白狼王 預言家 女巫 守衛 騎士 村民*4"},
	{"evilknight", "惡靈騎士", "狼人*3 惡靈騎士 預言家 女巫 獵人 守衛 村民*4"},
	{"bloodmoon-demonhunter", "血月獵魔人", "狼人*3 血月使徒 預言家 女巫 獵魔人 愚者 村民*4"},
	{"nightmare", "噩夢之影", "狼人*3 噩夢之影 預言家 女巫 獵人 攝夢人 村民*4"},
	{"eternal-wheel", "永序之輪", "狼人*3 蝕時狼妃 預言家 女巫 守衛 定序王子 村民*4"},
	{"pure-white", "純白夜影", "狼人*3 狼巫 女巫 獵人 守衛 純白之女 村民*4"},
	{"gargoyle-gravekeeper", "石像鬼守墓人", "狼人*3 石像鬼 預言家 女巫 獵人 守墓人 村民*4"},
	// rules-more.md E1 (seed 003): their compositions; their options are
	// part A's defaults under preset seed003 (TestPresetBoards)
	{"demon-003", "惡魔", "狼人*3 惡魔 預言家 女巫 獵人 守衛 村民*4"},
	{"fox-003", "狐狸", "狼人*4 狐狸 女巫 獵人 守衛 村民*4"},
	{"gambler-003", "賭徒", "狼人*3 白狼王 預言家 女巫 守衛 賭徒 村民*4"},
}

// multiset counts roles written as "名*N 名 …".
func multiset(t *testing.T, s string) map[engine.Role]int {
	t.Helper()
	m := map[engine.Role]int{}
	for _, tok := range strings.Fields(s) {
		name, n := tok, 1
		if i := strings.IndexByte(tok, '*'); i >= 0 {
			name = tok[:i]
			k, ok := number(tok[i+1:])
			if !ok {
				t.Fatalf("bad count %q", tok)
			}
			n = k
		}
		ri, ok := engine.LookupRole(name)
		if !ok {
			t.Fatalf("unknown role %q", name)
		}
		m[ri.ID] += n
	}
	return m
}

func TestAll(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	// every embedded board is a part C board or a rules-more.md E0.4 board
	inC := map[string]bool{}
	for _, c := range partC {
		inC[c.id] = true
	}
	for _, b := range all {
		if !inC[b.ID] && !partE[b.ID] {
			t.Errorf("All: board %s is neither in part C nor in rules-more.md E0.4", b.ID)
		}
	}
	if len(all) < len(inC) {
		t.Fatalf("All: %d boards, want at least the %d of part C", len(all), len(inC))
	}
	byID := map[string]*engine.Board{}
	for i, b := range all {
		if i > 0 && all[i-1].ID >= b.ID {
			t.Errorf("not sorted by id: %s before %s", all[i-1].ID, b.ID)
		}
		byID[b.ID] = b
		if want := "data/" + b.ID + ".board"; b.Source != want {
			t.Errorf("%s: from %s, want the file %s", b.ID, b.Source, want)
		}
		if err := Validate(b); err != nil {
			t.Errorf("%s: %v", b.ID, err)
		}
	}
	for _, c := range partC {
		b := byID[c.id]
		if b == nil {
			t.Errorf("board %s (%s) missing", c.id, c.name)
			continue
		}
		if b.Name != c.name || b.Players != 12 {
			t.Errorf("%s: name %s, %d players; want %s, 12", c.id, b.Name, b.Players, c.name)
		}
		got := map[engine.Role]int{}
		for _, r := range b.Roles {
			got[r]++
		}
		if want := multiset(t, c.roles); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: roles %v, want %v", c.id, got, want)
		}
		// Every board of seed 000 is 暗牌·屠邊·有警長, witch never self-saves.
		if partE[c.id] {
			continue
		}
		if !b.Options.Sheriff || b.Options.WitchSelfSave != "never" || b.Options.SheriffWeight != 1.5 {
			t.Errorf("%s: options %+v", c.id, b.Options)
		}
	}
}

// TestClockRules: seed 000 三（一）預女獵愚 elects by "時間的分鐘的數字，除以 12
// 所得餘數" and runs exile days by "時間的分鐘的數字相加"; every other board
// uses the digit sum throughout.
func TestClockRules(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range all {
		if partE[b.ID] {
			continue // rules-more.md H5: minute_mod_n (parte_test.go)
		}
		clock, exile := "minute_digit_sum", ""
		if b.ID == "black-market-003" || b.ID == "swhe-12-001" {
			clock = "minute_mod_n" // rules-more.md H5: every E1/E2 board
		}
		if b.ID == "seer-witch-hunter-idiot" {
			clock, exile = "minute_mod_n", "minute_digit_sum"
		}
		if strings.HasSuffix(b.ID, "-003") || strings.HasSuffix(b.ID, "-001") {
			clock = "minute_mod_n" // the E1/E2 boards of seeds 003 and 001 (rules-more.md H5)
		}
		if b.Options.ClockRule != clock || b.Options.ExileClockRule != exile {
			t.Errorf("%s: clock %q, exile %q; want %q, %q", b.ID, b.Options.ClockRule, b.Options.ExileClockRule, clock, exile)
		}
	}
}

// TestSeedTimings checks steps against seed 000 三 (行動時間, 提示 and the
// "X請舉手示意" line). The hurry point is seconds after the step opens:
// "（剩餘 30 秒後提示）" in a 90 s step is 60, "（超過 30 秒後提示）" is 30.
func TestSeedTimings(t *testing.T) {
	type step = engine.Step
	tests := []struct {
		board string
		night int
		at    int // index in the night's steps
		want  step
	}{
		// 三（一）預女獵愚
		{"預女獵愚", 1, 0, step{Kind: "wolves", Seconds: 90, Hurry: 60}},
		{"預女獵愚", 1, 1, step{Kind: "witch", Seconds: 30, Hurry: 15, Lines: "night.confirm>night.witch.confirm.ask"}}, // 女巫請確認？
		{"預女獵愚", 1, 2, step{Kind: "seer", Seconds: 30}},
		{"預女獵愚", 1, 3, step{Kind: "hunter", Seconds: 10}},
		{"預女獵愚", 1, 4, step{Kind: "idiot", Seconds: 5}},
		{"預女獵愚", 2, 0, step{Kind: "wolves", Seconds: 60, Hurry: 30}},
		{"預女獵愚", 5, 1, step{Kind: "witch", Seconds: 30, Hurry: 10}},
		// 三（二）狼王守衛
		{"狼王守衛", 1, 0, step{Kind: "guard", Seconds: 30}},
		{"狼王守衛", 1, 1, step{Kind: "wolves", Seconds: 90, Hurry: 60, Mark: "wolfking", Lines: "night.wolves.ask>night.wolves.ask.marked"}}, // 狼王請舉手示意，請確認同伴
		{"狼王守衛", 2, 1, step{Kind: "wolves", Seconds: 60, Hurry: 30}},
		{"狼王守衛", 2, 4, step{Kind: "hunter", Seconds: 10}},
		// 三（三）狼美騎士
		{"狼美騎士", 1, 0, step{Kind: "guard", Seconds: 5}},
		{"狼美騎士", 1, 1, step{Kind: "wolves", Seconds: 90, Hurry: 60, Mark: "wolfbeauty"}},
		{"狼美騎士", 1, 2, step{Kind: "wolfbeauty", Seconds: 30}},
		{"狼美騎士", 3, 5, step{Kind: "knight", Seconds: 5}},
		// 三（四）狼王攝夢人
		{"狼王攝夢人", 1, 0, step{Kind: "dreamweaver", Seconds: 30}},
		{"狼王攝夢人", 1, 1, step{Kind: "wolves", Seconds: 90, Hurry: 60, Mark: "wolfking"}},
		{"狼王攝夢人", 2, 2, step{Kind: "witch", Seconds: 30, Hurry: 10}},
		// 三（五）白狼王守衛
		{"白狼王守衛", 1, 1, step{Kind: "wolves", Seconds: 90, Hurry: 60, Mark: "whitewolfking"}},
		{"白狼王守衛", 1, 5, step{Kind: "whitewolfking", Seconds: 10}},
		{"白狼王守衛", 2, 5, step{Kind: "whitewolfking", Seconds: 10}},
		// 白狼王騎士: timings of 狼美騎士 (rules.md part C)
		{"白狼王騎士", 1, 0, step{Kind: "guard", Seconds: 5}},
		{"白狼王騎士", 1, 1, step{Kind: "wolves", Seconds: 90, Hurry: 60, Mark: "whitewolfking"}},
		{"白狼王騎士", 2, 4, step{Kind: "knight", Seconds: 5}},
		// 三（六）惡靈騎士
		{"惡靈騎士", 1, 1, step{Kind: "wolves", Seconds: 90, Hurry: 60, Mark: "evilknight"}},
		{"惡靈騎士", 2, 0, step{Kind: "guard", Seconds: 30}},
		// 三（七）血月獵魔人
		{"血月獵魔人", 1, 0, step{Kind: "wolves", Seconds: 90, Hurry: 60, Mark: "bloodmoon"}},
		{"血月獵魔人", 1, 3, step{Kind: "demonhunter", Seconds: 5, OpenOnly: true}}, // seed: 獵魔人請睜眼，獵魔人請閉眼
		{"血月獵魔人", 2, 3, step{Kind: "demonhunter", Seconds: 30}},
		{"血月獵魔人", 2, 4, step{Kind: "idiot", Seconds: 5}},
		// 三（八）噩夢之影
		{"噩夢之影", 1, 0, step{Kind: "nightmare", Seconds: 15}},
		{"噩夢之影", 1, 1, step{Kind: "dreamweaver", Seconds: 15, Lines: "night.dreamweaver.open>night.dreamweaver.open.sleepwalk"}}, // 請選擇你要夢遊的玩傢
		{"噩夢之影", 1, 2, step{Kind: "wolves", Seconds: 90, Hurry: 60}},                                                             // rules.md B: 噩夢之影 does not meet the wolves on night 1
		{"噩夢之影", 2, 2, step{Kind: "wolves", Seconds: 60, Hurry: 30}},
		{"噩夢之影", 2, 5, step{Kind: "hunter", Seconds: 5, Lines: "night.hunter.status>-"}}, // 獵人請睜眼，獵人請閉眼
		// 三（九）永序之輪
		{"永序之輪", 1, 0, step{Kind: "guard", Seconds: 5}},
		{"永序之輪", 1, 1, step{Kind: "eclipsequeen", Seconds: 30}},
		{"永序之輪", 1, 2, step{Kind: "wolves", Seconds: 90, Hurry: 60, Mark: "eclipsequeen"}},
		{"永序之輪", 1, 5, step{Kind: "prince", Seconds: 5}},
		{"永序之輪", 2, 2, step{Kind: "wolves", Seconds: 60, Hurry: 30}},
		// 三（十）純白夜影
		{"純白夜影", 1, 1, step{Kind: "wolves", Seconds: 90, Hurry: 60, Mark: "wolfwitch"}},
		{"純白夜影", 1, 3, step{Kind: "hunter", Seconds: 5, Lines: "night.hunter.status>night.hunter.status.is"}},      // 您的開槍狀態是
		{"純白夜影", 2, 3, step{Kind: "hunter", Seconds: 10, Lines: "night.hunter.status>night.hunter.status.formal"}}, // 您的開槍狀態為
		{"純白夜影", 2, 4, step{Kind: "purewhite", Seconds: 30}},
		{"純白夜影", 2, 5, step{Kind: "wolfwitch", Seconds: 30}},
		// 三（十一）石像鬼守墓人
		{"石像鬼守墓人", 1, 0, step{Kind: "gargoyle", Seconds: 5, OpenOnly: true}},
		{"石像鬼守墓人", 1, 1, step{Kind: "wolves", Seconds: 90, Hurry: 60}},
		{"石像鬼守墓人", 1, 6, step{Kind: "gargoyle", Seconds: 30}},
		{"石像鬼守墓人", 2, 0, step{Kind: "gargoyle", Seconds: 30}},
		{"石像鬼守墓人", 2, 2, step{Kind: "gargoylekill", Seconds: 30}},
		{"石像鬼守墓人", 2, 3, step{Kind: "witch", Seconds: 30, Hurry: 10, Lines: "night.witch.ask>night.witch.ask.gestures night.confirm>- night.witch.close>night.witch.close.confirm"}}, // 解藥手勢，毒藥號碼 … 女巫確認請閉眼
	}
	for _, tt := range tests {
		b, err := Get(tt.board)
		if err != nil {
			t.Fatal(err)
		}
		steps := b.StepsFor(tt.night)
		if tt.at >= len(steps) {
			t.Errorf("%s night %d: %d steps, want step %d", tt.board, tt.night, len(steps), tt.at)
			continue
		}
		if got := steps[tt.at]; got != tt.want {
			t.Errorf("%s night %d step %d: got %+v, want %+v", tt.board, tt.night, tt.at, got, tt.want)
		}
	}
}

// TestWolvesTimings: on all twelve seed-000 boards the wolves act 90 s on
// night 1 and 60 s on later nights, with the hurry line 30 s before the end
// (rules.md part C, corrected: each board's 備註 9 "狼人首夜行動 90 秒，其餘時間
// 為 60 秒" rules over the flows that write 60S for night 1).
func TestWolvesTimings(t *testing.T) {
	ids := []string{"seer-witch-hunter-idiot", "wolfking-guard", "wolfbeauty-knight", "wolfking-dreamweaver",
		"whitewolfking-guard", "whitewolfking-knight", "evilknight", "bloodmoon-demonhunter", "nightmare",
		"eternal-wheel", "pure-white", "gargoyle-gravekeeper"}
	for _, id := range ids {
		b, err := Get(id)
		if err != nil {
			t.Fatal(err)
		}
		for night, want := range map[int]int{1: 90, 2: 60, 3: 60, 9: 60} {
			n := 0
			for _, st := range b.StepsFor(night) {
				if st.Kind != engine.StepWolves {
					continue
				}
				n++
				if st.Seconds != want || st.Hurry != want-30 {
					t.Errorf("%s night %d: wolves %d s, hurry at %d; want %d s, hurry at %d", id, night, st.Seconds, st.Hurry, want, want-30)
				}
			}
			if n != 1 {
				t.Errorf("%s night %d: %d wolves steps", id, night, n)
			}
		}
	}
}

// TestNightOrders checks each board's order of step kinds.
func TestNightOrders(t *testing.T) {
	orders := map[string][2]string{ // night 1, later nights
		"seer-witch-hunter-idiot": {"wolves witch seer hunter idiot", "wolves witch seer hunter idiot"},
		"wolfking-guard":          {"guard wolves witch seer hunter", "guard wolves witch seer hunter"},
		"wolfbeauty-knight":       {"guard wolves wolfbeauty witch seer knight", "guard wolves wolfbeauty witch seer knight"},
		"wolfking-dreamweaver":    {"dreamweaver wolves witch seer hunter", "dreamweaver wolves witch seer hunter"},
		"whitewolfking-guard":     {"guard wolves witch seer hunter whitewolfking", "guard wolves witch seer hunter whitewolfking"},
		"whitewolfking-knight":    {"guard wolves witch seer knight", "guard wolves witch seer knight"},
		"evilknight":              {"guard wolves witch seer hunter", "guard wolves witch seer hunter"},
		"bloodmoon-demonhunter":   {"wolves witch seer demonhunter idiot", "wolves witch seer demonhunter idiot"},
		"nightmare":               {"nightmare dreamweaver wolves witch seer hunter", "nightmare dreamweaver wolves witch seer hunter"},
		"eternal-wheel":           {"guard eclipsequeen wolves witch seer prince", "guard eclipsequeen wolves witch seer"},
		"pure-white":              {"guard wolves witch hunter purewhite wolfwitch", "guard wolves witch hunter purewhite wolfwitch"},
		"gargoyle-gravekeeper":    {"gargoyle wolves witch seer hunter gravekeeper gargoyle", "gargoyle wolves gargoylekill witch seer hunter gravekeeper"},
		// rules-more.md E1/E2, boards of known roles
		"swhi-003":                {"wolves witch seer hunter idiot", "wolves witch seer hunter idiot"},
		"guard-whitewolfking-003": {"guard wolves witch seer hunter", "guard wolves witch seer hunter"},
		"whitewolf-003":           {"guard wolves witch seer hunter", "guard wolves witch seer hunter"},
		"wolfbeauty-003":          {"guard wolves wolfbeauty witch seer idiot", "guard wolves wolfbeauty witch seer idiot"},
		"knight-003":              {"guard wolves witch seer knight", "guard wolves witch seer knight"},
		"swh-9-001":               {"wolves witch seer hunter", "wolves witch seer hunter"},
		"swhg-12-001":             {"guard wolves witch seer hunter", "guard wolves witch seer hunter"},
		"swhi-12-001":             {"wolves witch seer hunter idiot", "wolves witch seer hunter idiot"},
		"demon-003":               {"guard wolves demon witch seer hunter", "guard wolves demon witch seer hunter"},
		"fox-003":                 {"guard wolves witch fox hunter", "guard wolves witch fox hunter"},
		"gambler-003":             {"guard wolves witch seer gambler", "guard wolves witch seer gambler"},
		"black-market-003":        {"merchant guard chief wolves witch seer lucky", "guard chief wolves witch seer lucky"},
		"swhe-12-001":             {"elder wolves witch seer hunter", "elder wolves witch seer hunter"},
		"cupid-7-001":             {"cupid lovers wolves witch seer", "wolves witch seer"},
		"cupid-8-001":             {"cupid lovers wolves witch seer", "wolves witch seer"},
		"cupid-9-001":             {"cupid lovers wolves witch seer", "wolves witch seer"},
		"cupid-10-001":            {"cupid lovers wolves witch seer hunter", "wolves witch seer hunter"},
		"cupid-11-001":            {"cupid lovers wolves witch seer hunter", "wolves witch seer hunter"},
		"thief-cupid-a-003":       {"thief cupid lovers guard wolves witch seer hunter", "guard wolves witch seer hunter"},
		"thief-cupid-b-003":       {"thief cupid lovers wolves witch seer hunter idiot", "wolves witch seer hunter idiot"},
		"thief-succubus-003":      {"thief guard wolves succubus succubuslovers witch seer hunter", "guard wolves witch seer hunter"},
		"thief-cupid-001":         {"thief cupid lovers wolves witch seer hunter idiot", "wolves witch seer hunter idiot"},
	}
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range all {
		want, ok := orders[b.ID]
		if !ok && partE[b.ID] {
			continue // rules-more.md E1/E2: parte_test.go
		}
		if !ok {
			t.Errorf("%s: no order to check", b.ID)
			continue
		}
		for i, n := range []int{1, 2, 7} {
			var kinds []string
			for _, s := range b.StepsFor(n) {
				kinds = append(kinds, string(s.Kind))
			}
			if got := strings.Join(kinds, " "); got != want[min(i, 1)] {
				t.Errorf("%s night %d: %s, want %s", b.ID, n, got, want[min(i, 1)])
			}
		}
		// Marks are said on night 1 only, except where the seed repeats the line.
		for _, n := range []int{2, 7} {
			for _, s := range b.StepsFor(n) {
				if s.Mark != "" && b.ID != "pure-white" {
					t.Errorf("%s night %d: mark %s", b.ID, n, s.Mark)
				}
			}
		}
	}
}

func TestGet(t *testing.T) {
	for _, q := range []string{"wolfking-guard", "狼王守衛", " 狼王守衛 "} {
		b, err := Get(q)
		if err != nil || b.ID != "wolfking-guard" {
			t.Errorf("Get(%q) = %v, %v", q, b, err)
		}
	}

	_, err := Get("no-such-board")
	if !errors.Is(err, ErrUnknownBoard) {
		t.Fatalf("unknown board: %v, want ErrUnknownBoard", err)
	}
	for _, c := range partC {
		if !strings.Contains(err.Error(), c.id) {
			t.Errorf("error %q does not list %s", err, c.id)
		}
	}
	if want := `boards: unknown board "no-such-board"; known boards: black-market-003, bloodmoon-demonhunter, `; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want it to start with %q", err, want)
	}

	// Each Get is a fresh copy.
	a, _ := Get("預女獵愚")
	a.Options.ClockRule = "minute_digit_sum"
	a.Roles[0] = engine.Villager
	a.Nights[0].Steps[0].Seconds = 1
	b, _ := Get("預女獵愚")
	if b.Options.ClockRule != "minute_mod_n" || b.Roles[0] != engine.Werewolf || b.Nights[0].Steps[0].Seconds != 90 {
		t.Errorf("Get returned a board changed through an earlier result: %+v", b)
	}
}

func writeBoards(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func board(id, name string) string {
	return string(src("id "+id, "name "+name, lPlayers, lRoles, lNight1, lNight2))
}

func TestLoadDir(t *testing.T) {
	dir := writeBoards(t, map[string]string{
		"b.board":        board("venue-b", "場館乙"),
		"a.board":        board("venue-z", "場館甲"),
		"README.txt":     "not a board",
		"old/c.board":    "garbage in a sub-folder is not read",
		"notes.board.md": "neither is this",
	})
	got, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "venue-b" || got[1].ID != "venue-z" {
		t.Fatalf("LoadDir: %+v", got)
	}
	if want := filepath.Join(dir, "b.board"); got[0].Source != want {
		t.Errorf("Source %q, want %q", got[0].Source, want)
	}

	t.Run("bad file", func(t *testing.T) {
		dir := writeBoards(t, map[string]string{
			"good.board": board("venue-a", "場館甲"),
			"bad.board":  strings.Replace(board("venue-b", "場館乙"), "players  12", "players  30", 1),
		})
		_, err := LoadDir(dir)
		var e *Error
		if !errors.As(err, &e) || e.File != filepath.Join(dir, "bad.board") || e.Line != 3 {
			t.Fatalf("got %v", err)
		}
		if want := "boards: " + filepath.Join(dir, "bad.board") + ":3: players 30 out of range 6..18"; err.Error() != want {
			t.Errorf("got %q, want %q", err, want)
		}
	})
	t.Run("every bad file reported", func(t *testing.T) {
		dir := writeBoards(t, map[string]string{
			"one.board": "id x\n",
			"two.board": "bogus\n",
		})
		_, err := LoadDir(dir)
		if err == nil || !strings.Contains(err.Error(), "one.board:1: missing name line") ||
			!strings.Contains(err.Error(), `two.board:1: unknown directive "bogus"`) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("duplicate id", func(t *testing.T) {
		dir := writeBoards(t, map[string]string{
			"a.board": board("venue-a", "場館甲"),
			"b.board": board("venue-a", "場館乙"),
		})
		_, err := LoadDir(dir)
		want := "boards: " + filepath.Join(dir, "b.board") + `:1: board id "venue-a" is also the id of ` + filepath.Join(dir, "a.board")
		if err == nil || err.Error() != want {
			t.Errorf("got %v\nwant %s", err, want)
		}
	})
	t.Run("duplicate name", func(t *testing.T) {
		dir := writeBoards(t, map[string]string{
			"a.board": board("venue-a", "場館"),
			"b.board": board("venue-b", "場館"),
		})
		_, err := LoadDir(dir)
		want := "boards: " + filepath.Join(dir, "b.board") + `:2: board name "場館" is also the name of ` + filepath.Join(dir, "a.board")
		if err == nil || err.Error() != want {
			t.Errorf("got %v\nwant %s", err, want)
		}
	})
	t.Run("empty folder", func(t *testing.T) {
		got, err := LoadDir(t.TempDir())
		if err != nil || len(got) != 0 {
			t.Errorf("got %v, %v", got, err)
		}
	})
	t.Run("missing folder", func(t *testing.T) {
		_, err := LoadDir(filepath.Join(t.TempDir(), "nope"))
		if err == nil || !strings.HasPrefix(err.Error(), "boards: ") || !errors.Is(err, os.ErrNotExist) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("file too large", func(t *testing.T) {
		dir := writeBoards(t, map[string]string{"big.board": strings.Repeat("# padding\n", maxFileSize/10+1)})
		_, err := LoadDir(dir)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, "larger than") {
			t.Errorf("got %v", err)
		}
	})
}
