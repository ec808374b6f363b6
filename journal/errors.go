package journal

import (
	"errors"
	"fmt"

	"wolftable/engine"
)

// Sentinel errors; the typed errors below wrap them for errors.Is.
var (
	// ErrNotJournal: the file does not start with Magic.
	ErrNotJournal = errors.New("journal: not a journal file (bad magic)")
	// ErrNoHeader: the file ends before its header record is complete — the
	// power went during Create, before any input was journaled.
	ErrNoHeader = errors.New("journal: no complete header record")
	// ErrFrame: a record's length check (CRC-32C) failed, or its length is
	// out of range.
	ErrFrame = errors.New("journal: record frame damaged")
	// ErrHash: a complete record whose chain hash does not verify.
	ErrHash = errors.New("journal: chain hash does not verify")
	// ErrRecord: a record whose hash verifies but whose content is invalid
	// (bad encoding, wrong order) — written by something else than Writer.
	ErrRecord = errors.New("journal: invalid record")
	// ErrSignature: a signed end record whose signature does not verify
	// with the public key it names: the journal was changed after the table
	// signed it (or the signature forged).
	ErrSignature = errors.New("journal: the end record's signature does not verify")
	// ErrFinished: OpenAppend on a journal that has its end record, or
	// Append after the end record.
	ErrFinished = errors.New("journal: the journal is finished")
)

// CorruptError is damage that is not a torn tail: the load stops there and
// returns no game. Index is the record (0 = the header), Offset the byte
// offset of its frame in the file.
type CorruptError struct {
	Path   string
	Index  int
	Offset int64
	Err    error // ErrFrame, ErrHash, ErrRecord or ErrSignature
	Detail string
}

// where is "journal: PATH: ", or "journal: " for a journal read from memory.
func where(path string) string {
	if path == "" {
		return "journal: "
	}
	return "journal: " + path + ": "
}

func (e *CorruptError) Error() string {
	msg := fmt.Sprintf("%srecord %d at byte %d: %v", where(e.Path), e.Index, e.Offset, e.Err)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg + " (damage, not a torn tail)"
}

func (e *CorruptError) Unwrap() error { return e.Err }

// VersionError is a header written by a newer format than this build reads.
type VersionError struct {
	Path    string
	Version uint64
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("%sformat version %d; this build reads up to %d", where(e.Path), e.Version, FormatVersion)
}

// ReplayError is a journal that verifies but does not replay: the engine
// refuses an input it accepted when the game was played (or accepts one it
// refused), the board changed, or the end record's result disagrees.
type ReplayError struct {
	Path   string
	Index  int   // the record (0 = the header)
	Offset int64 // its byte offset
	Msg    string
	Err    error // the engine's error, when there is one
}

func (e *ReplayError) Error() string {
	msg := fmt.Sprintf("%sreplay: record %d at byte %d: %s", where(e.Path), e.Index, e.Offset, e.Msg)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *ReplayError) Unwrap() error { return e.Err }

// engineError returns the engine's typed error, if err is one.
func engineError(err error) *engine.Error {
	var e *engine.Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}
