package desk_test

import (
	"os"
	"path/filepath"
	"testing"

	"wolftable/desk"
	"wolftable/desk/desktest"
	"wolftable/journal"
)

// TestOutboxReadsNoArchive: the outbox is the top of the journals folder
// and its queued entries. An archived game the desk has (its .sent beside
// it) is never read again: garbage in its place is not an error and not
// listed. An archived game not yet sent is listed once, and a queued entry
// whose journal got its marker (a crash between the two) leaves the
// outbox. Before the archive, the outbox read every journal ever written.
func TestOutboxReadsNoArchive(t *testing.T) {
	dir := t.TempDir()
	sent := desktest.Play(t, dir, "seer-witch-hunter-idiot", 31, key(1), 0)
	os.WriteFile(sent+desk.SentSuffix, []byte("{}\n"), 0o640)
	waiting := desktest.Play(t, dir, "seer-witch-hunter-idiot", 32, key(1), 0)
	marked := desktest.Play(t, dir, "seer-witch-hunter-idiot", 33, key(1), 0)
	if tidy, err := journal.ArchiveFinished(dir, nil); err != nil || len(tidy.Archived) != 3 {
		t.Fatalf("archived %v: %v", tidy.Archived, err)
	}
	sentNow := journal.ArchivePath(dir, filepath.Base(sent))
	os.WriteFile(sentNow, []byte("garbage: never read"), 0o644)
	markedNow := journal.ArchivePath(dir, filepath.Base(marked))
	os.WriteFile(markedNow+desk.SentSuffix, []byte("{}\n"), 0o640) // acknowledged, not yet dequeued
	list, err := desk.Outbox(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := journal.ArchivePath(dir, filepath.Base(waiting)); len(list) != 1 || list[0] != want {
		t.Fatalf("outbox %v, want [%s]", list, want)
	}
	if q, _ := journal.Queued(dir); len(q) != 1 {
		t.Fatalf("queued after the scan: %v (the acknowledged one stays)", q)
	}
}
