package desk_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

// TestDiscipline (issue 29 item 5): under a pack where every third
// warning is a point off, a player's third warning takes a point, a
// desk deduction takes its points, a disqualified player keeps his games
// for the others and is ranked after everyone without a rank; a revoked
// sanction counts for nothing; the sanctions survive a reopen; a
// sanction needs a registered player and a reason.
func TestDiscipline(t *testing.T) {
	d := newDisciplineDesk(t)
	disciplineWarnings(t, d)
	disciplineDeductionAndDQ(t, d)
	disciplineReopen(t, d)
}

// disciplineDesk is TestDiscipline's desk: twelve registered players at
// T1 (and PZ, who never plays), one game stored, a pack where every third
// warning takes two points.
type disciplineDesk struct {
	data string
	s    *desk.Store
	pack *desk.Pack
}

func newDisciplineDesk(t *testing.T) *disciplineDesk {
	t.Helper()
	data := registered(t)
	var csv, seats string
	for i := 1; i <= 12; i++ {
		csv += "P" + string(rune('A'+i-1)) + ",選手" + string(rune('A'+i-1)) + ",,\n"
		seats += "T1," + strconv.Itoa(i) + ",P" + string(rune('A'+i-1)) + "\n"
	}
	if _, _, err := desk.ImportPlayers(data, []byte(csv+"PZ,沒上場,,\n")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(data, "players.csv"), []byte(seats), 0o644)
	s, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(desktest.Play(t, t.TempDir(), "seer-witch-hunter-idiot", 7, key(1), 0))
	if _, err := s.Ingest(desk.Subject("T1", desk.KindRecord), "", "x.wtj", b); err != nil {
		t.Fatal(err)
	}
	pack, err := desk.ParsePack([]byte("name = \"w\"\nversion = 1\nwarnings_per_deduction = 3\nwarning_deduction = 2\n[win]\ngood = 3\nwolf = 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	return &disciplineDesk{data: data, s: s, pack: pack}
}

// row is player id's row of st's standings under the desk's pack.
func (d *disciplineDesk) row(t *testing.T, st *desk.Store, id string) desk.Row {
	t.Helper()
	for _, r := range st.Standings(d.pack) {
		if r.PlayerID == id {
			return r
		}
	}
	t.Fatalf("no row of %s", id)
	return desk.Row{}
}

// disciplineWarnings: PA's two warnings cost nothing, the third two
// points, and its revoke gives them back; a warning needs a reason and a
// registered player.
func disciplineWarnings(t *testing.T, d *disciplineDesk) {
	s := d.s
	before := d.row(t, s, "PA").Points
	if _, err := s.Sanction("PA", desk.SanctionWarning, 0, ""); err == nil {
		t.Error("a warning without a reason")
	}
	if _, err := s.Sanction("NOPE", desk.SanctionWarning, 0, "x"); err == nil {
		t.Error("a warning of an unregistered player")
	}
	for i := range 2 {
		if _, err := s.Sanction("PA", desk.SanctionWarning, 0, "發言超時"); err != nil {
			t.Fatal(err)
		}
		if r := d.row(t, s, "PA"); r.Points != before || r.Warnings != i+1 {
			t.Fatalf("after warning %d: %+v (before %v)", i+1, r, before)
		}
	}
	third, err := s.Sanction("PA", desk.SanctionWarning, 0, "場外交流")
	if err != nil {
		t.Fatal(err)
	}
	if r := d.row(t, s, "PA"); r.Points != before-2 || r.Warnings != 3 || r.Penalty != 2 {
		t.Fatalf("after the third warning: %+v (want %v points)", r, before-2)
	}
	if _, err := s.Revoke(third.ID, "記錯人"); err != nil {
		t.Fatal(err)
	}
	if r := d.row(t, s, "PA"); r.Points != before || r.Warnings != 2 {
		t.Fatalf("after the revoke: %+v", r)
	}
}

// disciplineDeductionAndDQ: PB's deduction takes its points (never a
// negative one), PC's disqualification ranks him last without a rank and
// leaves PD's points, and PZ, warned, has a row without a game.
func disciplineDeductionAndDQ(t *testing.T, d *disciplineDesk) {
	s := d.s
	bBefore := d.row(t, s, "PB").Points
	if _, err := s.Sanction("PB", desk.SanctionDeduction, 1.5, "挑起糾紛"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sanction("PB", desk.SanctionDeduction, -1, "x"); err == nil {
		t.Error("a negative deduction")
	}
	if r := d.row(t, s, "PB"); r.Points != bBefore-1.5 {
		t.Fatalf("after the deduction: %+v", r)
	}
	cBefore, others := d.row(t, s, "PC"), d.row(t, s, "PD").Points
	if _, err := s.Sanction("PC", desk.SanctionDQ, 0, "糾紛雙方取消資格"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sanction("PC", desk.SanctionDQ, 0, "again"); err == nil {
		t.Error("disqualified twice")
	}
	rows := s.Standings(d.pack)
	if last := rows[len(rows)-1]; last.PlayerID != "PC" || !last.DQ || last.Rank != 0 || last.Games != cBefore.Games {
		t.Fatalf("the disqualified player: %+v", last)
	}
	if d.row(t, s, "PD").Points != others {
		t.Error("a disqualification changed another player's points")
	}
	if _, err := s.Sanction("PZ", desk.SanctionWarning, 0, "遲到"); err != nil {
		t.Fatal(err)
	}
	if r := d.row(t, s, "PZ"); r.Player != "沒上場" || r.Games != 0 || r.Warnings != 1 {
		t.Errorf("a warned player without a game: %+v", r)
	}
}

// disciplineReopen: the six sanctions and the standings survive a
// reopen, and the standings recomputed from the records and the
// sanctions are the same.
func disciplineReopen(t *testing.T, d *disciplineDesk) {
	s := d.s
	s2, err := desk.OpenStore(d.data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if js(s2.Standings(d.pack)) != js(s.Standings(d.pack)) || len(s2.Sanctions()) != 6 {
		t.Fatalf("reopened: %d sanctions", len(s2.Sanctions()))
	}
	re, _ := s2.Recompute()
	names := map[string]string{}
	ps, _ := s2.Players()
	for _, p := range ps {
		names[p.ID] = p.Name
	}
	if js(desk.StandingsWith(d.pack, re, s2.Sanctions(), names)) != js(s.Standings(d.pack)) {
		t.Fatal("the standings recomputed from the records and the sanctions differ")
	}
}
