package journal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"wolftable/internal/atomicfile"
)

// The journals folder of a table that plays all season (issue 27):
//
//	journals/NAME.wtj                     the game in progress, or one to resume
//	journals/archive/2026-11/NAME.wtj     finished games, by the month in their name
//	journals/archive/2026-11/NAME.wtj.sent  the desk's marker, beside its journal
//	journals/outbox/NAME.wtj.queued       a finished game the desk has not answered for
//
// A game's start, a restart (Unfinished) and the desk's outbox (Queued)
// read only the top of the folder and the outbox, never the archive: what
// they cost does not grow with the games played. Archive moves a finished
// journal into the archive; ArchiveFinished does it for every finished
// journal at the top (at each start, and `wolftable record archive` for a
// folder of thousands). List and Locate find a journal wherever it is.

const (
	// ArchiveDir is the archive's folder inside the journals folder.
	ArchiveDir = "archive"
	// OutboxDir holds one entry per archived journal waiting for the desk.
	OutboxDir = "outbox"
	// QueuedSuffix ends an outbox entry: "NAME.wtj.queued", which holds the
	// journal's path relative to the journals folder.
	QueuedSuffix = ".queued"
)

// deliveryMarkers are the files kept beside a journal about its delivery:
// the desk's publisher writes NAME.wtj.sent once the desk has stored the
// record (desk.SentSuffix) and NAME.wtj.refused when the desk refused it.
// Archive moves them with their journal. A journal with .sent is not
// queued; a refused one is (the outbox skips it until `record resend`
// removes its marker), so the refusals are found without reading the
// archive.
var deliveryMarkers = [...]string{".sent", ".refused"}

// ErrNotFinished: Archive on a journal without its end record.
var ErrNotFinished = errors.New("journal: the journal has no end record (the game is not finished)")

// archiveStep names the points between Archive's durable steps, for the
// crash tests (archiveHook).
type archiveStep int

const (
	stepFolder   archiveStep = iota + 1 // the month's folder exists, synced
	stepQueued                          // the outbox entry is written (when it is due)
	stepMoved                           // the journal is renamed, the folders not yet synced
	stepSynced                          // both folders synced, the markers not yet moved
	stepMarkers                         // the markers moved: done
	archiveSteps = stepMarkers
)

// archiveHook, when set (tests; tear_inject.go with
// WOLFTABLE_ARCHIVE_DIE_AT), runs after each step; an error stops Archive
// there, as a crash would.
var archiveHook func(archiveStep) error

func reached(s archiveStep) error {
	if archiveHook != nil {
		return archiveHook(s)
	}
	return nil
}

var monthName = regexp.MustCompile(`^\d{4}-\d{2}`)

// month is the archive folder of a journal's file name ("2026-11-29T20-15-03_ab12cd.wtj"
// → "2026-11"), or "" when the name does not start with a date.
func month(name string) string {
	if m := monthName.FindString(name); m != "" {
		return m
	}
	return ""
}

// ArchivePath is where Archive puts the journal named name (FileName) of
// the journals folder dir: dir/archive/YYYY-MM/name (the month its name
// starts with; "other" for a name that does not start with a date).
func ArchivePath(dir, name string) string {
	m := month(name)
	if m == "" {
		m = "other"
	}
	return filepath.Join(dir, ArchiveDir, m, name)
}

// Archive moves the finished journal at path (at the top of its journals
// folder dir) into the archive and returns its new path. The journal's end
// record must be on the disk: Archive reads and verifies the file first
// and refuses one without it (ErrNotFinished), and a damaged one. The
// steps are durable and idempotent, so a crash between any two loses
// nothing and resumes no game: the month's folder is made and synced; an
// outbox entry is written unless the desk's .sent marker says it holds
// the record; the journal is renamed (never copied) and both folders
// synced; the markers follow. A journal left at the top by a crash is
// finished, so Unfinished skips it and the next ArchiveFinished completes
// the move. Archive of a journal already moved returns its archived path.
func Archive(dir, path string) (string, error) {
	name := filepath.Base(path)
	dst := ArchivePath(dir, name)
	j, err := Read(path)
	if errors.Is(err, fs.ErrNotExist) && fileExists(dst) {
		return dst, nil // moved already (another caller, or before a crash)
	}
	if err != nil {
		return "", err
	}
	if !j.Finished() {
		return "", fmt.Errorf("%s%w", where(path), ErrNotFinished)
	}
	if err := makeFolder(filepath.Dir(dst)); err != nil {
		return "", fmt.Errorf("journal: archiving %s: %w", name, err)
	}
	if err := reached(stepFolder); err != nil {
		return "", err
	}
	if !delivered(path) && !delivered(dst) {
		if err := Enqueue(dir, dst); err != nil {
			return "", err
		}
	}
	if err := reached(stepQueued); err != nil {
		return "", err
	}
	if err := moveOnce(path, dst); err != nil {
		return "", fmt.Errorf("journal: archiving %s: %w", name, err)
	}
	if err := reached(stepMoved); err != nil {
		return "", err
	}
	if err := syncDir(filepath.Dir(dst)); err != nil {
		return "", fmt.Errorf("journal: archiving %s: %w", name, err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return "", fmt.Errorf("journal: archiving %s: %w", name, err)
	}
	if err := reached(stepSynced); err != nil {
		return "", err
	}
	if err := followMarkers(path, dst); err != nil {
		return dst, err
	}
	return dst, reached(stepMarkers)
}

// moveOnce renames from to to, refusing to replace a different file
// there. When to already holds the same bytes, from is removed.
func moveOnce(from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		a, err1 := os.ReadFile(from)
		b, err2 := os.ReadFile(to)
		if err1 != nil || err2 != nil || string(a) != string(b) {
			return fmt.Errorf("%s exists and is another file: not replaced", to)
		}
		return os.Remove(from)
	}
	return os.Rename(from, to)
}

// makeFolder makes dir and any missing parent, each new entry synced.
func makeFolder(dir string) error {
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return nil
	}
	if err := makeFolder(filepath.Dir(dir)); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o750); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return syncDir(filepath.Dir(dir))
}

// followMarkers moves the delivery markers beside from to beside to.
func followMarkers(from, to string) error {
	moved := false
	for _, s := range deliveryMarkers {
		err := os.Rename(from+s, to+s)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("journal: moving %s: %w", filepath.Base(from+s), err)
		}
		moved = moved || err == nil
	}
	if !moved {
		return nil
	}
	if err := syncDir(filepath.Dir(to)); err != nil {
		return err
	}
	return syncDir(filepath.Dir(from))
}

// delivered reports whether the desk's stored marker (.sent) is beside path.
func delivered(path string) bool {
	return fileExists(path + deliveryMarkers[0])
}

// Tidied is what ArchiveFinished did.
type Tidied struct {
	Archived []string // the new paths of the journals moved into the archive
	Failed   []error  // finished journals left at the top (each error names its file)
}

// ArchiveFinished moves every finished journal at the top of dir into the
// archive (Archive), and the delivery markers a crash left beside a
// journal already moved. Damaged and unfinished journals stay (they are
// Unfinished's). It reads the top of the folder only. progress, if set, is
// called after each journal moved.
func ArchiveFinished(dir string, progress func(done int)) (Tidied, error) {
	var t Tidied
	des, err := os.ReadDir(dir)
	if err != nil {
		return t, fmt.Errorf("journal: %w", err)
	}
	for _, de := range des {
		name := de.Name()
		if de.IsDir() {
			continue
		}
		if strings.HasSuffix(name, Extension) {
			path := filepath.Join(dir, name)
			if j, err := Read(path); err != nil || !j.Finished() {
				continue
			}
			moved, err := Archive(dir, path)
			if err != nil {
				t.Failed = append(t.Failed, err)
				continue
			}
			t.Archived = append(t.Archived, moved)
			if progress != nil {
				progress(len(t.Archived))
			}
			continue
		}
		if err := strayMarker(dir, name); err != nil {
			t.Failed = append(t.Failed, err)
		}
	}
	return t, nil
}

// strayMarker moves a delivery marker left at the top of dir by a crash
// after its journal was archived, to beside the journal.
func strayMarker(dir, name string) error {
	for _, s := range deliveryMarkers {
		base, ok := strings.CutSuffix(name, s)
		if !ok || !strings.HasSuffix(base, Extension) || fileExists(filepath.Join(dir, base)) {
			continue
		}
		if dst := ArchivePath(dir, base); fileExists(dst) {
			return followMarkers(filepath.Join(dir, base), dst)
		}
	}
	return nil
}

// Locate finds the journal named name (a file name, FileName) in the
// journals folder dir: at the top, or in the archive. ok is false when it
// is in neither.
func Locate(dir, name string) (path string, ok bool) {
	if name != filepath.Base(name) || !strings.HasSuffix(name, Extension) {
		return "", false
	}
	for _, p := range []string{filepath.Join(dir, name), ArchivePath(dir, name)} {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, true
		}
	}
	return "", false
}

// Enqueue puts the journal at path (in the journals folder dir, archived or
// not) in the outbox: "outbox/NAME.wtj.queued", written atomically, holds
// its path relative to dir. Enqueueing it again changes nothing.
func Enqueue(dir, path string) error {
	rel, err := filepath.Rel(dir, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return fmt.Errorf("journal: %s is not in the journals folder %s", path, dir)
	}
	box := filepath.Join(dir, OutboxDir)
	if err := makeFolder(box); err != nil {
		return fmt.Errorf("journal: outbox: %w", err)
	}
	entry := filepath.Join(box, filepath.Base(path)+QueuedSuffix)
	if b, err := os.ReadFile(entry); err == nil && strings.TrimSpace(string(b)) == filepath.ToSlash(rel) {
		return nil
	}
	if err := atomicfile.Write(entry, []byte(filepath.ToSlash(rel)+"\n"), 0o640); err != nil {
		return fmt.Errorf("journal: outbox: %w", err)
	}
	return nil
}

// Dequeue takes the journal at path (its file name counts) out of the
// outbox of dir; one that is not there is no error.
func Dequeue(dir, path string) error {
	entry := filepath.Join(dir, OutboxDir, filepath.Base(path)+QueuedSuffix)
	err := os.Remove(entry)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // never queued (a journal at the top of dir), or no outbox yet
	}
	if err != nil {
		return fmt.Errorf("journal: outbox: %w", err)
	}
	return syncDir(filepath.Dir(entry))
}

// Queued lists the journals in the outbox of dir, oldest first (by name):
// the archived journal each entry names, or the journal still at the top
// of dir when a crash came before the move. It reads the outbox only, not
// the journals. An entry whose journal is nowhere (removed by hand) is
// dropped from the outbox.
func Queued(dir string) ([]string, error) {
	box := filepath.Join(dir, OutboxDir)
	des, err := os.ReadDir(box)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: outbox: %w", err)
	}
	var out []string
	for _, de := range des {
		name, ok := strings.CutSuffix(de.Name(), QueuedSuffix)
		if !ok || de.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(box, de.Name()))
		if err != nil {
			return out, fmt.Errorf("journal: outbox: %w", err)
		}
		rel := filepath.FromSlash(strings.TrimSpace(string(b)))
		p := filepath.Join(dir, rel)
		if rel == "" || strings.HasPrefix(rel, "..") || filepath.IsAbs(rel) || !fileExists(p) {
			p = filepath.Join(dir, name)
		}
		if !fileExists(p) {
			if alt, ok := Locate(dir, name); ok {
				p = alt
			} else {
				os.Remove(filepath.Join(box, de.Name()))
				continue
			}
		}
		out = append(out, p)
	}
	sort.Slice(out, func(a, b int) bool { return filepath.Base(out[a]) < filepath.Base(out[b]) })
	return out, nil
}
