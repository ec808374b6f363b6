package journal

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/bots"
	"wolftable/engine"
)

// boardIDs are the ids of the built-in boards.
func boardIDs(t testing.TB) []string {
	t.Helper()
	all, err := boards.All()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, b := range all {
		ids = append(ids, b.ID)
	}
	if len(ids) == 0 {
		t.Fatal("no board")
	}
	return ids
}

// testKey is the test table's signing key; otherKey another table's.
var (
	testKey  = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	otherKey = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{9}, 32))
	testPub  = FormatPublicKey(testKey.Public().(ed25519.PublicKey))
)

// base is the fake wall clock's start: a venue in UTC+8.
var base = time.Date(2026, 11, 29, 20, 15, 3, 0, time.FixedZone("CST", 8*3600))

// testHeaderHook changes the header playJournal writes (a test's seat draw).
var testHeaderHook = func(h Header) Header { return h }

// played is a bot game journaled the way the runtime journals one.
type played struct {
	path    string
	live    []byte   // JSON lines: every accepted input and its effects, as the bots' game gave them
	written []Record // every record appended after the header
	winner  string
}

// playJournal plays a random legal game on board with the bots and
// journals it through Writer.Start and Writer.Apply on a second game (the
// runtime's), the journal's wall time following the bots' fake clock. A
// clock input comes before the start; a penalty and a judge's repeat are
// slipped in now and then. With end, the journal is closed with the
// result. It returns the journal's path and the live effect stream.
func playJournal(t testing.TB, dir, board string, seed uint64, end bool) *played {
	t.Helper()
	b, err := boards.Get(board)
	if err != nil {
		t.Fatal(err)
	}
	return playJournalOn(t, dir, b, seed, end)
}

// playJournalOn is playJournal on a board given as such (a test board), dealt
// with its bottom cards (engine.DealCards).
func playJournalOn(t testing.TB, dir string, b *engine.Board, seed uint64, end bool) *played {
	t.Helper()
	board := b.ID
	deal, bottom := engine.DealCards(b, seed)
	newGame := func() *engine.Game {
		g, err := engine.New(engine.Config{Board: b, Deal: deal, Bottom: bottom, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g, rt := newGame(), newGame() // the bots' game and the runtime's
	h := testHeaderHook(HeaderForCards(b, deal, bottom, seed, b.Players, base, "test-1.0"))
	h.GameID = fmt.Sprintf("%.20s-%d", board, seed)
	w, err := Create(dir, h)
	if err != nil {
		t.Fatal(err)
	}
	p := &played{path: w.Path()}
	var live bytes.Buffer
	enc := json.NewEncoder(&live)
	d := bots.New(g, seed)
	n := 0
	wall := func() time.Time {
		n++
		return base.Add(time.Duration(d.Now)*time.Second + time.Duration(n)*time.Millisecond)
	}
	var failed error
	journal := func(in engine.Input, source string) {
		at := wall()
		p.written = append(p.written, InputRecord(at, source, in))
		_, err := w.Apply(rt, at, source, in)
		if ee := engineError(err); ee != nil {
			p.written = append(p.written, RefusedRecord(at, ee))
		} else if err != nil && failed == nil {
			failed = err
		}
	}
	// slip applies an input to both games outside the bots' driver.
	slip := func(in engine.Input, source string) {
		journal(in, source)
		effs, err := g.Apply(in)
		if err == nil {
			enc.Encode(in)
			for _, e := range effs {
				enc.Encode(e)
			}
		}
	}
	slip(engine.Clock(20, 15), "clock")
	at := wall()
	p.written = append(p.written, StartRecord(at, "pedal"))
	if _, err := w.Start(rt, at, "pedal"); err != nil {
		t.Fatal(err)
	}
	inputs := 0
	d.BeforeApply = func(in engine.Input) {
		inputs++
		switch inputs % 97 {
		case 40:
			slip(engine.Judge(engine.JudgePenalty, 1+inputs%len(deal), 1.5), "console:judge@192.0.2.1")
		case 80:
			slip(engine.Judge(engine.JudgeRepeat, 0, 0), "console:judge@192.0.2.1")
		}
		journal(in, SourceOf(in))
	}
	d.OnApply = func(in engine.Input, effs []engine.Effect) {
		enc.Encode(in)
		for _, e := range effs {
			enc.Encode(e)
		}
	}
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	if err := d.Play(); err != nil {
		t.Fatalf("%s seed %d: %v", board, seed, err)
	}
	if failed != nil {
		t.Fatal(failed)
	}
	_, won := g.Over()
	p.winner = string(won)
	if end { // closed as the runtime closes it: signed with the table's key
		r, err := w.End(wall(), "console:judge@192.0.2.1", p.winner, testKey)
		if err != nil {
			t.Fatal(err)
		}
		p.written = append(p.written, r)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	p.live = live.Bytes()
	return p
}

// replayStream replays a journal and writes what it gives in the form of
// played.live: every accepted start or input and its effects.
func replayStream(t testing.TB, j *Journal) []byte {
	t.Helper()
	return replayStreamFrom(t, j, boards.Get)
}

// replayStreamFrom is replayStream with the boards of get.
func replayStreamFrom(t testing.TB, j *Journal, get BoardSource) []byte {
	t.Helper()
	_, events, err := Replay(j, get)
	if err != nil {
		t.Fatal(err)
	}
	byRecord := map[int][]Event{}
	for _, e := range events {
		byRecord[e.Record] = append(byRecord[e.Record], e)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, r := range j.Records {
		evs := byRecord[r.Index]
		if len(evs) > 0 && evs[0].Refused != nil {
			continue
		}
		switch r.Kind {
		case KindStart:
			enc.Encode(engine.Input{})
		case KindInput:
			enc.Encode(r.Input)
		default:
			continue
		}
		for _, e := range evs {
			enc.Encode(e.Effect)
		}
	}
	return buf.Bytes()
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustLoad(t testing.TB, data []byte) *Journal {
	t.Helper()
	j, err := Load(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// sameRecord compares what a writer appended with what a reader returned.
func sameRecord(a, b Record) bool {
	return a.Kind == b.Kind && a.Wall.Equal(b.Wall) && a.Source == b.Source && a.Input == b.Input &&
		a.Code == b.Code && a.Reason == b.Reason && a.Result == b.Result
}

func asCorrupt(err error) *CorruptError {
	var ce *CorruptError
	if errors.As(err, &ce) {
		return ce
	}
	return nil
}

// frames returns the byte offset of every record of a valid journal and
// the file's length at the end.
func frames(t testing.TB, data []byte) []int64 {
	t.Helper()
	j := mustLoad(t, data)
	offs := []int64{int64(len(Magic))}
	for _, r := range j.Records {
		offs = append(offs, r.Offset)
	}
	return append(offs, j.Size)
}
