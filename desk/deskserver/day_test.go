package deskserver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"wolftable/desk"
	"wolftable/desk/desktest"
	"wolftable/journal"
)

// TestTournamentDay (issue 29's acceptance): 16 registered players, two
// tables of eight, three rounds of two games, each round's plan proposed
// from the rounds before and locked, each game's seats drawn anew at the
// table and signed in its journal (the desk credits each seat by the
// draw: checkDraws); in round 2 the desk is restarted after the first games,
// a game is voided and the table's extra game counted in its place; one
// player's third warning is a deduction; a player disqualified after
// round 2 is left out of round 3's plan (a reserve takes the seat). The
// standings name every player, count what each played, and equal the
// standings recomputed from the signed records and the desk's decisions
// (after a restart too).
func TestTournamentDay(t *testing.T) {
	day := newTournamentDay(t)
	day.round1(t)
	day.round2(t)
	day.discipline(t)
	day.round3(t)
	day.check(t, "at the end of the day")
	log, _ := day.d.Store.LogEntries("")
	if len(log) < 3*4+2+4 { // 3 rounds × (open, plan, lock, close), void and decision, 4 sanctions
		t.Errorf("the organiser's log has %d entries", len(log))
	}
	day.d.Close()
	day.d = day.start(t)
	day.check(t, "after a restart")
}

// tournamentDay is TestTournamentDay's desk and what the test counts:
// the records sent (total) and what each player played, from the plans.
type tournamentDay struct {
	data   string
	cs     []desk.Creds
	pack   *desk.Pack
	d      *Desk
	seed   uint64
	total  int
	played map[string]int
	// locked is the open round's locked plan; draws the seat draw of every
	// game played, by game id, as the table signed it.
	locked map[string][]string
	draws  map[string][]journal.Drawn
}

func newTournamentDay(t *testing.T) *tournamentDay {
	data, cs := setup(t, 2)
	var csv strings.Builder
	csv.WriteString("\ufeff編號,名字,俱樂部,暱稱\r\n")
	for i := 1; i <= 16; i++ {
		fmt.Fprintf(&csv, "P%02d,選手%02d,,\r\n", i, i)
	}
	if _, _, err := desk.ImportPlayers(data, []byte(csv.String())); err != nil {
		t.Fatal(err)
	}
	pack, err := desk.ParsePack([]byte("name = \"day\"\nversion = 1\nmvp = 1\nwarnings_per_deduction = 3\nwarning_deduction = 1\n[win]\ngood = 3\nwolf = 3\nthird = 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	day := &tournamentDay{data: data, cs: cs, pack: pack, seed: 300, played: map[string]int{}, draws: map[string][]journal.Drawn{}}
	day.d = day.start(t)
	t.Cleanup(func() { day.d.Close() })
	return day
}

func (day *tournamentDay) start(t *testing.T) *Desk {
	t.Helper()
	d, err := Start(Options{Data: day.data, NATS: "127.0.0.1:0", HTTP: "127.0.0.1:0", Pack: day.pack})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// play plays games at table and publishes them to the desk. Before each
// game the table draws its players' seats anew (the open round's plan
// names who sits at the table, the draw where), and the draw is signed
// in the journal's header.
func (day *tournamentDay) play(t *testing.T, table int, games int) {
	t.Helper()
	jdir := t.TempDir()
	ids := day.locked[fmt.Sprintf("T%d", table)]
	for range games {
		day.seed++
		r := rand.New(rand.NewPCG(day.seed, 29))
		draw := make([]journal.Drawn, len(ids))
		for i, k := range r.Perm(len(ids)) {
			draw[i] = journal.Drawn{Seat: i + 1, PlayerID: ids[k], Name: "名字以總台為準"}
		}
		day.draws[fmt.Sprintf("t%d", day.seed)] = draw
		desktest.PlayDrawn(t, jdir, "cupid-8-001", day.seed, key(byte(table)), 0, draw)
	}
	publish(t, day.d, day.cs[table-1], jdir)
}

// publish sends the journals in jdir to the desk and returns once the
// desk has said of each that it stored or refused it (the publisher's
// outbox is empty). The wait is bounded by progress: it fails only when
// a whole confirmation window passes without one record confirmed.
func publish(t *testing.T, d *Desk, c desk.Creds, jdir string) {
	t.Helper()
	p, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: c, JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	left := func() int { l, _ := desk.Outbox(jdir); return len(l) }
	for before := left(); ; {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err := p.Flush(ctx)
		cancel()
		if err == nil {
			return
		}
		now := left()
		if now >= before {
			t.Fatalf("no record confirmed by the desk in a whole window (%d left): %v", now, err)
		}
		before = now
	}
}

// waitAll checks that the desk stores n more records: play returned once
// the desk confirmed each, so they are stored (or refused) already.
func (day *tournamentDay) waitAll(t *testing.T, n int) {
	t.Helper()
	day.total += n
	all := map[string]bool{}
	for _, g := range append(day.d.Store.Games(), day.d.Store.Late()...) {
		all[g.Hash] = true
	}
	if len(all) != day.total {
		t.Fatalf("%d records, want %d; refused %+v", len(all), day.total, day.d.Store.Refused())
	}
}

// plan opens round n for both tables, proposes its plan and locks it.
func (day *tournamentDay) plan(t *testing.T, n int) map[string][]string {
	t.Helper()
	if _, err := day.d.Store.OpenRound([]string{"T1", "T2"}, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := day.d.Store.ProposeRoundPlan(n, 8); err != nil {
		t.Fatal(err)
	}
	r, err := day.d.Store.LockPlan(n)
	if err != nil {
		t.Fatal(err)
	}
	day.locked = r.Plan
	return r.Plan
}

// credit counts games for each player of table in plan p.
func (day *tournamentDay) credit(p map[string][]string, table string, games int) {
	for _, id := range p[table] {
		day.played[id] += games
	}
}

func (day *tournamentDay) round1(t *testing.T) {
	p1 := day.plan(t, 1)
	day.play(t, 1, 2)
	day.play(t, 2, 2)
	day.waitAll(t, 4)
	day.credit(p1, "T1", 2)
	day.credit(p1, "T2", 2)
	if _, err := day.d.Store.CloseRound(1); err != nil {
		t.Fatal(err)
	}
}

// round2: a restart after the first games, a void and its replay.
func (day *tournamentDay) round2(t *testing.T) {
	pairs1, _ := desk.History(day.d.Store.Games())
	p2 := day.plan(t, 2)
	// eight players from two tables of eight: at best four and four, 2×6 pairs a table
	// meet again, each pair having met in round 1's two games: 2×2×6×2 = 48
	if got := desk.PlanCost(p2, pairs1); got != 48 {
		t.Errorf("round 2's plan: %d repeated meetings, the least possible is 48", got)
	}
	day.play(t, 1, 1)
	day.play(t, 2, 1)
	day.waitAll(t, 2)
	day.d.Close()
	day.d = day.start(t)
	day.play(t, 1, 2) // T1's second game, and one more: the replay
	day.play(t, 2, 1)
	day.waitAll(t, 3)
	var t1 []desk.Game
	for _, g := range day.d.Store.Games() {
		if g.Round == 2 && g.Table == "T1" {
			t1 = append(t1, g)
		}
	}
	late := day.d.Store.Late()
	if len(t1) != 2 || len(late) != 1 || !strings.Contains(late[0].Late, "多出來的一局") {
		t.Fatalf("round 2 at T1: %d games counted, late %+v", len(t1), late)
	}
	if _, err := day.d.Store.Void(t1[0].Hash, "裁判叫錯夜間順序"); err != nil {
		t.Fatal(err)
	}
	if _, err := day.d.Store.DecideNote(late[0].Hash, true, 2, "重賽"); err != nil {
		t.Fatal(err)
	}
	day.credit(p2, "T1", 2)
	day.credit(p2, "T2", 2)
	if _, err := day.d.Store.CloseRound(2); err != nil {
		t.Fatal(err)
	}
}

// discipline: three warnings (the third a point off), a disqualification, a reserve.
func (day *tournamentDay) discipline(t *testing.T) {
	for _, why := range []string{"發言超時", "場外交流", "再次超時"} {
		if _, err := day.d.Store.Sanction("P01", desk.SanctionWarning, 0, why); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := day.d.Store.Sanction("P02", desk.SanctionDQ, 0, "糾紛雙方取消資格"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := desk.ImportPlayers(day.data, []byte("P17,候補選手,,\n")); err != nil {
		t.Fatal(err)
	}
}

func (day *tournamentDay) round3(t *testing.T) {
	p3 := day.plan(t, 3)
	for _, ps := range p3 {
		for _, id := range ps {
			if id == "P02" {
				t.Fatal("the disqualified player is in round 3's plan")
			}
		}
	}
	day.play(t, 1, 2)
	day.play(t, 2, 2)
	day.waitAll(t, 4)
	day.credit(p3, "T1", 2)
	day.credit(p3, "T2", 2)
	if _, err := day.d.Store.CloseRound(3); err != nil {
		t.Fatal(err)
	}
}

// check: the standings name every player by the registry, count what
// each played, carry P01's deduction and P02's disqualification, and
// equal the standings recomputed from the records and the sanctions.
func (day *tournamentDay) check(t *testing.T, when string) {
	t.Helper()
	rows := day.d.Standings()
	if len(rows) != 17 {
		t.Fatalf("%s: %d rows, want 17", when, len(rows))
	}
	for _, r := range rows {
		if !strings.HasPrefix(r.Player, "選手") && r.Player != "候補選手" {
			t.Errorf("%s: a row not named by the registry: %+v", when, r)
		}
		if r.Games != day.played[r.PlayerID] {
			t.Errorf("%s: %s played %d games, the standings count %d", when, r.Player, day.played[r.PlayerID], r.Games)
		}
		switch r.PlayerID {
		case "P01":
			if r.Warnings != 3 || r.Penalty != 1 {
				t.Errorf("%s: P01 %+v, want 3 warnings and 1 point off", when, r)
			}
		case "P02":
			if !r.DQ || r.Rank != 0 || rows[len(rows)-1].PlayerID != "P02" {
				t.Errorf("%s: P02 %+v, want disqualified, last, no rank", when, r)
			}
		}
	}
	day.checkDraws(t, when)
	re, err := day.d.Store.Recompute()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	ps, _ := day.d.Store.Players()
	for _, p := range ps {
		names[p.ID] = p.Name
	}
	if again := desk.StandingsWith(day.pack, re, day.d.Store.Sanctions(), names); !reflect.DeepEqual(again, rows) {
		t.Fatalf("%s: the recomputed standings differ:\n%+v\n%+v", when, again, rows)
	}
}

// checkDraws: every game the desk counts credits each seat to the player
// the table's signed draw seated there (not the plan's order), by the
// registry's name.
func (day *tournamentDay) checkDraws(t *testing.T, when string) {
	t.Helper()
	games := day.d.Store.Games()
	if len(games) == 0 {
		t.Fatalf("%s: no game counted", when)
	}
	moved := 0
	for _, g := range games {
		draw, ok := day.draws[g.GameID]
		if !ok || len(draw) != len(g.Seats) {
			t.Fatalf("%s: game %s (%s) was not drawn by the test: %d seats", when, g.GameID, g.Table, len(g.Seats))
		}
		for i, st := range g.Seats {
			if st.PlayerID != draw[i].PlayerID || !strings.HasPrefix(st.Player, "選手") && st.Player != "候補選手" {
				t.Errorf("%s: %s seat %d credited to %s (%s), the signed draw seats %s there", when, g.GameID, st.Seat, st.PlayerID, st.Player, draw[i].PlayerID)
			}
			if plan := day.planAt(g, i); plan != draw[i].PlayerID {
				moved++
			}
		}
	}
	if moved == 0 {
		t.Fatalf("%s: every draw equals the plan's order: the draw is not tested", when)
	}
}

// planAt is the player the round's locked plan puts at seat i+1 of g's table.
func (day *tournamentDay) planAt(g desk.Game, i int) string {
	for _, r := range day.d.Store.Rounds() {
		if r.N == g.Round && i < len(r.Plan[g.Table]) {
			return r.Plan[g.Table][i]
		}
	}
	return ""
}
