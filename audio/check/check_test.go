package check

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"wolftable/audio/pack"
)

const manifest = "name: venue 3\nlanguage: zh-TW\nrecorded-by: 小梁\ndate: 2025-11-29\n"

// speech is a voice-like test signal: three tones under a smooth envelope,
// with lead and tail seconds of silence around dur seconds of sound at peak
// amplitude amp (full scale 1).
func speech(rate, channels int, lead, dur, tail, amp float64) pack.Audio {
	n0, n1, n2 := int(lead*float64(rate)), int(dur*float64(rate)), int(tail*float64(rate))
	a := pack.Audio{Rate: rate, Channels: channels, Samples: make([]int16, (n0+n1+n2)*channels)}
	for i := 0; i < n1; i++ {
		t := float64(i) / float64(rate)
		env := math.Min(1, math.Min(float64(i), float64(n1-i))/(0.02*float64(rate)))
		v := (math.Sin(2*math.Pi*200*t) + 0.5*math.Sin(2*math.Pi*600*t+1) + 0.3*math.Sin(2*math.Pi*1500*t+2)) / 1.8
		s := int16(math.Max(-32768, math.Min(32767, math.Round(amp*env*v*32767))))
		for c := 0; c < channels; c++ {
			a.Samples[(n0+i)*channels+c] = s
		}
	}
	return a
}

func wav(a pack.Audio) *fstest.MapFile { return &fstest.MapFile{Data: pack.EncodeWAV(a)} }

// goodPack is a clean pack of four clips.
func goodPack() fstest.MapFS {
	return fstest.MapFS{
		pack.ManifestName: {Data: []byte(manifest)},
		"昨夜.wav":          wav(speech(48000, 1, 0.02, 0.5, 0.05, 0.3)),
		"9號.wav":          wav(speech(44100, 2, 0.03, 0.3, 0.03, 0.28)),
		"玩家死亡.wav":        wav(speech(22050, 1, 0.01, 0.6, 0.08, 0.33)),
		"天亮了.wav":         wav(speech(48000, 1, 0.05, 0.4, 0.05, 0.3)),
	}
}

var expected = []string{"昨夜", "9號", "玩家死亡", "天亮了"}

func problems(fs []Finding) []Finding {
	return slices.DeleteFunc(slices.Clone(fs), func(f Finding) bool { return f.Severity == Info })
}

func has(fs []Finding, sev Severity, kind Kind, clip string) bool {
	return slices.ContainsFunc(fs, func(f Finding) bool { return f.Severity == sev && f.Kind == kind && f.Clip == clip })
}

func TestCleanPack(t *testing.T) {
	fs := Check(goodPack(), expected)
	if p := problems(fs); len(p) > 0 {
		t.Fatalf("a clean pack has problems: %v", p)
	}
	levels := 0
	for _, f := range fs {
		if f.Kind == Level {
			levels++
			if f.Unit != "dBFS" || f.Value > -12 || f.Value < -25 {
				t.Errorf("%s level %v %s", f.Clip, f.Value, f.Unit)
			}
		}
	}
	if levels != 4 || !has(fs, Info, Spread, "") {
		t.Fatalf("want a level per clip and the spread: %v", fs)
	}
	if Worst(fs) != Info {
		t.Fatalf("Worst = %v", Worst(fs))
	}
}

// Each defect class on its own fixture pack.
func TestDefects(t *testing.T) {
	eightBit := func() []byte {
		b := pack.EncodeWAV(pack.Audio{Rate: 8000, Channels: 1, Samples: make([]int16, 400)})
		binary.LittleEndian.PutUint16(b[34:], 8) // bits
		binary.LittleEndian.PutUint16(b[32:], 1) // block align
		binary.LittleEndian.PutUint32(b[28:], 8000)
		return b
	}()
	floatWAV := func() []byte {
		b := pack.EncodeWAV(pack.Audio{Rate: 48000, Channels: 1, Samples: make([]int16, 400)})
		binary.LittleEndian.PutUint16(b[20:], 3)
		binary.LittleEndian.PutUint16(b[34:], 32)
		binary.LittleEndian.PutUint16(b[32:], 4)
		return b
	}()
	clipped := speech(48000, 1, 0.02, 0.5, 0.05, 1.6) // driven 4 dB past full scale
	quiet := speech(48000, 1, 0.02, 0.5, 0.05, 0.03)  // 20 dB down
	loud := speech(48000, 2, 0.02, 0.5, 0.05, 0.95)   // 10 dB up

	tests := []struct {
		name    string
		change  func(fstest.MapFS)
		sev     Severity
		kind    Kind
		clip    string
		contain string
	}{
		{"missing clip", func(f fstest.MapFS) { delete(f, "9號.wav") }, Error, Missing, "9號", "9號.wav"},
		{"8-bit file", func(f fstest.MapFS) { f["9號.wav"] = &fstest.MapFile{Data: eightBit} }, Error, Format, "9號", "8-bit"},
		{"float file", func(f fstest.MapFS) { f["9號.wav"] = &fstest.MapFile{Data: floatWAV} }, Error, Format, "9號", "floating-point"},
		{"truncated file", func(f fstest.MapFS) { f["9號.wav"].Data = f["9號.wav"].Data[:1000] }, Error, Unreadable, "9號", "cut short"},
		{"not a wav", func(f fstest.MapFS) { f["9號.wav"] = &fstest.MapFile{Data: []byte("hello")} }, Error, Unreadable, "9號", "RIFF"},
		{"clipped clip", func(f fstest.MapFS) { f["昨夜.wav"] = wav(clipped) }, Error, Clipping, "昨夜", "clipped"},
		{"1 s of leading silence", func(f fstest.MapFS) { f["昨夜.wav"] = wav(speech(48000, 1, 1, 0.5, 0.05, 0.5)) }, Warning, LeadingSilence, "昨夜", "1s of silence before"},
		{"trailing silence", func(f fstest.MapFS) { f["昨夜.wav"] = wav(speech(48000, 1, 0.02, 0.5, 0.4, 0.5)) }, Warning, TrailingSilence, "昨夜", "400ms of silence after"},
		{"silent clip", func(f fstest.MapFS) { f["昨夜.wav"] = wav(speech(48000, 1, 0.5, 0, 0, 0)) }, Error, Silent, "昨夜", "no voice"},
		{"quiet outlier", func(f fstest.MapFS) { f["天亮了.wav"] = wav(quiet) }, Warning, Loudness, "天亮了", "quieter"},
		{"loud outlier", func(f fstest.MapFS) { f["天亮了.wav"] = wav(loud) }, Warning, Loudness, "天亮了", "louder"},
		{"low rate", func(f fstest.MapFS) { f["天亮了.wav"] = wav(speech(8000, 1, 0.02, 0.5, 0.05, 0.5)) }, Warning, SampleRate, "天亮了", "8000 Hz"},
		{"unknown clip", func(f fstest.MapFS) { f["9号.wav"] = f["9號.wav"] }, Warning, Unknown, "9号", "never plays"},
		{"duplicate", func(f fstest.MapFS) { f["9號.mp3"] = f["9號.wav"] }, Error, Duplicate, "9號", "9號.mp3, 9號.wav"},
		{"no manifest", func(f fstest.MapFS) { delete(f, pack.ManifestName) }, Error, Manifest, "", "missing"},
		{"bad manifest", func(f fstest.MapFS) { f[pack.ManifestName] = &fstest.MapFile{Data: []byte("name: x\nlang: y\n")} }, Error, Manifest, "", "unknown key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := goodPack()
			tt.change(fsys)
			fs := Check(fsys, expected)
			var got *Finding
			for i, f := range fs {
				if f.Kind == tt.kind && f.Clip == tt.clip {
					got = &fs[i]
				}
			}
			if got == nil {
				t.Fatalf("no %s finding for %q in %v", tt.kind, tt.clip, fs)
			}
			if got.Severity != tt.sev || !strings.Contains(got.String(), tt.contain) {
				t.Fatalf("got %q (%v), want %v mentioning %q", got, got.Severity, tt.sev, tt.contain)
			}
			if Worst(fs) < tt.sev {
				t.Fatalf("Worst = %v", Worst(fs))
			}
			// Findings come most severe first.
			if !slices.IsSortedFunc(fs, func(a, b Finding) int { return int(b.Severity) - int(a.Severity) }) {
				t.Fatalf("not sorted by severity: %v", fs)
			}
			// Nothing else is wrong with the fixture.
			for _, f := range problems(fs) {
				if f.Clip != tt.clip && f.Kind != tt.kind && !(tt.kind == Loudness && f.Kind == Loudness) {
					t.Errorf("unrelated finding %v", f)
				}
			}
		})
	}
}

func TestValues(t *testing.T) {
	fsys := goodPack()
	fsys["昨夜.wav"] = wav(speech(48000, 1, 1, 0.5, 0.05, 0.5))
	for _, f := range Check(fsys, nil) {
		if f.Kind == LeadingSilence && (f.Unit != "ms" || f.Value < 990 || f.Value > 1010) {
			t.Fatalf("leading silence %v %s, want about 1000 ms", f.Value, f.Unit)
		}
		if f.Kind == Missing || f.Kind == Unknown {
			t.Fatalf("expected nil must skip the missing/unknown checks: %v", f)
		}
	}
}

func TestFolder(t *testing.T) {
	dir := t.TempDir()
	for name, f := range goodPack() {
		if err := os.WriteFile(filepath.Join(dir, name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, "old takes"), 0o755)
	os.WriteFile(filepath.Join(dir, "9號.wav"), []byte("RIFF"), 0o644)
	fs := Check(os.DirFS(dir), expected)
	if !has(fs, Error, Unreadable, "9號") || !has(fs, Info, Unrelated, "") {
		t.Fatalf("findings %v", fs)
	}
	fs = Check(os.DirFS(filepath.Join(dir, "nope")), expected)
	if len(fs) != 1 || fs[0].Severity != Error {
		t.Fatalf("a missing folder: %v", fs)
	}
}

func TestMP3(t *testing.T) {
	mp3, err := os.ReadFile("../pack/testdata/tone.mp3")
	if err != nil {
		t.Fatal(err)
	}
	fsys := goodPack()
	fsys["天亮了.mp3"] = &fstest.MapFile{Data: mp3}
	delete(fsys, "天亮了.wav")
	fs := Check(fsys, expected)
	// tone.mp3 is a steady half-scale tone, 3 dB above a speech-like clip
	// of the same peak; only its level is worth a word.
	for _, f := range problems(fs) {
		if f.Kind != Loudness {
			t.Fatalf("a clean mp3: %v", f)
		}
	}
	mp3, err = os.ReadFile("../pack/testdata/tone-22050.mp3")
	if err != nil {
		t.Fatal(err)
	}
	fsys["天亮了.mp3"] = &fstest.MapFile{Data: mp3}
	if fs := Check(fsys, expected); !has(fs, Error, Format, "天亮了") {
		t.Fatalf("an MPEG-2 mp3 must be refused: %v", fs)
	}
}

// TestLength: given the suggested lengths, a take far longer than its text
// (another line recorded with it) or far shorter (cut off) is a warning;
// a take near its length, or a clip without a suggestion, is not.
func TestLength(t *testing.T) {
	fsys := fstest.MapFS{
		pack.ManifestName: {Data: []byte(manifest)},
		"昨夜.wav":          wav(speech(48000, 1, 0.02, 0.5, 0.05, 0.3)),
		"9號.wav":          wav(speech(48000, 1, 0.02, 2.9, 0.05, 0.3)),
		"玩家死亡.wav":        wav(speech(48000, 1, 0.02, 0.2, 0.05, 0.3)),
		"天亮了.wav":         wav(speech(48000, 1, 0.02, 5, 0.05, 0.3)),
	}
	suggested := map[string]time.Duration{"昨夜": 500 * time.Millisecond, "9號": 500 * time.Millisecond, "玩家死亡": time.Second}
	fs := Check(fsys, expected, WithSuggested(func(id string) time.Duration { return suggested[id] }))
	for _, c := range []struct {
		clip string
		want bool
	}{{"昨夜", false}, {"9號", true}, {"玩家死亡", true}, {"天亮了", false}} {
		if got := has(fs, Warning, Length, c.clip); got != c.want {
			t.Errorf("%s: length warning %v, want %v: %v", c.clip, got, c.want, fs)
		}
	}
	if slices.ContainsFunc(Check(fsys, expected), func(f Finding) bool { return f.Kind == Length }) {
		t.Error("a length finding without WithSuggested")
	}
}

// TestRecording: a take's flattened peaks are found before levelling.
func TestRecording(t *testing.T) {
	a := speech(48000, 1, 0, 0.5, 0, 1.4) // driven past full scale
	if fs := Recording("x", "x.wav", a); !has(fs, Error, Clipping, "x") {
		t.Errorf("an overdriven take: %v", fs)
	}
	if fs := Recording("x", "x.wav", speech(48000, 2, 0, 0.5, 0, 0.3)); len(fs) != 0 {
		t.Errorf("a clean take: %v", fs)
	}
}
