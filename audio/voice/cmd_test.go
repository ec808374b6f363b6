package voice

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wolftable/audio/pack"
)

// toneSamples is a test clip: a tone under a smooth envelope, with silence
// before and after.
func toneSamples(rate int, d time.Duration, hz, amp float64, lead, trail time.Duration) []int16 {
	n := int(int64(d) * int64(rate) / int64(time.Second))
	out := make([]int16, int(int64(lead)*int64(rate)/int64(time.Second)), n+rate)
	for i := 0; i < n; i++ {
		env := math.Sin(math.Pi * float64(i) / float64(n))
		out = append(out, int16(amp*math.Sqrt(env)*math.Sin(2*math.Pi*hz*float64(i)/float64(rate))))
	}
	return append(out, make([]int16, int(int64(trail)*int64(rate)/int64(time.Second)))...)
}

// fixturePack writes a complete pack of test tones: one WAV per clip the
// table expects, all alike.
func fixturePack(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, pack.ManifestName), []byte("name: fixture\nlanguage: zh-TW\nrecorded-by: the tests\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := defaultBinding(t)
	for i, id := range b.ClipIDs() {
		s := toneSamples(16000, b.Suggested(id), 300+float64(i%7)*50, 6000, 5*time.Millisecond, 5*time.Millisecond)
		writeWAV(t, filepath.Join(dir, id+".wav"), pack.Audio{Rate: 16000, Channels: 1, Samples: s})
	}
	return dir
}

// TestCommandCheck: `wolftable voice check DIR` finds each class of defect a
// venue's pack may have, and fails (exit 1) on errors only.
func TestCommandCheck(t *testing.T) {
	wav := func(dir, id string, a pack.Audio) { writeWAV(t, filepath.Join(dir, id+".wav"), a) }
	mono := func(s []int16) pack.Audio { return pack.Audio{Rate: 16000, Channels: 1, Samples: s} }
	tone := func(amp float64, lead, trail time.Duration) []int16 {
		return toneSamples(16000, 200*time.Millisecond, 400, amp, lead, trail)
	}
	for _, c := range []struct {
		name    string
		defect  func(dir string)
		verbose bool
		code    int
		want    string
	}{
		{"complete", func(string) {}, false, 0, "0 errors, 0 warnings"},
		{"missing clip", func(d string) { os.Remove(filepath.Join(d, "seat.7.wav")) }, false, 1,
			"error: seat.7: no recording"},
		{"unreadable", func(d string) {
			os.WriteFile(filepath.Join(d, "line.game.start.1.wav"), []byte("RIFF\x10\x00\x00\x00WAVEfmt "), 0o644)
		}, false, 1,
			"error: line.game.start.1 (line.game.start.1.wav): pack: malformed"},
		{"8-bit", func(d string) {
			b := pack.EncodeWAV(mono(tone(6000, 0, 0)))
			b[34] = 8
			os.WriteFile(filepath.Join(d, "seat.2.wav"), b, 0o644)
		}, false, 1, "error: seat.2 (seat.2.wav): pack: unsupported audio format: wav: 8-bit"},
		{"duplicate", func(d string) { os.WriteFile(filepath.Join(d, "seat.3.mp3"), []byte("x"), 0o644) }, false, 1,
			"error: seat.3 (seat.3.mp3, seat.3.wav): recorded in more than one file"},
		{"no manifest", func(d string) { os.Remove(filepath.Join(d, pack.ManifestName)) }, false, 1,
			"error: pack.txt: missing"},
		{"bad manifest", func(d string) {
			os.WriteFile(filepath.Join(d, pack.ManifestName), []byte("name: x\nlanguage: zh\nvoice: y\n"), 0o644)
		}, false, 1,
			`unknown key "voice"`},
		{"silent", func(d string) { wav(d, "seat.4", mono(make([]int16, 3200))) }, false, 1,
			"error: seat.4 (seat.4.wav): no voice above -45 dBFS"},
		{"clipping", func(d string) {
			s := tone(6000, 0, 0)
			for i := 1000; i < 1010; i++ {
				s[i] = 32767
			}
			wav(d, "seat.5", mono(s))
		}, false, 1, "error: seat.5 (seat.5.wav): clipped"},
		{"leading silence", func(d string) { wav(d, "seat.6", mono(tone(6000, 300*time.Millisecond, 0))) }, false, 0,
			"warning: seat.6 (seat.6.wav): 300ms of silence before the voice"},
		{"trailing silence", func(d string) { wav(d, "seat.8", mono(tone(6000, 0, 300*time.Millisecond))) }, false, 0,
			"warning: seat.8 (seat.8.wav): 300ms of silence after the voice"},
		{"loudness", func(d string) { wav(d, "seat.9", mono(tone(1500, 5*time.Millisecond, 5*time.Millisecond))) }, false, 0,
			"dB quieter than the pack's median"},
		{"low rate", func(d string) {
			wav(d, "seat.10", pack.Audio{Rate: 8000, Channels: 1, Samples: toneSamples(8000, 200*time.Millisecond, 400, 6000, 0, 0)})
		}, false, 0, "warning: seat.10 (seat.10.wav): recorded at 8000 Hz"},
		{"too long", func(d string) {
			wav(d, "line.game.start.1", mono(toneSamples(16000, 12*time.Second, 400, 6000, 0, 0)))
		}, false, 0, "warning: line.game.start.1 (line.game.start.1.wav): the voice lasts 12s"},
		{"cut off", func(d string) { wav(d, "line.vote.sheriff.1", mono(tone(6000, 0, 0))) }, false, 0,
			"warning: line.vote.sheriff.1 (line.vote.sheriff.1.wav): the voice lasts only 200ms"},
		{"unknown clip", func(d string) { wav(d, "seat.19", mono(tone(6000, 0, 0))) }, false, 0,
			"warning: seat.19 (seat.19.wav): the table never plays this clip"},
		{"unrelated file", func(d string) { os.WriteFile(filepath.Join(d, "readme.txt"), []byte("hi"), 0o644) }, true, 0,
			"info: readme.txt: not a clip"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := fixturePack(t)
			c.defect(dir)
			args := []string{"check", dir}
			if c.verbose {
				args = []string{"check", "-v", dir}
			}
			var out, errb bytes.Buffer
			code := Command(args, &out, &errb)
			if code != c.code || !strings.Contains(out.String(), c.want) {
				t.Errorf("exit %d, want %d; output lacks %q:\n%s%s", code, c.code, c.want, out.String(), errb.String())
			}
		})
	}
	var out, errb bytes.Buffer
	if code := Command([]string{"check"}, &out, &errb); code != 2 {
		t.Errorf("check without a folder: exit %d", code)
	}
	if code := Command([]string{"check", filepath.Join(t.TempDir(), "none")}, &out, &errb); code != 1 {
		t.Errorf("check of a missing folder: exit %d", code)
	}
}

func TestCommandScript(t *testing.T) {
	b := defaultBinding(t)
	var out, errb bytes.Buffer
	if code := Command([]string{"script", "--format", "csv"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	clips := b.Clips()
	if len(rows) != len(clips)+1 || strings.Join(rows[0], ",") != "clip,text,pinyin,lines,seconds" {
		t.Fatalf("%d rows for %d clips; header %v", len(rows), len(clips), rows[0])
	}
	for i, c := range clips {
		r := rows[i+1]
		if r[0] != c.ID || r[1] != c.Text || r[2] != c.Pinyin || r[3] != strings.Join(c.Lines, " ") || r[4] == "" {
			t.Errorf("row %d: %v for %+v", i+1, r, c)
		}
	}

	out.Reset()
	if code := Command([]string{"script"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	md := out.String()
	for _, c := range clips {
		if !strings.Contains(md, "| "+c.ID+" | "+c.Text+" | "+c.Pinyin+" | ") {
			t.Errorf("the checklist lacks %s", c.ID)
		}
	}
	for _, want := range []string{"| seat.9 | 9號 | jiu3 hao4 | every line with a seat", "| line.skill.shot.2 | 玩家 | wan2 jia1 | skill.shot, badge.pass, guide.one and 4 more | 0.5 s |"} {
		if !strings.Contains(md, want) {
			t.Errorf("the checklist lacks %q", want)
		}
	}
	if code := Command([]string{"script", "--format", "xml"}, &out, &errb); code != 2 {
		t.Errorf("--format xml: exit %d", code)
	}
}

func TestCommandExport(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("keep"), 0o644)
	var out, errb bytes.Buffer
	if code := Command([]string{"export", dir}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "mine.txt") {
		t.Errorf("export into a folder with other files: exit %d, %s", code, errb.String())
	}
	// Exporting over a pack replaces it.
	dir = fixturePack(t)
	if code := Command([]string{"export", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	l, err := pack.List(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	for id, files := range l.Clips {
		if len(files) != 1 || !strings.HasSuffix(files[0], ".mp3") {
			t.Errorf("%s: %v", id, files)
		}
	}
}

func TestCommandUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"bogus"}, {"export"}, {"generate"}, {"script", "extra"}} {
		var out, errb bytes.Buffer
		if code := Command(args, &out, &errb); code != 2 || !strings.Contains(errb.String(), "用法：") {
			t.Errorf("%v: exit %d, %q", args, code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := Command([]string{"help"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "wolftable voice say") {
		t.Errorf("help: %d %q", code, out.String())
	}
}
