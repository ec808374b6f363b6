package deskserver

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

// TestTournamentRound (issue 29 items 1 and 2, end to end through the
// broker): 24 registered players (Excel's CSV), two tables seated by
// players.csv, round 1 of two games a table opened; the tables send their
// games; the desk is restarted mid-round; T1 then plays a third game
// (flagged as extra), T1's first game is voided for a judge's error and
// the extra game counted in its place; round 1 closed. The standings name
// every player, count each player's two games, and equal the standings
// recomputed from the signed records, the desk's log of decisions
// applied — after a second restart too.
func TestTournamentRound(t *testing.T) {
	data, cs := setup(t, 2)
	registerSeated(t, data, 24)
	d := startDesk(t, data)
	defer func() { d.Close() }()
	if _, err := d.Store.OpenRound([]string{"T1", "T2"}, 2); err != nil {
		t.Fatal(err)
	}
	send := func(table int, seeds ...uint64) {
		t.Helper()
		jdir := t.TempDir()
		for _, seed := range seeds {
			desktest.Play(t, jdir, "seer-witch-hunter-idiot", seed, key(byte(table)), 0)
		}
		p, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: cs[table-1], JournalDir: jdir})
		if err != nil {
			t.Fatal(err)
		}
		flush(t, p)
		p.Close()
	}
	stored := func() int { return len(d.Store.Games()) + len(d.Store.Late()) }
	send(1, 101, 102)
	send(2, 201)
	waitFor(t, "three records", func() bool { return stored() == 3 })
	d.Close()
	d = startDesk(t, data) // mid-round
	send(2, 202)
	send(1, 103)
	waitFor(t, "five records", func() bool { return stored() == 5 })
	byID := map[string]desk.Game{}
	for _, g := range append(d.Store.Games(), d.Store.Late()...) {
		byID[g.GameID] = g
	}
	if g := byID["t103"]; g.Round != 0 || !strings.Contains(g.Late, "多出來的一局") {
		t.Fatalf("T1's third game of a two-game round: %+v", g)
	}
	for _, id := range []string{"t101", "t102", "t201", "t202"} {
		if byID[id].Round != 1 {
			t.Errorf("game %s: round %d", id, byID[id].Round)
		}
	}
	if _, err := d.Store.Void(byID["t101"].Hash, "裁判叫錯夜間順序，重賽"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Store.DecideNote(byID["t103"].Hash, true, 1, "t101 的重賽"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Store.CloseRound(1); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		rows := d.Standings()
		if len(rows) != 24 {
			t.Fatalf("%s: %d rows, want 24 players", when, len(rows))
		}
		for _, r := range rows {
			if !strings.HasPrefix(r.Player, "選手") || r.PlayerID == "" || r.Games != 2 {
				t.Errorf("%s: row %+v (want a registered name, two games)", when, r)
			}
		}
		re, err := d.Store.Recompute()
		if err != nil {
			t.Fatal(err)
		}
		if again := desk.Standings(d.pack, re); !reflect.DeepEqual(again, rows) {
			t.Fatalf("%s: the recomputed standings differ:\n%+v\n%+v", when, again, rows)
		}
	}
	check("after the round")
	d.Close()
	d = startDesk(t, data)
	check("after a restart")
}

// registerSeated imports n players (P01…, 選手01…) into the registry of
// data and seats them 12 a table in players.csv, T1 first.
func registerSeated(t *testing.T, data string, n int) {
	t.Helper()
	var csv, seats strings.Builder
	csv.WriteString("\ufeff編號,名字,俱樂部,暱稱\r\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&csv, "P%02d,選手%02d,俱樂部%d,\r\n", i, i, i%3)
		fmt.Fprintf(&seats, "T%d,%d,P%02d\r\n", 1+(i-1)/12, 1+(i-1)%12, i)
	}
	if _, _, err := desk.ImportPlayers(data, []byte(csv.String())); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(data, "players.csv"), []byte(seats.String()), 0o644)
}
