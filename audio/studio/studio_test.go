package studio

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wolftable/audio/check"
	"wolftable/audio/pack"
	"wolftable/audio/voice"
)

// recording is a voiced tone with silence around it, at rate and dBFS
// level, channels 1 or 2.
func recording(rate, channels int, lead, voice, trail time.Duration, dbfs float64) []byte {
	n := func(d time.Duration) int { return int(d * time.Duration(rate) / time.Second) }
	total := n(lead) + n(voice) + n(trail)
	amp := pack.FromDB(dbfs) * 32767 * math.Sqrt2
	s := make([]int16, total*channels)
	for i := n(lead); i < n(lead)+n(voice); i++ {
		t := float64(i) / float64(rate)
		v := int16(max(-32768, min(32767, amp*(0.7*math.Sin(2*math.Pi*180*t)+0.3*math.Sin(2*math.Pi*540*t))/1.05))) // over full scale: clipped
		for c := range channels {
			s[i*channels+c] = v
		}
	}
	return pack.EncodeWAV(pack.Audio{Rate: rate, Channels: channels, Samples: s})
}

// TestProcessGoodRecording: a quiet 48 kHz stereo take with half a second
// of silence each side becomes a 16 kHz mono clip with at most the margin
// of silence, at the pack's level, that voice check passes.
func TestProcessGoodRecording(t *testing.T) {
	up := recording(48000, 2, 500*time.Millisecond, 1200*time.Millisecond, 700*time.Millisecond, -34)
	wav, r, err := Process("line.game.start.1", up)
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK || r.File != "line.game.start.1.wav" {
		t.Fatalf("result %+v", r)
	}
	if r.Seconds < 1.2 || r.Seconds > 1.2+2*margin.Seconds()+0.03 {
		t.Errorf("trimmed to %.3f s, want the 1.2 s voice and at most %v each side", r.Seconds, margin)
	}
	// the take's voice is at about -36.8 dBFS (the two partials' RMS is
	// 2.8 dB under the nominal level)
	if r.GainDB < 15 || r.GainDB > 17.5 {
		t.Errorf("gain %.1f dB, want about 16.3 (-36.8 to -20.5 dBFS)", r.GainDB)
	}
	a, err := pack.DecodeWAV(wav)
	if err != nil || a.Rate != pack.SampleRate || a.Channels != 1 {
		t.Fatalf("saved as %d Hz × %d: %v", a.Rate, a.Channels, err)
	}
	var level float64 = math.NaN()
	for _, f := range check.Clip(r.Clip, r.File, wav) {
		if f.Severity >= check.Warning {
			t.Errorf("voice check: %v", f)
		}
		if f.Kind == check.Level {
			level = f.Value
		}
	}
	if math.Abs(level-TargetDBFS) > 1 {
		t.Errorf("level %.1f dBFS, want %.1f", level, TargetDBFS)
	}
}

// A loud take is brought down, never clipped: levelling keeps the peak
// under -1 dBFS.
func TestProcessNeverClips(t *testing.T) {
	wav, r, err := Process("x", recording(44100, 1, 100*time.Millisecond, time.Second, 100*time.Millisecond, -3))
	if err != nil || !r.OK {
		t.Fatalf("%v %+v", err, r)
	}
	a, _ := pack.DecodeWAV(wav)
	peak := 0
	for _, v := range a.Samples {
		peak = max(peak, abs(int(v)))
	}
	if peak > int(pack.FromDB(-1)*32767)+1 {
		t.Errorf("peak %d, over -1 dBFS", peak)
	}
}

// TestProcessRefuses: each bad upload gets its own clear error.
func TestProcessRefuses(t *testing.T) {
	long := recording(16000, 1, 0, 40*time.Second, 0, -20)
	ten := make([]byte, MaxUpload+1) // ten minutes of 16 kHz mono is 19 MB
	for _, c := range []struct {
		name string
		up   []byte
		want string
		is   error
	}{
		{"empty", nil, "", ErrEmpty},
		{"not audio", []byte("<html>not a recording</html>"), "", ErrNotAudio},
		{"ten minutes", ten, "", ErrTooLarge},
		{"forty seconds", long, "超過 30s", nil},
		{"8 kHz", recording(8000, 1, 0, time.Second, 0, -20), "取樣率 8000 Hz", nil},
		{"silence", recording(16000, 1, time.Second, 0, time.Second, -20), "", ErrSilent},
	} {
		_, _, err := Process("x", c.up)
		switch {
		case err == nil:
			t.Errorf("%s: taken", c.name)
		case c.is != nil && !errors.Is(err, c.is):
			t.Errorf("%s: %v, want %v", c.name, err, c.is)
		case c.want != "" && !strings.Contains(err.Error(), c.want):
			t.Errorf("%s: %v, want it to say %q", c.name, err, c.want)
		}
	}
}

// TestSave: the clip replaces the old one in one rename (and the old MP3 of
// the same clip goes); a bad id writes nothing; no temporary file stays.
func TestSave(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "line.a.1.mp3"), []byte("old"), 0o644)
	os.WriteFile(filepath.Join(dir, "line.b.1.wav"), []byte("good"), 0o644)
	wav, _, err := Process("line.a.1", recording(16000, 1, 0, time.Second, 0, -20))
	if err != nil {
		t.Fatal(err)
	}
	if err := Save(dir, "line.a.1", wav); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "line.a.1.wav")); err != nil || !bytes.Equal(b, wav) {
		t.Errorf("saved clip: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "line.a.1.mp3")); !errors.Is(err, os.ErrNotExist) {
		t.Error("the old MP3 of the clip is still there")
	}
	for _, bad := range []string{"", "../x", "a/b", ".hidden"} {
		if err := Save(dir, bad, wav); err == nil {
			t.Errorf("id %q saved", bad)
		}
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "line.a.1.wav line.b.1.wav" {
		t.Errorf("the folder holds %v", names)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "line.b.1.wav")); string(b) != "good" {
		t.Error("another clip changed")
	}
}

// FuzzProcess: any bytes are an error or a clip that decodes; never a panic.
func FuzzProcess(f *testing.F) {
	f.Add(recording(16000, 1, 50*time.Millisecond, 200*time.Millisecond, 50*time.Millisecond, -20))
	f.Add(recording(48000, 2, 0, 100*time.Millisecond, 0, -6))
	f.Add([]byte("RIFF\x00\x00\x00\x00WAVEfmt "))
	for _, name := range []string{"tone-chromium-mono.webm", "tone-opusenc-mono.ogg"} {
		if b, err := os.ReadFile(filepath.Join("..", "opus", "testdata", name)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		wav, _, err := Process("x", b)
		if err != nil {
			return
		}
		if _, err := pack.DecodeWAV(wav); err != nil {
			t.Fatalf("a processed clip does not decode: %v", err)
		}
	})
}

// TestProcessOpus: what browsers' recorders make (WebM/Opus from
// Chromium's MediaRecorder, Ogg/Opus) becomes a clip like a WAV does; a
// recorder left running ten minutes is refused as too long.
func TestProcessOpus(t *testing.T) {
	for _, name := range []string{"tone-chromium-mono.webm", "tone-ffmpeg-stereo.webm", "tone-opusenc-mono.ogg"} {
		up, err := os.ReadFile(filepath.Join("..", "opus", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		wav, r, err := Process("seat.3", up)
		if err != nil || !r.OK {
			t.Errorf("%s: %v %+v", name, err, r)
			continue
		}
		// the fixtures' tone lasts 1 s: kept with at most the margin each side
		if r.Seconds < 0.95 || r.Seconds > 1+2*margin.Seconds()+0.03 {
			t.Errorf("%s: %.3f s after trimming, want the 1 s tone", name, r.Seconds)
		}
		if a, err := pack.DecodeWAV(wav); err != nil || a.Rate != pack.SampleRate || a.Channels != 1 {
			t.Errorf("%s: saved as %d Hz × %d: %v", name, a.Rate, a.Channels, err)
		}
	}
	long, err := os.ReadFile(filepath.Join("testdata", "ten-minutes.ogg"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Process("seat.3", long); err == nil || !strings.Contains(err.Error(), "超過 30s") || !isUploadError(err) {
		t.Errorf("ten minutes of Opus: %v", err)
	}
	for name, up := range map[string][]byte{
		"webm, not opus": []byte("\x1a\x45\xdf\xa3 truncated"),
		"ogg, not opus":  []byte("OggS\x00\x02 broken"),
	} {
		if _, _, err := Process("seat.3", up); !errors.Is(err, ErrNotAudio) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// BenchmarkProcess: a 2.5 s take at 48 kHz (what the page sends for a
// typical line) made a clip: decode, resample, trim, level, check.
func BenchmarkProcess(b *testing.B) {
	up := recording(48000, 1, 300*time.Millisecond, 2*time.Second, 200*time.Millisecond, -30)
	b.SetBytes(int64(len(up)))
	for b.Loop() {
		if _, _, err := Process("line.game.start.1", up); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTakeRenderedAsStored (issue 26): a studio take, as the studio saves
// it, is what the table hands the sound device for its line: `voice
// render`'s samples on each channel equal the stored WAV's, sample for
// sample (a pack of the take, the default filling the rest, as an
// activation with the default does). Before, the table coded the take
// again (IMA ADPCM) and added its hiss.
func TestTakeRenderedAsStored(t *testing.T) {
	wav, _, err := Process("line.game.start.1", recording(48000, 1, 200*time.Millisecond, 1500*time.Millisecond, 200*time.Millisecond, -6))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, pack.ManifestName), []byte("name: venue take\nlanguage: zh-TW\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "line.game.start.1.wav"), wav, 0o644)
	stored, err := pack.DecodeWAV(wav)
	if err != nil {
		t.Fatal(err)
	}
	a, err := voice.Render(context.Background(), voice.Options{Pack: dir, Fill: true, Volume: 1}, "game.start", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Frames() != stored.Frames() {
		t.Fatalf("rendered %d frames, the take has %d", a.Frames(), stored.Frames())
	}
	for i, w := range stored.Samples {
		for c := range a.Channels {
			if g := a.Samples[i*a.Channels+c]; g != w {
				t.Fatalf("channel %d sample %d: %d, the take has %d", c, i, g, w)
			}
		}
	}
}
