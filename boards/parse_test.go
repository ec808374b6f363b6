package boards

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"wolftable/engine"
)

// src joins lines into a board file; line i of the result is lines[i-1].
func src(lines ...string) []byte { return []byte(strings.Join(lines, "\n") + "\n") }

// A valid board to vary: every case below changes one line of it.
var (
	lID      = "id       test-board"
	lName    = "name     測試版"
	lPlayers = "players  12"
	lRoles   = "roles    werewolf*3 wolfking seer witch hunter guard villager*4"
	lNight1  = "night 1  guard/30 wolves/60/hurry=30/mark=wolfking witch/30/hurry=10 seer/30 hunter/10"
	lNight2  = "night 2- guard/30 wolves/60/hurry=30 witch/30/hurry=10 seer/30 hunter/10"
)

func TestParseValid(t *testing.T) {
	b, err := Parse("t.board", src(lID, lName, lPlayers, lRoles, lNight1, lNight2))
	if err != nil {
		t.Fatal(err)
	}
	want := &engine.Board{
		ID: "test-board", Name: "測試版", Players: 12,
		Roles: []engine.Role{engine.Werewolf, engine.Werewolf, engine.Werewolf, engine.WolfKing, engine.Seer,
			engine.Witch, engine.Hunter, engine.Guard, engine.Villager, engine.Villager, engine.Villager, engine.Villager},
		Nights: []engine.NightPlan{
			{From: 1, To: 1, Steps: []engine.Step{
				{Kind: engine.StepGuard, Seconds: 30},
				{Kind: engine.StepWolves, Seconds: 60, Hurry: 30, Mark: engine.WolfKing},
				{Kind: engine.StepWitch, Seconds: 30, Hurry: 10},
				{Kind: engine.StepSeer, Seconds: 30},
				{Kind: engine.StepHunter, Seconds: 10},
			}},
			{From: 2, To: 0, Steps: []engine.Step{
				{Kind: engine.StepGuard, Seconds: 30},
				{Kind: engine.StepWolves, Seconds: 60, Hurry: 30},
				{Kind: engine.StepWitch, Seconds: 30, Hurry: 10},
				{Kind: engine.StepSeer, Seconds: 30},
				{Kind: engine.StepHunter, Seconds: 10},
			}},
		},
		Options: engine.DefaultOptions(),
		Source:  "t.board",
	}
	if !reflect.DeepEqual(b, want) {
		t.Errorf("Parse:\n got %+v\nwant %+v", b, want)
	}
}

// TestParseWin: "win 屠城" makes a 屠城 board (rules-more.md D0.2); the
// default and "win 屠邊" are 屠邊; Format writes it back.
func TestParseWin(t *testing.T) {
	for _, c := range []struct {
		line string
		want engine.WinRule
	}{{"", engine.WinSides}, {"win 屠邊", engine.WinSides}, {"win 屠边", engine.WinSides}, {"win 屠城", engine.WinTown}} {
		b, err := Parse("t.board", src(lID, lName, lPlayers, lRoles, c.line, lNight1, lNight2))
		if err != nil {
			t.Fatalf("%q: %v", c.line, err)
		}
		if b.Win != c.want {
			t.Errorf("%q: win %v, want %v", c.line, b.Win, c.want)
		}
		back, err := Parse("t.board", Format(b))
		if err != nil || back.Win != c.want {
			t.Errorf("%q: round trip gives %v, %v", c.line, back.Win, err)
		}
	}
}

func TestParseSyntax(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
		// check the parsed board
		check func(t *testing.T, b *engine.Board)
	}{
		{"comments, blank lines, CRLF and BOM",
			[]byte("\uFEFF# header\r\n\r\n" + lID + "  # trailing comment\r\n" + lName + "\r\n" + lPlayers + "\r\n" +
				lRoles + "\r\n" + lNight1 + "\r\n" + lNight2 + "\r\n"),
			func(t *testing.T, b *engine.Board) {
				if b.ID != "test-board" || len(b.Nights) != 2 {
					t.Errorf("got %+v", b)
				}
			}},
		{"Chinese role names and ideographic space",
			src(lID, lName, lPlayers, "roles　狼人*3 狼王 預言家 女巫 猎人 守衛 村民*4", lNight1, lNight2),
			func(t *testing.T, b *engine.Board) {
				if b.Roles[3] != engine.WolfKing || b.Roles[6] != engine.Hunter || b.Roles[11] != engine.Villager {
					t.Errorf("roles %v", b.Roles)
				}
			}},
		{"name of several words",
			src(lID, "name   Venue   Special  Board", lPlayers, lRoles, lNight1, lNight2),
			func(t *testing.T, b *engine.Board) {
				if b.Name != "Venue Special Board" {
					t.Errorf("name %q", b.Name)
				}
			}},
		{"mark before hurry, Chinese mark role",
			src(lID, lName, lPlayers, lRoles, "night 1 guard/30 wolves/60/mark=狼王/hurry=30 witch/30 seer/30 hunter/10", lNight2),
			func(t *testing.T, b *engine.Board) {
				if s := b.StepsFor(1)[1]; s.Mark != engine.WolfKing || s.Hurry != 30 {
					t.Errorf("step %+v", s)
				}
			}},
		{"ranges in any order",
			src(lID, lName, lPlayers, lRoles, "night 4- seer/30 wolves/60", "night 2-3 seer/20 wolves/60", "night 1 seer/10 wolves/90 guard/5 witch/30"),
			func(t *testing.T, b *engine.Board) {
				for n, want := range map[int]int{1: 10, 2: 20, 3: 20, 4: 30, 99: 30} {
					if got := b.StepsFor(n)[0].Seconds; got != want {
						t.Errorf("night %d: seer %d s, want %d", n, got, want)
					}
				}
				if b.Nights[0].From != 1 || b.Nights[2].From != 4 {
					t.Errorf("nights not sorted: %+v", b.Nights)
				}
			}},
		{"options",
			src(lID, lName, lPlayers, lRoles, lNight1, lNight2, "option witch.self_save first_night", "option sheriff.weight 2"),
			func(t *testing.T, b *engine.Board) {
				if b.Options.WitchSelfSave != "first_night" || b.Options.SheriffWeight != 2 || b.Options.SpeechSeconds != 120 {
					t.Errorf("options %+v", b.Options)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Parse("t.board", tt.src)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, b)
		})
	}
}

// setErr is the message Options.Set gives for key and value.
func setErr(key, value string) string {
	o := engine.DefaultOptions()
	if err := o.Set(key, value); err != nil {
		return err.Error()
	}
	return "(no error)"
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
		line int
		msg  string // the whole message after "boards: t.board:LINE: "
	}{
		// directives
		{"unknown directive", src(lID, "colour red", lName, lPlayers, lRoles, lNight1, lNight2), 2,
			`unknown directive "colour" (want id, name, players, roles, win, night or option)`},
		{"directive is case-sensitive", src(lID, "Name 測試", lPlayers, lRoles, lNight1, lNight2), 2,
			`unknown directive "Name" (want id, name, players, roles, win, night or option)`},
		{"win: unknown word", src(lID, lName, lPlayers, lRoles, "win 屠神", lNight1, lNight2), 5,
			`win "屠神": want 屠邊 (wolves kill every god or every villager) or 屠城 (wolves kill everyone)`},
		{"win: twice", src(lID, lName, lPlayers, lRoles, "win 屠城", "win 屠邊", lNight1, lNight2), 6,
			"duplicate win (first on line 5)"},
		{"missing id", src(lName, lPlayers, lRoles, lNight1, lNight2), 1, "missing id line"},
		{"missing name", src(lID, lPlayers, lRoles, lNight1, lNight2), 1, "missing name line"},
		{"missing players", src(lID, lName, lRoles, lNight1, lNight2), 1, "missing players line"},
		{"missing roles", src(lID, lName, lPlayers, lNight1, lNight2), 1, "missing roles line"},
		{"missing night, a role seed 004 does not place", src(lID, lName, lPlayers, "roles werewolf*3 gargoyle seer witch hunter guard villager*4"), 4,
			"no night line, and gargoyle (石像鬼) has no place in seed 004's night order: write the board's night lines"},
		{"empty file", nil, 1, "missing id line"},
		{"duplicate id", src(lID, lName, lPlayers, lRoles, lNight1, lNight2, "id other"), 7, "duplicate id (first on line 1)"},
		{"duplicate name", src(lID, lName, lName, lPlayers, lRoles, lNight1, lNight2), 3, "duplicate name (first on line 2)"},
		{"duplicate players", src(lID, lName, lPlayers, lRoles, lPlayers, lNight1, lNight2), 5, "duplicate players (first on line 3)"},
		{"duplicate roles", src(lID, lName, lPlayers, lRoles, lNight1, lRoles, lNight2), 6, "duplicate roles (first on line 4)"},
		{"id two words", src("id a b", lName, lPlayers, lRoles, lNight1, lNight2), 1, "id wants one word, got 2"},
		{"bad id", src("id Test_Board", lName, lPlayers, lRoles, lNight1, lNight2), 1,
			`bad id "Test_Board" (want lower-case letters and digits joined by single "-")`},
		{"bad id dash", src("id test--board", lName, lPlayers, lRoles, lNight1, lNight2), 1,
			`bad id "test--board" (want lower-case letters and digits joined by single "-")`},
		{"name empty", src(lID, "name # none", lPlayers, lRoles, lNight1, lNight2), 2, "name wants the board's name"},
		{"not UTF-8", src(lID, "name \xff\xfe", lPlayers, lRoles, lNight1, lNight2), 2, "not valid UTF-8"},

		// players and composition
		{"players too few", src(lID, lName, "players 5", lRoles, lNight1, lNight2), 3, "players 5 out of range 6..18"},
		{"players too many", src(lID, lName, "players 19", lRoles, lNight1, lNight2), 3, "players 19 out of range 6..18"},
		{"players not a number", src(lID, lName, "players twelve", lRoles, lNight1, lNight2), 3, `players "twelve" is not a number 6..18`},
		{"players negative", src(lID, lName, "players -12", lRoles, lNight1, lNight2), 3, `players "-12" is not a number 6..18`},
		{"roles fewer than players", src(lID, lName, lPlayers, "roles werewolf*3 wolfking seer witch hunter guard villager*3", lNight1, lNight2), 4,
			"11 roles for 12 players"},
		{"roles more than players and two bottom cards", src(lID, lName, lPlayers, "roles werewolf*3 wolfking seer witch hunter guard villager*7", lNight1, lNight2), 4,
			"15 roles for 12 players (at most 2 bottom cards)"},
		// rules-more.md I2: bottom cards are a thief's two ([003] 9 "多加入两张身份牌")
		{"bottom cards without a thief", src(lID, lName, lPlayers, "roles werewolf*3 wolfking seer witch hunter guard villager*6", lNight1, lNight2), 4,
			"14 cards for 12 players: only a board with 盜賊 (thief) has bottom cards; this one deals one card a seat"},
		{"one bottom card without a thief", src(lID, lName, lPlayers, "roles werewolf*3 wolfking seer witch hunter guard villager*5", lNight1, lNight2), 4,
			"13 cards for 12 players: only a board with 盜賊 (thief) has bottom cards; this one deals one card a seat"},
		{"a thief with one bottom card", src(lID, lName, lPlayers, "roles thief werewolf*3 wolfking seer witch hunter guard villager*4",
			"night 1  thief/30 guard/30 wolves/60/hurry=30/mark=wolfking witch/30/hurry=10 seer/30 hunter/10", lNight2), 4,
			"13 cards for 12 players: a board with 盜賊 (thief) deals two bottom cards, 14 cards"},
		{"a thief with no bottom card", src(lID, lName, lPlayers, "roles thief werewolf*3 wolfking seer witch hunter guard villager*3",
			"night 1  thief/30 guard/30 wolves/60/hurry=30/mark=wolfking witch/30/hurry=10 seer/30 hunter/10", lNight2), 4,
			"12 cards for 12 players: a board with 盜賊 (thief) deals two bottom cards, 14 cards"},
		{"a thief with two bottom cards", src(lID, lName, lPlayers, "roles thief werewolf*3 wolfking seer witch hunter guard villager*5",
			"night 1  thief/30 guard/30 wolves/60/hurry=30/mark=wolfking witch/30/hurry=10 seer/30 hunter/10", lNight2), 0, ""},
		{"two added villagers without a thief", src(lID, lName, lPlayers, lRoles, lNight1, lNight2, "option thief.extra_cards two_villagers"), 4,
			"14 cards for 12 players: only a board with 盜賊 (thief) has bottom cards; this one deals one card a seat"},
		{"roles more than any table", src(lID, lName, lPlayers, "roles werewolf*18 seer*3", lNight1, lNight2), 4,
			"more than 20 roles"},
		{"roles empty", src(lID, lName, lPlayers, "roles", lNight1, lNight2), 4, "roles wants at least one role"},
		{"unknown role", src(lID, lName, lPlayers, "roles werewolf*3 wolfking seer witch hunter guard villager*3 wizard", lNight1, lNight2), 4,
			`unknown role "wizard"`},
		{"bad count zero", src(lID, lName, lPlayers, "roles werewolf*0 seer", lNight1, lNight2), 4, `bad count in "werewolf*0" (want ROLE*1..18)`},
		{"bad count word", src(lID, lName, lPlayers, "roles werewolf*x seer", lNight1, lNight2), 4, `bad count in "werewolf*x" (want ROLE*1..18)`},
		{"bad count empty role", src(lID, lName, lPlayers, "roles *3 seer", lNight1, lNight2), 4, `unknown role ""`},
		{"no wolf-camp role", src(lID, lName, lPlayers, "roles seer witch hunter guard villager*8", lNight1, lNight2), 4, "no wolf-camp role"},
		{"no good role", src(lID, lName, lPlayers, "roles werewolf*11 wolfking", lNight1, lNight2), 4, "no good role"},

		// steps
		{"unknown step kind", src(lID, lName, lPlayers, lRoles, "night 1 guard/30 sorcerer/30 wolves/60", lNight2), 5,
			`night 1: step "sorcerer/30": unknown step kind "sorcerer"`},
		{"step without seconds", src(lID, lName, lPlayers, lRoles, lNight1, "night 2- guard wolves/60"), 6,
			`night 2-: step "guard": want KIND/SECONDS[/hurry=S][/mark=ROLE]`},
		{"seconds zero", src(lID, lName, lPlayers, lRoles, "night 1 guard/0 wolves/60", lNight2), 5,
			`night 1: step "guard/0": bad seconds "0" (want 1..600)`},
		{"seconds too long", src(lID, lName, lPlayers, lRoles, "night 1 guard/601 wolves/60", lNight2), 5,
			`night 1: step "guard/601": bad seconds "601" (want 1..600)`},
		{"seconds not a number", src(lID, lName, lPlayers, lRoles, "night 1 guard/30s wolves/60", lNight2), 5,
			`night 1: step "guard/30s": bad seconds "30s" (want 1..600)`},
		{"hurry equal to seconds", src(lID, lName, lPlayers, lRoles, lNight1, "night 2- guard/30 wolves/60/hurry=60 witch/30 seer/30"), 6,
			`night 2-: step "wolves/60/hurry=60": bad hurry "60" (want 1..59, less than the step's 60 seconds)`},
		{"hurry zero", src(lID, lName, lPlayers, lRoles, lNight1, "night 2- guard/30 wolves/60/hurry=0 witch/30 seer/30"), 6,
			`night 2-: step "wolves/60/hurry=0": bad hurry "0" (want 1..59, less than the step's 60 seconds)`},
		{"hurry twice", src(lID, lName, lPlayers, lRoles, lNight1, "night 2- guard/30 wolves/60/hurry=10/hurry=20 witch/30 seer/30"), 6,
			`night 2-: step "wolves/60/hurry=10/hurry=20": hurry given twice`},
		{"unknown attribute", src(lID, lName, lPlayers, lRoles, lNight1, "night 2- guard/30 wolves/60/speed=3 witch/30 seer/30"), 6,
			`night 2-: step "wolves/60/speed=3": unknown attribute "speed=3" (want hurry=S, mark=ROLE, open or line=FROM>TO)`},
		{"line without a target", src(lID, lName, lPlayers, lRoles, lNight1, "night 2- guard/30 wolves/60/line=night.wolves.ask witch/30 seer/30"), 6,
			`night 2-: step "wolves/60/line=night.wolves.ask": bad line "night.wolves.ask" (want line=FROM>TO, TO a line id or -)`},
		{"line swapped twice", src(lID, lName, lPlayers, lRoles, lNight1, "night 2- guard/30 wolves/60 witch/30/line=night.confirm>-/line=night.confirm>night.witch.confirm.ask seer/30"), 6,
			`night 2-: step "witch/30/line=night.confirm>-/line=night.confirm>night.witch.confirm.ask": line night.confirm swapped twice`},
		{"step role not in roles", src(lID, lName, lPlayers, lRoles, lNight1, "night 2- guard/30 wolves/60 witch/30 seer/30 idiot/5"), 6,
			`night 2-: step "idiot/5": idiot (愚者) is not in the roles`},
		{"wolves step without pack", src(lID, lName, lPlayers, "roles gargoyle seer witch hunter guard villager*7",
			"night 1 gargoyle/5 guard/30 wolves/60 witch/30 seer/30", "night 2- guard/30 witch/30 seer/30"), 5,
			`night 1: step "wolves/60": no role that wakes with the wolves is in the roles`},
		{"seer woken from night 2 only is fine", src(lID, lName, lPlayers, lRoles, "night 1 guard/30 wolves/60 witch/30", "night 2- guard/30 wolves/60 witch/30 seer/30"), 0,
			""},
		{"seer never woken", src(lID, lName, lPlayers, lRoles, "night 1 guard/30 wolves/60 witch/30", "night 2- guard/30 wolves/60 witch/30"), 4,
			"seer (預言家) has no night step"},
		{"witch never woken", src(lID, lName, lPlayers, lRoles, "night 1 guard/30 wolves/60 seer/30", "night 2- guard/30 wolves/60 seer/30"), 4,
			"witch (女巫) has no night step"},
		{"guard never woken", src(lID, lName, lPlayers, lRoles, "night 1 wolves/60 witch/30 seer/30", "night 2- wolves/60 witch/30 seer/30"), 4,
			"guard (守衛) has no night step"},
		{"wolves never woken", src(lID, lName, lPlayers, lRoles, "night 1 guard/30 witch/30 seer/30", "night 2- guard/30 witch/30 seer/30"), 4,
			"the wolves (狼人) have no night step"},

		// marks
		{"unknown mark role", src(lID, lName, lPlayers, lRoles, "night 1 guard/30 wolves/60/mark=dragon witch/30 seer/30", lNight2), 5,
			`night 1: step "wolves/60/mark=dragon": unknown mark role "dragon"`},
		{"mark on another step", src(lID, lName, lPlayers, lRoles, "night 1 guard/30/mark=wolfking wolves/60 witch/30 seer/30", lNight2), 5,
			`night 1: step "guard/30/mark=wolfking": mark is only for the wolves step`},
		{"mark a good role", src(lID, lName, lPlayers, lRoles, "night 1 guard/30 wolves/60/mark=seer witch/30 seer/30", lNight2), 5,
			`night 1: step "wolves/60/mark=seer": mark seer: want a special wolf that wakes with the wolves`},
		{"mark werewolf", src(lID, lName, lPlayers, lRoles, "night 1 guard/30 wolves/60/mark=werewolf witch/30 seer/30", lNight2), 5,
			`night 1: step "wolves/60/mark=werewolf": mark werewolf: want a special wolf that wakes with the wolves`},
		{"mark gargoyle", src(lID, lName, lPlayers, lRoles, "night 1 guard/30 wolves/60/mark=gargoyle witch/30 seer/30", lNight2), 5,
			`night 1: step "wolves/60/mark=gargoyle": mark gargoyle: want a special wolf that wakes with the wolves`},
		{"mark not in roles", src(lID, lName, lPlayers, lRoles, lNight1, "night 2- guard/30 wolves/60/mark=wolfbeauty witch/30 seer/30"), 6,
			`night 2-: step "wolves/60/mark=wolfbeauty": mark wolfbeauty (狼美人) is not in the roles`},
		{"mark twice", src(lID, lName, lPlayers, lRoles, "night 1 guard/30 wolves/60/mark=wolfking/mark=wolfking witch/30 seer/30", lNight2), 5,
			`night 1: step "wolves/60/mark=wolfking/mark=wolfking": mark given twice`},

		// night plans
		{"night without steps", src(lID, lName, lPlayers, lRoles, "night 1", lNight2), 5,
			"night wants a night range (1, 2-3, 2-) and at least one step"},
		{"night zero", src(lID, lName, lPlayers, lRoles, "night 0 guard/30", lNight2), 5,
			`bad night range "0" (want N, N-M or N-, nights 1..99)`},
		{"night range backwards", src(lID, lName, lPlayers, lRoles, lNight1, "night 3-2 guard/30", lNight2), 6,
			`bad night range "3-2" (want N, N-M or N-, nights 1..99)`},
		{"night past 99", src(lID, lName, lPlayers, lRoles, lNight1, "night 2-100 guard/30"), 6,
			`bad night range "2-100" (want N, N-M or N-, nights 1..99)`},
		{"night not a number", src(lID, lName, lPlayers, lRoles, lNight1, "night two- guard/30"), 6,
			`bad night range "two-" (want N, N-M or N-, nights 1..99)`},
		{"plans start after night 1", src(lID, lName, lPlayers, lRoles, lNight2), 5,
			"night plans start at night 2: night 1 has no plan"},
		{"plans overlap", src(lID, lName, lPlayers, lRoles, lNight1, lNight2, "night 3-4 guard/30 wolves/60 witch/30 seer/30"), 7,
			"night 3-4 overlaps night 2- (line 6)"},
		{"plans overlap on the same night", src(lID, lName, lPlayers, lRoles, "night 1- guard/30 wolves/60 witch/30 seer/30", lNight1), 6,
			"night 1 overlaps night 1- (line 5)"},
		{"plans leave a gap", src(lID, lName, lPlayers, lRoles, lNight1, "night 4- guard/30 wolves/60 witch/30 seer/30"), 6,
			"no plan for night 2-3 (between night 1 and night 4-)"},
		{"plans leave a one-night gap", src(lID, lName, lPlayers, lRoles, lNight1, "night 3- guard/30 wolves/60 witch/30 seer/30"), 6,
			"no plan for night 2 (between night 1 and night 3-)"},
		{"plans end", src(lID, lName, lPlayers, lRoles, lNight1, "night 2-5 guard/30 wolves/60 witch/30 seer/30"), 6,
			`no plan for the nights after night 5 (write the last plan as "2-")`},

		// options
		{"unknown option", src(lID, lName, lPlayers, lRoles, lNight1, lNight2, "option witch.broom on"), 7,
			setErr("witch.broom", "on")},
		{"bad option value", src(lID, lName, lPlayers, lRoles, lNight1, lNight2, "option witch.self_save always"), 7,
			setErr("witch.self_save", "always")},
		{"bad option number", src(lID, lName, lPlayers, lRoles, lNight1, lNight2, "option speech.seconds 5"), 7,
			setErr("speech.seconds", "5")},
		{"option without value", src(lID, lName, lPlayers, lRoles, lNight1, lNight2, "option sheriff.enabled"), 7,
			"option wants KEY VALUE, got 1 words"},
		{"duplicate option", src(lID, lName, lPlayers, lRoles, "option speech.seconds 90", lNight1, lNight2, "option speech.seconds 100"), 8,
			"duplicate option speech.seconds (first on line 5)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Parse("t.board", tt.src)
			if tt.msg == "" {
				if err != nil {
					t.Fatalf("want no error, got %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("want an error at line %d, got board %+v", tt.line, b)
			}
			if b != nil {
				t.Errorf("board %+v returned with error", b)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not *Error", err, err)
			}
			if e.File != "t.board" || e.Line != tt.line || e.Msg != tt.msg {
				t.Errorf("got  %q\nwant %q", err.Error(), (&Error{File: "t.board", Line: tt.line, Msg: tt.msg}).Error())
			}
			if want := "boards: t.board:"; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q does not start with %q", err, want)
			}
		})
	}
}

func TestErrorText(t *testing.T) {
	for _, tt := range []struct {
		e    Error
		want string
	}{
		{Error{"a.board", 3, "bad"}, "boards: a.board:3: bad"},
		{Error{"a.board", 0, "bad"}, "boards: a.board: bad"},
		{Error{"", 3, "bad"}, "boards: line 3: bad"},
		{Error{"", 0, "bad"}, "boards: bad"},
	} {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.e, got, tt.want)
		}
	}
}

func TestValidate(t *testing.T) {
	good := func() *engine.Board {
		b, err := Parse("", src(lID, lName, lPlayers, lRoles, lNight1, lNight2))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if err := Validate(good()); err != nil {
		t.Fatalf("valid board: %v", err)
	}
	if err := Validate(nil); err == nil {
		t.Error("nil board: no error")
	}
	tests := []struct {
		name   string
		change func(b *engine.Board)
		want   string
	}{
		{"plans out of order are fine", func(b *engine.Board) { b.Nights[0], b.Nights[1] = b.Nights[1], b.Nights[0] }, ""},
		{"bad seconds", func(b *engine.Board) { b.Nights[1].Steps[0].Seconds = 0 },
			`boards: night 2-: step "guard/0": bad seconds 0 (want 1..600)`},
		{"negative hurry", func(b *engine.Board) { b.Nights[1].Steps[1].Hurry = -1 },
			`boards: night 2-: step "wolves/60/hurry=-1": bad hurry -1 (want 1..59, less than the step's 60 seconds)`},
		{"unknown kind", func(b *engine.Board) { b.Nights[0].Steps[0].Kind = "ghost" },
			`boards: night 1: step "ghost/30": unknown step kind "ghost"`},
		{"Chinese role value", func(b *engine.Board) { b.Roles[0] = "狼人" }, `boards: unknown role "狼人"`},
		{"no steps", func(b *engine.Board) { b.Nights[1].Steps = nil }, "boards: night 2-: no steps"},
		{"no nights", func(b *engine.Board) { b.Nights = nil }, "boards: no night plan"},
		{"bad range", func(b *engine.Board) { b.Nights[1].From = 0 },
			`boards: bad night range "0-" (want N, N-M or N-, nights 1..99)`},
		{"bad option", func(b *engine.Board) { b.Options.SheriffWeight = 1.25 },
			`boards: option sheriff.weight: want 1, 1.5, 2, 2.5 or 3, got "1.25"`},
		{"bad name", func(b *engine.Board) { b.Name = " 測試" }, `boards: bad name " 測試" (want words separated by single spaces)`},
		{"control character in name", func(b *engine.Board) { b.Name = "a\x00b" }, `boards: bad name "a\x00b" (character '\x00')`},
		{"source names the file", func(b *engine.Board) { b.Source = "venue.board"; b.Players = 20 },
			"boards: venue.board: players 20 out of range 6..18"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := good()
			tt.change(b)
			err := Validate(b)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("want no error, got %v", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
}

func TestFormatRoundTrip(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse("t.board", src(lID, "name A  B", lPlayers, lRoles, lNight1, lNight2,
		"option speaking.exile_clock_rule minute_mod_n", "option sheriff.weight 2.5", "option lights.speaker_pulse off"))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range append(all, b) {
		text := Format(b)
		back, err := Parse(b.Source, text)
		if err != nil {
			t.Errorf("%s: Format's output does not parse: %v\n%s", b.ID, err, text)
			continue
		}
		if !reflect.DeepEqual(back, b) {
			t.Errorf("%s: round trip differs:\n got %+v\nwant %+v\n%s", b.ID, back, b, text)
		}
	}
}
