package journal

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"wolftable/engine"
)

// ErrLocked: another Writer (in this or another process) has the journal open.
var ErrLocked = errors.New("journal: the journal is open in another writer")

// ErrClosed: Append on a closed Writer.
var ErrClosed = errors.New("journal: writer closed")

// Writer appends records to one journal file. Append returns only when the
// record is on the disk (written and fsynced). A Writer is safe for use by
// several goroutines; while it is open no other Writer can open the file.
//
// After a failed write or fsync the Writer refuses every further Append
// (the file may hold part of the record): close it and continue with
// OpenAppend, which drops the torn record.
type Writer struct {
	mu      sync.Mutex
	f       *os.File
	path    string
	header  Header
	head    [32]byte
	next    int   // index of the next record
	size    int64 // bytes of the file
	last    Kind
	started bool
	err     error // sticky write error
	buf     []byte
	body    []byte
}

// NewGameID returns a fresh random game id: 6 lower-case hex digits.
func NewGameID() string {
	var b [3]byte
	rand.Read(b[:]) // never fails (Go 1.24 and later)
	return hex.EncodeToString(b[:])
}

// FileName is the journal's file name: the start time (in its own zone,
// to the second) and the game id, "2026-11-29T20-15-03_ab12cd.wtj".
func FileName(h Header) string {
	return h.Start.Format("2006-01-02T15-04-05") + "_" + h.GameID + Extension
}

// Create makes a new journal in dir (which must exist) and writes its
// header. A zero Format becomes the lowest format that holds the header (2,
// or 3 with bottom cards) and an empty GameID a fresh
// NewGameID; build the rest with HeaderFor. The file name is FileName(h);
// Create fails if that file exists.
func Create(dir string, h Header) (*Writer, error) {
	if h.Format == 0 {
		h.Format = formatFor(&h)
	}
	if h.GameID == "" {
		h.GameID = NewGameID()
	}
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("journal: header: %v", err)
	}
	// Round trip the header as the reader will see it (zone, options map).
	body := encodeHeader(nil, &h)
	dh, err := decodeHeader(body)
	if err != nil {
		return nil, fmt.Errorf("journal: header: %v", err)
	}
	path := filepath.Join(dir, FileName(h))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, err
	}
	buf, sum := appendFrame([]byte(Magic), [32]byte{}, body)
	_, err = f.Write(buf)
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("journal: creating %s: %w", path, err)
	}
	return &Writer{f: f, path: path, header: dh, head: sum, next: 1, size: int64(len(buf)), last: KindHeader}, nil
}

// syncDir makes a new directory entry durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// OpenAppend continues an unfinished journal after a restart. It verifies
// the whole file first (as Read) and refuses a damaged or finished one; a
// torn tail is truncated away (and the truncation fsynced) before the first
// Append. It returns the verified journal, for Replay.
func OpenAppend(path string) (*Writer, *Journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, nil, err
	}
	j, err := load(path, f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if j.Finished() {
		f.Close()
		return nil, nil, fmt.Errorf("%s%w", where(path), ErrFinished)
	}
	if j.TornTail {
		err := f.Truncate(j.Size)
		if err == nil {
			err = f.Sync()
		}
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("journal: dropping the torn tail of %s: %w", path, err)
		}
	}
	w := &Writer{f: f, path: path, header: j.Header, head: j.Head(), next: len(j.Records) + 1, size: j.Size, last: KindHeader}
	for _, r := range j.Records {
		w.last = r.Kind
		w.started = w.started || r.Kind == KindStart
	}
	return w, j, nil
}

// Path is the journal's file.
func (w *Writer) Path() string { return w.path }

// Header is the journal's header as written.
func (w *Writer) Header() Header { return w.header }

// Records is the number of records in the file, the header included.
func (w *Writer) Records() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.next
}

// Append writes one record, chained to the one before, and fsyncs the file
// before it returns. The record must follow the order rules of doc.go (one
// start record; a refused record only right after an input record; nothing
// after the end record: ErrFinished). Record.Index, Offset and Hash are
// ignored.
func (w *Writer) Append(r Record) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.err != nil:
		return w.err
	case w.f == nil:
		return ErrClosed
	case w.last == KindEnd:
		return fmt.Errorf("%s%w", where(w.path), ErrFinished)
	}
	if err := r.check(); err != nil {
		return fmt.Errorf("journal: record %d: %v", w.next, err)
	}
	if err := order(w.last, w.started, r.Kind); err != nil {
		return fmt.Errorf("journal: record %d: %v", w.next, err)
	}
	w.body = encodeRecord(w.body[:0], &r)
	if r.Signed {
		switch {
		case w.header.Format < 2:
			return fmt.Errorf("journal: record %d: a signed end record in a format %d journal", w.next, w.header.Format)
		case !sealVerifies(w.head, w.body, &r):
			return fmt.Errorf("journal: record %d: %w", w.next, ErrSignature)
		}
	}
	var sum [32]byte
	w.buf, sum = appendFrame(w.buf[:0], w.head, w.body)
	tear(w.f, w.next, w.buf)
	if _, err := w.f.Write(w.buf); err != nil {
		// Best effort: take the partial record back out. Either way the
		// Writer is done; OpenAppend treats any leftover as a torn tail.
		w.f.Truncate(w.size)
		w.err = fmt.Errorf("journal: writing record %d of %s: %w", w.next, w.path, err)
		return w.err
	}
	if err := w.f.Sync(); err != nil {
		w.err = fmt.Errorf("journal: fsync of record %d of %s: %w", w.next, w.path, err)
		return w.err
	}
	w.head = sum
	w.next++
	w.size += int64(len(w.buf))
	w.last = r.Kind
	w.started = w.started || r.Kind == KindStart
	return nil
}

// End closes the journal with the game's result ("" for none), signed with
// the table's key when key is not nil (doc.go, "Signature"): the signature
// covers the header, every record and the end record itself. A format 1
// journal (begun by an older build, resumed by this one) cannot hold a
// signature: its end record is written unsigned. It returns the record
// written, and the journal's final hash is then Head.
func (w *Writer) End(wall time.Time, source, result string, key ed25519.PrivateKey) (Record, error) {
	r := EndRecord(wall, source, result)
	if key != nil && w.header.Format >= 2 {
		w.mu.Lock()
		prev := w.head
		w.mu.Unlock()
		if err := signEnd(&r, prev, key); err != nil {
			return r, err
		}
	}
	return r, w.Append(r)
}

// signEnd signs end record r, to follow the record whose chain hash is prev.
func signEnd(r *Record, prev [32]byte, key ed25519.PrivateKey) error {
	if len(key) != ed25519.PrivateKeySize {
		return errors.New("journal: not an ed25519 private key")
	}
	r.Signed, r.Signature = true, [64]byte{}
	copy(r.PublicKey[:], key.Public().(ed25519.PublicKey))
	body := encodeRecord(nil, r)
	copy(r.Signature[:], ed25519.Sign(key, sealMessage(prev, body[:len(body)-64])))
	return nil
}

// Head is the chain hash of the journal's last record: after End, the
// final hash, whose Fingerprint the judge writes on the score sheet.
func (w *Writer) Head() [32]byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.head
}

// Start journals the start of the game, then starts g (which must be the
// game this journal describes, not started yet).
func (w *Writer) Start(g *engine.Game, wall time.Time, source string) ([]engine.Effect, error) {
	if err := w.Append(StartRecord(wall, source)); err != nil {
		return nil, err
	}
	return g.Start()
}

// Apply is the runtime's one path for an input (design.md): journal it and
// fsync, then apply it to g. If the journal cannot take the input, g never
// sees it and the error is the journal's. If the engine refuses the input,
// the refusal is journaled too (a KindRefused record) and the engine's
// *engine.Error is returned — joined with the journal's error should that
// second append fail. The effects are g.Apply's (reused by its next call).
func (w *Writer) Apply(g *engine.Game, wall time.Time, source string, in engine.Input) ([]engine.Effect, error) {
	if err := w.Append(InputRecord(wall, source, in)); err != nil {
		return nil, err
	}
	effs, err := g.Apply(in)
	if err == nil {
		return effs, nil
	}
	ee := engineError(err)
	if ee == nil {
		return nil, err
	}
	if jerr := w.Append(RefusedRecord(wall, ee)); jerr != nil {
		return nil, errors.Join(err, jerr)
	}
	return nil, err
}

// Close closes the file (every record is already on the disk) and lets
// another Writer open it. It does not write an end record: Append an
// EndRecord first when the game is finished.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return ErrClosed
	}
	err := w.f.Close()
	w.f = nil
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

var _ io.Closer = (*Writer)(nil)
