package console

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"wolftable/boards"
	"wolftable/engine"
)

// bottomBoards are the built-in boards and boards/testdata's board with two
// bottom cards.
func bottomBoards(t testing.TB) (*engine.Board, func() ([]*engine.Board, error)) {
	t.Helper()
	const path = "../boards/testdata/bottom-cards.board"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := boards.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return b, func() ([]*engine.Board, error) {
		all, err := boards.All()
		return append(all, b), err
	}
}

// TestDealSheetBottomCards: the judge starts a game on a board with bottom
// cards, dealt at random and by hand; the state the deal sheet and the god
// view read carries them (底牌), the deal sheet's page has their table, the
// text export lists them, and a hand-entered deal without them is refused.
func TestDealSheetBottomCards(t *testing.T) {
	b, all := bottomBoards(t)
	r := newRig(t, Options{Boards: all})
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
	i := slices.IndexFunc(list.Boards, func(x BoardInfo) bool { return x.ID == b.ID })
	if i < 0 || list.Boards[i].Players != 12 || len(list.Boards[i].Roles) != 14 {
		t.Fatalf("the bottom-cards board is not offered as 12 seats and 14 cards: %+v", list.Boards)
	}

	// a random deal
	judge.power("start", map[string]any{"board": b.ID, "deal": "random", "seed": "5"})
	st := r.wait("the game to start", func(st JudgeState) bool { return st.Game != nil })
	seats, bottom := engine.DealCards(b, 5)
	if len(st.Game.Deal) != 12 || len(st.Game.Bottom) != 2 {
		t.Fatalf("deal %d seats, %d bottom cards", len(st.Game.Deal), len(st.Game.Bottom))
	}
	for i, c := range st.Game.Bottom {
		if c.Role != string(bottom[i]) || c.RoleName != bottom[i].Name() || c.CampLabel == "" {
			t.Fatalf("bottom card %d: %+v, want %s", i+1, c, bottom[i])
		}
	}
	for i, d := range st.Game.Deal {
		if d.Role != string(seats[i]) {
			t.Fatalf("seat %d: %s, want %s", i+1, d.Role, seats[i])
		}
	}
	code, body = judge.do("GET", "/api/judge/state", nil, nil)
	if code != 200 || !strings.Contains(string(body), `"bottom":[{"role":"`+string(bottom[0])+`","role_name":"`+bottom[0].Name()+`"`) {
		t.Fatalf("judge state: %d %.300s", code, body)
	}
	code, body = judge.do("GET", "/deal", nil, nil)
	if code != 200 || !strings.Contains(string(body), `<h2>底牌</h2>`) || !strings.Contains(string(body), `id="bottom-rows"`) {
		t.Fatalf("deal sheet page: %d %s", code, body)
	}
	code, body = judge.do("GET", "/static/deal.js", nil, nil)
	if code != 200 || !strings.Contains(string(body), "g.bottom") || !strings.Contains(string(body), "'bottom-rows'") {
		t.Fatalf("deal sheet script does not render the bottom cards: %d", code)
	}
	code, body = judge.do("GET", "/judge", nil, nil)
	if code != 200 || !strings.Contains(string(body), `id="bottom"`) {
		t.Fatalf("god view page: %d", code)
	}
	public := newClient(t, ts.URL)
	code, body = public.do("GET", "/api/public/state", nil, nil)
	if code != 200 || strings.Contains(string(body), `"bottom":`) || strings.Contains(string(body), `"role`) {
		t.Fatalf("the public view shows the bottom cards: %d %.300s", code, body)
	}
	if text := recordText2(RecordExport{Game: st.Game}); !strings.Contains(text, "底牌："+bottom[0].Name()+"、"+bottom[1].Name()+"\n") {
		t.Fatalf("text export:\n%s", text)
	}

	// by hand: the seats, then the bottom cards
	hand := []string{"thief", "seer", "witch", "hunter", "idiot", "werewolf", "werewolf", "werewolf", "werewolf",
		"villager", "villager", "villager", "村民", "村民"} // the fixture is a 盜賊 board (rules-more.md I2)
	if code, body := judge.do("POST", "/api/judge/start", map[string]any{"board": b.ID, "deal": hand[:12], "replace": true}, nil); code != 400 || !strings.Contains(string(body), "底牌") {
		t.Fatalf("a deal without the bottom cards: %d %s", code, body)
	}
	wrong := append(slices.Clone(hand[:12]), "villager", "seer")
	if code, body := judge.do("POST", "/api/judge/start", map[string]any{"board": b.ID, "deal": wrong, "replace": true}, nil); code != 400 {
		t.Fatalf("a deal that is not the composition: %d %s", code, body)
	}
	hand[5], hand[12] = "villager", "werewolf" // a wolf at the bottom
	judge.power("start", map[string]any{"board": b.ID, "deal": hand, "seed": "9", "replace": true})
	st = r.wait("the hand-dealt game", func(st JudgeState) bool { return st.Game != nil && st.Game.Manual && st.Game.Seed == "9" })
	if len(st.Game.Bottom) != 2 || st.Game.Bottom[0].Role != "werewolf" || st.Game.Bottom[1].Role != "villager" ||
		st.Game.Bottom[0].Camp != "wolf" || st.Game.Deal[5].Role != "villager" {
		t.Fatalf("hand deal: seats %+v, bottom %+v", st.Game.Deal, st.Game.Bottom)
	}
}
