package deskserver

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

// TestTournamentDay (issue 29's acceptance, but for the seat draw at the
// table, item 3): 16 registered players, two tables of eight, three
// rounds of two games, each round's plan proposed from the rounds before
// and locked; in round 2 the desk is restarted after the first games,
// a game is voided and the table's extra game counted in its place; one
// player's third warning is a deduction; a player disqualified after
// round 2 is left out of round 3's plan (a reserve takes the seat). The
// standings name every player, count what each played, and equal the
// standings recomputed from the signed records and the desk's decisions
// (after a restart too).
func TestTournamentDay(t *testing.T) {
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
	start := func() *Desk {
		d, err := Start(Options{Data: data, NATS: "127.0.0.1:0", HTTP: "127.0.0.1:0", Pack: pack})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := start()
	defer func() { d.Close() }()
	seed := uint64(300)
	play := func(table int, games int) {
		t.Helper()
		jdir := t.TempDir()
		for range games {
			seed++
			desktest.Play(t, jdir, "cupid-8-001", seed, key(byte(table)), 0)
		}
		p, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: cs[table-1], JournalDir: jdir})
		if err != nil {
			t.Fatal(err)
		}
		flush(t, p)
		p.Close()
	}
	total := 0
	waitAll := func(n int) {
		t.Helper()
		total += n
		stored := func() int {
			all := map[string]bool{}
			for _, g := range append(d.Store.Games(), d.Store.Late()...) {
				all[g.Hash] = true
			}
			return len(all)
		}
		for end := time.Now().Add(30 * time.Second); stored() != total; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("%d records, want %d; refused %+v", stored(), total, d.Store.Refused())
			}
		}
	}
	plan := func(n int) map[string][]string {
		t.Helper()
		if _, err := d.Store.OpenRound([]string{"T1", "T2"}, 2); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Store.ProposeRoundPlan(n, 8); err != nil {
			t.Fatal(err)
		}
		r, err := d.Store.LockPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		return r.Plan
	}
	played := map[string]int{} // what each player played, counted by the test from the plans
	credit := func(p map[string][]string, table string, games int) {
		for _, id := range p[table] {
			played[id] += games
		}
	}

	// round 1
	p1 := plan(1)
	play(1, 2)
	play(2, 2)
	waitAll(4)
	credit(p1, "T1", 2)
	credit(p1, "T2", 2)
	if _, err := d.Store.CloseRound(1); err != nil {
		t.Fatal(err)
	}

	// round 2: a restart after the first games, a void and its replay
	pairs1, _ := desk.History(d.Store.Games())
	p2 := plan(2)
	// eight players from two tables of eight: at best four and four, 2×6 pairs a table
	// meet again, each pair having met in round 1's two games: 2×2×6×2 = 48
	if got := desk.PlanCost(p2, pairs1); got != 48 {
		t.Errorf("round 2's plan: %d repeated meetings, the least possible is 48", got)
	}
	play(1, 1)
	play(2, 1)
	waitAll(2)
	d.Close()
	d = start()
	play(1, 2) // T1's second game, and one more: the replay
	play(2, 1)
	waitAll(3)
	var t1 []desk.Game
	for _, g := range d.Store.Games() {
		if g.Round == 2 && g.Table == "T1" {
			t1 = append(t1, g)
		}
	}
	late := d.Store.Late()
	if len(t1) != 2 || len(late) != 1 || !strings.Contains(late[0].Late, "多出來的一局") {
		t.Fatalf("round 2 at T1: %d games counted, late %+v", len(t1), late)
	}
	if _, err := d.Store.Void(t1[0].Hash, "裁判叫錯夜間順序"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Store.DecideNote(late[0].Hash, true, 2, "重賽"); err != nil {
		t.Fatal(err)
	}
	credit(p2, "T1", 2)
	credit(p2, "T2", 2)
	if _, err := d.Store.CloseRound(2); err != nil {
		t.Fatal(err)
	}

	// discipline: three warnings (the third a point off), a disqualification, a reserve
	for _, why := range []string{"發言超時", "場外交流", "再次超時"} {
		if _, err := d.Store.Sanction("P01", desk.SanctionWarning, 0, why); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.Store.Sanction("P02", desk.SanctionDQ, 0, "糾紛雙方取消資格"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := desk.ImportPlayers(data, []byte("P17,候補選手,,\n")); err != nil {
		t.Fatal(err)
	}

	// round 3
	p3 := plan(3)
	for _, ps := range p3 {
		for _, id := range ps {
			if id == "P02" {
				t.Fatal("the disqualified player is in round 3's plan")
			}
		}
	}
	play(1, 2)
	play(2, 2)
	waitAll(4)
	credit(p3, "T1", 2)
	credit(p3, "T2", 2)
	if _, err := d.Store.CloseRound(3); err != nil {
		t.Fatal(err)
	}

	check := func(when string) {
		t.Helper()
		rows := d.Standings()
		if len(rows) != 17 {
			t.Fatalf("%s: %d rows, want 17", when, len(rows))
		}
		for _, r := range rows {
			if !strings.HasPrefix(r.Player, "選手") && r.Player != "候補選手" {
				t.Errorf("%s: a row not named by the registry: %+v", when, r)
			}
			if r.Games != played[r.PlayerID] {
				t.Errorf("%s: %s played %d games, the standings count %d", when, r.Player, played[r.PlayerID], r.Games)
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
		re, err := d.Store.Recompute()
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]string{}
		ps, _ := d.Store.Players()
		for _, p := range ps {
			names[p.ID] = p.Name
		}
		if again := desk.StandingsWith(pack, re, d.Store.Sanctions(), names); !reflect.DeepEqual(again, rows) {
			t.Fatalf("%s: the recomputed standings differ:\n%+v\n%+v", when, again, rows)
		}
	}
	check("at the end of the day")
	log, _ := d.Store.LogEntries("")
	if len(log) < 3*4+2+4 { // 3 rounds × (open, plan, lock, close), void and decision, 4 sanctions
		t.Errorf("the organiser's log has %d entries", len(log))
	}
	d.Close()
	d = start()
	check("after a restart")
}
