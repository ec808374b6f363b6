package pack

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

const testManifest = "name: test voice\nlanguage: zh-TW\nrecorded-by: the tests\ndate: 2025-11-29\n"

func file(b []byte) *fstest.MapFile { return &fstest.MapFile{Data: b} }

func TestLoad(t *testing.T) {
	mp3, err := os.ReadFile("testdata/tone.mp3")
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{
		ManifestName:  file([]byte(testManifest)),
		"昨夜.wav":      file(EncodeWAV(Audio{Rate: SampleRate, Channels: 1, Samples: sine(SampleRate, SampleRate/10, 440, 8000)})),
		"9號.WAV":      file(EncodeWAV(Audio{Rate: 22050, Channels: 2, Samples: sine(22050, 2*2205, 440, 8000)})),
		"玩家死亡.mp3":    file(mp3),
		"README.md":   file([]byte("hi")),
		"old/x.wav":   file([]byte("ignored: in a sub-folder")),
		".hidden.wav": file([]byte("ignored: hidden")),
	}
	p, err := Load(fsys)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if p.Manifest.Name != "test voice" || p.Manifest.Language != "zh-TW" {
		t.Errorf("manifest %+v", p.Manifest)
	}
	if got, want := p.IDs(), []string{"9號", "昨夜", "玩家死亡"}; !slices.Equal(got, want) {
		t.Fatalf("IDs = %q, want %q", got, want)
	}
	c, ok := p.Clip("昨夜")
	if !ok || !slices.Equal(c.Samples, sine(SampleRate, SampleRate/10, 440, 8000)) {
		t.Error("a mono clip at SampleRate must load unchanged")
	}
	if c.Duration() != 100*time.Millisecond || c.File != "昨夜.wav" || c.Source.Rate != SampleRate {
		t.Errorf("clip %q: %v from %s at %d Hz", c.ID, c.Duration(), c.File, c.Source.Rate)
	}
	c, _ = p.Clip("9號")
	if len(c.Samples) != SampleRate/10 || c.Source.Rate != 22050 || c.Source.Channels != 2 {
		t.Errorf("9號: %d samples from %+v, want %d from 22050 Hz stereo", len(c.Samples), c.Source, SampleRate/10)
	}
	c, _ = p.Clip("玩家死亡")
	if d := c.Duration(); d < 350*time.Millisecond || d > 500*time.Millisecond {
		t.Errorf("mp3 clip lasts %v, want about 400ms", d)
	}
	// tone.mp3 is a 440 Hz sine at half scale (RMS 11585), 44100 Hz mono,
	// 64 kbit/s.
	if r := rms(c.Samples[SampleRate/12 : len(c.Samples)-SampleRate/12]); r < 9000 || r > 14000 {
		t.Errorf("mp3 clip RMS %.0f, want about 11585", r)
	}
	if p.Bytes() != 2*(SampleRate/10+SampleRate/10+len(c.Samples)) {
		t.Errorf("Bytes = %d", p.Bytes())
	}
}

func TestDecodeMP3(t *testing.T) {
	// A 22050 Hz (MPEG-2) 32 kbit/s mono file, which go-mp3 decodes into
	// full-scale noise; refused.
	b, err := os.ReadFile("testdata/tone-22050.mp3")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeMP3(b); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "MPEG-2") {
		t.Fatalf("DecodeMP3(MPEG-2 file) = %v, want ErrUnsupported", err)
	}
	b, _ = os.ReadFile("testdata/tone.mp3")
	for _, cut := range []int{0, 10, 200, len(b) / 2} {
		if _, err := DecodeMP3(b[:cut]); cut < 200 && err == nil {
			t.Errorf("DecodeMP3 of %d bytes: no error", cut)
		}
	}
}

func TestLoadSkipsBadClips(t *testing.T) {
	good := EncodeWAV(Audio{Rate: 48000, Channels: 1, Samples: []int16{1, 2, 3}})
	fsys := fstest.MapFS{
		ManifestName: file([]byte(testManifest)),
		"a.wav":      file(good),
		"b.wav":      file(wavFile(fmtBody(wavePCM, 1, 8000, 8), chunk("data", []byte{1, 2}))),
		"c.wav":      file(good),
		"c.mp3":      file(good),
		"d.mp3":      file([]byte("not an mp3 at all")),
	}
	p, err := Load(fsys)
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("err = %v, want *LoadError", err)
	}
	if p == nil || !slices.Equal(p.IDs(), []string{"a"}) {
		t.Fatalf("pack should still hold a, got %v", p)
	}
	var files []string
	for _, f := range le.Files {
		files = append(files, f.File)
	}
	if want := []string{"b.wav", "c.mp3, c.wav", "d.mp3"}; !slices.Equal(files, want) {
		t.Fatalf("skipped %q, want %q", files, want)
	}
	if !errors.Is(err, ErrUnsupported) || !errors.Is(err, ErrMalformed) {
		t.Errorf("LoadError should unwrap to both causes: %v", err)
	}
}

func TestLoadManifest(t *testing.T) {
	wav := file(EncodeWAV(Audio{Rate: 48000, Channels: 1, Samples: []int16{1}}))
	for name, fsys := range map[string]fstest.MapFS{
		"missing": {"a.wav": wav},
		"invalid": {"a.wav": wav, ManifestName: file([]byte("name: x\n"))},
	} {
		p, err := Load(fsys)
		var me *ManifestError
		if p != nil || !errors.As(err, &me) {
			t.Errorf("%s manifest: got %v, %v; want nil, *ManifestError", name, p, err)
		}
	}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(ManifestName, []byte(testManifest))
	write("天亮了.wav", EncodeWAV(Audio{Rate: 16000, Channels: 1, Samples: sine(16000, 1600, 300, 5000)}))
	p, err := Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := p.Clip("天亮了"); !ok || len(c.Samples) != SampleRate/10 {
		t.Fatalf("clip from a folder: %v %d", ok, len(c.Samples))
	}
	if _, err := Load(os.DirFS(filepath.Join(dir, "nope"))); err == nil || !strings.HasPrefix(err.Error(), "pack: ") {
		t.Fatalf("missing folder: err = %v", err)
	}
}

func TestClipID(t *testing.T) {
	for name, want := range map[string]string{"9號.wav": "9號", "a.b.MP3": "a.b", "x.Wav": "x", ".wav": "", ".x.wav": "", "a.ogg": "", "pack.txt": ""} {
		got, ok := ClipID(name)
		if got != want || ok != (want != "") {
			t.Errorf("ClipID(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
}
