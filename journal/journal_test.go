package journal

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/engine"
)

// TestRoundTrip: whole random games, journaled the runtime's way, read back
// and replayed give the very effect stream the game gave when it was
// played, as JSON, byte for byte; the records read are the records written.
func TestRoundTrip(t *testing.T) {
	seeds := []uint64{1, 2}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, board := range boardIDs(t) {
		for _, seed := range seeds {
			p := playJournal(t, t.TempDir(), board, seed, true)
			j, err := Read(p.path)
			if err != nil {
				t.Fatal(err)
			}
			if j.TornTail || !j.Finished() {
				t.Fatalf("%s seed %d: torn %v finished %v", board, seed, j.TornTail, j.Finished())
			}
			if len(j.Records) != len(p.written) {
				t.Fatalf("%s seed %d: read %d records, wrote %d", board, seed, len(j.Records), len(p.written))
			}
			for i, r := range j.Records {
				if !sameRecord(r, p.written[i]) || r.Index != i+1 {
					t.Fatalf("%s seed %d: record %d: read %+v, wrote %+v", board, seed, i+1, r, p.written[i])
				}
			}
			if got := replayStream(t, j); !bytes.Equal(got, p.live) {
				t.Fatalf("%s seed %d: the replay's effects differ from the game's (%d vs %d bytes)", board, seed, len(got), len(p.live))
			}
			g, _, err := Replay(j, boards.Get)
			if err != nil {
				t.Fatal(err)
			}
			if over, w := g.Over(); !over || string(w) != p.winner {
				t.Fatalf("%s seed %d: replay ends %v %q, the game %q", board, seed, over, w, p.winner)
			}
		}
	}
}

// TestHeaderRoundTrip: the header reads back as written, the venue's zone
// and every option kept; the file is named by start time and game id.
func TestHeaderRoundTrip(t *testing.T) {
	b, _ := boards.Get("wolfking-guard")
	b.Options.Set("witch.self_save", "first_night")
	h := HeaderFor(b, engine.Deal(b, 9), math.MaxUint64, 18, base.Add(123456789), "v9")
	h.GameID = "ab12cd"
	w, err := Create(t.TempDir(), h)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if got := filepath.Base(w.Path()); got != "2026-11-29T20-15-03_ab12cd.wtj" {
		t.Fatalf("file name %s", got)
	}
	j, err := Read(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	// A game without bottom cards is written as format 2, as before format 3.
	got := j.Header
	if got.Format != 2 || got.Software != "v9" || got.GameID != "ab12cd" || got.Board != b.ID ||
		got.Seed != math.MaxUint64 || got.Seats != 18 || !got.Start.Equal(h.Start) ||
		strings.Join(got.Nights, "|") != strings.Join(h.Nights, "|") || len(got.Deal) != len(h.Deal) {
		t.Fatalf("header read %+v, wrote %+v", got, h)
	}
	if name, off := got.Start.Zone(); name != "CST" || off != 8*3600 {
		t.Fatalf("zone %s %d", name, off)
	}
	if got.Options["witch.self_save"] != "first_night" || len(got.Options) != len(engine.OptionNames()) {
		t.Fatalf("options %v", got.Options)
	}
	for i := range h.Deal {
		if got.Deal[i] != h.Deal[i] {
			t.Fatalf("deal %v, wrote %v", got.Deal, h.Deal)
		}
	}
	if len(j.Records) != 0 || j.Finished() || j.Head() != j.HeaderHash {
		t.Fatalf("fresh journal: %d records", len(j.Records))
	}
	// The same name again is refused (O_EXCL), and a fresh id is made when none is given.
	if _, err := Create(filepath.Dir(w.Path()), h); err == nil {
		t.Fatal("Create over an existing journal")
	}
	h.GameID = ""
	w2, err := Create(filepath.Dir(w.Path()), h)
	if err != nil {
		t.Fatal(err)
	}
	w2.Close()
	if id := w2.Header().GameID; len(id) != 6 {
		t.Fatalf("made-up game id %q", id)
	}
}

// TestInputEncoding: every field of an input survives, odd values too.
func TestInputEncoding(t *testing.T) {
	ins := []engine.Input{
		{},
		engine.SeatTarget(12, 0),
		engine.SeatGesture(3, engine.ActBoom),
		engine.Pedal(engine.PedalDouble),
		engine.TimerExpired(1 << 30),
		engine.Clock(23, 59),
		engine.Judge(engine.JudgePenalty, 7, 2.5),
		{Kind: -1, Seat: -5, Action: 99, Target: math.MaxInt32, Pedal: -2, Timer: -1, Hour: -24, Minute: 61, Judge: 42, Points: math.Inf(-1)},
		{Points: math.Copysign(0, -1)},
		{Points: math.NaN()},
	}
	for _, in := range ins {
		r := InputRecord(base, "seat-1", in)
		body := encodeRecord(nil, &r)
		got, err := decodeRecord(body, time.UTC)
		if err != nil {
			t.Fatalf("%+v: %v", in, err)
		}
		same := got.Input == in || (math.IsNaN(in.Points) && math.IsNaN(got.Input.Points))
		if !same || math.Float64bits(got.Input.Points) != math.Float64bits(in.Points) {
			t.Fatalf("input %+v read back as %+v", in, got.Input)
		}
	}
	// A seat input is a handful of bytes plus the wall time and source.
	r := InputRecord(base, "seat-7", engine.SeatTarget(7, 9))
	if n := len(encodeRecord(nil, &r)); n > 24 {
		t.Fatalf("a seat input takes %d bytes", n)
	}
}

// TestNotAJournal: empty and short files are torn at creation; other bytes
// are not journals.
func TestNotAJournal(t *testing.T) {
	for _, data := range []string{"", "\x89WT", Magic, Magic + "\x00\x00\x00", Magic + strings.Repeat("\x00", 100)} {
		if _, err := Load(strings.NewReader(data)); !errors.Is(err, ErrNoHeader) {
			t.Errorf("%q: %v, want ErrNoHeader", data, err)
		}
	}
	for _, data := range []string{"hello", "\x89WTJ\r\n\x1a\r", "WTJ\r\n\x1a\n\x00"} {
		if _, err := Load(strings.NewReader(data)); !errors.Is(err, ErrNotJournal) {
			t.Errorf("%q: %v, want ErrNotJournal", data, err)
		}
	}
	// A header of a newer format is a *VersionError; format 0 is damage.
	h := referenceHeader()
	h.Format = FormatVersion + 1
	var ve *VersionError
	if err := loadErr(buildJournal(h, nil)); !errors.As(err, &ve) || ve.Version != FormatVersion+1 {
		t.Errorf("format %d: %v", FormatVersion+1, err)
	}
	h.Format = 0
	if err := loadErr(buildJournal(h, nil)); asCorrupt(err) == nil || !errors.Is(err, ErrRecord) {
		t.Errorf("format 0: %v", err)
	}
	// A header cut short anywhere is ErrNoHeader.
	p := playJournal(t, t.TempDir(), "seer-witch-hunter-idiot", 1, false)
	data := readFile(t, p.path)
	offs := frames(t, data)
	for cut := int64(len(Magic)); cut < offs[1]; cut++ {
		if _, err := Load(bytes.NewReader(data[:cut])); !errors.Is(err, ErrNoHeader) {
			t.Fatalf("header cut at %d: %v", cut, err)
		}
	}
}

// TestWriterOrder: the writer refuses what the reader would refuse.
func TestWriterOrder(t *testing.T) {
	b, _ := boards.Get("seer-witch-hunter-idiot")
	h := HeaderFor(b, engine.Deal(b, 1), 1, 12, base, "test")
	dir := t.TempDir()
	w, err := Create(dir, h)
	if err != nil {
		t.Fatal(err)
	}
	ok := func(r Record) {
		t.Helper()
		if err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	bad := func(r Record) {
		t.Helper()
		if err := w.Append(r); err == nil {
			t.Fatalf("%s record accepted", r.Kind)
		}
	}
	bad(RefusedRecord(base, &engine.Error{Code: engine.ErrNotNow, Msg: "x"})) // follows no input
	bad(Record{Kind: KindHeader, Wall: base, Source: "x"})
	bad(Record{Kind: 9, Wall: base, Source: "x"})
	bad(InputRecord(time.Time{}, "seat-1", engine.SeatTarget(1, 2)))   // no wall time
	bad(InputRecord(base, "", engine.SeatTarget(1, 2)))                // no source
	bad(InputRecord(base, "\xff", engine.SeatTarget(1, 2)))            // not UTF-8
	bad(InputRecord(base.AddDate(300, 0, 0), "x", engine.Pedal(0)))    // beyond int64 nanoseconds
	bad(InputRecord(base, strings.Repeat("x", 2000), engine.Pedal(0))) // too long
	// fields of another kind
	bad(Record{Kind: KindStart, Wall: base, Source: "x", Input: engine.Pedal(engine.PedalLong)})
	bad(Record{Kind: KindInput, Wall: base, Source: "x", Result: "好人"})
	bad(Record{Kind: KindEnd, Wall: base, Source: "x", Code: engine.ErrRule})
	ok(InputRecord(base, "clock", engine.Clock(20, 15)))
	ok(StartRecord(base, "pedal"))
	bad(StartRecord(base, "pedal"))
	ok(InputRecord(base, "seat-1", engine.SeatTarget(1, 2)))
	ok(RefusedRecord(base, &engine.Error{Code: engine.ErrNotActor, Msg: "no"}))
	bad(RefusedRecord(base, &engine.Error{Code: engine.ErrNotActor, Msg: "no"}))
	ok(EndRecord(base, "console", ""))
	if err := w.Append(InputRecord(base, "seat-1", engine.SeatTarget(1, 2))); !errors.Is(err, ErrFinished) {
		t.Fatalf("append after the end: %v", err)
	}
	if n := w.Records(); n != 6 {
		t.Fatalf("%d records", n)
	}
	w.Close()
	if err := w.Append(StartRecord(base, "x")); !errors.Is(err, ErrClosed) {
		t.Fatalf("append after close: %v", err)
	}
	if _, _, err := OpenAppend(w.Path()); !errors.Is(err, ErrFinished) {
		t.Fatalf("OpenAppend of a finished journal: %v", err)
	}
	j, err := Read(w.Path())
	if err != nil || len(j.Records) != 5 {
		t.Fatalf("%v, %d records", err, len(j.Records))
	}
	// Bad headers.
	for name, mod := range map[string]func(*Header){
		"game id":  func(h *Header) { h.GameID = "a/b" },
		"board":    func(h *Header) { h.Board = "" },
		"options":  func(h *Header) { h.Options = nil },
		"nights":   func(h *Header) { h.Nights = nil },
		"deal":     func(h *Header) { h.Deal = nil },
		"seats":    func(h *Header) { h.Seats = 3 },
		"start":    func(h *Header) { h.Start = time.Time{} },
		"software": func(h *Header) { h.Software = "" },
		"format":   func(h *Header) { h.Format = FormatVersion + 1 },
	} {
		hh := h
		hh.Options = map[string]string{}
		for k, v := range h.Options {
			hh.Options[k] = v
		}
		mod(&hh)
		if _, err := Create(dir, hh); err == nil {
			t.Errorf("header with a bad %s accepted", name)
		}
	}
}

// TestLocked: one writer per journal.
func TestLocked(t *testing.T) {
	p := playJournal(t, t.TempDir(), "wolfking-guard", 5, false)
	w, _, err := OpenAppend(p.path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := OpenAppend(p.path); !errors.Is(err, ErrLocked) {
		t.Fatalf("second writer: %v", err)
	}
	w.Close()
	w, _, err = OpenAppend(p.path)
	if err != nil {
		t.Fatalf("after close: %v", err)
	}
	w.Close()
}

// TestResumeAfterTear: a power cut mid-append; the journal resumes at the
// last whole record, and the game goes on to the same end.
func TestResumeAfterTear(t *testing.T) {
	dir := t.TempDir()
	p := playJournal(t, dir, "whitewolfking-knight", 2, false)
	data := readFile(t, p.path)
	offs := frames(t, data)
	// Keep two thirds of the game and half of the next record.
	k := len(offs) * 2 / 3
	cut := offs[k] + (offs[k+1]-offs[k])/2
	if err := os.WriteFile(p.path, data[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	w, g, events, err := Resume(p.path, boards.Get)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) == 0 {
		t.Fatal("no events")
	}
	// The tear is gone: the file holds records 0..k-1 (and the refusal of
	// record k-1, should Resume have journaled one).
	if n := w.Records(); n != k && n != k+1 {
		t.Fatalf("%d records after resume, want %d", n, k)
	}
	// The resumed game is where the journal says it is: its next inputs
	// are the rest of the original game (record k on is Records[k-1:]).
	j0 := mustLoad(t, data)
	rest := j0.Records[k-1:]
	for _, r := range rest {
		switch r.Kind {
		case KindInput:
			if _, err := w.Apply(g, r.Wall, r.Source, r.Input); err != nil && engineError(err) == nil {
				t.Fatal(err)
			}
		}
	}
	w.Close()
	j, err := Read(p.path)
	if err != nil {
		t.Fatal(err)
	}
	if j.TornTail {
		t.Fatal("still torn")
	}
	if got, want := replayStream(t, j), replayStream(t, j0); !bytes.Equal(got, want) {
		t.Fatal("the resumed game differs from the original")
	}
}

// TestEngineEnumsFrozen: input records store the engine's constants as
// numbers (doc.go); renumbering them would change what old journals mean.
func TestEngineEnumsFrozen(t *testing.T) {
	got := []int{int(engine.InSeat), int(engine.InPedal), int(engine.InTimer), int(engine.InClock), int(engine.InJudge),
		int(engine.ActTarget), int(engine.ActUp), int(engine.ActDown), int(engine.ActWave), int(engine.ActHand), int(engine.ActBoom),
		int(engine.PedalShort), int(engine.PedalLong), int(engine.PedalDouble),
		int(engine.JudgeDQ), int(engine.JudgeVoid), int(engine.JudgePenalty), int(engine.JudgeUndo), int(engine.JudgeRepeat),
		int(engine.JudgePause), int(engine.JudgeResume)}
	want := []int{0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 5, 0, 1, 2, 0, 1, 2, 3, 4, 5, 6}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("engine constants renumbered: %v, journals have %v; bump FormatVersion and map the old numbers", got, want)
		}
	}
}

// TestWriteFailure: when a write fails the input is not applied and the
// writer refuses everything after; the file still reads to the last record
// that made it.
func TestWriteFailure(t *testing.T) {
	b, _ := boards.Get("seer-witch-hunter-idiot")
	deal := engine.Deal(b, 1)
	g, _ := engine.New(engine.Config{Board: b, Deal: deal, Seed: 1})
	w, err := Create(t.TempDir(), HeaderFor(b, deal, 1, 12, base, "t"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Start(g, base, "pedal"); err != nil {
		t.Fatal(err)
	}
	w.f.Close() // the disk goes away
	before := g.Awaiting()
	if _, err := w.Apply(g, base, "pedal", engine.Pedal(engine.PedalShort)); err == nil || engineError(err) != nil {
		t.Fatalf("apply on a dead disk: %v", err)
	}
	if after := g.Awaiting(); after.Step != before.Step || after.Kind() != before.Kind() {
		t.Fatal("the engine saw an input the journal did not take")
	}
	err1 := w.Append(InputRecord(base, "pedal", engine.Pedal(engine.PedalShort)))
	if err1 == nil || !strings.Contains(err1.Error(), "writing record 2") {
		t.Fatalf("sticky error: %v", err1)
	}
	j, err := Read(w.Path())
	if err != nil || len(j.Records) != 1 || j.Records[0].Kind != KindStart {
		t.Fatalf("after the failure: %v", err)
	}
}
