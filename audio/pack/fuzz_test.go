package pack

import (
	"errors"
	"os"
	"slices"
	"testing"
)

// FuzzDecodeWAV: any bytes give either an error wrapping ErrMalformed or
// ErrUnsupported, or audio that re-encodes to the same samples. Never a panic.
// Seeds: testdata/fuzz/FuzzDecodeWAV.
func FuzzDecodeWAV(f *testing.F) {
	f.Add(EncodeWAV(Audio{Rate: 22050, Channels: 1, Samples: []int16{0, 1, -1, 32767, -32768}}))
	f.Add(wavFile(fmtBody(wavePCM, 1, 8000, 8), chunk("data", []byte{1, 2, 3})))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeWAV(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("error %v wraps neither ErrMalformed nor ErrUnsupported", err)
			}
			return
		}
		if a.Channels < 1 || a.Channels > 2 || len(a.Samples) == 0 || len(a.Samples)%a.Channels != 0 {
			t.Fatalf("bad audio: %d channels, %d samples", a.Channels, len(a.Samples))
		}
		if 2*len(a.Samples) > len(b) {
			t.Fatalf("%d samples from %d bytes", len(a.Samples), len(b))
		}
		again, err := DecodeWAV(EncodeWAV(a))
		if err != nil || again.Rate != a.Rate || again.Channels != a.Channels || !slices.Equal(again.Samples, a.Samples) {
			t.Fatalf("re-encoding does not round-trip: %v", err)
		}
	})
}

// FuzzParseManifest: any bytes give a *ManifestError or a manifest that
// MarshalText writes back to the same manifest. Never a panic.
// Seeds: testdata/fuzz/FuzzParseManifest.
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(testManifest))
	f.Add([]byte("name: x\nlanguage: en\nname: y\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseManifest(b)
		if err != nil {
			var me *ManifestError
			if !errors.As(err, &me) {
				t.Fatalf("error %v is not a *ManifestError", err)
			}
			return
		}
		out, _ := m.MarshalText()
		again, err := ParseManifest(out)
		if err != nil {
			t.Fatalf("re-parse of %q: %v", out, err)
		}
		if again != m {
			t.Fatalf("round trip: %+v became %+v", m, again)
		}
	})
}

var fuzzRates = []int{8000, 11025, 16000, 22050, 32000, 44100, 48000, 96000}

// FuzzResampleTableMatchesDirect: the polyphase table gives the slow direct
// evaluation's result, within one LSB of rounding, for any input. Seeds:
// testdata/fuzz/FuzzResampleTableMatchesDirect.
func FuzzResampleTableMatchesDirect(f *testing.F) {
	f.Add(uint8(3), []byte{0, 0x80, 0xff, 0x7f, 1, 2, 3, 4})
	f.Fuzz(func(t *testing.T, rate uint8, b []byte) {
		from := fuzzRates[int(rate)%len(fuzzRates)]
		in := make([]int16, len(b)/2)
		for i := range in {
			in[i] = int16(uint16(b[2*i]) | uint16(b[2*i+1])<<8)
		}
		out := Resample(in, from, SampleRate)
		if want := (len(in)*SampleRate + from - 1) / from; len(out) != want {
			t.Fatalf("%d samples out, want %d", len(out), want)
		}
		if from == SampleRate {
			return
		}
		k := newKernel(from, SampleRate)
		slow := resampleDirect(in, k)
		for i := range out {
			if d := int(out[i]) - int(slow[i]); d > 1 || d < -1 {
				t.Fatalf("sample %d: table %d, direct %d", i, out[i], slow[i])
			}
		}
	})
}

// FuzzDecodeMP3: any bytes give an error wrapping ErrMalformed or
// ErrUnsupported, or stereo audio at an MPEG-1 rate. Never a panic (go-mp3's
// are recovered). Seeds: testdata/fuzz/FuzzDecodeMP3 and the two test files.
func FuzzDecodeMP3(f *testing.F) {
	for _, name := range []string{"testdata/tone.mp3", "testdata/tone-22050.mp3"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/3])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeMP3(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("error %v wraps neither ErrMalformed nor ErrUnsupported", err)
			}
			return
		}
		if a.Channels != 2 || a.Rate < minMP3Rate || len(a.Samples) == 0 || len(a.Samples)%2 != 0 {
			t.Fatalf("bad audio: %d Hz, %d channels, %d samples", a.Rate, a.Channels, len(a.Samples))
		}
	})
}
