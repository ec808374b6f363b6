package desk

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"wolftable/internal/atomicfile"
	"wolftable/journal"
)

// Refused records (issue 28 D5). Every refusal is answered to its table
// with the reason; what the desk keeps of it is bounded per table, so that
// a table's credentials cannot fill the desk's disk: its first
// RefusedList refusals are listed (DATA/refused.jsonl, the reason
// clipped), and their bytes kept (DATA/refused/<digest>.wtj) while they
// fit in RefusedBytes; past the list a refusal is only counted
// (DATA/refused-counts.json), and the page says how many were not listed.

// The default per-table quotas.
const (
	DefaultRefusedBytes = 8 << 20
	DefaultRefusedList  = 500
)

type refusedQuota struct {
	bytes  int64 // bytes kept
	listed int
	over   int // refusals past the list, counted only
}

func (s *Store) quotaOf(table string) *refusedQuota {
	q := s.quota[table]
	if q == nil {
		q = &refusedQuota{}
		s.quota[table] = q
	}
	return q
}

func (s *Store) limits() (int64, int) {
	b, l := s.RefusedBytes, s.RefusedList
	if b <= 0 {
		b = DefaultRefusedBytes
	}
	if l <= 0 {
		l = DefaultRefusedList
	}
	return b, l
}

func (s *Store) refusedPath() string { return filepath.Join(s.data, "refused.jsonl") }
func (s *Store) countsPath() string  { return filepath.Join(s.data, "refused-counts.json") }

func (s *Store) loadRefused() error {
	if b, err := os.ReadFile(s.refusedPath()); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var r Refusal
			if json.Unmarshal(sc.Bytes(), &r) == nil {
				s.refused = append(s.refused, r)
				s.seenBad[r.Subject+" "+r.Digest] = true
				q := s.quotaOf(r.Table)
				q.listed++
				if r.Kept {
					q.bytes += int64(r.Bytes)
				}
			}
		}
	}
	if b, err := os.ReadFile(s.countsPath()); err == nil {
		var over map[string]int
		if json.Unmarshal(b, &over) == nil {
			for t, n := range over {
				s.quotaOf(t).over = n
			}
		}
	}
	return nil
}

// refuse lists a refusal within the table's quota (counts it past it).
func (s *Store) refuse(r Refusal, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := r.Subject + " " + r.Digest
	if s.seenBad[key] {
		return nil // the same bytes on the same subject again: listed once
	}
	maxBytes, maxList := s.limits()
	q := s.quotaOf(r.Table)
	if q.listed >= maxList {
		q.over++
		if q.over&(q.over-1) == 0 || q.over%1000 == 0 { // 1, 2, 4, … and every 1000th: the count survives a restart
			return s.saveCountsLocked()
		}
		return nil
	}
	r.Reason, r.Bytes = ClipReason(r.Reason), len(data)
	if data != nil && q.bytes+int64(len(data)) <= maxBytes {
		if err := atomicfile.Write(filepath.Join(s.data, "refused", r.Digest+journal.Extension), data, 0o640); err != nil {
			return err
		}
		r.Kept = true
	}
	line, _ := json.Marshal(r)
	if err := appendLine(s.refusedPath(), line); err != nil {
		return err
	}
	if r.Kept {
		q.bytes += int64(len(data))
	}
	q.listed++
	s.refused = append(s.refused, r)
	s.seenBad[key] = true
	return nil
}

func (s *Store) saveCountsLocked() error {
	over := map[string]int{}
	for t, q := range s.quota {
		if q.over > 0 {
			over[t] = q.over
		}
	}
	b, _ := json.Marshal(over)
	return atomicfile.Write(s.countsPath(), b, 0o640)
}

// Flush keeps the counts of the refusals past the lists (the desk's stop).
func (s *Store) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saveCountsLocked()
}

// Refuse lists a refusal that did not come with a record: a table that
// published under another table's subject (the broker refused it).
func (s *Store) Refuse(r Refusal) error {
	if r.At.IsZero() {
		r.At = time.Now()
	}
	if r.Digest == "" {
		sum := sha256.Sum256([]byte(r.Subject + "\x00" + r.Table + "\x00" + r.Reason + r.At.Format(time.RFC3339Nano)))
		r.Digest = hex.EncodeToString(sum[:])
	}
	return s.refuse(r, nil)
}

// Refused lists the refused records, oldest first.
func (s *Store) Refused() []Refusal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Refusal(nil), s.refused...)
}

// Unlisted is, per table, how many refusals were past its list (counted,
// not listed).
func (s *Store) Unlisted() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for t, q := range s.quota {
		if q.over > 0 {
			out[t] = q.over
		}
	}
	return out
}

// Readmit verifies a kept refused record again (digest: its bytes'
// SHA-256), as if it arrived now: once the cause is fixed (the table's
// right key registered with `desk table rekey`, the table registered) it
// is stored and counted, placed in a round as any record, and marked
// readmitted in the list. A record still refused stays listed with its
// first reason; the new one is the error.
func (s *Store) Readmit(digest string) (Game, error) {
	s.mu.Lock()
	var r Refusal
	at := -1
	for i := range s.refused {
		if s.refused[i].Digest == digest {
			r, at = s.refused[i], i
		}
	}
	s.mu.Unlock()
	switch {
	case at < 0:
		return Game{}, fmt.Errorf("拒收清單裡沒有 %.16s", digest)
	case !r.Kept:
		return Game{}, fmt.Errorf("這份拒收的紀錄超過該桌的保存額度，沒有留下內容：請在桌子上執行 wolftable record resend 重送")
	case r.Readmitted != "":
		return Game{}, fmt.Errorf("這份紀錄已經重新收錄了（%.16s）", r.Readmitted)
	}
	data, err := os.ReadFile(filepath.Join(s.data, "refused", digest+journal.Extension))
	if err != nil {
		return Game{}, err
	}
	table, _ := SubjectTable(r.Subject)
	g, err := s.verify(table, data)
	if err != nil {
		return Game{}, fmt.Errorf("仍然無法收錄：%v", err)
	}
	out, v, err := s.IngestVerdict(r.Subject, "", r.File, data)
	if err != nil {
		return Game{}, err
	}
	if out == Refused {
		return Game{}, fmt.Errorf("仍然無法收錄：%s", v.Reason)
	}
	s.mu.Lock()
	s.refused[at].Readmitted = g.Hash
	err = s.rewriteRefusedLocked()
	s.mu.Unlock()
	if err != nil {
		return Game{}, err
	}
	stored, _ := s.Game(g.Hash)
	return stored, s.Log("readmit", g.Hash, fmt.Sprintf("重新收錄 %s 被拒收的紀錄 %s（原因：%s）", table, stored.Fingerprint, r.Reason))
}

// rewriteRefusedLocked writes the refused list whole (s.mu held).
func (s *Store) rewriteRefusedLocked() error {
	var b bytes.Buffer
	for _, r := range s.refused {
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
	}
	return atomicfile.Write(s.refusedPath(), b.Bytes(), 0o640)
}
