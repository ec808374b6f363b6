package console

import (
	"encoding/json"
	"strings"
	"testing"

	"wolftable/boards"
)

// TestVenueBoardsAndSeats: on a 9-seat table with a venue folder, the
// new-game form's boards list the venue's boards marked, and say which fit
// the table; a game on a board of another seat count is refused in the
// judge's words, one on the 9-seat venue board starts with 9 seats.
func TestVenueBoardsAndSeats(t *testing.T) {
	cat, err := boards.Open("../boards/testdata/venue", true)
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, Options{Boards: cat.All, Venue: cat.IsVenue, Seats: 9})
	ts := r.serve()
	judge := newClient(t, ts.URL)
	judge.login(rigPIN)

	code, body := judge.do("GET", "/api/judge/boards", nil, nil)
	var list struct {
		Boards []BoardInfo `json:"boards"`
	}
	if err := json.Unmarshal(body, &list); code != 200 || err != nil {
		t.Fatalf("boards: %d %v", code, err)
	}
	seen := 0
	for _, b := range list.Boards {
		venue := strings.HasPrefix(b.ID, "house-")
		if b.Venue != venue || b.Fits != (b.Players == 9) {
			t.Errorf("%s: venue %v fits %v", b.ID, b.Venue, b.Fits)
		}
		if venue {
			seen++
		}
	}
	if seen != 3 {
		t.Fatalf("%d venue boards offered, want 3", seen)
	}
	for _, id := range []string{"seer-witch-hunter-idiot", "house-seats-7", "house-seats-11"} {
		code, body := judge.do("POST", "/api/judge/start", map[string]any{"board": id, "deal": "random"}, nil)
		if code != 400 || !strings.Contains(string(body), "這張桌子有 9 個座位") {
			t.Errorf("%s on a 9-seat table: %d %s", id, code, body)
		}
	}
	judge.power("start", map[string]any{"board": "九人預女獵", "deal": "random", "seed": "3"})
	st := r.wait("the 9-seat game", func(st JudgeState) bool { return st.Game != nil })
	if st.Game.Board != "house-seats-9" || len(st.Game.Deal) != 9 || len(st.Seats) != 9 {
		t.Fatalf("game: board %s, %d dealt, %d seats", st.Game.Board, len(st.Game.Deal), len(st.Seats))
	}
}

// TestSecrecyDifferentialSeats is TestSecrecyDifferential on tables of 7,
// 9 and 11 seats (the test venue's boards): pairs of games that differ only
// in a hidden fact give byte-identical public traces.
func TestSecrecyDifferentialSeats(t *testing.T) {
	cat, err := boards.Open("../boards/testdata/venue", true)
	if err != nil {
		t.Fatal(err)
	}
	venue, err := cat.Venue()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range venue {
		t.Run(b.ID, func(t *testing.T) {
			pairs := secrecyPairs(t, b)
			if len(pairs) < 3 {
				t.Fatalf("only %d pairs of games", len(pairs))
			}
			for _, p := range pairs {
				ta, tb := secrecyTrace(t, b, p.a), secrecyTrace(t, b, p.b)
				if len(ta) < 20 {
					t.Fatalf("%s: a trace of %d entries: the game did not run", p.name, len(ta))
				}
				if d := firstDiff(ta, tb); d != "" {
					t.Errorf("%s: the public traces differ (A15):\n%s", p.name, d)
				}
			}
		})
	}
}
