package journal

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"wolftable/engine"
)

var updateSeeds = flag.Bool("update-seeds", false, "rewrite the checked-in seed corpus of FuzzRead")

// referenceHeader and referenceRecords are the fuzz targets' journal: fixed
// data (no boards, no engine behaviour), so the checked-in corpus stays
// valid while the rules change.
func referenceHeader() Header {
	deal := []engine.Role{"werewolf", "seer", "villager", "witch", "werewolf", "hunter",
		"villager", "werewolf", "idiot", "villager", "werewolf", "villager"}
	return Header{Format: 1, Software: "ref-1.0", GameID: "ref001", Board: "seer-witch-hunter-idiot",
		Options: map[string]string{"sheriff.weight": "1.5", "witch.self_save": "never", "speech.seconds": "120"},
		Nights:  []string{"1 wolves/90/hurry=60 witch/30/hurry=15 seer/30", "2- wolves/60/hurry=30 witch/30/hurry=10 seer/30"},
		Seed:    42, Deal: deal, Seats: 12, Start: base}
}

func referenceRecords() []Record {
	at := func(s int) time.Time { return base.Add(time.Duration(s) * time.Second) }
	judge := "console:judge@192.0.2.1"
	return []Record{
		InputRecord(at(0), "clock", engine.Clock(20, 15)),
		StartRecord(at(1), "pedal"),
		InputRecord(at(20), "seat-1", engine.SeatTarget(1, 9)),
		InputRecord(at(21), "seat-5", engine.SeatTarget(5, 9)),
		InputRecord(at(22), "seat-3", engine.SeatTarget(3, 4)),
		RefusedRecord(at(22), &engine.Error{Code: engine.ErrNotActor, Msg: "seat 3 does not act in this step (night wolves)"}),
		InputRecord(at(23), "seat-8", engine.SeatTarget(8, 9)),
		InputRecord(at(24), "seat-11", engine.SeatTarget(11, 9)),
		InputRecord(at(60), "timer", engine.TimerExpired(1)),
		InputRecord(at(70), "seat-4", engine.SeatGesture(4, engine.ActUp)),
		InputRecord(at(100), "timer", engine.TimerExpired(3)),
		InputRecord(at(110), "seat-2", engine.SeatTarget(2, 1)),
		InputRecord(at(140), "timer", engine.TimerExpired(4)),
		InputRecord(at(150), "seat-2", engine.SeatGesture(2, engine.ActHand)),
		InputRecord(at(151), "seat-7", engine.SeatGesture(7, engine.ActHand)),
		InputRecord(at(155), "timer", engine.TimerExpired(5)),
		InputRecord(at(160), "pedal", engine.Pedal(engine.PedalShort)),
		InputRecord(at(161), "pedal", engine.Pedal(engine.PedalLong)),
		InputRecord(at(170), judge, engine.Judge(engine.JudgePenalty, 6, 1.5)),
		InputRecord(at(171), judge, engine.Judge(engine.JudgePause, 0, 0)),
		InputRecord(at(200), judge, engine.Judge(engine.JudgeResume, 0, 0)),
		InputRecord(at(300), "seat-9", engine.SeatGesture(9, engine.ActBoom)),
		RefusedRecord(at(300), &engine.Error{Code: engine.ErrRule, Msg: "only a wolf explodes"}),
		InputRecord(at(310), "clock", engine.Clock(20, 20)),
		InputRecord(at(400), judge, engine.Judge(engine.JudgeDQ, 12, 0)),
		InputRecord(at(500), judge, engine.Judge(engine.JudgeVoid, 0, 0)),
		EndRecord(at(501), judge, "流局"),
	}
}

// buildJournal frames a journal directly (the writer's output, without files).
func buildJournal(h Header, recs []Record) []byte {
	body := encodeHeader(nil, &h)
	data, prev := appendFrame([]byte(Magic), [32]byte{}, body)
	for i := range recs {
		data, prev = appendFrame(data, prev, encodeRecord(nil, &recs[i]))
	}
	return data
}

// TestWriterMatchesSpec: the writer's file is the spec's bytes exactly.
func TestWriterMatchesSpec(t *testing.T) {
	h, recs := referenceHeader(), referenceRecords()
	w, err := Create(t.TempDir(), h)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	if got, want := readFile(t, w.Path()), buildJournal(h, recs); !bytes.Equal(got, want) {
		t.Fatalf("writer's file (%d bytes) differs from the spec's (%d bytes)", len(got), len(want))
	}
}

type fuzzSeed struct {
	name      string
	data      []byte
	cut, flip uint32
}

func fuzzSeeds() []fuzzSeed {
	ref := buildJournal(referenceHeader(), referenceRecords())
	rng := rand.New(rand.NewPCG(1, 2))
	noise := make([]byte, 300)
	for i := range noise {
		noise[i] = byte(rng.UintN(256))
	}
	withMagic := append([]byte(Magic), noise...)
	n := uint32(len(ref))
	return []fuzzSeed{
		{"valid", ref, 0, 0},
		{"cut_in_last_record", ref, n - 20, 0},
		{"cut_in_header", ref, uint32(len(Magic)) + 30, 0},
		{"cut_mid_game", ref, n / 2, 0},
		{"flip_in_header", ref, 0, uint32(len(Magic)+12)*8 + 3},
		{"flip_mid_game", ref, 0, (n/2)*8 + 5},
		{"flip_in_last_hash", ref, 0, (n-5)*8 + 1},
		{"flip_then_cut", ref, n - 100, (n-150)*8 + 7},
		{"zeros_after", append(append([]byte(nil), ref...), make([]byte, 64)...), 0, 0},
		{"empty", nil, 0, 0},
		{"magic_only", []byte(Magic), 0, 0},
		{"noise", noise, 0, 0},
		{"magic_then_noise", withMagic, 0, 0},
	}
}

// TestFuzzSeedsCurrent: the checked-in corpus is the one fuzzSeeds makes
// (rewrite it with -update-seeds after a format change).
func TestFuzzSeedsCurrent(t *testing.T) {
	checkSeedCorpus(t, "FuzzRead", "TestFuzzSeedsCurrent", fuzzSeeds())
}

// checkSeedCorpus compares a fuzz target's checked-in corpus with the seeds
// the test makes, or rewrites it with -update-seeds (test names the test
// that does it, for the message).
func checkSeedCorpus(t *testing.T, target, test string, seeds []fuzzSeed) {
	t.Helper()
	dir := filepath.Join("testdata", "fuzz", target)
	for _, s := range seeds {
		text := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\nuint32(%d)\nuint32(%d)\n", s.data, s.cut, s.flip)
		path := filepath.Join(dir, s.name)
		if *updateSeeds {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -run %s -update-seeds)", err, test)
		}
		if string(got) != text {
			t.Fatalf("%s is stale (run go test -run %s -update-seeds)", path, test)
		}
	}
}

// FuzzRead guards Load on truncated, bit-flipped and random journals: it
// never panics; it either fails with one of the package's typed errors and
// no journal, or loads a journal whose records are a prefix of the only
// journal ever written (the reference: nothing else can pass the chain),
// whose verified part re-encodes to exactly the bytes read, and whose torn
// tail is exactly the rest. cut truncates data (cut % (len+1)) and flip
// flips bit flip%8 of byte flip/8 % len, when they are not zero.
func FuzzRead(f *testing.F) {
	ref := buildJournal(referenceHeader(), referenceRecords())
	refJ, err := Load(bytes.NewReader(ref))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, cut, flip uint32) {
		if cut > 0 {
			data = data[:int(cut%uint32(len(data)+1))]
		}
		if flip > 0 && len(data) > 0 {
			data = append([]byte(nil), data...)
			data[int(flip/8)%len(data)] ^= 1 << (flip % 8)
		}
		j, err := Load(bytes.NewReader(data))
		if err != nil {
			var ve *VersionError
			if asCorrupt(err) == nil && !errors.Is(err, ErrNotJournal) && !errors.Is(err, ErrNoHeader) && !errors.As(err, &ve) {
				t.Fatalf("untyped error %v", err)
			}
			if j != nil {
				t.Fatal("a journal with an error")
			}
			return
		}
		if j.Size+j.TornBytes != int64(len(data)) || j.TornTail != (j.TornBytes > 0) {
			t.Fatalf("size %d + torn %d != %d bytes (torn %v)", j.Size, j.TornBytes, len(data), j.TornTail)
		}
		if again := buildJournal(j.Header, j.Records); !bytes.Equal(again, data[:j.Size]) {
			t.Fatal("the loaded journal does not re-encode to the bytes it was read from")
		}
		if j.HeaderHash != refJ.HeaderHash || len(j.Records) > len(refJ.Records) {
			t.Fatalf("loaded a journal nobody wrote (%d records)", len(j.Records))
		}
		for i, r := range j.Records {
			if want := refJ.Records[i]; r.Hash != want.Hash || !sameRecord(r, want) || r.Offset != want.Offset {
				t.Fatalf("record %d is not the reference's", i+1)
			}
		}
	})
}

// FuzzRecordBody guards the body decoders on any bytes (the chain normally
// keeps them from seeing garbage): no panic, and a body that decodes is the
// one encoding of what it decodes to.
func FuzzRecordBody(f *testing.F) {
	h, recs := referenceHeader(), referenceRecords()
	f.Add(encodeHeader(nil, &h))
	for _, bottom := range [][]engine.Role{nil, {"villager"}, {"villager", "werewolf"}} {
		h3 := h // format 3: the bottom cards after the zone name
		h3.Format, h3.Bottom = 3, bottom
		f.Add(encodeHeader(nil, &h3))
	}
	for _, manual := range []bool{false, true} { // format 4: the seat draw after the bottom cards
		h4 := h.WithDraw(drawOf(len(h.Deal)), manual)
		h4.Draw[2].PlayerID = ""
		f.Add(encodeHeader(nil, &h4))
	}
	for i := range recs {
		f.Add(encodeRecord(nil, &recs[i]))
	}
	end := recs[len(recs)-1]
	if err := signEnd(&end, [32]byte{}, testKey); err == nil {
		f.Add(encodeRecord(nil, &end)) // a signed end record
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if h, err := decodeHeader(body); err == nil {
			if !bytes.Equal(encodeHeader(nil, &h), body) {
				t.Fatal("header decodes but does not re-encode")
			}
		}
		if r, err := decodeRecord(body, time.UTC); err == nil {
			if !bytes.Equal(encodeRecord(nil, &r), body) {
				t.Fatal("record decodes but does not re-encode")
			}
		}
	})
}
