package scenario

import (
	"strings"
	"testing"
)

func TestParseErrorsNameTheLine(t *testing.T) {
	cases := []struct {
		src  string
		line int
		msg  string
	}{
		{"roles 狼人\n", 1, "first directive must be `board`"},
		{"board x\nroles 狼人 巫師\n", 2, "unknown role"},
		{"board x\nroles 狼人\n狼人 9\n", 3, "outside a 第N夜"},
		{"board x\nroles 狼人\n第1夜\n狼人 九\n", 4, "seat number"},
		{"board x\nroles 狼人\n第1天\n第1夜\n", 4, "out of order"},
		{"board x\nroles 狼人\n第1天\n警長投票 1-3\n", 4, "voter:target"},
		{"board x\nroles 狼人\n第1天\n警長投票 1:3 1:4\n", 4, "votes twice"},
		{"board x\nroles 狼人\nexpect winner 平手\n", 3, "unknown winner"},
		{"board x\nroles 狼人\nexpect death 3 stabbed\n", 3, "unknown cause"},
		{"board x\nroles 狼人\nclock 25:00\n", 3, "HH:MM"},
		{"board x\nroles 狼人\n第1天\n自爆 7 @夜裡\n", 4, "unknown window"},
		{"board x\nroles 狼人\n第1天\n扣分 4 9\n", 4, "bad points"},
	}
	for _, c := range cases {
		_, err := Parse("t.wolf", []byte(c.src))
		pe, ok := err.(*ParseError)
		if !ok || pe.Line != c.line || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("%q: got %v, want line %d %q", c.src, err, c.line, c.msg)
		}
	}
}

func TestParseSpellings(t *testing.T) {
	src := `board 預女獵愚
roles 狼人 狼人 预言家 女巫 猎人 白痴 狼人 狼人 村民 村民 村民 村民
seed 7
option witch.self_save=first_night
clock 15:16
night 1
wolves 9
上警 3 5
day 1
警长投票 1:3 2:5
决斗 6 7
自爆 7 @放逐 带走 3
点杀 4
扣分 4 0.5
expect winner 无
expect check 3 1 狼人
`
	f, err := Parse("t.wolf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if f.Roles[5] != "idiot" || f.Roles[2] != "seer" || !f.HasSeed || f.Seed != 7 || f.Clock.Minute != 16 {
		t.Fatalf("header: %+v", f)
	}
	d := f.Sections[1].Decisions
	if d[0].VoteKind != "sheriff" || d[1].Kind != KDuel || d[2].Window != "放逐" || d[2].Seats[1] != 3 || d[3].Kind != KDQ || d[4].Points != 0.5 {
		t.Fatalf("decisions: %+v", d)
	}
}

// FuzzParse: the parser never panics, and whatever it accepts has its
// sections in order and every decision inside a section.
func FuzzParse(f *testing.F) {
	f.Add([]byte("board 預女獵愚\nroles 狼人 狼人 預言家 女巫 獵人 愚者 狼人 狼人 村民 村民 村民 村民\n第1夜\n狼人 9\n女巫 毒 3\n第1天\n警長投票 1:3 2:0\nexpect winner 好人\n"))
	f.Add([]byte("board 白狼王守衛\nroles 狼人\n第1天\n自爆 7 帶走 3 @放逐\n自爆 8 @警上 带走 2\n"))
	f.Add([]byte("board x\nroles 狼人\n第1天\n自爆 7 @警上 帶走 3\n決鬥 6 7\n歸票 7 9\n技能 5 不發動\n警徽 撕毀\n發言順序 逆\n"))
	f.Add([]byte("board x\nroles 狼人\nclock 09:05\nnight 2\n守衛 0\n# comment\nexpect check 3 1 好人\n"))
	f.Add([]byte("board\n\x00\xff第\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz.wolf", src)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		last := 0
		for _, s := range file.Sections {
			pos := sectionPos(s)
			if pos <= last {
				t.Fatalf("sections out of order")
			}
			last = pos
		}
		if file.Board == "" || len(file.Roles) == 0 {
			t.Fatalf("accepted a file without board or roles")
		}
	})
}

// TestExplodeOptionsInAnyOrder: 自爆's options (@WINDOW, 帶走 SEAT) combine
// in any order (scenario format, "Additions"); repeated or unknown ones are
// refused with the line.
func TestExplodeOptionsInAnyOrder(t *testing.T) {
	head := "board 白狼王守衛\nroles 狼人\n第1天\n"
	for _, line := range []string{"自爆 7 帶走 3 @放逐", "自爆 7 @放逐 帶走 3", "自爆 7 带走 3 @放逐"} {
		f, err := Parse("t.wolf", []byte(head+line+"\n"))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		d := f.Sections[0].Decisions[0]
		if d.Kind != KExplode || d.Window != "放逐" || len(d.Seats) != 2 || d.Seats[0] != 7 || d.Seats[1] != 3 {
			t.Errorf("%s: %+v", line, d)
		}
	}
	for line, msg := range map[string]string{
		"自爆 7 @放逐 @警上":    "two windows",
		"自爆 7 帶走 3 帶走 4":  "帶走 twice",
		"自爆 7 帶走":         "unexpected",
		"自爆 7 帶走 3 @放逐 9": "unexpected",
		"自爆 7 帶走 九 @放逐":   "seat number",
	} {
		_, err := Parse("t.wolf", []byte(head+line+"\n"))
		pe, ok := err.(*ParseError)
		if !ok || pe.Line != 4 || !strings.Contains(pe.Msg, msg) {
			t.Errorf("%s: got %v, want line 4 %q", line, err, msg)
		}
	}
}
