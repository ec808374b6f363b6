package pack

import (
	"math"
)

// The resampler is a windowed-sinc (Blackman) low-pass evaluated at each
// output instant: band-limited interpolation, the textbook way. It runs once
// per clip at load time, so it favours quality over speed, but rational rate
// ratios (every common rate against SampleRate) use a precomputed polyphase
// table.
const (
	// sincZeros is the number of zero crossings of the sinc kept on each
	// side of the centre, measured at the filter's cutoff.
	sincZeros = 16
	// cutoff is the pass band as a fraction of the lower Nyquist frequency;
	// the rest is the transition band. For 22050 Hz speech the pass band
	// ends at 10.5 kHz.
	cutoff = 0.95
	// maxPhases bounds the polyphase table (phases × taps float64s). Odd
	// rate pairs with more phases fall back to direct evaluation.
	maxPhases = 2048
)

// Resample converts mono samples from one rate to another. The output has
// ceil(len(in)·to/from) samples; sample k is the band-limited value of the
// input at time k/to. Equal rates return a copy.
func Resample(in []int16, from, to int) []int16 {
	if from <= 0 || to <= 0 {
		return nil
	}
	if from == to {
		return append([]int16(nil), in...)
	}
	k := newKernel(from, to)
	if k.phases > maxPhases {
		return resampleDirect(in, k)
	}
	return resampleTable(in, k)
}

// kernel describes the filter for one rate pair. Output sample j sits at
// input position j·m/l = idx + phase/l.
type kernel struct {
	l, m   int     // to/g, from/g
	fc     float64 // cutoff in cycles per input sample ×2 (1 = input Nyquist)
	half   int     // taps on each side of the centre, in input samples
	phases int
}

func newKernel(from, to int) kernel {
	g := gcd(from, to)
	k := kernel{l: to / g, m: from / g, fc: cutoff}
	if to < from {
		// Downsampling: the cutoff follows the output's Nyquist, and the
		// filter widens in input samples to keep its shape.
		k.fc = cutoff * float64(to) / float64(from)
	}
	k.half = int(math.Ceil(sincZeros / k.fc))
	k.phases = k.l
	return k
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func outLen(n int, k kernel) int {
	return int((int64(n)*int64(k.l) + int64(k.m) - 1) / int64(k.m))
}

// tap is the filter's response at distance t (in input samples) from the
// output instant: a sinc with cutoff fc under a Blackman window that reaches
// zero at ±half.
func (k kernel) tap(t float64) float64 {
	w := float64(k.half)
	if t <= -w || t >= w {
		return 0
	}
	x := k.fc * t
	sinc := 1.0
	if x != 0 {
		sinc = math.Sin(math.Pi*x) / (math.Pi * x)
	}
	p := (t + w) / (2 * w) // 0..1 across the window
	win := 0.42 - 0.5*math.Cos(2*math.Pi*p) + 0.08*math.Cos(4*math.Pi*p)
	return k.fc * sinc * win
}

// weights fills w (len 2·half) with the taps for the input samples
// idx-half+1 ... idx+half around an output instant frac (0 ≤ frac < 1) past
// idx, normalised to unit DC gain.
func (k kernel) weights(frac float64, w []float64) {
	sum := 0.0
	for i := range w {
		j := i - k.half + 1 // input offset from idx
		v := k.tap(float64(j) - frac)
		w[i] = v
		sum += v
	}
	if sum != 0 {
		for i := range w {
			w[i] /= sum
		}
	}
}

func toInt16(v float64) int16 {
	v = math.Round(v)
	switch {
	case v > math.MaxInt16:
		return math.MaxInt16
	case v < math.MinInt16:
		return math.MinInt16
	}
	return int16(v)
}

// convolve applies weights w at input position idx.
func convolve(in []int16, idx, half int, w []float64) int16 {
	first := idx - half + 1
	acc := 0.0
	if first >= 0 && first+len(w) <= len(in) {
		x := in[first : first+len(w)]
		var a0, a1 float64 // two chains: the additions overlap
		i := 0
		for ; i+1 < len(w); i += 2 {
			a0 += w[i] * float64(x[i])
			a1 += w[i+1] * float64(x[i+1])
		}
		for ; i < len(w); i++ {
			a0 += w[i] * float64(x[i])
		}
		acc = a0 + a1
	} else {
		for i, c := range w {
			if j := first + i; j >= 0 && j < len(in) {
				acc += c * float64(in[j])
			}
		}
	}
	return toInt16(acc)
}

func resampleTable(in []int16, k kernel) []int16 {
	taps := 2 * k.half
	table := make([]float64, k.phases*taps)
	for p := 0; p < k.phases; p++ {
		k.weights(float64(p)/float64(k.l), table[p*taps:(p+1)*taps])
	}
	out := make([]int16, outLen(len(in), k))
	for j := range out {
		pos := int64(j) * int64(k.m)
		idx := int(pos / int64(k.l))
		p := int(pos % int64(k.l))
		out[j] = convolve(in, idx, k.half, table[p*taps:(p+1)*taps])
	}
	return out
}

// resampleDirect evaluates the filter afresh for every output sample. It is
// the reference the table version is tested against, and the path for rate
// pairs whose table would be too big.
func resampleDirect(in []int16, k kernel) []int16 {
	w := make([]float64, 2*k.half)
	out := make([]int16, outLen(len(in), k))
	for j := range out {
		pos := int64(j) * int64(k.m)
		idx := int(pos / int64(k.l))
		frac := float64(pos%int64(k.l)) / float64(k.l)
		k.weights(frac, w)
		out[j] = convolve(in, idx, k.half, w)
	}
	return out
}
