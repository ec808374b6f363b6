package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"wolftable/boards"
	"wolftable/engine"
	"wolftable/journal"
)

// oneFinishedJournal plays one signed `sim --bots` game in a new journals
// folder and returns the journal's bytes.
func oneFinishedJournal(tb testing.TB) []byte {
	tb.Helper()
	dir := tb.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"sim", "--bots", "--no-tui", "--voice", "off", "--speed", "5000", "--seed", "3", "--journal", dir}, &out, &errb); code != 0 {
		tb.Fatalf("sim: exit %d\n%s", code, errb.String())
	}
	files := journalFiles(dir)
	if len(files) != 1 {
		tb.Fatalf("journals: %v", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// seasonFolder is a journals folder holding n finished journals, as a
// table's after a season: each written into the archive and queued for
// the desk as its game's end puts it there (journal.Archive), or, when
// migrated, all written at the top (as an older version left them) and
// tidied once, as the first start after an upgrade does (or `record
// archive`).
func seasonFolder(tb testing.TB, n int, data []byte, migrated bool) string {
	tb.Helper()
	dir := tb.TempDir()
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("2025-%02d-%02dT%02d-%02d-00_%06x%s", 1+i%12, 1+i/12%28, 10+i/336%12, i%60, i, journal.Extension)
		p := filepath.Join(dir, name)
		if !migrated {
			p = journal.ArchivePath(dir, name)
			os.MkdirAll(filepath.Dir(p), 0o750)
			if err := journal.Enqueue(dir, p); err != nil {
				tb.Fatal(err)
			}
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	if err := tidyJournals(dir, io.Discard); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// BenchmarkGameStart is a game's start as serve makes it (newOrResumed:
// the folder tidied, the unfinished journals looked for, the new game's
// journal created) in a journals folder that holds 10 and 10,000 finished
// games (issue 27: the ratio must stay within 1.1), and 10,000 that an
// older version left at the top and the first start moved (the folder's
// own entries keep the size they grew to). Before the archive the start
// read and parsed every journal of the folder: 10,000 took 12 to 19 s.
// Each start's new journal is removed before the next.
func BenchmarkGameStart(b *testing.B) {
	data := oneFinishedJournal(b)
	board, err := boards.Get("seer-witch-hunter-idiot")
	if err != nil {
		b.Fatal(err)
	}
	deal, bottom := engine.DealCards(board, 7)
	cases := []struct {
		name     string
		n        int
		migrated bool
		dir      string
	}{{"finished=10", 10, false, ""}, {"finished=10000", 10000, false, ""}, {"finished=10000,migrated", 10000, true, ""}}
	for i := range cases { // all made before any runs: the same disk, the same cache
		cases[i].dir = seasonFolder(b, cases[i].n, data, cases[i].migrated)
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				tg, err := newOrResumed(c.dir, true, board, 7, deal, bottom, 12, 1, io.Discard, nil)
				if err != nil || tg.resumed != "" {
					b.Fatalf("start: %v (resumed %q)", err, tg.resumed)
				}
				tg.close()
				os.Remove(tg.writer.Path())
			}
		})
	}
	// The part of the start that read the history: the tidy-up and the
	// look for unfinished journals, without the new journal's fsyncs
	// (which are most of a start and vary with the disk's other work).
	for _, c := range cases {
		b.Run(c.name+",scan", func(b *testing.B) {
			for b.Loop() {
				if err := tidyJournals(c.dir, io.Discard); err != nil {
					b.Fatal(err)
				}
				if u, err := journal.Unfinished(c.dir); err != nil || len(u) != 0 {
					b.Fatal(u, err)
				}
			}
		})
	}
}

// TestStartReadsNoArchive: a start in a folder whose archive holds
// unreadable files reads none of them (they would be reported, or stop the
// start), and a finished journal at the top is archived by it and never
// resumed.
func TestStartReadsNoArchive(t *testing.T) {
	data := oneFinishedJournal(t)
	dir := seasonFolder(t, 3, data, true)
	archived, _ := filepath.Glob(filepath.Join(dir, journal.ArchiveDir, "*", "*"+journal.Extension))
	if len(archived) != 3 {
		t.Fatalf("archived: %v", archived)
	}
	for _, p := range archived {
		os.WriteFile(p, []byte("garbage"), 0o644)
	}
	top := filepath.Join(dir, "2026-01-01T10-00-00_abcdef"+journal.Extension)
	os.WriteFile(top, data, 0o644)
	board, _ := boards.Get("seer-witch-hunter-idiot")
	deal, bottom := engine.DealCards(board, 7)
	var log bytes.Buffer
	tg, err := newOrResumed(dir, true, board, 7, deal, bottom, 12, 1, &log, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tg.close()
	if tg.resumed != "" || tg.notice != "" || strings.Contains(log.String(), "damaged") || strings.Contains(log.String(), "cannot be resumed") {
		t.Fatalf("the start resumed %q, noticed %q:\n%s", tg.resumed, tg.notice, log.String())
	}
	if _, err := os.Stat(top); !errors.Is(err, os.ErrNotExist) || !strings.Contains(log.String(), "1 份已結束的日誌移到") {
		t.Fatalf("the finished journal at the top was not archived by the start:\n%s", log.String())
	}
}

// TestKilledMidArchive: `sim` killed (SIGKILL) at each step of moving its
// finished journal into the archive (WOLFTABLE_ARCHIVE_DIE_AT); the next
// start does not resume the finished game but plays a new one, and the
// killed game's journal is in the archive once, verified with the table's
// key, in the outbox once.
func TestKilledMidArchive(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	bin := buildBinary(t)
	for _, step := range []int{1, 2, 3, 4} {
		dir := t.TempDir()
		args := []string{"sim", "--bots", "--no-tui", "--voice", "off", "--speed", "5000", "--seed", "5", "--journal", dir}
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), fmt.Sprintf("WOLFTABLE_ARCHIVE_DIE_AT=%d", step))
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("step %d: sim was to die mid-archive: %v\n%s", step, err, lastLines(string(out), 5))
		}
		first := journalFiles(dir)
		if len(first) != 1 {
			t.Fatalf("step %d: after the kill, journals %v", step, first)
		}
		name := filepath.Base(first[0])
		again, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil || resultLine(again) == "" || strings.Contains(string(again), "resuming journal") {
			t.Fatalf("step %d: the restart: %v\n%s", step, err, lastLines(string(again), 5))
		}
		files := journalFiles(dir)
		if len(files) != 2 {
			t.Fatalf("step %d: journals after the restart: %v", step, files)
		}
		p, ok := journal.Locate(dir, name)
		if !ok || p != journal.ArchivePath(dir, name) {
			t.Fatalf("step %d: the killed game's journal is at %q", step, p)
		}
		var vout, verr bytes.Buffer
		pub := journal.PublicKeyPath(journal.KeyPathFor(dir))
		if code := recordArgs([]string{"verify", p, "--pubkey", pub}, &vout, &verr); code != 0 {
			t.Fatalf("step %d: record verify: %s%s", step, vout.String(), verr.String())
		}
		q, _ := journal.Queued(dir)
		n := 0
		for _, f := range q {
			if filepath.Base(f) == name {
				n++
			}
		}
		if n != 1 || len(q) != 2 {
			t.Fatalf("step %d: the outbox holds %v", step, q)
		}
	}
}
