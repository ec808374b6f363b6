package journal

import (
	"bytes"
	"errors"
	"testing"
)

// signedReference is the reference journal (fuzz_test.go) in format 2,
// its end record signed with testKey: fixed bytes (ed25519 signatures are
// deterministic), so the checked-in corpus stays valid.
func signedReference() []byte {
	h, recs := referenceHeader(), referenceRecords()
	h.Format = 2
	body := encodeHeader(nil, &h)
	data, prev := appendFrame([]byte(Magic), [32]byte{}, body)
	for i := range recs {
		if recs[i].Kind == KindEnd {
			if err := signEnd(&recs[i], prev, testKey); err != nil {
				panic(err)
			}
		}
		data, prev = appendFrame(data, prev, encodeRecord(nil, &recs[i]))
	}
	return data
}

func signedFuzzSeeds() []fuzzSeed {
	ref := signedReference()
	n := uint32(len(ref))
	return []fuzzSeed{
		{"valid", ref, 0, 0},
		{"cut_before_end", ref, n - 20 - sealSize - 8, 0},
		{"cut_in_signature", ref, n - 40, 0},
		{"flip_in_signature", ref, 0, (n-hashSize-3)*8 + 2},
		{"flip_in_key", ref, 0, (n-hashSize-64-3)*8 + 6},
		{"flip_in_result", ref, 0, (n-hashSize-sealSize-2)*8 + 1},
		{"flip_in_last_hash", ref, 0, (n-4)*8 + 0},
	}
}

// TestSignedFuzzSeedsCurrent: the checked-in corpus of FuzzReadSigned is
// the one signedFuzzSeeds makes (-update-seeds rewrites it).
func TestSignedFuzzSeedsCurrent(t *testing.T) {
	checkSeedCorpus(t, "FuzzReadSigned", "TestSignedFuzzSeedsCurrent", signedFuzzSeeds())
}

// FuzzReadSigned guards the reading of signed end records: on truncated,
// bit-flipped and random journals Load never panics; it fails with a typed
// error or loads a prefix of the signed reference journal; a journal that
// loads with a signed end record is the reference exactly, and its
// signature verifies with testKey's public key.
func FuzzReadSigned(f *testing.F) {
	ref := signedReference()
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
			return
		}
		if again := buildJournal(j.Header, j.Records); !bytes.Equal(again, data[:j.Size]) {
			t.Fatal("the loaded journal does not re-encode to the bytes it was read from")
		}
		if j.HeaderHash != refJ.HeaderHash || len(j.Records) > len(refJ.Records) {
			t.Fatalf("loaded a journal nobody wrote (%d records)", len(j.Records))
		}
		for i, r := range j.Records {
			want := refJ.Records[i]
			if r.Hash != want.Hash || !sameRecord(r, want) || r.Signed != want.Signed || r.Signature != want.Signature || r.PublicKey != want.PublicKey {
				t.Fatalf("record %d is not the reference's", i+1)
			}
		}
		if end, ok := j.End(); ok && (!end.Signed || j.Head() != refJ.Head()) {
			t.Fatal("a finished journal that is not the signed reference")
		}
	})
}
