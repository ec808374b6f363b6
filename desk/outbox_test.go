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

// TestRefusedFoundInTheArchive: a journal the desk refused keeps its
// outbox entry when it is archived, so the refusals are listed (for the
// judge and `record resend`) without reading the archive, the outbox
// skips it until it is resent, and a resend by name alone puts it back.
// Before, an archived refused journal left the outbox and was listed by
// nothing: the judge never heard of it again and resend could not find it.
func TestRefusedFoundInTheArchive(t *testing.T) {
	dir := t.TempDir()
	before := desktest.Play(t, dir, "seer-witch-hunter-idiot", 41, key(1), 0)
	os.WriteFile(before+desk.RefusedSuffix, []byte(`{"reason":"另一把金鑰"}`+"\n"), 0o640) // refused, then archived
	after := desktest.Play(t, dir, "seer-witch-hunter-idiot", 42, key(1), 0)
	if tidy, err := journal.ArchiveFinished(dir, nil); err != nil || len(tidy.Archived) != 2 {
		t.Fatalf("archived %v: %v", tidy.Archived, err)
	}
	afterNow := journal.ArchivePath(dir, filepath.Base(after))
	os.WriteFile(afterNow+desk.RefusedSuffix, []byte(`{"reason":"編輯過的紀錄"}`+"\n"), 0o640) // refused once archived
	ref, err := desk.RefusedJournals(dir)
	if err != nil {
		t.Fatal(err)
	}
	beforeNow := journal.ArchivePath(dir, filepath.Base(before))
	if len(ref) != 2 || ref[beforeNow].Reason != "另一把金鑰" || ref[afterNow].Reason != "編輯過的紀錄" {
		t.Fatalf("refused %v, want both archived journals with their reasons", ref)
	}
	if list, err := desk.Outbox(dir); err != nil || len(list) != 0 {
		t.Fatalf("outbox %v, %v: a refused journal waits for resend", list, err)
	}
	back, err := desk.Resend(dir, []string{filepath.Base(before)})
	if err != nil || len(back) != 1 || back[0] != beforeNow {
		t.Fatalf("resend %v, %v; want [%s]", back, err, beforeNow)
	}
	if list, err := desk.Outbox(dir); err != nil || len(list) != 1 || list[0] != beforeNow {
		t.Fatalf("outbox after resend %v, %v; want [%s]", list, err, beforeNow)
	}
}

// TestOutboxWithoutAnOutboxFolder: journals at the top of a folder that
// has no outbox yet (a table of an older version, a desk test's folder),
// one of them already marked sent: the outbox lists the other. Before the
// fix, the sent one's Dequeue failed on the missing folder, Outbox
// returned the error and the table sent nothing more.
func TestOutboxWithoutAnOutboxFolder(t *testing.T) {
	dir := t.TempDir()
	sent := desktest.Play(t, dir, "seer-witch-hunter-idiot", 41, key(1), 0)
	os.WriteFile(sent+desk.SentSuffix, []byte("{}\n"), 0o640)
	waiting := desktest.Play(t, dir, "seer-witch-hunter-idiot", 42, key(1), 0)
	list, err := desk.Outbox(dir)
	if err != nil || len(list) != 1 || list[0] != waiting {
		t.Fatalf("outbox %v (%v), want [%s]", list, err, waiting)
	}
}

// TestOutboxInStartOrder: the outbox sends in the games' start order,
// not their names' (a second's resolution: games started in one second
// sort by their random suffixes). The later game's journal here has a
// name that sorts first. Before, the outbox went by name, the desk got
// the later game first and held the earlier one as late (the soak's
// games at speed 5000 start several a second).
func TestOutboxInStartOrder(t *testing.T) {
	dir := t.TempDir()
	first := desktest.Play(t, dir, "seer-witch-hunter-idiot", 51, key(1), 0)
	later := desktest.Play(t, dir, "seer-witch-hunter-idiot", 52, key(1), 0)
	renamed := filepath.Join(dir, "0000-later"+journal.Extension)
	if err := os.Rename(later, renamed); err != nil {
		t.Fatal(err)
	}
	list, err := desk.Outbox(dir)
	if err != nil || len(list) != 2 || list[0] != first || list[1] != renamed {
		t.Fatalf("outbox %v (%v), want [%s %s]", list, err, first, renamed)
	}
}
