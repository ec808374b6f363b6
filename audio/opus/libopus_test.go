package opus

import (
	"errors"
	"strings"
	"testing"
)

func TestDecoder(t *testing.T) {
	for _, ch := range []int{0, 3, -1} {
		if d, err := newDecoder(ch, 0); err == nil {
			d.close()
			t.Errorf("newDecoder(%d) made a decoder", ch)
		}
	}
	d, err := newDecoder(2, 256)
	if err != nil {
		t.Fatal(err)
	}
	pcm := make([]int16, 2*maxFrameSamples)
	for _, tc := range []struct {
		name   string
		packet []byte
		pcm    []int16
		n      int
		err    string
	}{
		{"silence, 20 ms", []byte{0xFC}, pcm, 960, ""},
		{"silence, 6 × 20 ms", []byte{0xFF, 0x06}, pcm, 5760, ""},
		{"silence, 2.5 ms", []byte{0xE4}, pcm, 120, ""},
		{"empty", nil, pcm, 0, "libopus: corrupted stream"},
		{"code 3, no frames", []byte{0x03, 0x00}, pcm, 0, "libopus: corrupted stream"},
		{"more than 120 ms", []byte{0xFF, 0x07}, pcm, 0, "libopus: corrupted stream"},
		{"buffer too small", []byte{0xFC}, pcm[:100], 0, "libopus: buffer too small"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := d.decode(tc.packet, tc.pcm)
			if tc.err != "" {
				var le libError
				if err == nil || err.Error() != tc.err || !errors.As(err, &le) {
					t.Errorf("%d samples, error %v; want %q", n, err, tc.err)
				}
				return
			}
			if err != nil || n != tc.n {
				t.Errorf("%d samples, %v; want %d", n, err, tc.n)
			}
		})
	}
	d.close()
	d.close() // twice is fine
	if _, err := d.decode([]byte{0xFC}, pcm); err == nil || !strings.HasPrefix(err.Error(), "opus: ") {
		t.Errorf("decode after close: %v", err)
	}
	if d, err := newDecoder(1, 1<<20); err == nil {
		d.close()
		t.Error("a gain of 4096 dB was taken")
	}
}
