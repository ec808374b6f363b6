package boards

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"wolftable/engine"
)

const noWolvesNight2 = `id       house-quiet
name     本店二夜無刀
players  12
roles    狼人*4 預言家 女巫 獵人 白痴 村民*4
night 1    wolves/90/hurry=60 witch/30/hurry=15 seer/30
night 2-   witch/30/hurry=10 seer/30
`

// TestNightWithoutWolvesRefused (issue 27 item 4): a board with a wolf
// pack whose night plan has no wolves step (the wolves would not kill
// those nights) is refused at that night's line, unless the file writes
// "allow night-without-wolves"; the allowance survives Format. Before the
// fix the board was accepted without a word (the test failed at
// "refused").
func TestNightWithoutWolvesRefused(t *testing.T) {
	_, err := Parse("q.board", []byte(noWolvesNight2))
	var be *Error
	if !errors.As(err, &be) || be.Line != 6 || !strings.Contains(be.Msg, "沒有狼人步驟") || !strings.Contains(be.Msg, "allow night-without-wolves") {
		t.Fatalf("refused: %v, want line 6 naming the allow line", err)
	}
	b, err := Parse("q.board", []byte(noWolvesNight2+"allow night-without-wolves\n"))
	if err != nil {
		t.Fatalf("allowed: %v", err)
	}
	again, err := Parse("q.board", Format(b))
	if err != nil || len(again.Nights) != 2 || len(again.Nights[1].Steps) != 2 {
		t.Errorf("Format of an allowed board: %v\n%s", err, Format(b))
	}
	if err := Validate(b); err != nil {
		t.Errorf("Validate of an allowed board: %v", err)
	}
	for _, bad := range []string{"allow night-without-wolves\nallow night-without-wolves\n", "allow\n", "allow everything\n"} {
		if _, err := Parse("q.board", []byte(noWolvesNight2+bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	if f := string(Format(mustGet(t, "seer-witch-hunter-idiot"))); strings.Contains(f, "allow") {
		t.Errorf("a board with wolves every night formatted an allow line:\n%s", f)
	}
}

func mustGet(t *testing.T, id string) *engine.Board {
	t.Helper()
	b, err := Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFIFOBoardSkipped (issue 27 item 4): a FIFO named *.board in the
// venue's folder (or a link to one) is skipped with the reason, the
// folder's boards are read, and nothing waits for a writer; LoadDir (a
// scenario suite's boards) refuses it. Before the fix Open blocked in
// open(2) forever (the test failed at its deadline).
func TestFIFOBoardSkipped(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.board"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Symlink("pipe.board", filepath.Join(dir, "link.board")); err != nil {
		t.Fatal(err)
	}
	good := strings.Replace(noWolvesNight2, "night 2-   witch", "night 2-   wolves/60 witch", 1)
	if err := os.WriteFile(filepath.Join(dir, "quiet.board"), []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	type opened struct {
		c   *Catalog
		err error
	}
	done := make(chan opened, 1)
	go func() { c, err := Open(dir, true); done <- opened{c, err} }()
	var o opened
	select {
	case o = <-done:
	case <-time.After(10 * time.Second): // only when it fails: a FIFO blocks open(2)
		t.Fatal("Open is waiting on the FIFO")
	}
	if o.err != nil {
		t.Fatal(o.err)
	}
	if len(o.c.Skipped) != 2 || !strings.Contains(o.c.Skipped[0].Reason, "不是一般檔案") {
		t.Errorf("skipped: %v", o.c.Skipped)
	}
	if b, err := o.c.Get("house-quiet"); err != nil || b.Players != 12 {
		t.Errorf("the folder's board: %v", err)
	}
	if good, skipped, errs := CheckDirSkipped(dir); len(good) != 1 || len(skipped) != 2 || len(errs) != 0 {
		t.Errorf("CheckDirSkipped: %d good, %v, %v", len(good), skipped, errs)
	}
	if _, err := LoadDir(dir); !errors.Is(err, errNotRegular) {
		t.Errorf("LoadDir: %v, want errNotRegular", err)
	}
}
