// Package studio turns one recording of the venue's judge (an upload from
// the console's studio page, issue 17) into a clip of a voice pack on the
// table: decoded, mixed to mono, resampled to the pack's rate, trimmed of
// the silence before and after the voice, levelled to the default pack's
// loudness, checked with voice check's rules, and saved atomically, so a
// failed upload never damages a clip that was good.
//
// This is the processing core; the studio page, its API and the pack's
// activation are not built yet.
package studio

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"wolftable/audio/check"
	"wolftable/audio/pack"
	"wolftable/internal/atomicfile"
)

const (
	// MaxUpload bounds an upload's size (a minute of 48 kHz stereo WAV).
	MaxUpload = 12 << 20
	// MaxDuration bounds a recording: the longest line of the script is a
	// few seconds; a long recording is a mistake (the recorder left on).
	MaxDuration = 30 * time.Second
	// MinRate is the lowest sample rate taken (the pack plays at 16 kHz;
	// telephone audio made louder is not a judge's voice).
	MinRate = 16000
	// TargetDBFS is the level a clip is brought to: the default pack's
	// median (voice check: -20.5 dBFS).
	TargetDBFS = -20.5
	// floorDBFS: a 10 ms window below it is silence (voice check's floor).
	floorDBFS = -45
	// margin is the silence kept before and after the voice.
	margin = 60 * time.Millisecond
)

// Errors of an upload that cannot become a clip; the message is for the
// judge (Chinese, then English).
var (
	ErrEmpty    = errors.New("錄音是空的 / the recording is empty")
	ErrTooLarge = fmt.Errorf("錄音檔太大（上限 %d MB） / the upload is too large", MaxUpload>>20)
	ErrNotAudio = errors.New("不是可讀的錄音（請用 WAV） / not a recording this table can read (send WAV)")
	ErrSilent   = errors.New("錄音裡聽不到聲音 / no voice in the recording")
)

// Result is what became of an upload.
type Result struct {
	Clip     string          `json:"clip"`
	File     string          `json:"file"`     // the clip's file name in the pack
	Seconds  float64         `json:"seconds"`  // after trimming
	GainDB   float64         `json:"gain_db"`  // the levelling applied
	Findings []check.Finding `json:"findings"` // voice check's findings on the clip as saved
	OK       bool            `json:"ok"`       // no error among the findings
}

// Process turns an upload into the WAV file of clip id. The upload is a WAV
// file (any rate from MinRate, mono or stereo, 16-bit PCM).
func Process(id string, upload []byte) ([]byte, Result, error) {
	switch {
	case len(upload) == 0:
		return nil, Result{}, ErrEmpty
	case len(upload) > MaxUpload:
		return nil, Result{}, ErrTooLarge
	}
	a, err := pack.DecodeWAV(upload)
	if err != nil {
		return nil, Result{}, fmt.Errorf("%w: %v", ErrNotAudio, err)
	}
	if a.Rate < MinRate || a.Rate > 192000 {
		return nil, Result{}, fmt.Errorf("錄音的取樣率 %d Hz 不行：要 %d 到 192000 Hz / sample rate %d Hz: want %d to 192000", a.Rate, MinRate, a.Rate, MinRate)
	}
	if d := a.Duration(); d > MaxDuration {
		return nil, Result{}, fmt.Errorf("錄音長 %v，超過 %v：一句台詞錄一次 / the recording is %v, over %v", d.Round(time.Second), MaxDuration, d.Round(time.Second), MaxDuration)
	}
	s := pack.Resample(a.Mono(), a.Rate, pack.SampleRate)
	s, ok := trim(s)
	if !ok {
		return nil, Result{}, ErrSilent
	}
	gain := level(s)
	wav := pack.EncodeWAV(pack.Audio{Rate: pack.SampleRate, Channels: 1, Samples: s})
	file := id + ".wav"
	fs := check.Clip(id, file, wav)
	r := Result{Clip: id, File: file, Seconds: float64(len(s)) / pack.SampleRate, GainDB: math.Round(gain*10) / 10,
		Findings: fs, OK: check.Worst(fs) < check.Error}
	return wav, r, nil
}

// windows are the 10 ms windows' RMS of s.
func windows(s []int16) []float64 {
	return pack.WindowRMS(s, 1, pack.SampleRate/100)
}

// trim keeps the voice and margin of silence around it; false when no
// window is above the floor.
func trim(s []int16) ([]int16, bool) {
	win := windows(s)
	floor := pack.FromDB(floorDBFS)
	first, last := -1, -1
	for i, r := range win {
		if r > floor {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return nil, false
	}
	wf := pack.SampleRate / 100
	m := int(margin * pack.SampleRate / time.Second)
	from := max(0, first*wf-m)
	to := min(len(s), (last+1)*wf+m)
	return append([]int16(nil), s[from:to]...), true
}

// level scales s so that its voice (the windows above the floor) is at
// TargetDBFS, never past full scale; it returns the gain in dB.
func level(s []int16) float64 {
	floor := pack.FromDB(floorDBFS)
	var sum float64
	n := 0
	for _, r := range windows(s) {
		if r > floor {
			sum += r * r
			n++
		}
	}
	if n == 0 {
		return 0
	}
	cur := pack.DB(math.Sqrt(sum / float64(n)))
	gain := TargetDBFS - cur
	peak := 0
	for _, v := range s {
		peak = max(peak, abs(int(v)))
	}
	if peak > 0 {
		// keep the peak under -1 dBFS: levelling never clips
		gain = math.Min(gain, pack.DB(pack.FromDB(-1)*32767/float64(peak)))
	}
	f := pack.FromDB(gain)
	for i, v := range s {
		s[i] = int16(max(-32768, min(32767, math.Round(float64(v)*f))))
	}
	return gain
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Save writes the clip into the pack folder dir atomically (id.wav; until
// the rename the old clip stands), then removes any other file of the same
// clip (id.mp3 from an earlier pack).
func Save(dir, id string, wav []byte) error {
	if id == "" || strings.ContainsAny(id, `/\`) || strings.HasPrefix(id, ".") {
		return fmt.Errorf("台詞代號 %q 不對 / bad clip id %q", id, id)
	}
	if err := atomicfile.Write(filepath.Join(dir, id+".wav"), wav, 0o644); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dir, id+".mp3")); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
