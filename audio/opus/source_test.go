package opus

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"wolftable/audio/pack"
)

// The fixtures' source signal, at 48 kHz: 0.25 s of silence, 1 s of tone,
// 0.25 s of silence. The tone is a sine at -20 dBFS RMS with 5 ms
// raised-cosine fades: 440 Hz on the first channel, 660 Hz on the second.
// testdata/README.md says how the fixtures were made from it.
const (
	srcLead    = 12000 // frames of silence before the tone
	srcTone    = 48000 // frames of tone
	srcTail    = 12000 // frames of silence after
	srcFrames  = srcLead + srcTone + srcTail
	srcFade    = 240 // 5 ms
	srcRMSdBFS = -20.0
)

var srcFreq = [2]float64{440, 660}

// sourceTone makes the source signal with 1 or 2 channels.
func sourceTone(channels int) pack.Audio {
	amp := 32768 * math.Pow(10, srcRMSdBFS/20) * math.Sqrt2
	s := make([]int16, srcFrames*channels)
	for i := 0; i < srcTone; i++ {
		g := 1.0
		if k := min(i, srcTone-1-i); k < srcFade {
			g = 0.5 - 0.5*math.Cos(math.Pi*float64(k)/srcFade)
		}
		for c := 0; c < channels; c++ {
			v := amp * g * math.Sin(2*math.Pi*srcFreq[c]*float64(i)/SampleRate)
			s[(srcLead+i)*channels+c] = int16(math.Round(v))
		}
	}
	return pack.Audio{Rate: SampleRate, Channels: channels, Samples: s}
}

var writeSources = flag.String("write-sources", "", "write the fixtures' source WAVs (tone-mono.wav, tone-stereo.wav) into this folder")

// TestWriteSources writes the source signal as WAV files when asked (see
// testdata/README.md); otherwise it only checks the signal's level.
func TestWriteSources(t *testing.T) {
	for _, ch := range []int{1, 2} {
		a := sourceTone(ch)
		for c := 0; c < ch; c++ {
			if got := toneLevel(channel(a, c)); math.Abs(got-srcRMSdBFS) > 0.05 {
				t.Errorf("%d channels: channel %d at %.2f dBFS, want %.1f", ch, c, got, srcRMSdBFS)
			}
		}
		if *writeSources == "" {
			continue
		}
		name := map[int]string{1: "tone-mono.wav", 2: "tone-stereo.wav"}[ch]
		if err := os.WriteFile(filepath.Join(*writeSources, name), pack.EncodeWAV(a), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// channel is one channel of a.
func channel(a pack.Audio, c int) []int16 {
	out := make([]int16, a.Frames())
	for i := range out {
		out[i] = a.Samples[i*a.Channels+c]
	}
	return out
}

// loud is the span of s where the tone is: from the first to the last
// sample above a quarter of the loudest one.
func loud(s []int16) (first, last int) {
	peak := 0
	for _, v := range s {
		peak = max(peak, abs(int(v)))
	}
	first, last = -1, -1
	for i, v := range s {
		if abs(int(v)) > peak/4 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	return first, last
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// toneLevel is the RMS level, in dBFS, of the middle of the tone (its
// fades and edges left out: 50 ms each side).
func toneLevel(s []int16) float64 {
	first, last := loud(s)
	first, last = first+2400, last-2400
	if first < 0 || last <= first {
		return math.Inf(-1)
	}
	var sum float64
	for _, v := range s[first:last] {
		sum += float64(v) * float64(v)
	}
	return 20 * math.Log10(math.Sqrt(sum/float64(last-first))/32768)
}

// toneFrequency is the frequency of the tone in the middle of s, by its
// rising zero crossings (interpolated between samples).
func toneFrequency(s []int16) float64 {
	first, last := loud(s)
	first, last = first+2400, last-2400
	if first < 0 || last <= first {
		return 0
	}
	var t0, t1 float64
	n := 0
	for i := first; i < last; i++ {
		a, b := float64(s[i]), float64(s[i+1])
		if a < 0 && b >= 0 {
			t := float64(i) + a/(a-b)
			if n == 0 {
				t0 = t
			}
			t1 = t
			n++
		}
	}
	if n < 2 {
		return 0
	}
	return float64(n-1) * SampleRate / (t1 - t0)
}
