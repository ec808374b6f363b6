package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/engine"
	"wolftable/journal"
)

func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "wolftable")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func resultLine(out []byte) string {
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "result: ") {
			return strings.TrimPrefix(l, "result: ")
		}
	}
	return ""
}

// gameRecord is what a journaled game's record says, in order: deaths, votes
// with 票型, sheriff changes, checks, the result.
func gameRecord(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.wtj"))
	if len(files) != 1 {
		t.Fatalf("want one journal in %s, got %v", dir, files)
	}
	j, err := journal.Read(files[0])
	if err != nil {
		t.Fatal(err)
	}
	_, events, err := journal.Replay(j, boards.Get)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range events {
		if e.Refused == nil && e.Effect.Kind == engine.EffRecord {
			b, _ := json.Marshal(e.Effect.Record)
			out = append(out, string(b))
		}
	}
	return out
}

// TestCrashResume kills `wolftable sim` with SIGKILL at 20 random points of a
// journaled game and starts it again each time: the game resumes from its
// journal and plays exactly the game of an uninterrupted run (the same
// deaths, votes, checks and result: random players and timers fall due on
// the game's own timeline, and the judge's clock is pinned with --clock), and
// no record the journal had written (fsynced) before a kill is ever lost or
// changed.
func TestCrashResume(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	bin := buildBinary(t)
	args := []string{"sim", "--bots", "--no-tui", "--speed", "200", "--seed", "21", "--clock", "20:00"}
	whole := t.TempDir()
	want, err := exec.Command(bin, append(args, "--journal", whole)...).Output()
	if err != nil {
		t.Fatalf("uninterrupted run: %v", err)
	}
	wantResult := resultLine(want)
	if wantResult == "" {
		t.Fatalf("no result line in\n%s", want)
	}
	wantRecord := gameRecord(t, whole)
	dir := t.TempDir()
	jargs := append(args, "--journal", dir)
	rng := rand.New(rand.NewPCG(7, 7))
	type mark struct {
		n    int
		hash [32]byte
	}
	var marks []mark
	for i := 0; i < 20; i++ {
		cmd := exec.Command(bin, jargs...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(80+rng.IntN(400)) * time.Millisecond)
		cmd.Process.Kill() // SIGKILL: no cleanup, maybe mid-write
		cmd.Wait()
		if r := resultLine(out.Bytes()); r != "" {
			t.Logf("the game ended before kill %d", i)
			break
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.wtj"))
		if len(files) != 1 {
			t.Fatalf("kill %d: want one journal, got %v\n%s", i, files, out.String())
		}
		j, err := journal.Read(files[0])
		if err != nil {
			t.Fatalf("kill %d: the journal does not load: %v", i, err)
		}
		n := len(j.Records)
		if n > 0 {
			marks = append(marks, mark{n, j.Records[n-1].Hash})
		}
	}
	final, err := exec.Command(bin, jargs...).CombinedOutput()
	if err != nil {
		t.Fatalf("final run: %v\n%s", err, final)
	}
	if got := resultLine(final); got != wantResult {
		t.Fatalf("resumed game ended %q, the uninterrupted run %q\n%s", got, wantResult, final)
	}
	if got := gameRecord(t, dir); strings.Join(got, "\n") != strings.Join(wantRecord, "\n") {
		for i := 0; i < len(got) && i < len(wantRecord); i++ {
			if got[i] != wantRecord[i] {
				t.Fatalf("the resumed game's record departs from the uninterrupted game's at entry %d:\n got %s\nwant %s", i, got[i], wantRecord[i])
			}
		}
		t.Fatalf("the resumed game's record has %d entries, the uninterrupted game's %d", len(got), len(wantRecord))
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.wtj"))
	j, err := journal.Read(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if !j.Finished() {
		t.Fatal("the journal has no end record")
	}
	for _, m := range marks {
		if len(j.Records) < m.n || j.Records[m.n-1].Hash != m.hash {
			t.Fatalf("record %d written before a kill was lost or changed", m.n)
		}
	}
	if len(marks) < 10 {
		t.Fatalf("only %d kills landed mid-game; the test proves too little", len(marks))
	}
	t.Logf("%d kills mid-game, %d journal records, %d game record entries as uninterrupted, result %s", len(marks), len(j.Records), len(wantRecord), wantResult)
}
