package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"wolftable/boards"
	"wolftable/journal"
)

// fakeDesk answers the console's roster questions in turn.
type fakeDesk struct {
	mu      sync.Mutex
	answers []func() (DeskRoster, error)
}

func (f *fakeDesk) roster(context.Context) (DeskRoster, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a := f.answers[0]
	if len(f.answers) > 1 {
		f.answers = f.answers[1:]
	}
	return a()
}

func twelve(prefix string) []Player {
	var out []Player
	for i := 1; i <= 12; i++ {
		out = append(out, Player{ID: fmt.Sprintf("P%02d", i), Name: fmt.Sprintf("%s%02d", prefix, i)})
	}
	return out
}

// awayThenReady is a desk that is away, then has no locked plan, then a
// roster with a blank name, then a good one.
func awayThenReady() *fakeDesk {
	return &fakeDesk{answers: []func() (DeskRoster, error){
		func() (DeskRoster, error) { return DeskRoster{}, errors.New("nats: timeout") },
		func() (DeskRoster, error) {
			return DeskRoster{Round: 2, Reason: "第 2 輪的座位表還沒鎖定"}, nil
		},
		func() (DeskRoster, error) {
			p := twelve("總台選手")
			p[2].Name = " "
			return DeskRoster{Round: 2, Players: p}, nil
		},
		func() (DeskRoster, error) { return DeskRoster{Round: 2, Players: twelve("總台選手")}, nil },
	}}
}

// refused posts and wants the status and a Chinese message containing want.
func refused(t *testing.T, c *client, path string, body any, status int, want string) {
	t.Helper()
	code, b := c.do("POST", path, body, nil)
	var e errorReply
	_ = json.Unmarshal(b, &e)
	if code != status || !strings.Contains(e.Error, want) {
		t.Fatalf("POST %s %v: %d %s, want %d and %q", path, body, code, b, status, want)
	}
}

func drawView(t *testing.T, c *client) DrawView {
	t.Helper()
	code, b := c.do("GET", "/api/judge/draw", nil, nil)
	var v DrawView
	if code != http.StatusOK || json.Unmarshal(b, &v) != nil {
		t.Fatalf("GET /api/judge/draw: %d %s", code, b)
	}
	return v
}

// TestDrawEndpoints: the judge's seat draw over HTTP. Refused: anyone not
// logged in, a POST without the CSRF token, the desk away or without a
// locked plan (the judge types the names then), a roster of the wrong
// count, a blank or doubled name, a draw without a roster, a manual draw
// with a seat twice, one missing or the wrong count, and any change once
// the game has started. The draw is carried into the game the judge
// starts (its spec: the journal's header) and shown on the public page by
// name only once the game runs.
func TestDrawEndpoints(t *testing.T) {
	desk := awayThenReady()
	r := newRig(t, Options{Seats: 12, Roster: desk.roster})
	var started []GameSpec
	var smu sync.Mutex
	r.observeStart = func(ng NewGame) { smu.Lock(); started = append(started, ng.Spec); smu.Unlock() }
	ts := r.serve()
	anon := newClient(t, ts.URL)
	if code, _ := anon.do("GET", "/api/judge/draw", nil, nil); code != http.StatusUnauthorized {
		t.Fatalf("draw without a session: %d", code)
	}
	refused(t, anon, "/api/judge/draw", map[string]any{}, http.StatusUnauthorized, "請先登入")
	judge := newClient(t, ts.URL)
	judge.login(rigPIN)
	if code, _ := judge.do("POST", "/api/judge/draw/roster", map[string]any{"text": "a"}, map[string]string{csrfHeader: "x"}); code != http.StatusForbidden {
		t.Fatalf("a roster without the CSRF token: %d", code)
	}

	rosterRefusals(t, judge)

	// the desk's roster; a manual draw refused, then taken at random
	code, b := judge.do("POST", "/api/judge/draw/roster", map[string]any{"from": "desk"}, nil)
	if code != http.StatusOK {
		t.Fatalf("the desk's roster: %d %s", code, b)
	}
	if v := drawView(t, judge); len(v.Roster) != 12 || v.From != "desk" || v.Round != 2 || v.Roster[0].Name != "總台選手01" {
		t.Fatalf("roster %+v", v)
	}
	seats := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	seats[11] = 1
	refused(t, judge, "/api/judge/draw", map[string]any{"seats": seats}, http.StatusBadRequest, "1號座位重複")
	refused(t, judge, "/api/judge/draw", map[string]any{"seats": seats[:11]}, http.StatusBadRequest, "抽籤結果有 11 個座位")
	seats[11] = 13
	refused(t, judge, "/api/judge/draw", map[string]any{"seats": seats}, http.StatusBadRequest, "不在 1 到 12 號之間")
	judge.power("draw", map[string]any{})
	v := drawView(t, judge)
	if len(v.Draw) != 12 || v.Manual {
		t.Fatalf("the random draw: %+v", v)
	}
	names := map[string]bool{}
	for i, d := range v.Draw {
		if d.Seat != i+1 || d.PlayerID == "" || !strings.HasPrefix(d.Name, "總台選手") {
			t.Fatalf("seat %d drawn %+v", i+1, d)
		}
		names[d.Name] = true
	}
	if len(names) != 12 {
		t.Fatalf("a player drawn twice: %+v", v.Draw)
	}
	if st := r.srv.publicState(); st.Game != nil {
		t.Fatalf("a public game before the start: %+v", st.Game)
	}

	judge.power("start", map[string]any{"board": "預女獵愚"})
	smu.Lock()
	got := started[len(started)-1]
	smu.Unlock()
	if fmt.Sprint(got.Draw) != fmt.Sprint(v.Draw) || got.DrawManual {
		t.Fatalf("the game started with draw %+v, want %+v", got.Draw, v.Draw)
	}
	after := drawView(t, judge)
	if len(after.Draw) != 0 || fmt.Sprint(after.Game) != fmt.Sprint(v.Draw) || !after.Started || len(after.Roster) != 12 {
		t.Fatalf("after the start: %+v", after)
	}
	pub := r.srv.publicState()
	for i, s := range pub.Seats {
		if s.Name != v.Draw[i].Name {
			t.Fatalf("public seat %d: name %q, want %q", i+1, s.Name, v.Draw[i].Name)
		}
	}
	refused(t, judge, "/api/judge/draw", map[string]any{}, http.StatusConflict, "遊戲已開始")
	refused(t, judge, "/api/judge/draw/roster", map[string]any{"text": "甲\n乙\n丙\n丁\n戊\n己\n庚\n辛\n壬\n癸\n子\n丑"}, http.StatusConflict, "遊戲已開始")
	refused(t, judge, "/api/judge/draw/clear", map[string]any{}, http.StatusConflict, "遊戲已開始")
}

// rosterRefusals: no draw without a roster; the desk away, then without
// a locked plan, then with a blank name; typed rosters of the wrong count, with a name twice, with
// a bad line: each refused, and none taken.
func rosterRefusals(t *testing.T, judge *client) {
	t.Helper()
	refused(t, judge, "/api/judge/draw", map[string]any{}, http.StatusConflict, "還沒有選手名單")
	refused(t, judge, "/api/judge/draw/roster", map[string]any{"from": "desk"}, http.StatusBadGateway, "連不上總台")
	refused(t, judge, "/api/judge/draw/roster", map[string]any{"from": "desk"}, http.StatusConflict, "第 2 輪的座位表還沒鎖定：請在下面輸入選手名單")
	refused(t, judge, "/api/judge/draw/roster", map[string]any{"from": "desk"}, http.StatusBadRequest, "名單第 3 位沒有名字")
	var eleven, dup strings.Builder
	for i := 1; i <= 11; i++ {
		fmt.Fprintf(&eleven, "選手%d\n", i)
		fmt.Fprintf(&dup, "選手%d\n", i)
	}
	dup.WriteString("選手3\n")
	refused(t, judge, "/api/judge/draw/roster", map[string]any{"text": eleven.String()}, http.StatusBadRequest, "名單有 11 位選手，這局要 12 位")
	refused(t, judge, "/api/judge/draw/roster", map[string]any{"text": dup.String()}, http.StatusBadRequest, "名單裡「選手3」出現兩次")
	refused(t, judge, "/api/judge/draw/roster", map[string]any{"text": "P01,\n" + eleven.String()}, http.StatusBadRequest, "第 1 行")
	if v := drawView(t, judge); len(v.Roster) != 0 || v.Seats != 12 || !v.Desk {
		t.Fatalf("a refused roster was taken: %+v", v)
	}

}

// TestManualDrawAndTakeDraw: a manual draw of typed names is kept as the
// players drew it, refused for a game of another size (開局 and TakeDraw:
// kept), and handed once to the dealt game of its size.
func TestManualDrawAndTakeDraw(t *testing.T) {
	r := newRig(t, Options{})
	ts := r.serve()
	judge := newClient(t, ts.URL)
	judge.login(rigPIN)
	refused(t, judge, "/api/judge/draw/roster", map[string]any{"from": "desk"}, http.StatusConflict, "本桌沒有設定總台")
	text := "甲\n乙\n丙\n丁\n"
	judge.power("draw/roster", map[string]any{"text": text})
	refused(t, judge, "/api/judge/draw", map[string]any{"seats": []int{2, 2, 3, 4}}, http.StatusBadRequest, "2號座位重複")
	judge.power("draw", map[string]any{"seats": []int{3, 1, 4, 2}})
	v := drawView(t, judge)
	want := []journal.Drawn{{Seat: 1, Name: "乙"}, {Seat: 2, Name: "丁"}, {Seat: 3, Name: "甲"}, {Seat: 4, Name: "丙"}}
	if fmt.Sprint(v.Draw) != fmt.Sprint(want) || !v.Manual || v.From != "typed" {
		t.Fatalf("manual draw %+v", v)
	}
	refused(t, judge, "/api/judge/start", map[string]any{"board": "預女獵愚"}, http.StatusBadRequest, "抽好的座位是 4 人，預女獵愚 是 12 人局")
	if _, _, err := r.srv.TakeDraw(12); !errors.Is(err, ErrDrawSize) {
		t.Fatalf("a 4-seat draw for 12 seats: %v", err)
	}
	d, manual, err := r.srv.TakeDraw(4)
	if err != nil || !manual || fmt.Sprint(d) != fmt.Sprint(want) {
		t.Fatalf("TakeDraw: %v %v %v", d, manual, err)
	}
	if d, _, _ := r.srv.TakeDraw(4); d != nil {
		t.Fatalf("the draw handed twice: %v", d)
	}
}

// TestPublicNamesOnceStarted: the public view of a dealt game names no
// seat; the first fact of the game (the daemon runs it) shows the drawn
// names, and a draw not of the board's size names nobody.
func TestPublicNamesOnceStarted(t *testing.T) {
	var p publicModel
	b, err := boards.Get("seer-witch-hunter-idiot")
	if err != nil {
		t.Fatal(err)
	}
	d := make([]journal.Drawn, b.Players)
	for i := range d {
		d[i] = journal.Drawn{Seat: i + 1, Name: fmt.Sprintf("選手%d", i+1)}
	}
	p.begin(b)
	p.names = drawNames(d, b.Players)
	for _, s := range p.state(rigStart, 1).Seats {
		if s.Name != "" {
			t.Fatalf("a name before the game started: %+v", s)
		}
	}
	if !p.apply(publicFact{kind: factPhase, when: "night-1"}, 1) {
		t.Fatal("the first fact changed nothing shown")
	}
	if s := p.state(rigStart, 1).Seats[2]; s.Name != "選手3" {
		t.Fatalf("seat 3 after the start: %+v", s)
	}
	if drawNames(d[:3], b.Players) != nil {
		t.Fatal("a draw of another size named seats")
	}
}
