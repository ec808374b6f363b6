package voice

import (
	"math"
	"time"

	"wolftable/audio/pack"
)

// The clip measures, as audio/check takes them: 10 ms windows, RMS in dBFS
// with 0 dBFS a full-scale square wave, a window voiced above the floor.
const (
	measureWindow = 10 * time.Millisecond
	voicedFloorDB = -45.0
)

func windowLen(rate int) int {
	return max(1, int(int64(rate)*int64(measureWindow)/int64(time.Second)))
}

// windows returns the RMS (linear, full scale 1) of each window of mono
// samples.
func windows(s []int16, rate int) []float64 { return pack.WindowRMS(s, 1, windowLen(rate)) }

// Edges are a clip's silences: before the first and after the last voiced
// window.
type Edges struct {
	Lead, Trail time.Duration
	Level       float64 // dBFS over the voiced windows; -Inf if none
}

// Measure takes a mono clip's edges and level the way audio/check does.
func Measure(s []int16, rate int) Edges {
	w := windows(s, rate)
	floor := pack.FromDB(voicedFloorDB)
	first, last := -1, -1
	var sum float64
	n := 0
	for i, r := range w {
		if r > floor {
			if first < 0 {
				first = i
			}
			last = i
			sum += r * r
			n++
		}
	}
	if first < 0 {
		return Edges{Lead: dur(len(s), rate), Level: math.Inf(-1)}
	}
	wf := windowLen(rate)
	return Edges{
		Lead:  dur(first*wf, rate),
		Trail: dur(len(s)-min((last+1)*wf, len(s)), rate),
		Level: pack.DB(math.Sqrt(sum / float64(n))),
	}
}

func dur(frames, rate int) time.Duration {
	return time.Duration(frames) * time.Second / time.Duration(rate)
}

// shape trims a synthesized clip and sets its level: the gain brings the
// voiced windows' RMS to levelDB, or less if the peak would pass peakDB;
// then the silence is cut to keep lead before the first window above trimDB
// and trail after the last, with short fades at the cuts.
func shape(s []int16, rate int, levelDB, peakDB, trimDB float64, lead, trail time.Duration) []int16 {
	e := Measure(s, rate)
	if math.IsInf(e.Level, -1) {
		return nil
	}
	gain := pack.FromDB(levelDB - e.Level)
	peak := 0
	for _, v := range s {
		peak = max(peak, abs(int(v)))
	}
	if peak > 0 {
		gain = min(gain, pack.FromDB(peakDB)*32767/float64(peak))
	}
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = float64(v) * gain
	}

	// Trim on finer (2.5 ms) windows than the check's, so the cut is close
	// to the voice.
	step := max(1, rate/400)
	thr := pack.FromDB(trimDB) * 32768
	first, last := -1, -1
	for start := 0; start < len(out); start += step {
		end := min(start+step, len(out))
		var sum float64
		for _, v := range out[start:end] {
			sum += v * v
		}
		if math.Sqrt(sum/float64(end-start)) > thr {
			if first < 0 {
				first = start
			}
			last = end
		}
	}
	if first < 0 {
		return nil
	}
	from := max(0, first-int(int64(lead)*int64(rate)/int64(time.Second)))
	to := min(len(out), last+int(int64(trail)*int64(rate)/int64(time.Second)))
	out = out[from:to]
	fade := min(len(out)/4, rate*3/1000) // 3 ms
	for i := 0; i < fade; i++ {
		g := float64(i) / float64(fade)
		out[i] *= g
		out[len(out)-1-i] *= g
	}
	res := make([]int16, len(out))
	for i, v := range out {
		res[i] = int16(max(-32768, min(32767, math.Round(v))))
	}
	return res
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
