package journal

import (
	"bytes"
	"testing"
	"time"

	"wolftable/engine"
)

// BenchmarkAppend is the cost of journaling one seat input: encode, chain
// hash, write and fsync, on the test's temporary folder (its file system
// decides the figure; on the Pi's SD card fsync dominates).
func BenchmarkAppend(b *testing.B) {
	w, err := Create(b.TempDir(), referenceHeader())
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	in := engine.SeatTarget(7, 9)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if err := w.Append(InputRecord(base.Add(time.Duration(i)*time.Millisecond), "seat-7", in)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncode is Append without the file: encode, frame and hash.
func BenchmarkEncode(b *testing.B) {
	r := InputRecord(base, "seat-7", engine.SeatTarget(7, 9))
	var prev [32]byte
	var body, frame []byte
	b.ReportAllocs()
	for b.Loop() {
		body = encodeRecord(body[:0], &r)
		frame, prev = appendFrame(frame[:0], prev, body)
	}
}

// BenchmarkLoad verifies a whole journal of a few hundred records.
func BenchmarkLoad(b *testing.B) {
	h, recs := referenceHeader(), referenceRecords()
	end := recs[len(recs)-1]
	recs = recs[:len(recs)-1]
	for len(recs) < 300 {
		recs = append(recs, InputRecord(base, "seat-7", engine.SeatTarget(7, 9)))
	}
	data := buildJournal(h, append(recs, end))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
