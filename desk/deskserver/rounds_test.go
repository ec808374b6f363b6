package deskserver

import (
	"crypto/ed25519"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

// TestRoundsPages (issue 29 item 2): the logged-in operator opens a round
// on /rounds (which tables, how many games each), a game of its table is
// in it, the operator voids the game with a reason — shown on the game's
// page and the front page, left out of the standings, in the organiser's
// log — and closes the round. Without the login nothing changes; a void
// without a reason is refused with a way back.
func TestRoundsPages(t *testing.T) {
	data, _ := setup(t, 2)
	o := newOpClient(t, data)
	if code, _ := o.do(o.anon, "POST", "/rounds", url.Values{"table": {"T1"}}); code != 401 || len(o.d.Store.Rounds()) != 0 {
		t.Fatalf("no session: %d", code)
	}
	if code, page := o.post("/rounds", url.Values{"table": {"T1"}, "games": {"x"}}); code != 400 || !strings.Contains(page, "每桌局數") {
		t.Errorf("bad games: %d %s", code, page)
	}
	if code, _ := o.post("/rounds", url.Values{"table": {"T1"}, "games": {"2"}}); code != 303 {
		t.Fatalf("open: %d", code)
	}
	if code, page := o.post("/rounds", url.Values{"table": {"T1", "T2"}}); code != 400 || !strings.Contains(page, "還在第 1 輪") || !strings.Contains(page, `href="/rounds"`) {
		t.Errorf("T1 in two rounds: %d\n%s", code, page)
	}
	path := desktest.Play(t, t.TempDir(), "seer-witch-hunter-idiot", 11, key(1), 0)
	b, _ := os.ReadFile(path)
	if _, err := o.d.Store.Ingest(desk.Subject("T1", desk.KindRecord), "", filepath.Base(path), b); err != nil {
		t.Fatal(err)
	}
	g := o.d.Store.Games()
	if len(g) != 1 || g[0].Round != 1 {
		t.Fatalf("the game: %+v", g)
	}
	hash := g[0].Hash
	_, page := o.get("/rounds")
	for _, w := range []string{"第 1 輪", "進行中", "T1 1／2", "結束這一輪"} {
		if !strings.Contains(page, w) {
			t.Errorf("/rounds lacks %q", w)
		}
	}
	if code, page := o.post("/game/"+hash+"/void", url.Values{"reason": {"  "}}); code != 400 || !strings.Contains(page, "作廢要寫原因") || !strings.Contains(page, `href="/game/`+hash+`"`) {
		t.Errorf("a void without a reason: %d\n%s", code, page)
	}
	if code, _ := o.do(o.anon, "POST", "/game/"+hash+"/void", url.Values{"reason": {"x"}}); code != 401 {
		t.Errorf("void without a session: %d", code)
	}
	if len(o.d.Standings()) == 0 {
		t.Fatal("no standings before the void")
	}
	if code, _ := o.post("/game/"+hash+"/void", url.Values{"reason": {"裁判失誤，重賽"}}); code != 303 {
		t.Fatalf("void: %d", code)
	}
	if rows := o.d.Standings(); len(rows) != 0 {
		t.Errorf("standings after the only game was voided: %+v", rows)
	}
	_, page = o.get("/game/" + hash)
	if !strings.Contains(page, "本局已作廢") || !strings.Contains(page, "裁判失誤，重賽") || strings.Contains(page, `action="/game/`+hash+`/void"`) {
		t.Errorf("the voided game's page:\n%s", page)
	}
	if _, front := o.get("/"); !strings.Contains(front, "已作廢：裁判失誤，重賽") {
		t.Errorf("the front page does not mark the voided game")
	}
	if _, csv := o.get("/games.csv"); !strings.HasPrefix(csv, "\ufeff桌,輪次,") || !strings.Contains(csv, ",裁判失誤，重賽\r\n") && !strings.Contains(csv, ",裁判失誤，重賽\n") {
		t.Errorf("games.csv:\n%s", csv)
	}
	if _, csv := o.get("/standings.csv"); !strings.HasPrefix(csv, "\ufeff名次,選手編號,選手,積分") {
		t.Errorf("standings.csv:\n%s", csv)
	}
	if code, _ := o.post("/rounds/1/close", nil); code != 303 || o.d.Store.Rounds()[0].Open() {
		t.Fatalf("close: %d", code)
	}
	if _, page := o.get("/rounds"); !strings.Contains(page, "已結束") {
		t.Errorf("/rounds after close:\n%s", page)
	}
	log, _ := o.d.Store.LogEntries("")
	if len(log) != 3 {
		t.Errorf("the organiser's log: %+v", log)
	}
}

// TestRoundByHeardStart (issue 29 item 2): the desk places a game by when
// it heard the table start it: round 1 is open when T1's start event
// arrives, closed before its record does; the record's journal says a
// later time (a Pi's clock), yet the game is in round 1.
func TestRoundByHeardStart(t *testing.T) {
	data, cs := setup(t, 1)
	d := startDesk(t, data)
	defer d.Close()
	if _, err := d.Store.OpenRound([]string{"T1"}, 0); err != nil {
		t.Fatal(err)
	}
	p, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: cs[0], JournalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	p.Event(desk.KindStart, desk.Event{Game: "t12", Board: "seer-witch-hunter-idiot"})
	flush(t, p)
	waitFor(t, "the start event", func() bool { return len(d.Tables()[0].Events) == 1 })
	p.Close()
	if _, err := d.Store.CloseRound(1); err != nil {
		t.Fatal(err)
	}
	jdir := t.TempDir()
	desktest.Play(t, jdir, "seer-witch-hunter-idiot", 12, key(1), 0) // game t12, its journal dated 2026-12-06 02:00 CST
	p2, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: cs[0], JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	flush(t, p2)
	waitFor(t, "the record", func() bool { return len(d.Store.Games())+len(d.Store.Late()) == 1 })
	if g := d.Store.Games(); len(g) != 1 || g[0].Round != 1 {
		t.Fatalf("the game heard starting in round 1: %+v late %+v", g, d.Store.Late())
	}
}

// TestReadmitButton (issue 29 item 8): the refused record of a table
// registered with the wrong key is listed with a 重新收錄 button for the
// operator; after the right key is registered the button stores it and
// leads to its page, and the list says it was readmitted.
func TestReadmitButton(t *testing.T) {
	data := t.TempDir()
	if _, err := desk.AddTable(data, "T1", key(9).Public().(ed25519.PublicKey), ""); err != nil {
		t.Fatal(err)
	}
	o := newOpClient(t, data)
	path := desktest.Play(t, t.TempDir(), "seer-witch-hunter-idiot", 13, key(1), 0)
	b, _ := os.ReadFile(path)
	if out, _ := o.d.Store.Ingest(desk.Subject("T1", desk.KindRecord), "", filepath.Base(path), b); out != desk.Refused {
		t.Fatalf("ingest: %v", out)
	}
	dg := o.d.Store.Refused()[0].Digest
	if _, page := o.get("/"); !strings.Contains(page, `action="/refused/`+dg+`/readmit"`) {
		t.Fatalf("no readmit button:\n%s", page)
	}
	if code, page := o.post("/refused/"+dg+"/readmit", nil); code != 400 || !strings.Contains(page, "仍然無法收錄") {
		t.Errorf("readmit under the wrong key: %d", code)
	}
	if _, err := desk.RekeyTable(data, "T1", key(1).Public().(ed25519.PublicKey)); err != nil {
		t.Fatal(err)
	}
	if code, _ := o.do(o.anon, "POST", "/refused/"+dg+"/readmit", nil); code != 401 {
		t.Errorf("readmit without a session: %d", code)
	}
	if code, _ := o.post("/refused/"+dg+"/readmit", nil); code != 303 || len(o.d.Store.Games()) != 1 {
		t.Fatalf("readmit: %d, %d games", code, len(o.d.Store.Games()))
	}
	if _, page := o.get("/"); !strings.Contains(page, "已重新收錄") {
		t.Errorf("the list does not say readmitted")
	}
}

// TestPlanPage (issue 29 item 4): the logged-in operator has round 1's
// plan made on its page, swaps two players and locks it; the page is a
// sheet per table with every player by seat; a locked plan refuses a
// swap with a way back; without the login nothing changes.
func TestPlanPage(t *testing.T) {
	data, _ := setup(t, 2)
	csv := ""
	for i := 1; i <= 16; i++ {
		csv += "P" + strconv.Itoa(100+i) + ",選手" + strconv.Itoa(i) + ",俱樂部,\n"
	}
	if _, _, err := desk.ImportPlayers(data, []byte(csv)); err != nil {
		t.Fatal(err)
	}
	o := newOpClient(t, data)
	if _, err := o.d.Store.OpenRound([]string{"T1", "T2"}, 0); err != nil {
		t.Fatal(err)
	}
	if code, _ := o.do(o.anon, "POST", "/rounds/1/plan", url.Values{"do": {"propose"}}); code != 401 {
		t.Errorf("no session: %d", code)
	}
	if code, page := o.post("/rounds/1/plan", url.Values{"do": {"propose"}, "seats": {"8"}}); code != 303 {
		t.Fatalf("propose: %d %s", code, page)
	}
	plan := o.d.Store.Rounds()[0].Plan
	a, b := plan["T1"][0], plan["T2"][0]
	if code, _ := o.post("/rounds/1/plan", url.Values{"do": {"swap"}, "a": {a}, "b": {b}}); code != 303 || o.d.Store.Rounds()[0].Plan["T1"][0] != b {
		t.Fatalf("swap: %d", code)
	}
	if code, _ := o.post("/rounds/1/plan", url.Values{"do": {"lock"}}); code != 303 || !o.d.Store.Rounds()[0].Locked {
		t.Fatalf("lock: %d", code)
	}
	if code, page := o.post("/rounds/1/plan", url.Values{"do": {"swap"}, "a": {a}, "b": {b}}); code != 400 || !strings.Contains(page, "已鎖定") || !strings.Contains(page, `href="/rounds/1/plan"`) {
		t.Errorf("a swap of a locked plan: %d\n%s", code, page)
	}
	_, page := o.do(o.anon, "GET", "/rounds/1/plan", nil)
	if n := strings.Count(page, `<section class="sheet">`); n != 2 {
		t.Errorf("%d sheets, want 2", n)
	}
	for i := 1; i <= 16; i++ {
		if !strings.Contains(page, "<td>選手"+strconv.Itoa(i)+"</td>") {
			t.Errorf("the sheets lack 選手%d", i)
		}
	}
	if strings.Contains(page, "csrf") {
		t.Error("the public sheet has the operator's forms")
	}
}

// TestLateDecisionOnGamePage (issue 29 item 2): a late game's page has
// the operator's decision with a reason (the front page reloads every 5
// s: no place to type one); the decision leads back to the game's page,
// which then says what was decided and why.
func TestLateDecisionOnGamePage(t *testing.T) {
	data, _ := setup(t, 1)
	o := newOpClient(t, data)
	if _, err := o.d.Store.OpenRound([]string{"T1"}, 1); err != nil {
		t.Fatal(err)
	}
	jdir := t.TempDir()
	for _, seed := range []uint64{21, 22} {
		b, _ := os.ReadFile(desktest.Play(t, jdir, "seer-witch-hunter-idiot", seed, key(1), 0))
		if _, err := o.d.Store.Ingest(desk.Subject("T1", desk.KindRecord), "", "x.wtj", b); err != nil {
			t.Fatal(err)
		}
	}
	late := o.d.Store.Late()
	if len(late) != 1 {
		t.Fatalf("late: %+v", late)
	}
	h := late[0].Hash
	_, page := o.get("/game/" + h)
	if !strings.Contains(page, `action="/game/`+h+`/decide"`) || !strings.Contains(page, `name="note"`) {
		t.Fatalf("no decision form on the late game's page:\n%s", page)
	}
	code, _ := o.post("/game/"+h+"/decide", url.Values{"decision": {"set_aside"}, "note": {"練習局"}, "back": {"game"}})
	if code != 303 {
		t.Fatalf("decide: %d", code)
	}
	_, page = o.get("/game/" + h)
	if !strings.Contains(page, "總台已擱置，不計分（練習局）") {
		t.Errorf("the game's page after the decision:\n%s", page)
	}
}
