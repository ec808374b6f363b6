package protocol

import "testing"

// crcModel is the Rocksoft model of a 16-bit CRC, bit by bit, honouring
// every parameter in crc.go (including the reflections this CRC does not
// use).
func crcModel(p []byte) uint16 {
	reflect := func(v uint16, bits int) uint16 {
		var r uint16
		for i := 0; i < bits; i++ {
			if v&(1<<i) != 0 {
				r |= 1 << (bits - 1 - i)
			}
		}
		return r
	}
	r := uint16(crcInit)
	for _, b := range p {
		in := uint16(b)
		if crcRefIn {
			in = reflect(in, 8)
		}
		r ^= in << (crcWidth - 8)
		for i := 0; i < 8; i++ {
			if r&0x8000 != 0 {
				r = r<<1 ^ crcPoly
			} else {
				r <<= 1
			}
		}
	}
	if crcRefOut {
		r = reflect(r, crcWidth)
	}
	return r ^ crcXorOut
}

func TestCRC16(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want uint16
	}{
		{"123456789", 0x29B1}, // the catalogue's check value
		{"", 0xFFFF},          // init, untouched
		{"A", 0xB915},
		{"\x00", 0xE1F0},
	} {
		if got := CRC16([]byte(tt.in)); got != tt.want {
			t.Errorf("CRC16(%q) = %#04x, want %#04x", tt.in, got, tt.want)
		}
		if got := crcModel([]byte(tt.in)); got != tt.want {
			t.Errorf("crcModel(%q) = %#04x, want %#04x", tt.in, got, tt.want)
		}
	}
	if got := CRC16([]byte("123456789")); got != crcCheck {
		t.Errorf("CRC16(check) = %#04x, want crcCheck %#04x", got, crcCheck)
	}
}

func TestCRC16MatchesModel(t *testing.T) {
	buf := make([]byte, 0, 512)
	for i := 0; i < 512; i++ {
		buf = append(buf, byte(i*7+i>>3))
		if got, want := CRC16(buf), crcModel(buf); got != want {
			t.Fatalf("CRC16(%d bytes) = %#04x, model %#04x", len(buf), got, want)
		}
	}
}
