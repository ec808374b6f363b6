package journal

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestMoveAside: the file keeps its bytes under NAME.damaged-<UTC time>, a
// second one moved in the same second gets -2, and Unfinished no longer
// lists either.
func TestMoveAside(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "2026-11-29T20-15-03_ab12cd.wtj")
	data := []byte(Magic + "damaged")
	os.WriteFile(p, data, 0o644)
	at := time.Date(2026, 12, 1, 13, 33, 0, 0, time.FixedZone("CST", 8*3600))
	to, err := MoveAside(p, at)
	if err != nil || to != p+".damaged-20261201T053300Z" {
		t.Fatalf("MoveAside: %q %v", to, err)
	}
	if got, _ := os.ReadFile(to); !bytes.Equal(got, data) {
		t.Fatal("the bytes changed")
	}
	os.WriteFile(p, data, 0o644)
	to2, err := MoveAside(p, at)
	if err != nil || to2 != to+"-2" {
		t.Fatalf("second MoveAside: %q %v", to2, err)
	}
	if list, err := Unfinished(dir); err != nil || len(list) != 0 {
		t.Fatalf("Unfinished after: %v %v", list, err)
	}
	if _, err := MoveAside(filepath.Join(dir, "missing.wtj"), at); err == nil {
		t.Fatal("moving a missing file must fail")
	}
}

// TestUnresumable: damage and replay failures are the journal's; a missing
// file, a lock or a permission problem are the machine's.
func TestUnresumable(t *testing.T) {
	for _, err := range []error{&CorruptError{Err: ErrHash}, &VersionError{Version: 9}, &ReplayError{Msg: "x"}, ErrNoHeader, ErrNotJournal} {
		if !Unresumable(err) {
			t.Errorf("%v: want unresumable", err)
		}
	}
	for _, err := range []error{os.ErrNotExist, ErrLocked, os.ErrPermission, errors.New("disk full")} {
		if Unresumable(err) {
			t.Errorf("%v: not the journal's fault", err)
		}
	}
}
