package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/engine"
	"wolftable/journal"
)

// buildBinary builds the daemon for the tests that run it as a process,
// with the journal's fault injector (WOLFTABLE_JOURNAL_TEAR_AT), which the
// product binary leaves out (journal/tear_inject.go), and the desk's
// outbox hook (desk/die_inject.go); wolftable-desk is built beside it.
func buildBinary(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "wolftable")
	out, err := exec.Command("go", "build", "-tags", "wolftable_tear", "-o", dir+string(filepath.Separator), ".", "../wolftable-desk").CombinedOutput()
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
	var out []string
	for _, e := range replayJournal(t, dir) {
		if e.Refused == nil && e.Effect.Kind == engine.EffRecord {
			b, _ := json.Marshal(e.Effect.Record)
			out = append(out, string(b))
		}
	}
	return out
}

// startBin starts bin with args, stdout and stderr into the buffer, and
// extraEnv added to the environment; stdin stays open (the virtual table
// reads it) until the caller closes it.
func startBin(t *testing.T, bin string, args, extraEnv []string) (*exec.Cmd, *bytes.Buffer, io.Closer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	out := new(bytes.Buffer)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Env = append(os.Environ(), extraEnv...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out, stdin
}

// runToEnd runs the command to its end and returns its output. extraEnv
// is added to the environment; stdin stays open (the virtual table reads
// it) until it exits. A command still running after 3 minutes is killed
// and fails the test (a hang, not a slow machine: a game takes seconds).
func runToEnd(t *testing.T, bin string, args, extraEnv []string) []byte {
	t.Helper()
	cmd, out, stdin := startBin(t, bin, args, extraEnv)
	defer stdin.Close()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v did not end:\n%s", args, out.String())
	}
	return out.Bytes()
}

// runUntilGrown starts the command and SIGKILLs it (no cleanup, maybe
// mid-write) once the journal in dir has grown to size bytes, and by at
// least a byte since the start: the kill lands at a point of the game's
// own progress however slow the machine is, never before the journal
// exists. A game that ends first is let end. It fails the test only if the
// journal stops growing for a minute while the process runs.
func runUntilGrown(t *testing.T, bin string, args []string, dir string, size int64) []byte {
	t.Helper()
	cmd, out, stdin := startBin(t, bin, args, nil)
	defer stdin.Close()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	last := journalSize(dir)
	size = max(size, last+1)
	progress := time.Now()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return out.Bytes()
		case <-tick.C:
		}
		n := journalSize(dir)
		switch {
		case n >= size:
			cmd.Process.Kill()
			<-done
			return out.Bytes()
		case n > last:
			last, progress = n, time.Now()
		case time.Since(progress) > time.Minute:
			cmd.Process.Kill()
			<-done
			t.Fatalf("%v: the journal stayed at %d bytes for a minute:\n%s", args, n, out.String())
		}
	}
}

// journalSize is the size of the journal in dir, 0 if there is none yet.
func journalSize(dir string) int64 {
	files := journalFiles(dir)
	if len(files) != 1 {
		return 0
	}
	fi, err := os.Stat(files[0])
	if err != nil {
		return 0
	}
	return fi.Size()
}

// crashResume plays a journaled bot game uninterrupted (journal flag
// journalArgs(dir)), then again with 20 SIGKILLs spread over the game (each
// once the journal has grown to a point drawn at random in its share of the
// uninterrupted game's journal) and 3 kills in the middle of a journal
// write (WOLFTABLE_JOURNAL_TEAR_AT), each followed by a restart that
// resumes the journal. The resumed game must be
// the uninterrupted game (the same deaths, votes, checks, result: random
// players and timers fall due on the game's own timeline, the judge's clock
// is pinned with --clock), a torn record must be dropped and nothing before
// it, and no record fsynced before a kill may ever be lost or changed.
func crashResume(t *testing.T, bin string, args []string, journalArgs func(dir string) []string) {
	whole := t.TempDir()
	want := runToEnd(t, bin, append(args, journalArgs(whole)...), nil)
	wantResult := resultLine(want)
	if wantResult == "" {
		t.Fatalf("no result line in\n%s", want)
	}
	wantRecord := gameRecord(t, whole)
	wantSize := journalSize(whole)
	dir := t.TempDir()
	jargs := append(args, journalArgs(dir)...)
	rng := rand.New(rand.NewPCG(7, 7))
	type mark struct {
		n    int
		hash [32]byte
	}
	var marks []mark
	records := 0
	kills, tears := 0, 0
	for i := 0; i < 23; i++ {
		var out []byte
		tearing := i%7 == 3 && records > 0 // kills 3, 10 and 17 tear a write
		tearAt := records + 5 + rng.IntN(20)
		if tearing {
			out = runToEnd(t, bin, jargs, []string{fmt.Sprintf("WOLFTABLE_JOURNAL_TEAR_AT=%d", tearAt)})
		} else {
			// kill i lands in the (i+1)th of 24 shares of the game
			share := wantSize / 24
			out = runUntilGrown(t, bin, jargs, dir, int64(i)*share+rng.Int64N(share))
		}
		if r := resultLine(out); r != "" {
			t.Logf("the game ended before kill %d", i)
			break
		}
		files := journalFiles(dir)
		if len(files) != 1 {
			t.Fatalf("kill %d: want one journal, got %v\n%s", i, files, out)
		}
		j, err := journal.Read(files[0])
		if err != nil {
			t.Fatalf("kill %d: the journal does not load: %v", i, err)
		}
		n := len(j.Records)
		if n < records {
			t.Fatalf("kill %d: the journal went from %d records to %d", i, records, n)
		}
		if tearing {
			if !j.TornTail || n != tearAt-1 {
				t.Fatalf("kill %d tore record %d: the journal has %d whole records, torn tail %v", i, tearAt, n, j.TornTail)
			}
			tears++
		} else {
			kills++
		}
		records = n
		if n > 0 {
			marks = append(marks, mark{n, j.Records[n-1].Hash})
		}
	}
	final := runToEnd(t, bin, jargs, nil)
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
	files := journalFiles(dir)
	j, err := journal.Read(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if !j.Finished() {
		t.Fatal("the journal has no end record")
	}
	// The resumed game signed its end with the table's key (made at the
	// first start, read again at every restart): record verify passes with
	// the table's public key, and the transcript's line after the result is
	// the final hash's fingerprint.
	if end, _ := j.End(); !end.Signed {
		t.Fatal("the resumed game's end record is not signed")
	}
	pub := journal.PublicKeyPath(journal.KeyPathFor(dir))
	var vout, verr bytes.Buffer
	if code := recordArgs([]string{"verify", files[0], "--pubkey", pub, "--boards", venueDir}, &vout, &verr); code != 0 {
		t.Fatalf("record verify of the resumed game: exit %d\n%s%s", code, vout.String(), verr.String())
	}
	if fp := journal.Fingerprint(j.Head()); !strings.Contains(string(final), "result: "+wantResult+"\n指紋: "+fp+"（") {
		t.Fatalf("the transcript does not give the fingerprint %s after the result:\n%s", fp, lastLines(string(final), 3))
	}
	for _, m := range marks {
		if len(j.Records) < m.n || j.Records[m.n-1].Hash != m.hash {
			t.Fatalf("record %d written before a kill was lost or changed", m.n)
		}
	}
	if kills < 10 || tears < 2 {
		t.Fatalf("only %d kills and %d torn writes landed mid-game; the test proves too little", kills, tears)
	}
	t.Logf("%d kills and %d torn writes mid-game, %d journal records, %d game record entries as uninterrupted, result %s",
		kills, tears, len(j.Records), len(wantRecord), wantResult)
}

// TestCrashResume: `wolftable sim` killed and restarted (see crashResume).
func TestCrashResume(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	bin := buildBinary(t)
	crashResume(t, bin, []string{"sim", "--bots", "--no-tui", "--speed", "200", "--seed", "21", "--clock", "20:00"},
		func(dir string) []string { return []string{"--journal", dir} })
}

// TestServeCrashResume: `wolftable serve`, the daemon a venue runs, on the
// virtual table with its config file, killed and restarted (see
// crashResume). Its random players and pedal (--bots) give their inputs
// through the same path as the seats' keys.
func TestServeCrashResume(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	bin := buildBinary(t)
	crashResume(t, bin, []string{"serve", "--once", "--bots", "--mute", "--speed", "200", "--seed", "21", "--clock", "20:00"},
		func(dir string) []string {
			conf := filepath.Join(t.TempDir(), "config.toml")
			body := fmt.Sprintf("[table]\nmode = \"virtual\"\n[journal]\ndir = %q\n[console]\nlisten = \"off\"\n", dir)
			if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			return []string{"--config", conf}
		})
}

// journalFiles are the journals of a journals folder: at its top (the
// game in progress, one to resume) and in its archive (finished games).
func journalFiles(dir string) []string {
	top, _ := filepath.Glob(filepath.Join(dir, "*"+journal.Extension))
	done, _ := filepath.Glob(filepath.Join(dir, journal.ArchiveDir, "*", "*"+journal.Extension))
	return append(top, done...)
}

// replayJournal replays the one journal in dir and returns its events.
func replayJournal(t *testing.T, dir string) []journal.Event {
	t.Helper()
	files := journalFiles(dir)
	if len(files) != 1 {
		t.Fatalf("want one journal in %s, got %v", dir, files)
	}
	j, err := journal.Read(files[0])
	if err != nil {
		t.Fatal(err)
	}
	cat, err := boards.Open(venueDir, true) // the built-in boards and the test venue's
	if err != nil {
		t.Fatal(err)
	}
	_, events, err := journal.Replay(j, cat.Get)
	if err != nil {
		t.Fatal(err)
	}
	return events
}
