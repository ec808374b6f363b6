package journal

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"time"
)

// maxFile bounds what Read and Load accept; a whole evening of games is a
// few hundred kilobytes.
const maxFile = 64 << 20

// Journal is a verified journal: the header and every record after it, the
// whole hash chain checked.
type Journal struct {
	Path       string
	Header     Header
	HeaderHash [32]byte
	Records    []Record // records 1..n, in order; Records[i].Index == i+1
	// TornTail reports that the file's last record was cut short by a power
	// cut during its write (doc.go) and was dropped; TornBytes is how many
	// bytes were dropped. Every record in Records verified.
	TornTail  bool
	TornBytes int64
	// Size is the length of the verified part of the file: where OpenAppend
	// continues.
	Size int64
}

// Head is the chain hash of the last verified record.
func (j *Journal) Head() [32]byte {
	if n := len(j.Records); n > 0 {
		return j.Records[n-1].Hash
	}
	return j.HeaderHash
}

// End returns the end record, if the journal has one.
func (j *Journal) End() (Record, bool) {
	if n := len(j.Records); n > 0 && j.Records[n-1].Kind == KindEnd {
		return j.Records[n-1], true
	}
	return Record{}, false
}

// Finished reports whether the journal has its end record.
func (j *Journal) Finished() bool { _, ok := j.End(); return ok }

// Read loads and verifies the journal at path (see Load).
func Read(path string) (*Journal, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	return load(path, f)
}

// Load reads a whole journal from r and verifies it. A torn last record is
// dropped and reported in TornTail; any other damage returns an error —
// *CorruptError (naming the record and its byte offset), *VersionError,
// ErrNotJournal or ErrNoHeader — and no journal.
func Load(r io.Reader) (*Journal, error) { return load("", r) }

func load(path string, r io.Reader) (*Journal, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s%w", where(path), err)
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("%slarger than %d bytes", where(path), maxFile)
	}
	return parse(path, data)
}

// sealVerifies checks a signed end record's signature with the public key
// it carries (whether that key is the table's is Summary.Check's question).
func sealVerifies(prev [32]byte, body []byte, r *Record) bool {
	if len(body) < 64 {
		return false
	}
	return ed25519.Verify(r.PublicKey[:], sealMessage(prev, body[:len(body)-64]), r.Signature[:])
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// parse verifies data as a journal (doc.go, "Reading").
func parse(path string, data []byte) (*Journal, error) {
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		if bytes.HasPrefix([]byte(Magic), data) {
			return nil, fmt.Errorf("%s%w (the file ends after %d bytes)", where(path), ErrNoHeader, len(data))
		}
		return nil, fmt.Errorf("%s%w", where(path), ErrNotJournal)
	}
	j := &Journal{Path: path}
	var prev [32]byte
	var zone *time.Location
	last, started := KindHeader, false
	pos := len(Magic)
	for idx := 0; pos < len(data); idx++ {
		rest := data[pos:]
		corrupt := func(err error, format string, a ...any) error {
			return &CorruptError{Path: path, Index: idx, Offset: int64(pos), Err: err, Detail: fmt.Sprintf(format, a...)}
		}
		// A tear: the file ends inside this record's frame, or the rest of
		// the file is bytes the file system allocated but never wrote.
		if allZero(rest) || len(rest) < frameHead {
			j.TornTail = true
			break
		}
		n := binary.BigEndian.Uint32(rest[:4])
		if binary.BigEndian.Uint32(rest[4:8]) != crc32.Checksum(rest[:4], castagnoli) {
			return nil, corrupt(ErrFrame, "the length check fails")
		}
		if n == 0 || n > MaxBody {
			return nil, corrupt(ErrFrame, "length %d out of range 1..%d", n, MaxBody)
		}
		end := frameHead + int(n) + hashSize
		if len(rest) < end {
			j.TornTail = true
			break
		}
		body := rest[frameHead : frameHead+int(n)]
		var stored [32]byte
		copy(stored[:], rest[frameHead+int(n):end])
		sum := chain(prev, body)
		if sum != stored {
			if allZero(rest[frameHead+int(n):]) {
				// The last record, whose end (the hash) never reached the disk.
				j.TornTail = true
				break
			}
			return nil, corrupt(ErrHash, "")
		}
		if idx == 0 {
			h, err := decodeHeader(body)
			if err != nil {
				var ve *VersionError
				if errors.As(err, &ve) {
					ve.Path = path
					return nil, ve
				}
				return nil, corrupt(ErrRecord, "%v", err)
			}
			j.Header, j.HeaderHash = h, sum
			zone = h.Start.Location()
		} else {
			rec, err := decodeRecord(body, zone)
			if err == nil {
				err = order(last, started, rec.Kind)
			}
			if err == nil && rec.Signed && j.Header.Format < 2 {
				err = fmt.Errorf("a signed end record in a format %d journal", j.Header.Format)
			}
			if err != nil {
				return nil, corrupt(ErrRecord, "%v", err)
			}
			if rec.Signed && !sealVerifies(prev, body, &rec) {
				return nil, corrupt(ErrSignature, "")
			}
			rec.Index, rec.Offset, rec.Hash = idx, int64(pos), sum
			j.Records = append(j.Records, rec)
			last, started = rec.Kind, started || rec.Kind == KindStart
		}
		prev = sum
		pos += end
	}
	if zone == nil {
		return nil, fmt.Errorf("%s%w (the power went while the journal was created)", where(path), ErrNoHeader)
	}
	j.Size = int64(pos)
	j.TornBytes = int64(len(data) - pos)
	return j, nil
}
