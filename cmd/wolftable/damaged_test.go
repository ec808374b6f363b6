package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/engine"
	"wolftable/journal"
)

// TestServeMovesDamagedJournalAside: an unfinished journal damaged in its
// middle (a flipped byte) used to stop `serve` with an error at every
// start — a restart loop under systemd. Now serve moves it aside under a
// new name, byte for byte (never deleted), says so in its log, and plays a
// new game to its end; the next start does not trip on it again.
func TestServeMovesDamagedJournalAside(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	conf := filepath.Join(t.TempDir(), "config.toml")
	body := fmt.Sprintf("[table]\nmode = \"virtual\"\n[journal]\ndir = %q\n[console]\nlisten = \"off\"\n", dir)
	if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"serve", "--once", "--bots", "--mute", "--speed", "200", "--seed", "21", "--clock", "20:00", "--config", conf}
	killWhenJournaled(t, bin, args, dir, 3) // killed mid-game: an unfinished journal
	files, _ := filepath.Glob(filepath.Join(dir, "*.wtj"))
	if len(files) != 1 {
		t.Fatalf("want one unfinished journal, got %v", files)
	}
	damaged := files[0]
	data, err := os.ReadFile(damaged)
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.Read(damaged)
	if err != nil || j.Finished() || len(j.Records) < 3 {
		t.Fatalf("the killed game's journal: %v (%d records)", err, len(j.Records))
	}
	data[j.Records[1].Offset+10] ^= 0x40 // a flipped bit in record 2
	if err := os.WriteFile(damaged, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := runToEnd(t, bin, args, nil)
	if resultLine(out) == "" {
		t.Fatalf("serve did not play a new game over the damaged journal:\n%s", out)
	}
	if !strings.Contains(string(out), "已移到 "+damaged+".damaged-") {
		t.Errorf("the log does not report the move:\n%s", out)
	}
	aside, _ := filepath.Glob(damaged + ".damaged-*")
	if len(aside) != 1 {
		t.Fatalf("want the damaged journal kept under one new name, got %v", aside)
	}
	if kept, _ := os.ReadFile(aside[0]); !bytes.Equal(kept, data) {
		t.Fatal("the journal moved aside is not the damaged file byte for byte")
	}
	if _, err := os.Stat(damaged); !os.IsNotExist(err) {
		t.Fatalf("the damaged journal is still under its name: %v", err)
	}
	files = journalFiles(dir)
	if len(files) != 1 {
		t.Fatalf("want the new game's journal, got %v", files)
	}
	if j, err := journal.Read(files[0]); err != nil || !j.Finished() {
		t.Fatalf("the new game's journal: %v", err)
	}
	// The next start finds nothing to resume and deals again: no loop.
	again := runToEnd(t, bin, args, nil)
	if resultLine(again) == "" || strings.Contains(string(again), "已移到") {
		t.Fatalf("the second start:\n%s", again)
	}
}

// TestServeStartsUnstartedJournal: a journal dealt but never started (the
// power went while the table waited for the pedal) used to be "resumed"
// as a game that never starts, and serve hung. It now starts as dealt, in
// the same journal, and plays to its signed end.
func TestServeStartsUnstartedJournal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	b, err := boards.Get("seer-witch-hunter-idiot")
	if err != nil {
		t.Fatal(err)
	}
	w, err := journal.Create(dir, journal.HeaderFor(b, engine.Deal(b, 21), 21, 12, time.Now(), "test"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(journal.InputRecord(time.Now(), "clock", engine.Clock(20, 0))); err != nil {
		t.Fatal(err)
	}
	path := w.Path()
	w.Close()
	conf := filepath.Join(t.TempDir(), "config.toml")
	body := fmt.Sprintf("[table]\nmode = \"virtual\"\n[journal]\ndir = %q\n[console]\nlisten = \"off\"\n", dir)
	if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	out := runToEnd(t, bin, []string{"serve", "--once", "--bots", "--mute", "--speed", "200", "--seed", "21", "--clock", "20:00", "--config", conf}, nil)
	if resultLine(out) == "" || !strings.Contains(string(out), "發好牌的對局還沒開始；照發好的牌開始") {
		t.Fatalf("serve over an unstarted journal:\n%s", out)
	}
	played, _ := journal.Locate(dir, filepath.Base(path)) // finished: in the archive
	j, err := journal.Read(played)
	if err != nil || !j.Finished() {
		t.Fatalf("the journal was not played to its end in place: %v", err)
	}
	if end, _ := j.End(); !end.Signed {
		t.Fatal("its end record is not signed")
	}
}

// killWhenJournaled starts bin and SIGKILLs it once the journal in dir has
// at least n records (a fixed delay is too short on a loaded machine and
// too long on a fast one), or after 60 s.
func killWhenJournaled(t *testing.T, bin string, args []string, dir string, n int) {
	t.Helper()
	cmd, _, stdin := startBin(t, bin, args, nil)
	defer stdin.Close()
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		files, _ := filepath.Glob(filepath.Join(dir, "*.wtj"))
		if len(files) == 1 {
			if j, err := journal.Read(files[0]); err == nil && len(j.Records) >= n && !j.Finished() {
				return
			}
		}
	}
	t.Fatalf("no journal of %d records in %s after 60 s", n, dir)
}
