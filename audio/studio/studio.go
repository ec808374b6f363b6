package studio

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"wolftable/audio/check"
	"wolftable/audio/opus"
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
	ErrNotAudio = errors.New("不是可讀的錄音（請用 WAV、WebM/Opus、Ogg/Opus 或 MP3） / not a recording this table can read (send WAV, WebM/Opus, Ogg/Opus or MP3)")
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

// Process turns an upload into the WAV file of clip id. The upload is a
// recording in one of the formats of Decode (any rate from MinRate, mono or
// stereo). opts are voice check's (check.WithSuggested: the clip's length).
// A take whose own samples clip is refused by the check (Result.OK false),
// though levelling lowered its peaks.
func Process(id string, upload []byte, opts ...check.Option) ([]byte, Result, error) {
	a, err := Decode(upload)
	if err != nil {
		return nil, Result{}, err
	}
	if a.Rate < MinRate || a.Rate > 192000 {
		return nil, Result{}, uploadError{fmt.Errorf("錄音的取樣率 %d Hz 不行：要 %d 到 192000 Hz / sample rate %d Hz: want %d to 192000", a.Rate, MinRate, a.Rate, MinRate)}
	}
	s := pack.Resample(a.Mono(), a.Rate, pack.SampleRate)
	s, ok := trim(s)
	if !ok {
		return nil, Result{}, ErrSilent
	}
	gain := level(s)
	wav := pack.EncodeWAV(pack.Audio{Rate: pack.SampleRate, Channels: 1, Samples: s})
	file := id + ".wav"
	fs := append(check.Recording(id, file, a), check.Clip(id, file, wav, opts...)...)
	r := Result{Clip: id, File: file, Seconds: float64(len(s)) / pack.SampleRate, GainDB: math.Round(gain*10) / 10,
		Findings: fs, OK: check.Worst(fs) < check.Error}
	return wav, r, nil
}

// Decode reads an upload: WAV (16-bit PCM, RIFF), WebM/Opus or Ogg/Opus
// (what browsers' MediaRecorder makes), or MP3, told apart by their first
// bytes. Opus is decoded only up to MaxDuration: a recorder left running
// costs no more memory than the longest take allowed.
func Decode(upload []byte) (pack.Audio, error) {
	switch {
	case len(upload) == 0:
		return pack.Audio{}, ErrEmpty
	case len(upload) > MaxUpload:
		return pack.Audio{}, ErrTooLarge
	}
	var (
		a   pack.Audio
		err error
	)
	switch {
	case bytes.HasPrefix(upload, []byte("RIFF")):
		a, err = pack.DecodeWAV(upload)
	case opus.Sniff(upload) != opus.Unknown:
		a, err = opus.Decode(upload, MaxDuration)
		if errors.Is(err, opus.ErrTooLong) {
			return pack.Audio{}, tooLong(MaxDuration + time.Second)
		}
	case isMP3(upload):
		a, err = pack.DecodeMP3(upload)
	default:
		return pack.Audio{}, ErrNotAudio
	}
	if err != nil {
		return pack.Audio{}, fmt.Errorf("%w: %v", ErrNotAudio, err)
	}
	if d := a.Duration(); d > MaxDuration {
		return pack.Audio{}, tooLong(d)
	}
	return a, nil
}

func tooLong(d time.Duration) error {
	return uploadError{fmt.Errorf("錄音長 %v，超過 %v：一句台詞錄一次 / the recording is %v, over %v", d.Round(time.Second), MaxDuration, d.Round(time.Second), MaxDuration)}
}

// isMP3 tells an MP3 file by its ID3 tag or an MPEG audio frame's sync.
func isMP3(b []byte) bool {
	return bytes.HasPrefix(b, []byte("ID3")) || (len(b) > 1 && b[0] == 0xFF && b[1]&0xE0 == 0xE0)
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
