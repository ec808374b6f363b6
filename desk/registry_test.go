package desk_test

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

// TestRekeyAndRemove (issue 29 item 8): after `table rekey` a record
// signed with the old key is refused and one with the new key taken; the
// games stored under the old key stay counted and Recompute still proves
// them; a key of another table is refused. After `table remove` no record
// of the table is taken, its games stay counted and proven, nothing of it
// is deleted, and the name can be registered again.
func TestRekeyAndRemove(t *testing.T) {
	data := registered(t)
	s, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	jdir := t.TempDir()
	ingest := func(seed uint64, k ed25519.PrivateKey) desk.Outcome {
		t.Helper()
		p := desktest.Play(t, jdir, "seer-witch-hunter-idiot", seed, k, 0)
		b, _ := os.ReadFile(p)
		out, err := s.Ingest(desk.Subject("T1", desk.KindRecord), "", filepath.Base(p), b)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if out := ingest(21, key(1)); out != desk.Stored {
		t.Fatalf("the first game: %v", out)
	}
	pub3 := key(3).Public().(ed25519.PublicKey)
	if _, err := desk.RekeyTable(data, "T1", pub3); err != nil {
		t.Fatal(err)
	}
	if out := ingest(22, key(1)); out != desk.Refused {
		t.Errorf("a record signed with the old key after rekey: %v", out)
	}
	if out := ingest(23, key(3)); out != desk.Stored {
		t.Errorf("a record signed with the new key: %v", out)
	}
	check := func(when string) {
		t.Helper()
		re, err := s.Recompute()
		if err != nil || len(re) != 2 || js(re) != js(s.Games()) {
			t.Fatalf("%s: recompute %v, %d games (%d counted)", when, err, len(re), len(s.Games()))
		}
	}
	check("after rekey")
	if _, err := desk.RekeyTable(data, "T1", key(2).Public().(ed25519.PublicKey)); err == nil || !strings.Contains(err.Error(), "T2") {
		t.Errorf("T2's key for T1: %v", err)
	}
	if _, err := desk.RekeyTable(data, "T9", pub3); err == nil {
		t.Error("rekey of a table never registered")
	}
	if err := desk.RemoveTable(data, "T1"); err != nil {
		t.Fatal(err)
	}
	ts, _ := desk.Tables(data)
	if len(ts) != 1 || ts[0].Name != "T2" {
		t.Fatalf("tables after remove: %+v", ts)
	}
	if out := ingest(24, key(3)); out != desk.Refused {
		t.Errorf("a record of a removed table: %v", out)
	}
	check("after remove")
	s2, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if re, err := s2.Recompute(); err != nil || len(re) != 2 {
		t.Fatalf("reopened: %v %d", err, len(re))
	}
	if m, _ := filepath.Glob(filepath.Join(desk.TablesDir(data), "removed", "T1.*.creds")); len(m) != 1 {
		t.Errorf("the removed table's credentials: %v", m)
	}
	if _, err := desk.AddTable(data, "T1", pub3, ""); err != nil {
		t.Errorf("T1 registered again: %v", err)
	}
}

// TestReadmitAfterRekey (issue 29 item 8): a table registered with the
// wrong key has its record refused (and kept); re-admitting it fails
// until the right key is registered, then stores and counts it, marks it
// in the refused list (kept across a reopen) and refuses a second try.
func TestReadmitAfterRekey(t *testing.T) {
	data := t.TempDir()
	if _, err := desk.AddTable(data, "T1", key(9).Public().(ed25519.PublicKey), ""); err != nil {
		t.Fatal(err)
	}
	s, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := desktest.Play(t, t.TempDir(), "seer-witch-hunter-idiot", 41, key(1), 0)
	b, _ := os.ReadFile(p)
	if out, err := s.Ingest(desk.Subject("T1", desk.KindRecord), "", filepath.Base(p), b); out != desk.Refused || err != nil {
		t.Fatalf("the record under the wrong key: %v %v", out, err)
	}
	ref := s.Refused()
	if len(ref) != 1 || !ref[0].Kept {
		t.Fatalf("refused: %+v", ref)
	}
	if _, err := s.Readmit(ref[0].Digest); err == nil || !strings.Contains(err.Error(), "仍然無法收錄") {
		t.Fatalf("readmit under the wrong key: %v", err)
	}
	if _, err := desk.RekeyTable(data, "T1", key(1).Public().(ed25519.PublicKey)); err != nil {
		t.Fatal(err)
	}
	g, err := s.Readmit(ref[0].Digest)
	if err != nil || g.Table != "T1" || g.Round != 1 {
		t.Fatalf("readmit after rekey: %+v %v", g, err)
	}
	if len(s.Games()) != 1 {
		t.Fatalf("games: %d", len(s.Games()))
	}
	if _, err := s.Readmit(ref[0].Digest); err == nil {
		t.Error("readmitted twice")
	}
	s2, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := s2.Refused(); len(r) != 1 || r[0].Readmitted != g.Hash || len(s2.Games()) != 1 {
		t.Fatalf("reopened: %+v, %d games", r, len(s2.Games()))
	}
	if log, _ := s2.LogEntries(g.Hash); len(log) != 1 {
		t.Errorf("the organiser's log: %+v", log)
	}
}
