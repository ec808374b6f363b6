package desk

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/nats-io/nats.go"

	"wolftable/internal/atomicfile"
	"wolftable/journal"
)

// Outbox lists the journals of dir that wait for the desk: finished (an
// end record), without a .sent marker (the desk holds it) and without a
// .refused one (the desk refused it: `wolftable record resend`), at the
// top of dir (one a crash or an older version left there) and in the
// journals' outbox (journal.Queued: the archived games not yet stored). It
// never reads the archive. Unfinished journals are the game in progress
// (or one to resume).
//
// The list is in the games' start order (their headers' start times):
// the desk holds a record that arrives after one of a later-started game
// of the table as late, for the operator. Journal names have a second's
// resolution, so several short games (a practice run, a test at speed)
// started in one second would otherwise go out in their random suffixes'
// order.
func Outbox(dir string) ([]string, error) {
	var out []string
	start := map[string]time.Time{}
	err := eachOutgoing(dir, func(f string) error {
		if fileExists(f + SentSuffix) {
			return journal.Dequeue(dir, f) // stored; the entry is a crash's leftover
		}
		if fileExists(f + RefusedSuffix) {
			return nil
		}
		j, err := journal.Read(f)
		if err != nil || !j.Finished() {
			return nil // a damaged one is for the judge (record verify), not the desk
		}
		out = append(out, f)
		start[f] = j.Header.Start
		return nil
	})
	sort.SliceStable(out, func(a, b int) bool { return start[out[a]].Before(start[out[b]]) })
	return out, err
}

// eachOutgoing calls f for each journal at the top of dir and in its
// outbox, once each, in name order.
func eachOutgoing(dir string, f func(path string) error) error {
	files, err := filepath.Glob(filepath.Join(dir, "*"+journal.Extension))
	if err != nil {
		return err
	}
	queued, err := journal.Queued(dir)
	if err != nil {
		return err
	}
	all := append(files, queued...)
	sort.Slice(all, func(a, b int) bool { return filepath.Base(all[a]) < filepath.Base(all[b]) })
	seen := map[string]bool{}
	for _, path := range all {
		if seen[filepath.Base(path)] {
			continue
		}
		seen[filepath.Base(path)] = true
		if err := f(path); err != nil {
			return err
		}
	}
	return nil
}

// RefusedJournals lists the journals of dir the desk refused, with their
// markers: those at the top of dir and those of the outbox (a refused
// journal stays queued), never reading the archive.
func RefusedJournals(dir string) (map[string]RefusedMarker, error) {
	out := map[string]RefusedMarker{}
	err := eachOutgoing(dir, func(f string) error {
		b, err := os.ReadFile(f + RefusedSuffix)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		var m RefusedMarker
		if err := json.Unmarshal(b, &m); err != nil {
			m.Reason = fmt.Sprintf("（拒收標記無法讀取：%v）", err)
		}
		out[f] = m
		return nil
	})
	return out, err
}

// Resend puts refused journals back in the outbox (their .refused markers
// removed): all of dir's when files is empty; a file may be named by its
// path or, as the judge reads it, by its name alone (found at the top of
// dir or in the archive). It returns the journals put back; a running
// table sends them at its next scan (within 30 s).
func Resend(dir string, files []string) ([]string, error) {
	if len(files) == 0 {
		ref, err := RefusedJournals(dir)
		if err != nil {
			return nil, err
		}
		for f := range ref {
			files = append(files, f)
		}
		sort.Strings(files)
	}
	var back []string
	for _, f := range files {
		if !fileExists(f) {
			if at, ok := journal.Locate(dir, filepath.Base(f)); ok {
				f = at
			}
		}
		err := os.Remove(f + RefusedSuffix)
		if errors.Is(err, os.ErrNotExist) {
			return back, fmt.Errorf("%s 沒有被總台拒收（沒有 %s）", f, RefusedSuffix)
		}
		if err != nil {
			return back, err
		}
		if filepath.Dir(f) != filepath.Clean(dir) {
			if err := journal.Enqueue(dir, f); err != nil { // archived: the outbox must name it
				return back, err
			}
		}
		back = append(back, f)
	}
	return back, nil
}

// scan sends every journal of the outbox; it returns how many are left.
func (p *Publisher) scan() int {
	list, err := Outbox(p.cfg.JournalDir)
	if err != nil {
		p.log.Warn("desk: outbox", "err", err)
		return 0
	}
	for i, path := range list {
		if !p.nc.IsConnected() {
			return len(list) - i
		}
		select {
		case <-p.stop:
			return len(list) - i
		default:
		}
		if err := p.sendRecord(path); err != nil {
			p.log.Warn("desk: record not confirmed by the desk yet; it stays in the outbox", "journal", filepath.Base(path), "err", err)
			return len(list) - i
		}
	}
	return 0
}

var errUnconfirmed = errors.New("the desk has not said what it did with the record")

// sendRecord sends one journal and waits for the desk's verdict: asked
// first (the desk may hold it already: a marker lost to a power cut),
// then published with a fresh attempt id and asked until the desk says
// it stored it (.sent) or refused it (.refused, with its reason).
// JetStream's acknowledgement alone marks nothing.
func (p *Publisher) sendRecord(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	j, err := journal.Read(path)
	if err != nil {
		return err
	}
	head := j.Head()
	hash := hex.EncodeToString(head[:])
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	ctx, cancel := context.WithTimeout(context.Background(), p.cfg.Confirm)
	defer cancel()
	if v, err := p.ask(ctx, Ask{Hash: hash, Digest: digest}); err == nil && v.State == VerdictStored {
		v.Duplicate = true
		return p.markSent(path, hash, v, "", 0)
	}
	var raw [attemptIDLen / 2]byte
	rand.Read(raw[:])
	attempt := hex.EncodeToString(raw[:])
	m := nats.NewMsg(Subject(p.cfg.Creds.Table, KindRecord))
	m.Data = data
	m.Header.Set(FileHeader, filepath.Base(path))
	m.Header.Set(AttemptHeader, attempt)
	ack, err := p.js.PublishMsg(ctx, m)
	if err != nil {
		return err
	}
	wait := 20 * time.Millisecond
	for {
		v, err := p.ask(ctx, Ask{Hash: hash, Digest: digest, Attempt: attempt})
		switch {
		case err == nil && v.State == VerdictStored:
			return p.markSent(path, hash, v, ack.Stream, ack.Sequence)
		case err == nil && v.State == VerdictRefused:
			return p.markRefused(path, hash, attempt, v.Reason)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (%v)", errUnconfirmed, ctx.Err())
		case <-p.stop:
			return errUnconfirmed
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

// ask asks the desk about a record of this table.
func (p *Publisher) ask(ctx context.Context, a Ask) (Verdict, error) {
	body, _ := json.Marshal(a)
	actx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	msg, err := p.nc.RequestWithContext(actx, Subject(p.cfg.Creds.Table, KindAsk), body)
	if err != nil {
		return Verdict{}, err
	}
	var v Verdict
	if err := json.Unmarshal(msg.Data, &v); err != nil {
		return Verdict{}, fmt.Errorf("desk: the desk's answer: %w", err)
	}
	return v, nil
}

func (p *Publisher) markSent(path, hash string, v Verdict, stream string, seq uint64) error {
	beforeMark()
	mk, _ := json.Marshal(Marker{Hash: hash, Fingerprint: v.Fingerprint, Stream: stream, Seq: seq, Duplicate: v.Duplicate, At: time.Now()})
	if err := p.mark(path, SentSuffix, append(mk, '\n')); err != nil {
		return err
	}
	if err := journal.Dequeue(p.cfg.JournalDir, path); err != nil {
		return err
	}
	p.log.Info("desk: record held by the desk", "journal", filepath.Base(path), "hash", hash[:8], "duplicate", v.Duplicate)
	return nil
}

func (p *Publisher) markRefused(path, hash, attempt, reason string) error {
	reason = ClipReason(reason)
	mk, _ := json.Marshal(RefusedMarker{Hash: hash, Attempt: attempt, Reason: reason, At: time.Now()})
	if err := p.mark(path, RefusedSuffix, append(mk, '\n')); err != nil {
		return err
	}
	p.log.Error("desk: the desk refused a record", "journal", filepath.Base(path), "reason", reason)
	p.mu.Lock()
	f := p.onRefused
	p.mu.Unlock()
	if f != nil {
		f(path, reason)
	}
	return nil
}

// mark writes the marker NAME.wtj+suffix beside the journal at path. A
// journal moved into the archive meanwhile (the game's end archives it
// while this sends it from the top of the folder) gets its marker beside
// it there.
func (p *Publisher) mark(path, suffix string, body []byte) error {
	if err := atomicfile.Write(path+suffix, body, 0o640); err != nil {
		return err
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		if now, ok := journal.Locate(p.cfg.JournalDir, filepath.Base(path)); ok {
			if err := os.Rename(path+suffix, now+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}
