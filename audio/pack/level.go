package pack

import "math"

// Levels, shared by the pack checks (audio/check) and the default pack's
// generator (audio/voice): linear values are full-scale units (an int16
// sample over 32768), and 0 dBFS is a full-scale square wave (RMS 1).

// DB is a linear level in dBFS (-Inf for silence).
func DB(lin float64) float64 {
	if lin <= 0 {
		return math.Inf(-1)
	}
	return 20 * math.Log10(lin)
}

// FromDB is a dBFS level as a linear one.
func FromDB(db float64) float64 { return math.Pow(10, db/20) }

// WindowRMS is the RMS of each window of frames frames of interleaved
// samples with the given channels (all channels together); a short last
// window counts.
func WindowRMS(samples []int16, channels, frames int) []float64 {
	channels, frames = max(channels, 1), max(frames, 1)
	n := len(samples) / channels
	out := make([]float64, 0, n/frames+1)
	for start := 0; start < n; start += frames {
		end := min(start+frames, n)
		var sum float64
		for _, s := range samples[start*channels : end*channels] {
			v := float64(s) / 32768
			sum += v * v
		}
		out = append(out, math.Sqrt(sum/float64((end-start)*channels)))
	}
	return out
}
