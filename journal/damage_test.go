package journal

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"wolftable/boards"
)

// TestTornTail: the file cut at every byte offset of its last record loads
// as the journal up to the record before, reporting the tear; a cut on the
// boundary is a clean journal. The same holds for every record of a game
// taken as the last one (a journal truncated anywhere is a prefix).
func TestTornTail(t *testing.T) {
	p := playJournal(t, t.TempDir(), "seer-witch-hunter-idiot", 3, true)
	data := readFile(t, p.path)
	full := mustLoad(t, data)
	offs := frames(t, data)
	check := func(cut int64) {
		t.Helper()
		j, err := Load(bytes.NewReader(data[:cut]))
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		// records whole before the cut
		n := 0
		for n+1 < len(offs) && offs[n+1] <= cut {
			n++
		}
		want := full.Records[:n-1]
		torn := cut != offs[n]
		if len(j.Records) != len(want) || j.TornTail != torn || j.Size != offs[n] || j.TornBytes != cut-offs[n] {
			t.Fatalf("cut at %d: %d records torn=%v size=%d dropped=%d; want %d records torn=%v size=%d",
				cut, len(j.Records), j.TornTail, j.Size, j.TornBytes, len(want), torn, offs[n])
		}
		for i := range want {
			if !sameRecord(j.Records[i], want[i]) || j.Records[i].Hash != want[i].Hash {
				t.Fatalf("cut at %d: record %d differs", cut, i+1)
			}
		}
	}
	last := len(offs) - 2
	for cut := offs[last]; cut <= offs[last+1]; cut++ {
		check(cut)
	}
	// And the record before it, every byte; then every fifth byte offset
	// after the header.
	for cut := offs[last-1]; cut < offs[last]; cut++ {
		check(cut)
	}
	step := int64(5)
	if testing.Short() {
		step = 17
	}
	for cut := offs[1]; cut < offs[last]; cut += step {
		check(cut)
	}
}

// TestTornUnwritten: a power cut can leave the file longer than what was
// written, the rest zeros (the file system extended the file, the data
// never reached the disk): zeros after the last record, or a last record
// whose end (its hash) is zeros, are a torn tail too.
func TestTornUnwritten(t *testing.T) {
	p := playJournal(t, t.TempDir(), "wolfking-guard", 4, false)
	data := readFile(t, p.path)
	full := mustLoad(t, data)
	offs := frames(t, data)
	n := len(full.Records)
	cases := map[string][]byte{
		"zeros after the last record": append(append([]byte(nil), data...), make([]byte, 300)...),
		"a few zeros":                 append(append([]byte(nil), data...), 0, 0, 0),
	}
	// The last record with its body whole and its hash zeroed, then also
	// with its body's second half zeroed, then with zeros after it.
	lastHash := offs[len(offs)-1] - hashSize
	d := append([]byte(nil), data...)
	clear(d[lastHash:])
	cases["last hash unwritten"] = d
	d = append([]byte(nil), data...)
	clear(d[(offs[len(offs)-2]+lastHash)/2:])
	cases["last half unwritten"] = d
	cases["last hash unwritten, zeros after"] = append(append([]byte(nil), cases["last hash unwritten"]...), make([]byte, 4096)...)
	for name, d := range cases {
		j, err := Load(bytes.NewReader(d))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := n
		if name != "zeros after the last record" && name != "a few zeros" {
			want = n - 1
		}
		if !j.TornTail || len(j.Records) != want {
			t.Fatalf("%s: torn=%v %d records, want torn with %d", name, j.TornTail, len(j.Records), want)
		}
	}
	// But a zeroed hash with a record after it is damage, not a tear.
	d = append([]byte(nil), data...)
	mid := offs[n/2+1] - hashSize
	clear(d[mid : mid+hashSize])
	if ce := asCorrupt(loadErr(d)); ce == nil || ce.Index != n/2 || !errors.Is(ce, ErrHash) {
		t.Fatalf("zeroed hash mid-file: %v", loadErr(d))
	}
}

func loadErr(data []byte) error {
	_, err := Load(bytes.NewReader(data))
	return err
}

// TestCorruption: one bit flipped anywhere in a journal — the magic, a
// frame's length or its check, a body, a hash, the last record too — stops
// the load with a typed error naming the record the bit is in and that
// record's byte offset. Every bit of a short journal is tried; in a whole
// game, one bit of every third byte.
func TestCorruption(t *testing.T) {
	dir := t.TempDir()
	p := playJournal(t, dir, "wolfbeauty-knight", 6, true)
	data := readFile(t, p.path)
	offs := frames(t, data)
	short := data[:offs[25]] // header and 24 records
	try := func(data []byte, offs []int64, pos int64, bit uint) {
		t.Helper()
		d := append([]byte(nil), data...)
		d[pos] ^= 1 << bit
		j, err := Load(bytes.NewReader(d))
		if pos < int64(len(Magic)) {
			if !errors.Is(err, ErrNotJournal) {
				t.Fatalf("bit %d of byte %d (magic): %v", bit, pos, err)
			}
			return
		}
		rec := 0
		for offs[rec+1] <= pos {
			rec++
		}
		ce := asCorrupt(err)
		if ce == nil {
			var ve *VersionError
			if rec == 0 && errors.As(err, &ve) {
				t.Fatalf("a flipped bit read as a version: %v", err)
			}
			t.Fatalf("bit %d of byte %d (record %d): got %v (journal %v), want *CorruptError", bit, pos, rec, err, j != nil)
		}
		if ce.Index != rec || ce.Offset != offs[rec] {
			t.Fatalf("bit %d of byte %d: error names record %d at %d, the bit is in record %d at %d: %v", bit, pos, ce.Index, ce.Offset, rec, offs[rec], err)
		}
		if !errors.Is(err, ErrFrame) && !errors.Is(err, ErrHash) {
			t.Fatalf("bit %d of byte %d: %v", bit, pos, err)
		}
	}
	shortOffs := append(append([]int64(nil), offs[:25]...), offs[25])
	for pos := int64(0); pos < int64(len(short)); pos++ {
		for bit := uint(0); bit < 8; bit++ {
			try(short, shortOffs, pos, bit)
		}
	}
	step := int64(3)
	if testing.Short() {
		step = 13
	}
	for pos := offs[25]; pos < int64(len(data)); pos += step {
		try(data, offs, pos, uint(pos%8))
	}
	// Read names the file too.
	d := append([]byte(nil), data...)
	d[offs[5]+10] ^= 4
	path := p.path + ".bad"
	if err := os.WriteFile(path, d, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Read(path)
	if ce := asCorrupt(err); ce == nil || ce.Path != path || ce.Index != 5 {
		t.Fatalf("Read: %v", err)
	}
	// OpenAppend refuses a damaged journal rather than truncating it.
	if _, _, err := OpenAppend(path); asCorrupt(err) == nil {
		t.Fatalf("OpenAppend of a damaged journal: %v", err)
	}
	if got := readFile(t, path); !bytes.Equal(got, d) {
		t.Fatal("OpenAppend changed a damaged journal")
	}
}

// TestDroppedAndSwapped: records removed, repeated or swapped break the
// chain at the first record out of place.
func TestDroppedAndSwapped(t *testing.T) {
	p := playJournal(t, t.TempDir(), "whitewolfking-guard", 8, true)
	data := readFile(t, p.path)
	offs := frames(t, data)
	rec := func(i int) []byte { return data[offs[i]:offs[i+1]] }
	var dropped, repeated, swapped []byte
	dropped = append(append(dropped, data[:offs[10]]...), data[offs[11]:]...)
	repeated = append(append(append(repeated, data[:offs[11]]...), rec(10)...), data[offs[11]:]...)
	swapped = append(append(append(append(swapped, data[:offs[10]]...), rec(11)...), rec(10)...), data[offs[12]:]...)
	for name, d := range map[string][]byte{"dropped": dropped, "repeated": repeated, "swapped": swapped} {
		ce := asCorrupt(loadErr(d))
		want := 10
		if name == "repeated" {
			want = 11
		}
		if ce == nil || ce.Index != want || !errors.Is(ce, ErrHash) {
			t.Fatalf("%s: %v", name, loadErr(d))
		}
	}
	// Two journals spliced: the second's records do not chain to the first's.
	q := playJournal(t, t.TempDir(), "whitewolfking-guard", 9, true)
	other := readFile(t, q.path)
	oo := frames(t, other)
	spliced := append(append([]byte(nil), data[:offs[20]]...), other[oo[20]:]...)
	if ce := asCorrupt(loadErr(spliced)); ce == nil || ce.Index != 20 {
		t.Fatalf("spliced: %v", loadErr(spliced))
	}
}

// TestReplayRefusals: the engine must do on replay what it did live.
func TestReplayRefusals(t *testing.T) {
	dir := t.TempDir()
	p := playJournal(t, dir, "seer-witch-hunter-idiot", 11, false)
	j, err := Read(p.path)
	if err != nil {
		t.Fatal(err)
	}
	// Find a journaled refusal, and an accepted input.
	refused, accepted := -1, -1
	for i, r := range j.Records {
		if r.Kind == KindRefused && refused < 0 {
			refused = i
		}
		if r.Kind == KindInput && i > 5 && accepted < 0 && (i+1 == len(j.Records) || j.Records[i+1].Kind != KindRefused) {
			accepted = i
		}
	}
	if refused < 0 || accepted < 0 {
		t.Fatal("the bots' game has no refusal")
	}
	rewrite := func(recs []Record) string {
		t.Helper()
		w, err := Create(t.TempDir(), j.Header)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if err := w.Append(r); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		return w.Path()
	}
	replayErr := func(path string) error {
		t.Helper()
		jj, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = Replay(jj, boards.Get)
		return err
	}
	var re *ReplayError
	// A refused input without its refusal, mid-journal: an error naming it.
	recs := append(append([]Record(nil), j.Records[:refused]...), j.Records[refused+1:]...)
	if err := replayErr(rewrite(recs)); !errors.As(err, &re) || re.Index != refused {
		t.Fatalf("unjournaled refusal: %v", err)
	}
	// A refusal journaled after an input the engine accepts.
	recs = append(append(append([]Record(nil), j.Records[:accepted+1]...), Record{Kind: KindRefused, Wall: base, Source: "engine", Code: 1, Reason: "x"}), j.Records[accepted+1:]...)
	if err := replayErr(rewrite(recs)); !errors.As(err, &re) || re.Index != accepted+1 {
		t.Fatalf("refusal of an accepted input: %v", err)
	}
	// A refusal with another code.
	recs = append([]Record(nil), j.Records...)
	recs[refused].Code += 1
	if err := replayErr(rewrite(recs)); !errors.As(err, &re) || re.Index != refused {
		t.Fatalf("refusal with another code: %v", err)
	}
	// The last input refused with no refusal journaled: the power cut
	// between the two. Replay reports it; Resume journals it.
	recs = append([]Record(nil), j.Records[:refused]...)
	path := rewrite(recs)
	jj, _ := Read(path)
	_, events, err := Replay(jj, boards.Get)
	if err != nil || len(events) == 0 || events[len(events)-1].Refused == nil || events[len(events)-1].Record != refused {
		t.Fatalf("refusal at the tail: %v", err)
	}
	w, _, _, err := Resume(path, boards.Get)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	jj, _ = Read(path)
	if last := jj.Records[len(jj.Records)-1]; last.Kind != KindRefused || last.Code != j.Records[refused].Code {
		t.Fatalf("Resume did not journal the pending refusal: %+v", last)
	}
	// An end record whose result is not the game's.
	notResult := "狼人"
	if p.winner == notResult {
		notResult = "好人"
	}
	recs = append(append([]Record(nil), j.Records...), EndRecord(base, "console", notResult))
	if err := replayErr(rewrite(recs)); !errors.As(err, &re) || re.Index != len(recs) {
		t.Fatalf("end record with a result the game does not have: %v", err)
	}
	// The board changed since the game: options that do not apply, a night order that differs.
	h := j.Header
	h.Options = map[string]string{"no.such.option": "1"}
	if err := replayHeader(t, h); !errors.As(err, &re) {
		t.Fatalf("unknown option: %v", err)
	}
	h = j.Header
	h.Nights = []string{"1- wolves/60"}
	if err := replayHeader(t, h); !errors.As(err, &re) {
		t.Fatalf("changed night order: %v", err)
	}
	h = j.Header
	h.Board = "no-such-board"
	if err := replayHeader(t, h); !errors.As(err, &re) || !errors.Is(err, boards.ErrUnknownBoard) {
		t.Fatalf("unknown board: %v", err)
	}
}

func replayHeader(t *testing.T, h Header) error {
	t.Helper()
	w, err := Create(t.TempDir(), h)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	j, err := Read(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Replay(j, boards.Get)
	return err
}
