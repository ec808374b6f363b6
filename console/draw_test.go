package console

import (
	"fmt"
	"strings"
	"testing"
)

func roster12() []Player {
	r := make([]Player, 12)
	for i := range r {
		r[i] = Player{ID: fmt.Sprintf("P%02d", i+1), Name: fmt.Sprintf("選手%02d", i+1)}
	}
	return r
}

// TestManualDrawRefuses: a manual draw with a seat twice or a seat
// missing is refused with a Chinese message naming the seat; a good one
// seats each player where he drew.
func TestManualDrawRefuses(t *testing.T) {
	r := roster12()
	seats := []int{12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	d, err := ManualDraw(r, seats)
	if err != nil || d[0].PlayerID != "P12" || d[11].Name != "選手01" {
		t.Fatalf("%+v %v", d, err)
	}
	seats[1] = 12
	if _, err := ManualDraw(r, seats); err == nil || !strings.Contains(err.Error(), "12號座位重複") {
		t.Fatalf("a seat twice: %v", err)
	}
	seats[1] = 13
	if _, err := ManualDraw(r, seats); err == nil || !strings.Contains(err.Error(), "不在 1 到 12 號之間") {
		t.Fatalf("seat 13: %v", err)
	}
	if _, err := ManualDraw(r, seats[:11]); err == nil || !strings.Contains(err.Error(), "抽籤結果有 11 個座位") {
		t.Fatalf("a player without a seat: %v", err)
	}
}

// TestRandomDrawIsAPermutation: every player gets one seat, and over many
// draws seat 1 is not always the same player.
func TestRandomDrawIsAPermutation(t *testing.T) {
	first := map[string]bool{}
	for range 50 {
		d, err := RandomDraw(roster12())
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for i, x := range d {
			if x.Seat != i+1 || seen[x.PlayerID] {
				t.Fatalf("draw %+v", d)
			}
			seen[x.PlayerID] = true
		}
		first[d[0].PlayerID] = true
	}
	if len(first) < 2 {
		t.Fatal("seat 1 always the same player: not drawn")
	}
	r := roster12()
	r[3].Name = r[2].Name
	if _, err := RandomDraw(r); err == nil || !strings.Contains(err.Error(), "出現兩次") {
		t.Fatalf("a name twice: %v", err)
	}
}

func FuzzParseRoster(f *testing.F) {
	f.Add("P01,王小明\n李四\n\n")
	f.Add("\r\n,\n")
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := ParseRoster(s)
		if err == nil && len(ps) == 0 {
			t.Fatal("an empty roster without an error")
		}
	})
}
