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
	d := newRoundsDesk(t)
	roundsFirst(t, d)
	roundsSecond(t, d)
	roundsVoid(t, d)
	roundsReopen(t, d)
}

// roundsDesk is TestRounds's desk: its store, its clock (now, in CST)
// and the hash of each game ingested, by seed.
type roundsDesk struct {
	data   string
	cst    *time.Location
	now    time.Time
	s      *desk.Store
	jdir   string
	hashes map[uint64]string
}

func newRoundsDesk(t *testing.T) *roundsDesk {
	cst := time.FixedZone("CST", 8*3600)
	d := &roundsDesk{data: registered(t), cst: cst, now: time.Date(2026, 12, 5, 13, 0, 0, 0, cst),
		jdir: t.TempDir(), hashes: map[uint64]string{}}
	d.s = d.open(t)
	return d
}

// open opens the desk's store on its clock.
func (d *roundsDesk) open(t *testing.T) *desk.Store {
	t.Helper()
	s, err := desk.OpenStore(d.data, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Now = func() time.Time { return d.now }
	return s
}

// ingest plays the game of seed signed by table's key and stores it.
func (d *roundsDesk) ingest(t *testing.T, table string, seed uint64) {
	t.Helper()
	k := key(1)
	if table == "T2" {
		k = key(2)
	}
	p := desktest.Play(t, d.jdir, "seer-witch-hunter-idiot", seed, k, 0)
	b, _ := os.ReadFile(p)
	if out, err := d.s.Ingest(desk.Subject(table, desk.KindRecord), "", filepath.Base(p), b); out != desk.Stored || err != nil {
		t.Fatalf("ingest %s %d: %v %v", table, seed, out, err)
	}
	for _, g := range append(d.s.Games(), d.s.Late()...) {
		if g.GameID == "t"+strconv.FormatUint(seed, 10) {
			d.hashes[seed] = g.Hash
		}
	}
}

// round is the round and the late flag of the game of seed.
func (d *roundsDesk) round(t *testing.T, seed uint64) (int, string) {
	t.Helper()
	g, ok := d.s.Game(d.hashes[seed])
	if !ok {
		t.Fatalf("game %d not stored", seed)
	}
	return g.Round, g.Late
}

// roundsFirst: round 1 for T1 (two games), never with an unregistered
// table nor T1 twice; T1's third game is extra, T2's outside any round.
func roundsFirst(t *testing.T, d *roundsDesk) {
	s := d.s
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
	d.ingest(t, "T1", 1) // 15:00
	d.ingest(t, "T1", 2) // 16:00
	d.ingest(t, "T1", 3) // 17:00: a third game of a two-game round
	d.ingest(t, "T2", 4) // 18:00: T2 is in no round
	if n, late := d.round(t, 1); n != 1 || late != "" {
		t.Errorf("T1's first game: round %d, late %q", n, late)
	}
	if n, _ := d.round(t, 2); n != 1 {
		t.Errorf("T1's second game: round %d", n)
	}
	if n, late := d.round(t, 3); n != 0 || !strings.Contains(late, "多出來的一局") {
		t.Errorf("T1's third game: round %d, late %q", n, late)
	}
	if n, late := d.round(t, 4); n != 0 || !strings.Contains(late, "沒有進行中的輪次") {
		t.Errorf("T2's game outside any round: round %d, late %q", n, late)
	}
}

// roundsSecond: round 1 closed, round 2 (both tables, the default count)
// opened; the game the desk heard start in round 2 is in it.
func roundsSecond(t *testing.T, d *roundsDesk) {
	s := d.s
	d.now = time.Date(2026, 12, 5, 18, 30, 0, 0, d.cst)
	if _, err := s.CloseRound(1); err != nil {
		t.Fatal(err)
	}
	d.now = time.Date(2026, 12, 5, 20, 0, 0, 0, d.cst)
	r2, err := s.OpenRound([]string{"T2", "T1"}, 0)
	if err != nil || r2.N != 2 || r2.Games != desk.DefaultRoundGames {
		t.Fatalf("round 2: %+v %v", r2, err)
	}
	// seed 1005: the journal says 19:00 (between the rounds); the desk heard it start at 21:00
	if err := s.NoteStart("T1", "t1005", time.Date(2026, 12, 5, 21, 0, 0, 0, d.cst)); err != nil {
		t.Fatal(err)
	}
	d.ingest(t, "T1", 1005)
	if n, late := d.round(t, 1005); n != 2 {
		t.Errorf("the game the desk heard start in round 2: round %d, late %q", n, late)
	}
}

// t1Games is how many games T1/1 has in st's standings under the default pack.
func t1Games(t *testing.T, st *desk.Store) int {
	t.Helper()
	pack, err := desk.LoadPack("default")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range desk.Standings(pack, st.Games()) {
		if r.Player == "T1/1" {
			return r.Games
		}
	}
	return -1
}

// roundsVoid: a judge's error. Game 2 is voided (never without a reason),
// the extra game 3 replaces it in round 1 (not before: the round is
// full), T2's early game goes to round 2; the voided game stays listed
// and leaves the standings, and the organiser's log says it all.
func roundsVoid(t *testing.T, d *roundsDesk) {
	s := d.s
	if _, err := s.Void(d.hashes[2], ""); err == nil {
		t.Error("a void without a reason")
	}
	if _, err := s.Decide(d.hashes[3], true, 1); err == nil {
		t.Error("a third game accepted into a full two-game round")
	}
	if _, err := s.Void(d.hashes[2], "裁判發錯牌，重賽"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DecideNote(d.hashes[3], true, 1, "第 2 局的重賽"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DecideNote(d.hashes[4], true, 2, "T2 提早開局"); err != nil {
		t.Fatal(err)
	}
	if n := t1Games(t, s); n != 3 { // games 1, 3 and 1005; 2 voided
		t.Errorf("T1/1 has %d games in the standings, want 3 (the voided game left out)", n)
	}
	if g, _ := s.Game(d.hashes[2]); g.Void != "裁判發錯牌，重賽" || g.Round != 1 {
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
}

// roundsReopen: the rounds, the decisions and the starts survive a
// reopen, and Recompute gives the same games.
func roundsReopen(t *testing.T, d *roundsDesk) {
	s := d.open(t)
	if rs := s.Rounds(); len(rs) != 2 || rs[0].Open() || !rs[1].Open() {
		t.Errorf("rounds reopened: %+v", rs)
	}
	if n := t1Games(t, s); n != 3 {
		t.Errorf("reopened: T1/1 has %d games", n)
	}
	re, err := s.Recompute()
	if err != nil || js(re) != js(s.Games()) {
		t.Fatalf("recompute: %v\n%s\n%s", err, js(re), js(s.Games()))
	}
	if err := s.NoteStart("T1", "t1005", d.now); err != nil { // heard again: the first start stays
		t.Fatal(err)
	}
	if c := s.RoundCount(2); c["T1"] != 1 || c["T2"] != 1 {
		t.Errorf("round 2's counts: %v", c)
	}
}
