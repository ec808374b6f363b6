package studio

import (
	"strings"
	"testing"
)

// TestListGroups (issue 31 item 4): every clip of the script is in a part
// the page shows in a game's order; the night's lines name their role;
// the counts add up; nothing lands in 其他; pinyin has tone marks.
func TestListGroups(t *testing.T) {
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := s.List()
	if len(l.Groups) < 6 {
		t.Fatalf("groups %+v", l.Groups)
	}
	order := map[string]int{}
	total := 0
	for i, g := range l.Groups {
		order[g.ID] = i
		total += g.Total
		if g.Label == "" || g.ID == "other" {
			t.Errorf("group %+v", g)
		}
	}
	if total != l.Total || total != len(l.Clips) {
		t.Errorf("the groups hold %d clips, the listing %d", total, l.Total)
	}
	if !(order["game"] < order["night"] && order["night"] < order["election"] && order["election"] < order["day"] &&
		order["day"] < order["vote"] && order["vote"] < order["seat"] && order["seat"] < order["count"]) {
		t.Errorf("the groups are not in a game's order: %+v", l.Groups)
	}
	subs := map[string]bool{}
	for _, c := range l.Clips {
		if _, ok := order[c.Group]; !ok {
			t.Errorf("clip %s in group %q, not listed", c.ID, c.Group)
		}
		if c.Group == "night" {
			if c.Sub == "" {
				t.Errorf("night clip %s names no role", c.ID)
			}
			subs[c.Sub] = true
		}
		if strings.ContainsAny(c.Marks, "12345") && c.Kind == "line" {
			t.Errorf("clip %s: pinyin %q still has tone digits", c.ID, c.Marks)
		}
	}
	for _, want := range []string{"狼人", "女巫", "預言家", "共用"} {
		if !subs[want] {
			t.Errorf("no night lines of %s: %v", want, subs)
		}
	}
	for _, c := range l.Clips {
		if c.ID == "line.game.start.1" && !strings.HasPrefix(c.Marks, "xuǎn shǒu") {
			t.Errorf("line.game.start.1: %q", c.Marks)
		}
	}
}

// TestListZhuyin (issue 31 item 4): a venue that reads zhuyin ([venue]
// phonetic = "zhuyin") gets each clip's 注音; others get pinyin alone.
func TestListZhuyin(t *testing.T) {
	for _, ph := range []string{"", "pinyin", "zhuyin"} {
		s, err := Open(t.TempDir(), Options{Phonetic: ph})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, c := range s.List().Clips {
			if c.ID != "line.game.start.1" {
				continue
			}
			found = true
			if want := ph == "zhuyin"; strings.HasPrefix(c.Zhuyin, "ㄒㄩㄢˇ ㄕㄡˇ") != want || (c.Zhuyin == "") == want {
				t.Errorf("phonetic %q: zhuyin %q", ph, c.Zhuyin)
			}
			if !strings.HasPrefix(c.Marks, "xuǎn shǒu") {
				t.Errorf("phonetic %q: marks %q", ph, c.Marks)
			}
		}
		if !found {
			t.Fatal("no line.game.start.1")
		}
	}
}
