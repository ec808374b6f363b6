package protocol

import (
	"bytes"
	"encoding/hex"
	"testing"
)

// cobsTests are the examples of the COBS article on Wikipedia plus edge
// cases at the 254-byte group limit.
var cobsTests = []struct {
	name    string
	decoded []byte
	encoded []byte
}{
	{"empty", nil, h("01")},
	{"zero", h("00"), h("0101")},
	{"two zeros", h("0000"), h("010101")},
	{"zero data zero", h("001100"), h("01021101")},
	{"data zero data", h("11220033"), h("0311220233")},
	{"no zero", h("11223344"), h("0511223344")},
	{"trailing zeros", h("11000000"), h("0211010101")},
	{"254 non-zero", seq(1, 254), append(h("ff"), seq(1, 254)...)},
	{"zero then 254 non-zero", append(h("00"), seq(1, 254)...), append(h("01ff"), seq(1, 254)...)},
	{"255 non-zero", seq(1, 255), cat(h("ff"), seq(1, 254), h("02ff"))},
	{"254 non-zero then zero", append(seq(2, 254), 0), cat(h("ff"), seq(2, 254), h("0101"))},
	{"253 non-zero, zero, one", cat(seq(3, 253), h("0001")), cat(h("fe"), seq(3, 253), h("0201"))},
	{"508 non-zero", cat(seq(1, 254), seq(1, 254)), cat(h("ff"), seq(1, 254), h("ff"), seq(1, 254))},
}

func h(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// seq returns n non-zero bytes counting up from first, skipping 0.
func seq(first byte, n int) []byte {
	b := make([]byte, 0, n)
	for c := first; len(b) < n; c++ {
		if c != 0 {
			b = append(b, c)
		}
	}
	return b
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// cobsEncodeReference is COBS as the paper states it, one block at a time:
// cut the source at every zero; write each block as 254-byte groups with
// code 0xFF and a last group with code len+1; leave out the empty group after
// a source that ends in a full group.
func cobsEncodeReference(src []byte) []byte {
	out := []byte{}
	blocks := bytes.Split(src, []byte{0})
	for i, block := range blocks {
		last := i == len(blocks)-1
		for len(block) >= 254 {
			out = append(out, 0xFF)
			out = append(out, block[:254]...)
			block = block[254:]
			if last && len(block) == 0 {
				return out
			}
		}
		out = append(out, byte(len(block)+1))
		out = append(out, block...)
	}
	return out
}

// cobsDecodeReference undoes cobsEncodeReference group by group.
func cobsDecodeReference(enc []byte) ([]byte, bool) {
	if len(enc) == 0 {
		return nil, false
	}
	out := []byte{}
	for len(enc) > 0 {
		code := int(enc[0])
		if code == 0 || code > len(enc) {
			return nil, false
		}
		group := enc[1:code]
		if bytes.IndexByte(group, 0) >= 0 {
			return nil, false
		}
		out = append(out, group...)
		enc = enc[code:]
		if code != 0xFF && len(enc) > 0 {
			out = append(out, 0)
		}
	}
	return out, true
}

func TestCOBS(t *testing.T) {
	for _, tt := range cobsTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := appendCOBS(nil, tt.decoded); !bytes.Equal(got, tt.encoded) {
				t.Errorf("appendCOBS(%x) = %x, want %x", tt.decoded, got, tt.encoded)
			}
			if got := cobsEncodeReference(tt.decoded); !bytes.Equal(got, tt.encoded) {
				t.Errorf("cobsEncodeReference(%x) = %x, want %x", tt.decoded, got, tt.encoded)
			}
			got, ok := decodeCOBS(nil, tt.encoded)
			if !ok || !bytes.Equal(got, tt.decoded) {
				t.Errorf("decodeCOBS(%x) = %x, %v; want %x, true", tt.encoded, got, ok, tt.decoded)
			}
		})
	}
}

func TestCOBSDecodeInvalid(t *testing.T) {
	for _, enc := range [][]byte{
		nil,           // empty
		h("00"),       // zero code
		h("0311"),     // group runs past the end
		h("031100"),   // zero inside a group
		h("02110000"), // zero code after a group
	} {
		if got, ok := decodeCOBS(nil, enc); ok {
			t.Errorf("decodeCOBS(%x) = %x, true; want false", enc, got)
		}
	}
}

func TestCOBSDecodeAcceptsTrailingEmptyGroup(t *testing.T) {
	// The elided empty group may be present; it decodes to nothing.
	enc := cat(h("ff"), seq(1, 254), h("01"))
	got, ok := decodeCOBS(nil, enc)
	if !ok || !bytes.Equal(got, seq(1, 254)) {
		t.Errorf("decodeCOBS(FF … 01) = %x, %v; want the 254 bytes", got, ok)
	}
}

// FuzzCOBSRoundtrip guards: the fast encoder matches the reference, its
// output has no zero and at most one overhead byte per 254, decoding (also in
// place) gives the data back, and on arbitrary input the fast decoder agrees
// with the reference decoder.
func FuzzCOBSRoundtrip(f *testing.F) {
	for _, tt := range cobsTests {
		f.Add(tt.decoded)
		f.Add(tt.encoded)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		prefix := []byte("prefix")
		enc := appendCOBS(bytes.Clone(prefix), data)
		if !bytes.HasPrefix(enc, prefix) {
			t.Fatalf("appendCOBS clobbered dst: %x", enc)
		}
		enc = enc[len(prefix):]
		if want := cobsEncodeReference(data); !bytes.Equal(enc, want) {
			t.Fatalf("appendCOBS(%x) = %x, reference %x", data, enc, want)
		}
		if bytes.IndexByte(enc, 0) >= 0 {
			t.Fatalf("appendCOBS(%x) = %x holds a zero", data, enc)
		}
		if limit := len(data) + 1 + len(data)/254; len(enc) > limit {
			t.Fatalf("appendCOBS(%d bytes) = %d bytes, more than %d", len(data), len(enc), limit)
		}
		dec, ok := decodeCOBS(nil, enc)
		if !ok || !bytes.Equal(dec, data) {
			t.Fatalf("decodeCOBS(appendCOBS(%x)) = %x, %v", data, dec, ok)
		}
		buf := bytes.Clone(enc)
		if dec, ok := decodeCOBS(buf[:0], buf); !ok || !bytes.Equal(dec, data) {
			t.Fatalf("in-place decodeCOBS(appendCOBS(%x)) = %x, %v", data, dec, ok)
		}

		// data as encoded input: fast and reference decoders agree.
		want, wantOK := cobsDecodeReference(data)
		got, gotOK := decodeCOBS(nil, data)
		if gotOK != wantOK || (gotOK && !bytes.Equal(got, want)) {
			t.Fatalf("decodeCOBS(%x) = %x, %v; reference %x, %v", data, got, gotOK, want, wantOK)
		}
		buf = bytes.Clone(data)
		if got, gotOK := decodeCOBS(buf[:0], buf); gotOK != wantOK || (gotOK && !bytes.Equal(got, want)) {
			t.Fatalf("in-place decodeCOBS(%x) = %x, %v; reference %x, %v", data, got, gotOK, want, wantOK)
		}
	})
}
