package desk_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

// TestRounds (issue 29 item 2): the organiser opens round 1 for T1 (two
// games); T1's games of 15:00 and 16:00 are in it, its third game is
// flagged as extra, T2's game (T2 not in the round) as outside any round.
// Round 1 closed and round 2 opened for both tables: a game whose journal
// says it started between the rounds, but which the desk heard start in
// round 2 (a Pi's clock behind), is in round 2. A game voided with a
// reason stays listed, marked, and leaves the standings; the extra game
// then takes its place in round 1 (the replay); the decisions, rounds and
// starts survive a reopen, and Recompute gives the same games.
func TestRounds(t *testing.T) {
	data := registered(t)
	cst := time.FixedZone("CST", 8*3600)
	now := time.Date(2026, 12, 5, 13, 0, 0, 0, cst)
	open := func() *desk.Store {
		s, err := desk.OpenStore(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.Now = func() time.Time { return now }
		return s
	}
	s := open()
	jdir := t.TempDir()
	hashes := map[uint64]string{}
	ingest := func(table string, seed uint64) {
		t.Helper()
		k := key(1)
		if table == "T2" {
			k = key(2)
		}
		p := desktest.Play(t, jdir, "seer-witch-hunter-idiot", seed, k, 0)
		b, _ := os.ReadFile(p)
		if out, err := s.Ingest(desk.Subject(table, desk.KindRecord), "", filepath.Base(p), b); out != desk.Stored || err != nil {
			t.Fatalf("ingest %s %d: %v %v", table, seed, out, err)
		}
		for _, g := range append(s.Games(), s.Late()...) {
			if g.GameID == "t"+strconv.FormatUint(seed, 10) {
				hashes[seed] = g.Hash
			}
		}
	}
	round := func(seed uint64) (int, string) {
		g, ok := s.Game(hashes[seed])
		if !ok {
			t.Fatalf("game %d not stored", seed)
		}
		return g.Round, g.Late
	}
	if _, err := s.OpenRound([]string{"T1", "T9"}, 2); err == nil {
		t.Fatal("a round with a table never registered")
	}
	r1, err := s.OpenRound([]string{"T1"}, 2)
	if err != nil || r1.N != 1 || r1.Games != 2 {
		t.Fatalf("round 1: %+v %v", r1, err)
	}
	if _, err := s.OpenRound([]string{"T1", "T2"}, 0); err == nil {
		t.Fatal("T1 in two open rounds")
	}
	ingest("T1", 1) // 15:00
	ingest("T1", 2) // 16:00
	ingest("T1", 3) // 17:00: a third game of a two-game round
	ingest("T2", 4) // 18:00: T2 is in no round
	if n, late := round(1); n != 1 || late != "" {
		t.Errorf("T1's first game: round %d, late %q", n, late)
	}
	if n, _ := round(2); n != 1 {
		t.Errorf("T1's second game: round %d", n)
	}
	if n, late := round(3); n != 0 || !strings.Contains(late, "多出來的一局") {
		t.Errorf("T1's third game: round %d, late %q", n, late)
	}
	if n, late := round(4); n != 0 || !strings.Contains(late, "沒有進行中的輪次") {
		t.Errorf("T2's game outside any round: round %d, late %q", n, late)
	}
	now = time.Date(2026, 12, 5, 18, 30, 0, 0, cst)
	if _, err := s.CloseRound(1); err != nil {
		t.Fatal(err)
	}
	now = time.Date(2026, 12, 5, 20, 0, 0, 0, cst)
	r2, err := s.OpenRound([]string{"T2", "T1"}, 0)
	if err != nil || r2.N != 2 || r2.Games != desk.DefaultRoundGames {
		t.Fatalf("round 2: %+v %v", r2, err)
	}
	// seed 1005: the journal says 19:00 (between the rounds); the desk heard it start at 21:00
	if err := s.NoteStart("T1", "t1005", time.Date(2026, 12, 5, 21, 0, 0, 0, cst)); err != nil {
		t.Fatal(err)
	}
	ingest("T1", 1005)
	if n, late := round(1005); n != 2 {
		t.Errorf("the game the desk heard start in round 2: round %d, late %q", n, late)
	}
	// a judge's error: game 2 is voided, the extra game 3 replaces it
	if _, err := s.Void(hashes[2], ""); err == nil {
		t.Error("a void without a reason")
	}
	if _, err := s.Decide(hashes[3], true, 1); err == nil {
		t.Error("a third game accepted into a full two-game round")
	}
	if _, err := s.Void(hashes[2], "裁判發錯牌，重賽"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DecideNote(hashes[3], true, 1, "第 2 局的重賽"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DecideNote(hashes[4], true, 2, "T2 提早開局"); err != nil {
		t.Fatal(err)
	}
	pack, _ := desk.LoadPack("default")
	games := func(st *desk.Store) int {
		for _, r := range desk.Standings(pack, st.Games()) {
			if r.Player == "T1/1" {
				return r.Games
			}
		}
		return -1
	}
	if n := games(s); n != 3 { // games 1, 3 and 1005; 2 voided
		t.Errorf("T1/1 has %d games in the standings, want 3 (the voided game left out)", n)
	}
	if g, _ := s.Game(hashes[2]); g.Void != "裁判發錯牌，重賽" || g.Round != 1 {
		t.Errorf("the voided game: %+v", g)
	}
	log, _ := s.LogEntries("")
	var text []string
	for _, e := range log {
		text = append(text, e.Text)
	}
	all := strings.Join(text, "\n")
	for _, w := range []string{"開始第 1 輪：T1，每桌 2 局", "結束第 1 輪：T1 2／2 局", "開始第 2 輪：T1、T2，每桌 5 局", "裁判發錯牌，重賽", "第 2 局的重賽"} {
		if !strings.Contains(all, w) {
			t.Errorf("the organiser's log lacks %q:\n%s", w, all)
		}
	}
	s = open()
	if rs := s.Rounds(); len(rs) != 2 || rs[0].Open() || !rs[1].Open() {
		t.Errorf("rounds reopened: %+v", rs)
	}
	if n := games(s); n != 3 {
		t.Errorf("reopened: T1/1 has %d games", n)
	}
	re, err := s.Recompute()
	if err != nil || js(re) != js(s.Games()) {
		t.Fatalf("recompute: %v\n%s\n%s", err, js(re), js(s.Games()))
	}
	if err := s.NoteStart("T1", "t1005", now); err != nil { // heard again: the first start stays
		t.Fatal(err)
	}
	if c := s.RoundCount(2); c["T1"] != 1 || c["T2"] != 1 {
		t.Errorf("round 2's counts: %v", c)
	}
}
