package voice

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"wolftable/audio/defaultpack"
	"wolftable/audio/pack"
	"wolftable/audio/player"
)

func discardLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// syncBuffer is a log destination safe for the speaker's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// sequences returns the default binding's sequences of lines (each with its
// arguments) and every clip they use.
func sequences(t testing.TB, lines ...any) (seqs [][]string, clips []string) {
	t.Helper()
	b := defaultBinding(t)
	for i := 0; i < len(lines); i += 2 {
		seq, err := b.Sequence(lines[i].(string), lines[i+1].([]int))
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, seq)
		for _, id := range seq {
			if !IsPause(id) && !slices.Contains(clips, id) {
				clips = append(clips, id)
			}
		}
	}
	return seqs, clips
}

// stream is what a sequence sounds like: its clips' samples back to back.
func stream(t testing.TB, src *source, seq []string) []int16 {
	t.Helper()
	var out []int16
	for _, id := range seq {
		c, ok := src.Clip(id)
		if !ok {
			t.Fatalf("no clip %s", id)
		}
		out = append(out, c.Samples...)
	}
	return out
}

func firstNonZero(s []int16) int { return slices.IndexFunc(s, func(v int16) bool { return v != 0 }) }

// locate finds want in got, aligned on want's first non-silent sample, at
// or after from; it returns where want starts, or -1.
func locate(got, want []int16, from int) int {
	lead := firstNonZero(want)
	for i := from + lead; i+len(want)-lead <= len(got); i++ {
		if got[i] == want[lead] && slices.Equal(got[i-lead:i-lead+len(want)], want) {
			return i - lead
		}
	}
	return -1
}

// capture runs say (which says something and waits until it is heard) and
// returns what came out of the sink, once want has been heard whole or
// after 5 s.
func capture(say func() error, want []int16) ([]int16, error) {
	sink.start()
	defer sink.stop()
	time.Sleep(20 * time.Millisecond)
	if err := say(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, err := sink.captured()
		if err != nil {
			return nil, err
		}
		if at := locate(got, want, 0); at >= 0 && len(got) > at+len(want)+pack.SampleRate/20 {
			return got, nil
		}
		if time.Now().After(deadline) {
			return got, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// verify checks that got is want, sample for sample, with silence around.
func verify(got, want []int16) error {
	if firstNonZero(got) < 0 {
		return errors.New("nothing came out of the sound device")
	}
	at := locate(got, want, 0)
	if at < 0 {
		// Say where it goes wrong.
		off := firstNonZero(got) - firstNonZero(want)
		for i := range want {
			if off+i < 0 || off+i >= len(got) {
				return fmt.Errorf("the line was cut short after %v", time.Duration(i)*time.Second/pack.SampleRate)
			}
			if got[off+i] != want[i] {
				return fmt.Errorf("the sound differs from the clips %v into the line", time.Duration(i)*time.Second/pack.SampleRate)
			}
		}
		return errors.New("the line is not in the capture")
	}
	if firstNonZero(got[:at]) >= 0 || firstNonZero(got[at+len(want):]) >= 0 {
		return errors.New("something sounded before or after the line")
	}
	return nil
}

// retry runs f up to three times: a loaded machine may starve the sink.
func retry(t *testing.T, f func() error) {
	t.Helper()
	var err error
	for try := 0; try < 3; try++ {
		if err = f(); err == nil {
			return
		}
		t.Logf("try %d: %v", try+1, err)
	}
	t.Fatal(err)
}

func openVoice(t *testing.T, o Options) *Voice {
	t.Helper()
	if o.Log == nil {
		o.Log = discardLog()
	}
	v, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	if err := v.Device(); err != nil {
		t.Fatalf("the test's ALSA device did not open: %v", err)
	}
	return v
}

// TestVoiceThroughALSA: lines with seats, lists, pauses and a countdown come
// out of the sound device exactly as their clips and pauses, back to back.
func TestVoiceThroughALSA(t *testing.T) {
	lines := []any{
		"day.deaths", []int{3, 9, 12},
		"vote.exile", []int(nil),
		"tally.vote", []int{1, 18},
	}
	seqs, clips := sequences(t, lines...)
	v := openVoice(t, Options{Volume: 1, Clips: clips})
	src := newSource(v.Pack())
	for i, seq := range seqs {
		line, args := lines[2*i].(string), lines[2*i+1].([]int)
		want := stream(t, src, seq)
		retry(t, func() error {
			said := time.Now()
			got, err := capture(func() error {
				if err := v.Speak(line, args); err != nil {
					return err
				}
				if d := time.Since(said); d > 50*time.Millisecond {
					return fmt.Errorf("Say took %v", d)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				return v.Wait(ctx)
			}, want)
			if err != nil {
				return err
			}
			took := time.Since(said)
			if err := verify(got, want); err != nil {
				return fmt.Errorf("%s %v: %w", line, args, err)
			}
			t.Logf("%s %v: %d clips, %v of sound, heard whole in %v", line, args, len(seq),
				time.Duration(len(want))*time.Second/pack.SampleRate, took.Round(time.Millisecond))
			return nil
		})
	}
}

// TestCountdownBeat: the numbers of a countdown start a second apart.
func TestCountdownBeat(t *testing.T) {
	p, err := loadSome(defaultpack.FS(), []string{"count.1", "count.2", "count.3", "count.4", "count.5"})
	if err != nil {
		t.Fatal(err)
	}
	pause := CountPause(p)
	for id, c := range p.Clips {
		if beat := c.Duration() + pause; beat < 800*time.Millisecond || beat > 1200*time.Millisecond {
			t.Errorf("%s lasts %v, then %v of pause: the next number %v later", id, c.Duration(), pause, beat)
		}
	}
	if got := CountPause(&pack.Pack{}); got != 600*time.Millisecond {
		t.Errorf("count pause of a pack without numbers: %v", got)
	}
}

// TestInterruptThroughALSA: the judge's skip cuts the line at once, and the
// next line plays whole.
func TestInterruptThroughALSA(t *testing.T) {
	seqs, clips := sequences(t, "night.wolves.ask", []int(nil), "day.peaceful", []int(nil))
	v := openVoice(t, Options{Volume: 1, Clips: clips})
	want := stream(t, newSource(v.Pack()), seqs[1])
	retry(t, func() error {
		got, err := capture(func() error {
			if err := v.Speak("night.wolves.ask", nil); err != nil {
				return err
			}
			time.Sleep(400 * time.Millisecond)
			cut := time.Now()
			v.Interrupt()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := v.Wait(ctx); err != nil {
				return err
			}
			if d := time.Since(cut); d > 500*time.Millisecond {
				return fmt.Errorf("Wait returned %v after Interrupt; the line is 6 s long", d)
			}
			if err := v.Speak("day.peaceful", nil); err != nil {
				return err
			}
			return v.Wait(ctx)
		}, want)
		if err != nil {
			return err
		}
		at := locate(got, want, 0)
		if at < 0 {
			return errors.New("the line after the interrupt is not whole")
		}
		if heard := firstNonZero(got); heard < 0 || at-heard > pack.SampleRate {
			return fmt.Errorf("the cut line sounded for %v", time.Duration(at-heard)*time.Second/pack.SampleRate)
		}
		return nil
	})
}

// TestCommandSay: `wolftable voice say LINE SEATS...` says the line on the
// sound device and returns when it has been heard.
func TestCommandSay(t *testing.T) {
	seqs, clips := sequences(t, "duel.good", []int{6})
	p, err := loadSome(defaultpack.FS(), clips)
	if err != nil {
		t.Fatal(err)
	}
	want := stream(t, newSource(p), seqs[0])
	retry(t, func() error {
		var out, errb bytes.Buffer
		start := time.Now()
		got, err := capture(func() error {
			if code := Command([]string{"say", "duel.good", "6"}, &out, &errb); code != 0 {
				return fmt.Errorf("exit %d: %s", code, errb.String())
			}
			return nil
		}, want)
		if err != nil {
			return err
		}
		if took, d := time.Since(start), time.Duration(len(want))*time.Second/pack.SampleRate; took < d {
			return fmt.Errorf("say returned after %v, before the %v line was heard", took, d)
		}
		if !strings.Contains(out.String(), "決鬥失敗，6號騎士以死謝罪，發言繼續") {
			return fmt.Errorf("say printed %q", out.String())
		}
		return verify(got, want)
	})
}

func TestCommandSayErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"say"}, 2, "用法："},
		{[]string{"say", "speech.start", "x"}, 2, "not a seat number"},
		{[]string{"say", "speech.start"}, 1, "takes 1 seat"},
		{[]string{"say", "speech.start", "19"}, 1, "seats 1–18"},
		{[]string{"say", "cue.seer.good", "1", "2"}, 1, "never spoken"},
		{[]string{"say", "no.such.line"}, 1, "no such line"},
		{[]string{"say", "--pack", "/nonexistent/pack", "game.start"}, 1, "no such file"},
	} {
		var out, errb bytes.Buffer
		if code := Command(c.args, &out, &errb); code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errb.String(), c.code, c.want)
		}
	}
}

// TestSayProblemsLoggedOnce: a line the voice cannot say is logged once and
// skipped; the daemon's game goes on.
func TestSayProblemsLoggedOnce(t *testing.T) {
	var logs syncBuffer
	v := openVoice(t, Options{Volume: 1, Log: slog.New(slog.NewTextHandler(&logs, nil)), Clips: []string{"seat.1"}})
	for range 3 {
		v.Say("speech.start", []int{1}) // line.speech.start.1 was not loaded
		v.Say("cue.seer.good", []int{1, 2})
		v.Say("no.such.line", nil)
	}
	if n := strings.Count(logs.String(), "level=WARN"); n != 3 {
		t.Errorf("%d warnings, want one for each of the 3 lines:\n%s", n, logs.String())
	}
	var missing *player.MissingClipsError
	if err := v.Speak("speech.start", []int{1}); !errors.As(err, &missing) || missing.IDs[0] != "line.speech.start.1" {
		t.Errorf("Speak: %v", err)
	}
}

func writeWAV(t testing.TB, path string, a pack.Audio) {
	t.Helper()
	if err := os.WriteFile(path, pack.EncodeWAV(a), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOpenFolderPack: a venue's folder with some clips; the lines it can say
// are said, the others logged, Open says the pack is incomplete and the
// background decode names the file it cannot play.
func TestOpenFolderPack(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, pack.ManifestName), []byte("name: venue 3\nlanguage: zh-TW\n"), 0o644)
	writeWAV(t, filepath.Join(dir, "line.night.wolves.open.1.wav"), pack.Audio{Rate: 48000, Channels: 1, Samples: toneSamples(48000, 300*time.Millisecond, 440, 8000, 0, 0)})
	os.WriteFile(filepath.Join(dir, "seat.1.wav"), []byte("RIFF junk"), 0o644)
	var logs syncBuffer
	v := openVoice(t, Options{Pack: dir, Volume: 1, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if v.Pack().Manifest.Name != "venue 3" {
		t.Errorf("pack %+v", v.Pack().Manifest)
	}
	// The undecodable file is found by the background decode (Open
	// returns before it), then logged; at Open the pack lacks the others.
	if _, _, err := v.Decoded(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := v.Speak("day.deaths", []int{1}); err == nil || !strings.Contains(err.Error(), "seat.1") {
		t.Errorf("a line with the undecodable clip: %v", err)
	}
	for _, want := range []string{"cannot be played", "seat.1.wav", "the pack lacks clips", "missing=" + fmt.Sprint(len(defaultBinding(t).ClipIDs())-2)} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, logs.String())
		}
	}
	// 狼人請睜眼 is recorded once and says both lines.
	for _, line := range []string{"night.wolves.open", "night.wolves.wake"} {
		if err := v.Speak(line, nil); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
	v.Interrupt()

	for _, bad := range []string{filepath.Join(dir, "nothing-here"), filepath.Join(dir, pack.ManifestName), t.TempDir()} {
		if v, err := Open(context.Background(), Options{Pack: bad, Log: discardLog()}); err == nil {
			v.Close()
			t.Errorf("Open(%s) should fail", bad)
		}
	}
}

// TestCloseWithContext: the voice stops when Open's context is done.
func TestCloseWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	v, err := Open(ctx, Options{Volume: 1, Log: discardLog(), Clips: []string{"line.night.wolves.open.1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for !errors.Is(v.Speak("night.wolves.open", nil), player.ErrClosed) {
		if time.Now().After(deadline) {
			t.Fatal("the voice still speaks after its context ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := Open(ctx, Options{Log: discardLog(), Clips: []string{}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Open with a done context: %v", err)
	}
}

// TestNoDevice: with no sound device the voice logs it once and goes on in
// real time (child process: the oto context is per process).
func TestNoDevice(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=no-device")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if n := strings.Count(string(out), "level=ERROR"); n != 1 {
		t.Errorf("the missing device was logged %d times, want once:\n%s", n, out)
	}
	if strings.Contains(string(out), "level=WARN") {
		t.Errorf("warnings:\n%s", out)
	}
	t.Logf("child:\n%s", out)
}

// runChild plays a scenario in a child process and returns its exit code.
func runChild(h string) int {
	fail := func(format string, args ...any) int {
		fmt.Printf("FAIL: "+format+"\n", args...)
		return 1
	}
	if h != "no-device" {
		return fail("unknown scenario %q", h)
	}
	dir, err := os.MkdirTemp("", "wolftable-voice-child-")
	if err != nil {
		return fail("%v", err)
	}
	defer os.RemoveAll(dir)
	if err := writeALSAConfig(dir, "# no devices\n"); err != nil {
		return fail("%v", err)
	}
	b, err := Default()
	if err != nil {
		return fail("%v", err)
	}
	seq, err := b.Sequence("speech.start", []int{9})
	if err != nil {
		return fail("%v", err)
	}
	log := slog.New(slog.NewTextHandler(os.Stdout, nil))
	v, err := Open(context.Background(), Options{Volume: 1, Log: log, Clips: seq})
	if err != nil {
		return fail("Open: %v", err)
	}
	defer v.Close()
	if v.Device() == nil {
		return fail("no device, yet Device() is nil")
	}
	var length time.Duration
	src := newSource(v.Pack())
	for _, id := range seq {
		c, _ := src.Clip(id)
		length += c.Duration()
	}
	for round := range 2 {
		said := time.Now()
		v.Say("speech.start", []int{9})
		if d := time.Since(said); d > 20*time.Millisecond {
			return fail("Say blocked for %v", d)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := v.Wait(ctx)
		cancel()
		took := time.Since(said)
		fmt.Printf("round %d: a %v line; Wait returned after %v\n", round, length.Round(time.Millisecond), took.Round(time.Millisecond))
		if err != nil {
			return fail("Wait: %v", err)
		}
		if took < length*9/10 || took > length+2*time.Second {
			return fail("Wait returned after %v; the line lasts %v", took, length)
		}
	}
	return 0
}

// TestOpenFilledPack: with Fill, the clips a venue's folder lacks come from
// the default pack and Filled lists them; the venue's own clips, even an
// unplayable one, are never replaced.
func TestOpenFilledPack(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, pack.ManifestName), []byte("name: venue 3\nlanguage: zh-TW\n"), 0o644)
	own := toneSamples(48000, 300*time.Millisecond, 440, 8000, 0, 0)
	writeWAV(t, filepath.Join(dir, "line.night.wolves.open.1.wav"), pack.Audio{Rate: 48000, Channels: 1, Samples: own})
	os.WriteFile(filepath.Join(dir, "seat.1.wav"), []byte("RIFF junk"), 0o644)
	v := openVoice(t, Options{Pack: dir, Fill: true, Volume: 1, Log: discardLog(),
		Clips: []string{"line.night.wolves.open.1", "seat.1", "seat.2"}})
	if c, ok := v.Pack().Clip("line.night.wolves.open.1"); !ok || c.File != "line.night.wolves.open.1.wav" || c.Len() != 4800 {
		t.Errorf("the venue's clip: %+v", c)
	}
	if c, ok := v.Pack().Clip("seat.2"); !ok || c.File != "seat.2.mp3" {
		t.Errorf("seat.2 from the default pack: %v %+v", ok, c)
	}
	if _, ok := v.Pack().Clip("seat.1"); ok {
		t.Error("the venue's unplayable seat.1 was replaced by the default's")
	}
	filled := v.Filled()
	if n := len(defaultBinding(t).ClipIDs()) - 2; len(filled) != n || slices.Contains(filled, "seat.1") || !slices.Contains(filled, "seat.2") {
		t.Errorf("filled %d clips (want %d): %v…", len(filled), n, filled[:min(3, len(filled))])
	}
	if v.Pack().Manifest.Name != "venue 3" {
		t.Errorf("the manifest is %+v, want the venue's", v.Pack().Manifest)
	}
}

// TestCommandSayFilled: voice say in a voice the Env chooses (the table's:
// a venue's folder with the default filling its gaps) plays the venue's
// clip and the default's others, and says so.
func TestCommandSayFilled(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, pack.ManifestName), []byte("name: venue 3\nlanguage: zh-TW\n"), 0o644)
	writeWAV(t, filepath.Join(dir, "seat.6.wav"), pack.Audio{Rate: 16000, Channels: 1, Samples: toneSamples(16000, 400*time.Millisecond, 330, 7000, 0, 0)})
	seqs, clips := sequences(t, "duel.good", []int{6})
	fsys, _, err := fill(os.DirFS(dir), defaultpack.FS(), defaultBinding(t).ClipIDs())
	if err != nil {
		t.Fatal(err)
	}
	p, err := loadSome(fsys, clips)
	if err != nil {
		t.Fatal(err)
	}
	if p.Clips["seat.6"].File != "seat.6.wav" {
		t.Fatalf("seat.6 is %s", p.Clips["seat.6"].File)
	}
	want := stream(t, newSource(p), seqs[0])
	env := Env{TableVoice: func(path string) (Choice, error) {
		if path != "table.toml" {
			return Choice{}, fmt.Errorf("config %q", path)
		}
		return Choice{Pack: dir, Fill: true, Label: "venue 3"}, nil
	}}
	retry(t, func() error {
		var out, errb bytes.Buffer
		got, err := capture(func() error {
			if code := CommandWith([]string{"say", "--config", "table.toml", "duel.good", "6"}, &out, &errb, env); code != 0 {
				return fmt.Errorf("exit %d: %s", code, errb.String())
			}
			return nil
		}, want)
		if err != nil {
			return err
		}
		if n := len(clips) - 1; !strings.Contains(out.String(), "venue 3") || !strings.Contains(out.String(), fmt.Sprintf("其中 %d 段取自內建語音", n)) {
			return fmt.Errorf("say printed %q, want the voice and %d clips from the default", out.String(), n)
		}
		return verify(got, want)
	})
	for _, bad := range [][]string{
		{"say", "--fill", "game.start"},                            // --fill needs --pack
		{"say", "--config", "x.toml", "--pack", dir, "game.start"}, // one or the other
	} {
		var out, errb bytes.Buffer
		if code := CommandWith(bad, &out, &errb, env); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
	var out, errb bytes.Buffer
	if code := Command([]string{"say", "--config", "x.toml", "game.start"}, &out, &errb); code != 2 {
		t.Errorf("--config without a table: exit %d, want 2", code)
	}
}
