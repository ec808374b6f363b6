package deskserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

// TestBrowserTournamentDay (issue 29's acceptance, second bullet): the
// organiser's day in a real browser, every step a click or a form filled
// on the desk's pages at 390 px (a phone): log in; import players.csv
// (Excel's BOM and CRLF) through the page, a malformed file first (its
// line reported, nothing imported); open round 1, propose the plan, swap
// two players, lock it, print the sheets; the tables (not the browser:
// desktest's journals over the desk's NATS) send their games, one extra;
// void a game with a reason and count the extra game in its place; warn
// a player three times (a point off shows); disqualify another; close the
// round; open round 2 and regenerate its plan (the disqualified player
// left out); the standings name every player; /screen shows them and
// updates over SSE with no reload when round 2's games come. Every page
// visited is checked at 390 and 1920 px (no horizontal overflow, the way
// back, no column under two characters) and its screenshots are the
// test's artefacts (go test -artifacts -outputdir DIR).
func TestBrowserTournamentDay(t *testing.T) {
	path := chromiumPath()
	if path == "" {
		t.Skip("no Chromium: apt-get install chromium (or set WOLFTABLE_CHROMIUM)")
	}
	day := newBrowserDay(t, path)
	day.login()
	day.importPlayers()
	day.openRound(1)
	day.planRound(1, true)
	day.play(1, 3) // one more than the round's two: the extra game
	day.play(2, 2)
	day.voidAndReplace(1)
	day.discipline()
	day.closeRound(1)
	day.openRound(2)
	day.planRound(2, false)
	day.standings()
	day.screen()
}

// dayNames are the registry's players P01..P16.
var dayNames = []string{"王小明", "李美玲", "張志豪", "陳怡君", "林建宏", "黃淑芬", "吳俊傑", "劉雅婷",
	"蔡宗翰", "楊佩珊", "許家豪", "鄭雅文", "謝明哲", "郭欣怡", "洪志偉", "曾詩涵"}

// dayReserve is P17, added on the page after the disqualification.
const dayReserve = "候補選手"

// browserDay is the desk (real NATS and HTTP), its tables' credentials,
// the operator's PIN and the browser.
type browserDay struct {
	t    *testing.T
	b    *deskBrowser
	d    *Desk
	url  string
	pin  string
	data string
	cs   []desk.Creds
	pack *desk.Pack
	seed uint64
}

func newBrowserDay(t *testing.T, path string) *browserDay {
	data, cs := setup(t, 2)
	pin, err := NewPIN(data)
	if err != nil {
		t.Fatal(err)
	}
	pack, err := desk.ParsePack([]byte("name = \"day\"\nversion = 1\nmvp = 1\nwarnings_per_deduction = 3\nwarning_deduction = 1\n[win]\ngood = 3\nwolf = 3\nthird = 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Start(Options{Data: data, NATS: "127.0.0.1:0", HTTP: "127.0.0.1:0", Pack: pack, Title: "2026 冬季狼人殺聯賽"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	day := &browserDay{t: t, d: d, url: strings.TrimSuffix(d.HTTPURL(), "/"), pin: pin, data: data, cs: cs, pack: pack, seed: 700}
	day.b = newDeskBrowser(t, path)
	day.b.do("a phone", chromedp.EmulateViewport(390, 900))
	return day
}

// visit checks the page shown at 390 px and at 1920 px (screenshots of
// both) and returns to 390 px; at 390 px the document is no wider than
// its viewport (scrollWidth ≤ clientWidth).
func (day *browserDay) visit(name string) {
	t := day.t
	t.Helper()
	w := day.b.eval(`[document.documentElement.scrollWidth, document.documentElement.clientWidth]`)
	if w[0] > w[1] {
		t.Errorf("%s at 390 px: scrollWidth %.0f > clientWidth %.0f", name, w[0], w[1])
	}
	day.b.check(name, 390)
	day.b.do("1920 px", chromedp.EmulateViewport(1920, 1080))
	day.b.check(name, 1920)
	day.b.do("390 px", chromedp.EmulateViewport(390, 900))
}

// text is the text of the page's first element matching sel.
func (day *browserDay) text(sel string) string {
	day.t.Helper()
	ctx, cancel := context.WithTimeout(day.b.ctx, 30*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(sel))
	if err != nil {
		day.t.Fatalf("the text of %s: %v", sel, err)
	}
	return s
}

// strs evaluates js, an array of strings, in the page.
func (day *browserDay) strs(js string) []string {
	day.t.Helper()
	ctx, cancel := context.WithTimeout(day.b.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](js))
	if err != nil {
		day.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// until waits for the page's js to be true (polled in the page; no
// sleep). A form's answer may replace the page while it polls: it polls
// again in the new one.
func until(js string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for {
			_, err := chromedp.Poll[bool](js, chromedp.WithPollingInterval(50*time.Millisecond))(ctx, t)
			if err == nil || ctx.Err() != nil {
				return err
			}
			if _, werr := chromedp.WaitReady("body")(ctx, t); werr != nil { // the new page
				return fmt.Errorf("%w (polling %s: %v)", werr, js, err)
			}
		}
	})
}

// login: the desk's page anonymous, the PIN typed, then the operator's
// page with its auto-update paused for the forms to come.
func (day *browserDay) login() {
	b := day.b
	b.do("open the desk", chromedp.Navigate(day.url+"/"), chromedp.WaitVisible(`input[name="pin"]`))
	day.visit("desk-anonymous")
	b.do("log in", chromedp.SendKeys(`input[name="pin"]`, day.pin), chromedp.Click(`form[action="/login"] button`),
		chromedp.WaitVisible(`form[action="/logout"]`), chromedp.WaitVisible(`#pause`), chromedp.Click(`#pause`),
		until(`document.getElementById('pause').textContent === '恢復自動更新'`))
	day.visit("desk-operator")
}

// importPlayers uploads a file with a malformed line (refused with its
// number, nothing imported), then Excel's players.csv.
func (day *browserDay) importPlayers() {
	t, b := day.t, day.b
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("\ufeff編號,名字,俱樂部,暱稱\r\nP01,王小明,,\r\nP02,,,\r\n"), 0o644)
	var csv strings.Builder
	csv.WriteString("\ufeff編號,名字,俱樂部,暱稱\r\n")
	for i, n := range dayNames {
		fmt.Fprintf(&csv, "P%02d,%s,%s,\r\n", i+1, n, []string{"台北狼人殺俱樂部", "台中桌遊社"}[i%2])
	}
	good := filepath.Join(dir, "players.csv")
	os.WriteFile(good, []byte(csv.String()), 0o644)
	b.do("the registry", chromedp.Click(`nav a[href="/players"]`), chromedp.WaitVisible(`input[name="csv"]`))
	day.visit("players-empty")
	b.do("a malformed file", chromedp.SetUploadFiles(`input[name="csv"]`, []string{bad}),
		chromedp.Click(`form[action="/players/import"] button`), chromedp.WaitVisible(`ul.import-errors`))
	if got := day.text(`ul.import-errors`); !strings.Contains(got, "第 3 行") {
		t.Errorf("the malformed file's report: %q, want line 3", got)
	}
	day.visit("players-import-refused")
	if ps, _ := day.d.Store.Players(); len(ps) != 0 {
		t.Errorf("a malformed file imported %d players", len(ps))
	}
	b.do("back and import", chromedp.Click(`p a[href="/players"]`), chromedp.WaitVisible(`input[name="csv"]`),
		chromedp.SetUploadFiles(`input[name="csv"]`, []string{good}), chromedp.Click(`form[action="/players/import"] button`),
		chromedp.WaitVisible(`#imported`))
	names := day.strs(`[...document.querySelectorAll('input[form^="p-"][name="name"]')].map(e => e.value)`)
	if !reflect.DeepEqual(names, dayNames) {
		t.Errorf("the registry's page after the import: %q", names)
	}
	day.visit("players")
}

// openRound opens round n, two games a table, on /rounds.
func (day *browserDay) openRound(n int) {
	day.b.do("open round", chromedp.Click(`nav a[href="/rounds"]`), chromedp.WaitVisible(`form[action="/rounds"]`),
		chromedp.Clear(`input[name="games"]`), chromedp.SendKeys(`input[name="games"]`, "2"), chromedp.Click(`form[action="/rounds"] button`),
		chromedp.WaitVisible(fmt.Sprintf(`form[action="/rounds/%d/close"]`, n)))
	day.visit(fmt.Sprintf("rounds-open-%d", n))
}

// sheets are the plan page's tables' player ids, by seat.
func (day *browserDay) sheets() [][]string {
	day.t.Helper()
	var out [][]string
	for _, s := range day.strs(`[...document.querySelectorAll('section.sheet')].map(s => [...s.querySelectorAll('td:nth-child(3)')].map(td => td.textContent).join(' '))`) {
		out = append(out, strings.Fields(s))
	}
	return out
}

// planRound proposes round n's plan for eight a table; the first round's
// plan has two players swapped and is printed; a later round's is
// regenerated (proposed again). Then it is locked.
func (day *browserDay) planRound(n int, swap bool) {
	t, b := day.t, day.b
	propose := `form:has(input[name="do"][value="propose"]) button`
	b.do("the plan", chromedp.Click(fmt.Sprintf(`a[href="/rounds/%d/plan"]`, n)), chromedp.WaitVisible(`input[name="seats"]`),
		chromedp.Clear(`input[name="seats"]`), chromedp.SendKeys(`input[name="seats"]`, "8"), chromedp.Click(propose),
		chromedp.WaitVisible(`select[name="a"]`))
	sh := day.sheets()
	if swap {
		a, bb := sh[0][0], sh[1][0]
		b.do("swap", chromedp.SetValue(`select[name="a"]`, a), chromedp.SetValue(`select[name="b"]`, bb),
			chromedp.Click(`form:has(input[name="do"][value="swap"]) button`),
			until(fmt.Sprintf(`[...document.querySelectorAll('section.sheet')][0].textContent.includes(%q)`, bb)))
		if got := day.sheets(); got[0][0] != bb || got[1][0] != a {
			t.Errorf("after swapping %s and %s: %v", a, bb, got)
		}
	} else {
		b.do("regenerate", chromedp.Clear(`input[name="seats"]`), chromedp.SendKeys(`input[name="seats"]`, "8"), chromedp.Click(propose),
			chromedp.WaitVisible(`select[name="a"]`))
		for _, s := range day.sheets() {
			for _, id := range s {
				if id == "P04" {
					t.Errorf("round %d's plan seats the disqualified P04: %v", n, day.sheets())
				}
			}
		}
	}
	day.visit(fmt.Sprintf("plan-%d", n))
	b.do("lock", chromedp.Click(`form:has(input[name="do"][value="lock"]) button`),
		until(`document.querySelector('h1').textContent.includes('已鎖定')`))
	day.visit(fmt.Sprintf("plan-%d-locked", n))
	sh = day.sheets()
	if len(sh) != 2 || len(sh[0]) != 8 || len(sh[1]) != 8 {
		t.Errorf("round %d's locked plan: %v", n, sh)
	}
	if swap {
		day.print(n)
	}
}

// print saves the plan's printout (a sheet a table) as an artefact.
func (day *browserDay) print(n int) {
	t := day.t
	ctx, cancel := context.WithTimeout(day.b.ctx, 60*time.Second)
	defer cancel()
	pdf, err := chromedp.Run(ctx, chromedp.PrintToPDF())
	if err != nil {
		t.Fatal(err)
	}
	pages := bytes.Count(pdf, []byte("/Type /Page")) - bytes.Count(pdf, []byte("/Type /Pages"))
	if !bytes.HasPrefix(pdf, []byte("%PDF")) || pages < 2 {
		t.Errorf("round %d's printed plan: not a PDF of a page a table (%d pages, %d bytes)", n, pages, len(pdf))
	}
	os.WriteFile(filepath.Join(day.b.dir, fmt.Sprintf("plan-%d.pdf", n)), pdf, 0o644)
}

// play plays games at table (its journals, its key) and sends them to
// the desk, returning once the desk confirmed each.
func (day *browserDay) play(table, games int) {
	jdir := day.t.TempDir()
	for range games {
		day.seed++
		desktest.Play(day.t, jdir, "cupid-8-001", day.seed, key(byte(table)), 0)
	}
	publish(day.t, day.d, day.cs[table-1], jdir)
}

// voidAndReplace voids T1's first game of round n on its page, with a
// reason, and counts T1's extra game in round n from the desk's page.
func (day *browserDay) voidAndReplace(n int) {
	t, b := day.t, day.b
	var first string
	for _, g := range day.d.Store.Games() {
		if g.Round == n && g.Table == "T1" && first == "" {
			first = g.Hash
		}
	}
	late := day.d.Store.Late()
	if first == "" || len(late) != 1 {
		t.Fatalf("round %d: T1's first game %q, late %+v", n, first, late)
	}
	b.do("the desk", chromedp.Click(`nav a[href="/"]`), chromedp.WaitVisible(`form[action$="/decide"]`))
	day.visit("desk-late")
	b.do("void", chromedp.Click(`a[href="/game/`+first+`"]`), chromedp.WaitVisible(`form[action$="/void"]`),
		chromedp.SendKeys(`form[action$="/void"] input[name="reason"]`, "裁判叫錯夜間順序"), chromedp.Click(`form[action$="/void"] button`),
		chromedp.WaitVisible(`p.void-note`))
	if got := day.text(`p.void-note`); !strings.Contains(got, "裁判叫錯夜間順序") {
		t.Errorf("the voided game's page: %q", got)
	}
	day.visit("game-voided")
	form := `form[action="/game/` + late[0].Hash + `/decide"]`
	b.do("count the extra game", chromedp.Click(`nav a[href="/"]`), chromedp.WaitVisible(form),
		chromedp.SendKeys(form+` input[name="round"]`, fmt.Sprint(n)), chromedp.SendKeys(form+` input[name="note"]`, "重賽，取代作廢的一局"),
		chromedp.Click(form+` button[value="accept"]`), chromedp.WaitNotPresent(form))
	if g, _ := day.d.Store.Game(late[0].Hash); g.Decision != "accepted" || g.Round != n {
		t.Errorf("the extra game after the decision: %q round %d", g.Decision, g.Round)
	}
	if v := day.b.eval(`[document.querySelectorAll('tr.void').length]`); v[0] != 1 {
		t.Errorf("the desk's page shows %v voided games, want 1", v)
	}
	day.visit("desk-replaced")
}

// discipline: P03 warned three times (the third a point off), P04
// disqualified, on the registry's page.
func (day *browserDay) discipline() {
	t, b := day.t, day.b
	b.do("the registry", chromedp.Click(`nav a[href="/players"]`), chromedp.WaitVisible(`form[action="/players/P03/sanction"]`))
	for i, why := range []string{"發言超時", "場外交流", "再次超時"} {
		f := `form[action="/players/P03/sanction"]`
		b.do("a warning", chromedp.SendKeys(f+` input[name="reason"]`, why), chromedp.Click(f+` button`),
			until(fmt.Sprintf(`document.querySelectorAll('form[action^="/discipline/"]').length === %d`, i+1)))
	}
	f := `form[action="/players/P04/sanction"]`
	b.do("a disqualification", chromedp.SetValue(f+` select[name="kind"]`, "dq"), chromedp.SendKeys(f+` input[name="reason"]`, "糾紛雙方取消資格"),
		chromedp.Click(f+` button`), until(`document.querySelectorAll('form[action^="/discipline/"]').length === 4`))
	add := `form[action="/players"]:not([id])` // a reserve takes the seat: eight a table in round 2
	b.do("a reserve", chromedp.SendKeys(add+` input[name="id"]`, "P17"), chromedp.SendKeys(add+` input[name="name"]`, dayReserve),
		chromedp.Click(add+` button`), chromedp.WaitVisible(`input[form="p-P17"]`))
	day.visit("players-discipline")
	b.do("the desk", chromedp.Click(`nav a[href="/"]`), chromedp.WaitVisible(`form[action="/logout"]`))
	row := day.standingsRow("張志豪")
	if len(row) < 11 || row[9] != "1" || row[10] != "3" {
		t.Errorf("P03's standings after three warnings: %q, want 1 point off and 3 warnings", row)
	}
	if row := day.standingsRow("陳怡君"); len(row) < 1 || row[0] != "取消資格" {
		t.Errorf("P04's standings after the disqualification: %q", row)
	}
	day.visit("desk-discipline")
}

// standingsRow is the cells of the desk page's standings row of name.
func (day *browserDay) standingsRow(name string) []string {
	day.t.Helper()
	js := fmt.Sprintf(`(() => { const h = [...document.querySelectorAll('h2')].find(h => h.textContent === '積分榜');
		const r = [...h.nextElementSibling.querySelectorAll('tr')].find(r => r.cells[1] && r.cells[1].textContent.startsWith(%q));
		return r ? [...r.cells].map(c => c.textContent.trim()) : []; })()`, name)
	return day.strs(js)
}

func (day *browserDay) closeRound(n int) {
	form := fmt.Sprintf(`form[action="/rounds/%d/close"]`, n)
	day.b.do("close the round", chromedp.Click(`nav a[href="/rounds"]`), chromedp.WaitVisible(form), chromedp.Click(form+` button`),
		chromedp.WaitNotPresent(form))
	day.visit(fmt.Sprintf("rounds-closed-%d", n))
}

// standings: the desk's page names every registered player, and its
// standings equal those recomputed from the signed records and the
// organiser's sanctions.
func (day *browserDay) standings() {
	t := day.t
	day.b.do("the desk", chromedp.Click(`nav a[href="/"]`), chromedp.WaitVisible(`form[action="/logout"]`))
	for _, n := range dayNames { // the reserve has not played yet
		if row := day.standingsRow(n); len(row) == 0 {
			t.Errorf("the standings on the desk's page do not name %s", n)
		}
	}
	day.visit("desk-standings")
	day.b.do("the log", chromedp.Click(`nav a[href="/log"]`), chromedp.WaitVisible(`h1`))
	day.visit("log")
	re, err := day.d.Store.Recompute()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for i, n := range dayNames {
		names[fmt.Sprintf("P%02d", i+1)] = n
	}
	names["P17"] = dayReserve
	if again := desk.StandingsWith(day.pack, re, day.d.Store.Sanctions(), names); !reflect.DeepEqual(again, day.d.Standings()) {
		t.Errorf("the recomputed standings differ:\n%+v\n%+v", again, day.d.Standings())
	}
}

// screen: /screen shows the standings by name, then round 2's games
// arrive and it updates with no reload.
func (day *browserDay) screen() {
	t, b := day.t, day.b
	rows := `[...document.querySelectorAll('#standings tbody tr')].map(r => r.textContent)`
	b.do("the screen", chromedp.Click(`nav a[href="/screen"]`), chromedp.WaitReady(`body[data-ready="1"]`),
		chromedp.Evaluate[chromedp.Void](`window.wolftableMark = 1`))
	before := day.strs(rows)
	if len(before) != 16 || !strings.Contains(strings.Join(before, " "), "王小明") {
		t.Errorf("/screen's standings: %q", before)
	}
	day.visit("screen")
	day.play(1, 1)
	day.play(2, 1)
	var want []string // the desk's standings once both tables' games are in
	for _, r := range day.d.Standings() {
		want = append(want, r.Player)
	}
	names := `[...document.querySelectorAll('#standings tbody tr')].map(r => r.cells[1].textContent)`
	b.do("the screen updates", until(fmt.Sprintf(`window.wolftableMark !== 1 || JSON.stringify(%s) === %q`, names, jsonStrings(want))))
	if day.b.eval(`[window.wolftableMark || 0]`)[0] != 1 {
		t.Error("/screen reloaded")
	}
	known := map[string]bool{dayReserve: true}
	for _, n := range dayNames {
		known[n] = true
	}
	after := day.strs(names)
	for _, n := range after {
		if !known[n] {
			t.Errorf("/screen's standings name %q, not a registered player", n)
		}
	}
	if len(after) != 17 || !strings.Contains(strings.Join(after, " "), dayReserve) {
		t.Errorf("/screen's standings after round 2's games: %q, want the reserve in", after)
	}
	day.visit("updated-screen")
}

func jsonStrings(l []string) string { b, _ := json.Marshal(l); return string(b) }
