package pack

import (
	"math"
	"testing"
)

func sine(rate, n int, hz, amp float64) []int16 {
	s := make([]int16, n)
	for i := range s {
		s[i] = int16(math.Round(amp * math.Sin(2*math.Pi*hz*float64(i)/float64(rate))))
	}
	return s
}

// rmsError compares got against an ideal sine, away from the edges.
func rmsError(got []int16, rate int, hz, amp float64, edge int) float64 {
	var sum float64
	n := 0
	for i := edge; i < len(got)-edge; i++ {
		want := amp * math.Sin(2*math.Pi*hz*float64(i)/float64(rate))
		d := float64(got[i]) - want
		sum += d * d
		n++
	}
	if n == 0 {
		return math.Inf(1) // nothing compared: never a pass
	}
	return math.Sqrt(sum / float64(n))
}

func rms(s []int16) float64 {
	var sum float64
	for _, v := range s {
		sum += float64(v) * float64(v)
	}
	return math.Sqrt(sum / float64(len(s)))
}

func TestResamplePassBand(t *testing.T) {
	for _, tt := range []struct {
		from int
		hz   float64
	}{
		// tones up to 0.75 of the lower Nyquist frequency (6 kHz at 16 kHz)
		{8000, 1000}, {11025, 3000}, {16000, 5000}, {22050, 440}, {22050, 6000},
		{24000, 1000}, {32000, 6000}, {44100, 1000}, {44100, 6000}, {96000, 1000},
		{192000, 5000}, {47999, 1000},
	} {
		in := sine(tt.from, tt.from/4, tt.hz, 10000)
		out := Resample(in, tt.from, SampleRate)
		if want := (len(in)*SampleRate + tt.from - 1) / tt.from; len(out) != want {
			t.Errorf("%d Hz: %d samples out, want %d", tt.from, len(out), want)
		}
		// 10000 amplitude; -50 dB error is about 30 LSB RMS.
		// ¼ s out; the filter's edges (25 ms each side) are left out
		if e := rmsError(out, SampleRate, tt.hz, 10000, SampleRate/40); e > 30 {
			t.Errorf("%d Hz → %d, %v Hz tone: RMS error %.1f LSB", tt.from, SampleRate, tt.hz, e)
		}
	}
}

func TestResampleStopBand(t *testing.T) {
	// 30 kHz at 96 kHz cannot exist at SampleRate: it must be filtered out,
	// not folded down.
	in := sine(96000, 96000/4, 30000, 10000)
	out := Resample(in, 96000, SampleRate)
	if r := rms(out[1000 : len(out)-1000]); r > 10000*0.707*0.003 { // -50 dB
		t.Fatalf("30 kHz leaked through at RMS %.1f", r)
	}
}

func TestResampleDC(t *testing.T) {
	in := make([]int16, 2000)
	for i := range in {
		in[i] = 12345
	}
	out := Resample(in, 22050, SampleRate)
	for i := 200; i < len(out)-200; i++ {
		if out[i] != 12345 {
			t.Fatalf("out[%d] = %d, want 12345 (unit DC gain)", i, out[i])
		}
	}
}

func TestResampleSameRate(t *testing.T) {
	in := []int16{1, 2, 3}
	out := Resample(in, SampleRate, SampleRate)
	out[0] = 9
	if in[0] != 1 || len(out) != 3 {
		t.Fatal("same-rate Resample must return a copy")
	}
	if Resample(in, 0, SampleRate) != nil {
		t.Fatal("rate 0 must give nil")
	}
}

func TestResampleTableMatchesDirect(t *testing.T) {
	in := sine(22050, 3000, 2500, 30000)
	for _, from := range []int{8000, 22050, 44100, 96000} {
		k := newKernel(from, SampleRate)
		fast, slow := resampleTable(in, k), resampleDirect(in, k)
		for i := range fast {
			if d := int(fast[i]) - int(slow[i]); d > 1 || d < -1 {
				t.Fatalf("from %d: sample %d: table %d, direct %d", from, i, fast[i], slow[i])
			}
		}
	}
}
