package deskserver

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

// opClient is a desk's web with a logged-in operator's client.
type opClient struct {
	t    *testing.T
	d    *Desk
	srv  *httptest.Server
	c    *http.Client
	anon *http.Client
	tok  string
}

// newOpClient serves a desk of data (its store opened) and logs in.
func newOpClient(t *testing.T, data string) *opClient {
	t.Helper()
	st, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	op, pin, err := openOperator(data)
	if err != nil {
		t.Fatal(err)
	}
	pk, _ := desk.LoadPack("league")
	d := &Desk{opts: Options{Data: data}, Store: st, pack: pk, log: slog.New(slog.DiscardHandler), tables: map[string]*tableState{}, op: op}
	srv := httptest.NewServer(d.Handler())
	t.Cleanup(srv.Close)
	jar, _ := cookiejar.New(nil)
	noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	o := &opClient{t: t, d: d, srv: srv, c: &http.Client{Jar: jar, CheckRedirect: noRedirect}, anon: &http.Client{CheckRedirect: noRedirect}}
	if code, _ := o.post("/login", url.Values{"pin": {pin}}); code != 303 {
		t.Fatalf("login: %d", code)
	}
	_, page := o.get("/players")
	m := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no CSRF token on /players once logged in:\n%s", page)
	}
	o.tok = m[1]
	return o
}

func (o *opClient) do(c *http.Client, method, path string, form url.Values) (int, string) {
	o.t.Helper()
	req, _ := http.NewRequest(method, o.srv.URL+path, strings.NewReader(form.Encode()))
	if method == "POST" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := c.Do(req)
	if err != nil {
		o.t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, string(b)
}

func (o *opClient) get(path string) (int, string) { return o.do(o.c, "GET", path, nil) }
func (o *opClient) post(path string, form url.Values) (int, string) {
	if form == nil {
		form = url.Values{}
	}
	if o.tok != "" && form.Get("csrf") == "" {
		form.Set("csrf", o.tok)
	}
	return o.do(o.c, "POST", path, form)
}

// TestPlayersPage (issue 29 item 1): the logged-in operator adds, changes
// and removes a player on /players; without the login nothing changes; a
// player without a name is refused with the reason and a way back, and
// the registry is left as it was; everyone sees the registry.
func TestPlayersPage(t *testing.T) {
	data, _ := setup(t, 1)
	o := newOpClient(t, data)
	if code, _ := o.do(o.anon, "POST", "/players", url.Values{"id": {"P001"}, "name": {"王小明"}}); code != 401 {
		t.Errorf("no session: %d", code)
	}
	if code, _ := o.post("/players", url.Values{"id": {"P001"}, "name": {"王小明"}, "club": {"台北"}}); code != 303 {
		t.Fatalf("add: %d", code)
	}
	if code, _ := o.post("/players", url.Values{"id": {"P002"}, "name": {" 林美玲 "}}); code != 303 {
		t.Fatalf("add: %d", code)
	}
	if code, _ := o.post("/players", url.Values{"id": {"P001"}, "name": {"王曉明"}, "nickname": {"小明"}}); code != 303 {
		t.Fatalf("change: %d", code)
	}
	code, page := o.post("/players", url.Values{"id": {"P003"}, "name": {""}})
	if code != 400 || !strings.Contains(page, "沒有名字") || !strings.Contains(page, `href="/players"`) {
		t.Errorf("no name: %d\n%s", code, page)
	}
	list, _ := desk.ReadPlayers(data)
	if len(list) != 2 || list[0] != (desk.Player{ID: "P001", Name: "王曉明", Nickname: "小明"}) || list[1].Name != "林美玲" {
		t.Fatalf("registry: %+v", list)
	}
	if code, page := o.do(o.anon, "GET", "/players", nil); code != 200 || !strings.Contains(page, "王曉明") || strings.Contains(page, "csrf") {
		t.Errorf("public /players: %d\n%s", code, page)
	}
	if code, _ := o.post("/players/P002/remove", nil); code != 303 {
		t.Fatalf("remove: %d", code)
	}
	if list, _ := desk.ReadPlayers(data); len(list) != 1 {
		t.Fatalf("after remove: %+v", list)
	}
	if log, _ := o.d.Store.LogEntries("P002"); len(log) != 2 {
		t.Errorf("organiser's log of P002: %+v", log)
	}
}

// TestGamePageNames (issue 29 item 1): a game's page names the players
// who sat where (players.csv by id, names from the registry) and offers
// MVP/SVP by name; the front page's standings name them too.
func TestGamePageNames(t *testing.T) {
	data, _ := setup(t, 1)
	os.WriteFile(filepath.Join(data, "players.csv"), []byte("T1,1,P001\nT1,2,P002\nT1,4,P0O3\n"), 0o644)
	if _, _, err := desk.ImportPlayers(data, []byte("P001,王小明,台北,\nP002,林美玲,,\n")); err != nil {
		t.Fatal(err)
	}
	o := newOpClient(t, data)
	if _, page := o.get("/players"); !strings.Contains(page, "T1/4 座的「P0O3」不是名冊裡的選手編號") {
		t.Errorf("/players does not flag players.csv's unknown id")
	}
	path := desktest.Play(t, t.TempDir(), "seer-witch-hunter-idiot", 11, key(1), 2)
	b, _ := os.ReadFile(path)
	if _, err := o.d.Store.Ingest(desk.Subject("T1", desk.KindRecord), "", filepath.Base(path), b); err != nil {
		t.Fatal(err)
	}
	hash := o.d.Store.Games()[0].Hash
	_, page := o.get("/game/" + hash)
	for _, w := range []string{"<td>王小明 <span", `<option value="2">2 號 林美玲</option>`, "T1/3"} {
		if !strings.Contains(page, w) {
			t.Errorf("game page lacks %q", w)
		}
	}
	if code, _ := o.post("/game/"+hash+"/award", url.Values{"mvp": {"1"}}); code != 303 {
		t.Fatalf("award: %d", code)
	}
	_, page = o.get("/game/" + hash)
	if !strings.Contains(page, `<option value="1" selected>1 號 王小明</option>`) {
		t.Errorf("the MVP is not selected by name:\n%s", page)
	}
	_, front := o.get("/")
	if !strings.Contains(front, `<td>王小明 <span class="dim">P001</span></td>`) {
		t.Errorf("front page standings lack the name")
	}
}

// TestTableStatesInWords (issue 29 item 6): the operator's rows say what
// each table is doing in Chinese — 從未連線, 離線 with 「26 秒前」, 已結束,
// 對局中 — and no age is written the Go way ("26s").
func TestTableStatesInWords(t *testing.T) {
	data, _ := setup(t, 1)
	o := newOpClient(t, data)
	now := time.Now()
	o.d.mu.Lock()
	o.d.tables = map[string]*tableState{
		"A": {name: "A"},
		"B": {name: "B", lastSeen: now.Add(-26 * time.Second), status: &desk.Status{Seats: 12, Phase: "day-2"}},
		"C": {name: "C", lastSeen: now.Add(-2 * time.Second), status: &desk.Status{Seats: 12, Result: "好人"}},
		"D": {name: "D", lastSeen: now.Add(-1 * time.Second), status: &desk.Status{Seats: 12, Phase: "night-2", Alive: []int{1, 2, 3}}},
		"E": {name: "E", lastSeen: now.Add(-3 * time.Minute)},
	}
	o.d.mu.Unlock()
	want := map[string]string{"A": "從未連線", "B": "離線（最後訊號 26 秒前）", "C": "已結束：好人", "D": "對局中：第2夜", "E": "離線（最後訊號 3 分鐘前）"}
	for _, pt := range o.d.pageTables(true, now) {
		if pt.State != want[pt.Name] {
			t.Errorf("table %s: %q, want %q", pt.Name, pt.State, want[pt.Name])
		}
	}
	_, page := o.get("/")
	if !strings.Contains(page, "26 秒前") || regexp.MustCompile(`[0-9]s 前|[0-9]m[0-9]+s`).MatchString(page) {
		t.Errorf("the page's ages:\n%s", page)
	}
}

// TestTournamentTitle (issue 29 item 6): the tournament's name is on
// every organiser's page, with the way back to the desk (the nav), and
// on the pages of a refusal.
func TestTournamentTitle(t *testing.T) {
	data, _ := setup(t, 1)
	o := newOpClient(t, data)
	o.d.opts.Title = "2026 冬季聯賽"
	_, e := o.post("/players", url.Values{"id": {"x y"}, "name": {"a"}})
	_, front := o.get("/")
	_, players := o.get("/players")
	_, rounds := o.get("/rounds")
	for name, page := range map[string]string{"/": front, "/players": players, "/rounds": rounds, "a refusal": e} {
		if !strings.Contains(page, "<strong>2026 冬季聯賽</strong>") || !strings.Contains(page, `<a href="/">總台</a>`) {
			t.Errorf("%s lacks the title or the way back:\n%s", name, page)
		}
	}
}

// TestDisciplinePage (issue 29 item 5): the logged-in operator gives a
// registered player a deduction and disqualifies another on /players,
// with reasons; the standings show the points off and 取消資格 (without a
// rank), in standings.csv too; a sanction without a reason is refused
// with a way back; without the login nothing is recorded; a revoke
// restores the player's points.
func TestDisciplinePage(t *testing.T) {
	data, _ := setup(t, 1)
	os.WriteFile(filepath.Join(data, "players.csv"), []byte("T1,1,P001\nT1,2,P002\n"), 0o644)
	if _, _, err := desk.ImportPlayers(data, []byte("P001,王小明,,\nP002,林美玲,,\n")); err != nil {
		t.Fatal(err)
	}
	o := newOpClient(t, data)
	b, _ := os.ReadFile(desktest.Play(t, t.TempDir(), "seer-witch-hunter-idiot", 11, key(1), 0))
	if _, err := o.d.Store.Ingest(desk.Subject("T1", desk.KindRecord), "", "x.wtj", b); err != nil {
		t.Fatal(err)
	}
	points := func(id string) (float64, bool) {
		for _, r := range o.d.Standings() {
			if r.PlayerID == id {
				return r.Points, r.DQ
			}
		}
		return 0, false
	}
	p1, _ := points("P001")
	if code, _ := o.do(o.anon, "POST", "/players/P001/sanction", url.Values{"kind": {"deduction"}, "points": {"2"}, "reason": {"x"}}); code != 401 {
		t.Errorf("no session: %d", code)
	}
	if code, page := o.post("/players/P001/sanction", url.Values{"kind": {"deduction"}, "points": {"2"}}); code != 400 || !strings.Contains(page, "要寫原因") || !strings.Contains(page, `href="/players#discipline"`) && !strings.Contains(page, `href="/players"`) {
		t.Errorf("no reason: %d\n%s", code, page)
	}
	if len(o.d.Store.Sanctions()) != 0 {
		t.Fatal("a refused sanction was recorded")
	}
	if code, _ := o.post("/players/P001/sanction", url.Values{"kind": {"deduction"}, "points": {"2"}, "reason": {"挑起糾紛"}}); code != 303 {
		t.Fatalf("deduction: %d", code)
	}
	if code, _ := o.post("/players/P002/sanction", url.Values{"kind": {"dq"}, "reason": {"糾紛雙方取消資格"}}); code != 303 {
		t.Fatalf("dq: %d", code)
	}
	if got, _ := points("P001"); got != p1-2 {
		t.Errorf("P001: %v points, want %v", got, p1-2)
	}
	if _, dq := points("P002"); !dq {
		t.Error("P002 not disqualified")
	}
	_, front := o.get("/")
	if !strings.Contains(front, "取消資格</span></td><td>林美玲") {
		t.Errorf("the standings do not show the disqualification")
	}
	if _, csv := o.get("/standings.csv"); !strings.Contains(csv, "取消資格,P002,林美玲") {
		t.Errorf("standings.csv:\n%s", csv)
	}
	_, page := o.get("/players")
	if !strings.Contains(page, "扣 2 分") || !strings.Contains(page, "挑起糾紛") {
		t.Errorf("/players does not list the sanctions")
	}
	if _, page := o.do(o.anon, "GET", "/players", nil); strings.Contains(page, "挑起糾紛") {
		t.Error("the public registry shows a sanction's reason")
	}
	if code, _ := o.do(o.anon, "GET", "/log", nil); code != 401 {
		t.Errorf("/log without a session: %d", code)
	}
	if _, page := o.get("/log"); !strings.Contains(page, "扣 2 分：挑起糾紛") || !strings.Contains(page, "取消資格：糾紛雙方取消資格") {
		t.Errorf("/log:\n%s", page)
	}
	id := o.d.Store.Sanctions()[0].ID
	if code, _ := o.post(fmt.Sprintf("/discipline/%d/revoke", id), url.Values{"reason": {"記錯人"}}); code != 303 {
		t.Fatalf("revoke: %d", code)
	}
	if got, _ := points("P001"); got != p1 {
		t.Errorf("after the revoke P001 has %v points, want %v", got, p1)
	}
}

// TestExportsByName (issue 29 item 1): the exports speak of players by
// name: seats.csv lists each seat's player (id and name) with the role,
// the side, win or loss, the award; games.csv and /api/public/games name
// the MVP's player.
func TestExportsByName(t *testing.T) {
	data, _ := setup(t, 1)
	os.WriteFile(filepath.Join(data, "players.csv"), []byte("T1,1,P001\nT1,2,P002\n"), 0o644)
	if _, _, err := desk.ImportPlayers(data, []byte("P001,王小明,,\nP002,林美玲,,\n")); err != nil {
		t.Fatal(err)
	}
	o := newOpClient(t, data)
	b, _ := os.ReadFile(desktest.Play(t, t.TempDir(), "seer-witch-hunter-idiot", 11, key(1), 0))
	if _, err := o.d.Store.Ingest(desk.Subject("T1", desk.KindRecord), "", "x.wtj", b); err != nil {
		t.Fatal(err)
	}
	g := o.d.Store.Games()[0]
	if code, _ := o.post("/game/"+g.Hash+"/award", url.Values{"mvp": {"1"}}); code != 303 {
		t.Fatal(code)
	}
	_, seats := o.get("/seats.csv")
	lines := strings.Split(strings.TrimSpace(seats), "\n")
	if len(lines) != 13 || !strings.HasPrefix(lines[0], "\ufeff輪次,桌,對局編號,座位,選手編號,選手") {
		t.Fatalf("seats.csv: %d lines\n%s", len(lines), seats)
	}
	won := "負"
	if s := g.Seats[0]; s.Side == g.Winner {
		won = "勝"
	}
	if want := "1,T1," + g.GameID + ",1,P001,王小明," + g.Seats[0].RoleName + "," + g.Seats[0].Side + "," + won; !strings.HasPrefix(lines[1], want) || !strings.Contains(lines[1], ",MVP,") {
		t.Errorf("seat 1: %q, want %q… with MVP", lines[1], want)
	}
	if _, games := o.get("/games.csv"); !strings.Contains(games, ",1,王小明,") {
		t.Errorf("games.csv does not name the MVP:\n%s", games)
	}
	if _, api := o.get("/api/public/games"); !strings.Contains(api, `"mvp_player": "王小明"`) {
		t.Errorf("/api/public/games: %s", api)
	}
}

// TestErrorPagesWayBack (issue 29 item 6): what the desk refuses is a
// page in Chinese with the reason and a way back: a wrong PIN, an unknown
// game or table, a bad MVP seat, a late game's bad decision.
func TestErrorPagesWayBack(t *testing.T) {
	data, _ := setup(t, 1)
	o := newOpClient(t, data)
	zero := strings.Repeat("0", 64)
	for _, c := range []struct {
		name, method, path string
		form               url.Values
		code               int
		back               string
	}{
		{"wrong PIN", "POST", "/login", url.Values{"pin": {"x"}}, 401, `href="/"`},
		{"unknown game", "GET", "/game/" + zero, nil, 404, `href="/"`},
		{"unknown table", "GET", "/feed/T9", nil, 404, `href="/"`},
		{"bad MVP", "POST", "/game/" + zero + "/award", url.Values{"mvp": {"x"}}, 400, `href="/game/` + zero + `"`},
		{"bad decision", "POST", "/game/" + zero + "/decide", url.Values{"decision": {"maybe"}}, 400, `href="/"`},
		{"log without login", "GET", "/log", nil, 401, `href="/"`},
	} {
		c := c
		client := o.c
		if c.name == "wrong PIN" || c.name == "log without login" {
			client = o.anon
		}
		if c.form != nil && c.name != "wrong PIN" {
			c.form.Set("csrf", o.tok)
		}
		code, page := o.do(client, c.method, c.path, c.form)
		if code != c.code || !strings.Contains(page, `<h1 class="bad">`) || !strings.Contains(page, c.back) || !strings.Contains(page, "<nav") {
			t.Errorf("%s: %d, want %d, a page with %s:\n%s", c.name, code, c.code, c.back, page)
		}
	}
}
