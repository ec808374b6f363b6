package journal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// finishedJournal plays a signed, finished game in dir and returns its path.
func finishedJournal(t *testing.T, dir string, seed uint64) string {
	t.Helper()
	return playJournal(t, dir, "seer-witch-hunter-idiot", seed, true).path
}

// TestArchiveMovesFinished: the start's tidy-up (ArchiveFinished) moves a
// finished journal into archive/YYYY-MM/ and queues it for the desk; the
// unfinished one stays at the top, where Unfinished finds it. The archived
// journal is found again by Locate, Queued and List, and it is never read
// again by the start: garbage put in its place is not reported by
// Unfinished or ArchiveFinished (before, Unfinished read every journal of
// the folder, and would list the garbage as damaged).
func TestArchiveMovesFinished(t *testing.T) {
	dir := t.TempDir()
	done := finishedJournal(t, dir, 3)
	running := playJournal(t, dir, "seer-witch-hunter-idiot", 4, false).path
	data := readFile(t, done)
	tidy, err := ArchiveFinished(dir, nil)
	if err != nil || len(tidy.Failed) > 0 {
		t.Fatal(err, tidy.Failed)
	}
	want := filepath.Join(dir, ArchiveDir, "2026-11", filepath.Base(done))
	if len(tidy.Archived) != 1 || tidy.Archived[0] != want {
		t.Fatalf("archived %v, want [%s]", tidy.Archived, want)
	}
	if fileExists(done) || !bytes.Equal(readFile(t, want), data) {
		t.Fatal("the finished journal was not moved byte for byte")
	}
	if !fileExists(running) {
		t.Fatal("the unfinished journal left the top of the folder")
	}
	if p, ok := Locate(dir, filepath.Base(done)); !ok || p != want {
		t.Fatalf("Locate: %q %v", p, ok)
	}
	if q, err := Queued(dir); err != nil || len(q) != 1 || q[0] != want {
		t.Fatalf("Queued: %v %v", q, err)
	}
	u, err := Unfinished(dir)
	if err != nil || len(u) != 1 || u[0].Path != running {
		t.Fatalf("Unfinished: %+v %v", u, err)
	}
	if err := os.WriteFile(want, []byte("not a journal"), 0o644); err != nil {
		t.Fatal(err)
	}
	if u, _ := Unfinished(dir); len(u) != 1 || u[0].Err != nil {
		t.Fatalf("Unfinished read the archive: %+v", u)
	}
	if tidy, _ := ArchiveFinished(dir, nil); len(tidy.Archived)+len(tidy.Failed) != 0 {
		t.Fatalf("ArchiveFinished read the archive: %+v", tidy)
	}
	if _, err := Archive(dir, running); !errors.Is(err, ErrNotFinished) {
		t.Fatalf("Archive of an unfinished journal: %v", err)
	}
}

// TestArchiveKeepsMarker: a journal the desk has answered for (its .sent
// marker beside it) is archived with its marker and is not queued; a
// queued one leaves the outbox with Dequeue.
func TestArchiveKeepsMarker(t *testing.T) {
	dir := t.TempDir()
	sent := finishedJournal(t, dir, 5)
	os.WriteFile(sent+".sent", []byte("{}\n"), 0o640)
	moved, err := Archive(dir, sent)
	if err != nil {
		t.Fatal(err)
	}
	if !fileExists(moved+".sent") || fileExists(sent+".sent") {
		t.Fatal("the marker did not follow its journal")
	}
	if q, _ := Queued(dir); len(q) != 0 {
		t.Fatalf("a journal the desk has is queued: %v", q)
	}
	other := finishedJournal(t, t.TempDir(), 6)
	p := filepath.Join(dir, filepath.Base(other))
	os.WriteFile(p, readFile(t, other), 0o644)
	moved, err = Archive(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	if q, _ := Queued(dir); len(q) != 1 || q[0] != moved {
		t.Fatalf("Queued: %v", q)
	}
	if err := Dequeue(dir, moved); err != nil {
		t.Fatal(err)
	}
	if q, _ := Queued(dir); len(q) != 0 {
		t.Fatalf("Queued after Dequeue: %v", q)
	}
}

// checkRecovered is the folder after a crash at some step of Archive and
// the next start: the game is not resumed, the journal is there once,
// byte for byte, in the archive after the tidy-up, and queued once (or
// not at all when its marker says the desk has it, the marker beside it).
func checkRecovered(t *testing.T, dir, name string, data []byte, marked bool) {
	t.Helper()
	u, err := Unfinished(dir)
	if err != nil || len(u) != 0 {
		t.Fatalf("after the crash, Unfinished lists %+v (%v): a finished game would be resumed", u, err)
	}
	if tidy, err := ArchiveFinished(dir, nil); err != nil || len(tidy.Failed) > 0 {
		t.Fatalf("the next start's tidy-up: %v %v", err, tidy.Failed)
	}
	var copies []string
	for _, p := range []string{filepath.Join(dir, name), ArchivePath(dir, name)} {
		if fileExists(p) {
			copies = append(copies, p)
		}
	}
	if len(copies) != 1 || copies[0] != ArchivePath(dir, name) || !bytes.Equal(readFile(t, copies[0]), data) {
		t.Fatalf("the journal is at %v after the recovery", copies)
	}
	q, err := Queued(dir)
	if err != nil {
		t.Fatal(err)
	}
	if marked {
		if len(q) != 0 || !fileExists(ArchivePath(dir, name)+".sent") || fileExists(filepath.Join(dir, name+".sent")) {
			t.Fatalf("a sent journal: queued %v, marker beside it %v", q, fileExists(ArchivePath(dir, name)+".sent"))
		}
	} else if len(q) != 1 || q[0] != ArchivePath(dir, name) {
		t.Fatalf("queued %v, want the journal once", q)
	}
	if p, err := List(dir, 1, 10); err != nil || len(p.Games) != 1 || !p.Games[0].Finished || !p.Games[0].Archived {
		t.Fatalf("List: %+v %v", p, err)
	}
}

// TestArchiveFaultAtEveryStep: Archive stopped after each of its steps (an
// injected fault where a crash would stop it), with and without the
// desk's marker: nothing is lost, no finished game is resumed, and the
// next start completes the move (checkRecovered).
func TestArchiveFaultAtEveryStep(t *testing.T) {
	defer func() { archiveHook = nil }()
	src := t.TempDir()
	done := finishedJournal(t, src, 8)
	data := readFile(t, done)
	name := filepath.Base(done)
	for _, marked := range []bool{false, true} {
		for step := stepFolder; step <= archiveSteps; step++ {
			t.Run(fmt.Sprintf("step%d-marked=%v", step, marked), func(t *testing.T) {
				dir := t.TempDir()
				p := filepath.Join(dir, name)
				os.WriteFile(p, data, 0o644)
				if marked {
					os.WriteFile(p+".sent", []byte("{}\n"), 0o640)
				}
				crash := errors.New("crash")
				archiveHook = func(s archiveStep) error {
					if s == step {
						return crash
					}
					return nil
				}
				if _, err := Archive(dir, p); !errors.Is(err, crash) {
					t.Fatalf("Archive: %v, want the injected crash", err)
				}
				archiveHook = nil
				checkRecovered(t, dir, name, data, marked)
			})
		}
	}
}

// TestArchiveKilledAtEveryStep: the same with a real SIGKILL of a process
// between Archive's steps (the test binary run again as the child).
func TestArchiveKilledAtEveryStep(t *testing.T) {
	if at := os.Getenv("WOLFTABLE_ARCHIVE_CHILD"); at != "" {
		n, _ := strconv.Atoi(at)
		archiveHook = func(s archiveStep) error {
			if s == archiveStep(n) {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
			return nil
		}
		dir := os.Getenv("WOLFTABLE_ARCHIVE_DIR")
		if _, err := Archive(dir, filepath.Join(dir, os.Getenv("WOLFTABLE_ARCHIVE_NAME"))); err != nil {
			t.Fatal(err)
		}
		return
	}
	src := t.TempDir()
	done := finishedJournal(t, src, 9)
	data := readFile(t, done)
	name := filepath.Base(done)
	for step := stepFolder; step <= archiveSteps; step++ {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
		cmd := exec.Command(os.Args[0], "-test.run=^TestArchiveKilledAtEveryStep$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("WOLFTABLE_ARCHIVE_CHILD=%d", step), "WOLFTABLE_ARCHIVE_DIR="+dir, "WOLFTABLE_ARCHIVE_NAME="+name)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("step %d: the child was to die by SIGKILL: %v\n%s", step, err, out)
		}
		checkRecovered(t, dir, name, data, false)
	}
}

// TestStrayMarkerFollows: a marker left at the top after its journal was
// archived (a crash between the rename and the markers' move, or the desk
// marking a journal that the game's end was moving) joins its journal at
// the next tidy-up.
func TestStrayMarkerFollows(t *testing.T) {
	dir := t.TempDir()
	p := finishedJournal(t, dir, 10)
	moved, err := Archive(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p+".sent", []byte("{}\n"), 0o640)
	if _, err := ArchiveFinished(dir, nil); err != nil {
		t.Fatal(err)
	}
	if fileExists(p+".sent") || !fileExists(moved+".sent") {
		t.Fatal("the stray marker stayed at the top")
	}
}

// TestListPages: List pages through the top of the folder and the archive,
// newest first by name across months, the unfinished game among them.
func TestListPages(t *testing.T) {
	dir := t.TempDir()
	data := readFile(t, finishedJournal(t, t.TempDir(), 11))
	var names []string
	for i := 0; i < 45; i++ {
		names = append(names, fmt.Sprintf("2026-%02d-%02dT20-00-00_%06x%s", 1+i%12, 1+i/12, i, Extension))
	}
	for _, n := range names[:40] {
		os.WriteFile(filepath.Join(dir, n), data, 0o644)
	}
	if tidy, err := ArchiveFinished(dir, nil); err != nil || len(tidy.Archived) != 40 {
		t.Fatalf("archived %d: %v", len(tidy.Archived), err)
	}
	for _, n := range names[40:] { // at the top: a crash's leftovers, not yet tidied
		os.WriteFile(filepath.Join(dir, n), data, 0o644)
	}
	running := playJournal(t, dir, "seer-witch-hunter-idiot", 12, false).path // 2026-11-29
	names = append(names, filepath.Base(running))
	var got []string
	for page := 1; ; page++ {
		p, err := List(dir, page, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range p.Games {
			if g.Err != nil {
				t.Fatalf("%s: %v", g.Name, g.Err)
			}
			if g.Archived != strings.HasPrefix(g.Path, filepath.Join(dir, ArchiveDir)) || g.Finished == (g.Path == running) {
				t.Fatalf("%s: archived %v finished %v", g.Path, g.Archived, g.Finished)
			}
			got = append(got, g.Name)
		}
		if !p.More {
			if len(p.Games) == 0 || page != 5 {
				t.Fatalf("the last page is %d with %d games", page, len(p.Games))
			}
			break
		}
	}
	for i := 1; i < len(got); i++ {
		if got[i-1] <= got[i] {
			t.Fatalf("not newest first at %d: %s then %s", i, got[i-1], got[i])
		}
	}
	if len(got) != len(names) {
		t.Fatalf("listed %d journals, want %d", len(got), len(names))
	}
}

// TestRecordListAndArchiveCommands: `record archive DIR` then `record list
// DIR --page N --per N`, as a technician runs them.
func TestRecordListAndArchiveCommands(t *testing.T) {
	dir := t.TempDir()
	finishedJournal(t, dir, 13)
	var out, errs bytes.Buffer
	if code := ArchiveFolder(dir, &out, &errs); code != 0 || !strings.Contains(out.String(), "已把 1 局") {
		t.Fatalf("record archive: %d\n%s%s", code, out.String(), errs.String())
	}
	out.Reset()
	if code := ListFolder(dir, 1, 1, &out, &errs); code != 0 ||
		!strings.Contains(out.String(), "archive/2026-11/") || !strings.Contains(out.String(), "已簽章、待送總台") ||
		!strings.Contains(out.String(), "最後一頁") {
		t.Fatalf("record list: %d\n%s%s", code, out.String(), errs.String())
	}
	// the flags' errors are cmd/wolftable's (TestRecordArgs); a folder
	// that is not there is the verbs'
	missing := filepath.Join(dir, "missing")
	if code := ListFolder(missing, 1, 20, &out, &errs); code != 2 {
		t.Errorf("record list %s: exit %d, want 2", missing, code)
	}
	if code := ArchiveFolder(missing, &out, &errs); code != 2 || !strings.Contains(errs.String(), "找不到日誌資料夾") {
		t.Errorf("record archive %s: exit %d, want 2\n%s", missing, code, errs.String())
	}
}

// TestRecordArchiveHintsAtBloatedFolder: in a folder that once held
// thousands of names, record archive says how to rebuild it (ext4 never
// shrinks a folder's own entry list, which the start reads); in a small
// one it says nothing of it. It skips on a file system whose folders
// shrink.
func TestRecordArchiveHintsAtBloatedFolder(t *testing.T) {
	dir := t.TempDir()
	data := readFile(t, finishedJournal(t, t.TempDir(), 14))
	var season []string // the names of a season, moved away since
	for i := 0; i < 3000; i++ {
		season = append(season, filepath.Join(dir, fmt.Sprintf("2026-01-01T00-00-00_%06x%s", i, Extension)))
		os.WriteFile(season[i], nil, 0o644)
	}
	for _, p := range season {
		os.Remove(p)
	}
	os.WriteFile(filepath.Join(dir, "2026-02-01T00-00-00_abcdef"+Extension), data, 0o644)
	var out, errs bytes.Buffer
	if code := ArchiveFolder(dir, &out, &errs); code != 0 {
		t.Fatalf("record archive: %d %s", code, errs.String())
	}
	if fi, _ := os.Stat(dir); fi.Size() <= bloatedFolder {
		t.Skipf("this file system's folders shrink (%d bytes): nothing to hint", fi.Size())
	}
	if !strings.Contains(out.String(), "已把 1 局") || !strings.Contains(out.String(), "資料夾本身不會縮小") {
		t.Fatalf("record archive of 3000:\n%s", out.String())
	}
	small := t.TempDir()
	os.WriteFile(filepath.Join(small, "2026-01-01T00-00-00_abcdef"+Extension), data, 0o644)
	out.Reset()
	if ArchiveFolder(small, &out, &errs); strings.Contains(out.String(), "不會縮小") {
		t.Fatalf("a hint for a small folder:\n%s", out.String())
	}
}
