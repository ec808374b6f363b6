package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"wolftable/audio/alsafile"
	"wolftable/audio/pack"
	"wolftable/audio/voice"
	"wolftable/script"
)

// sinkTap reads an alsafile FIFO (float32 stereo) at twice a device's
// pace (a small pipe holds the writer back as a card's buffer does) and
// keeps the left channel as 16-bit samples.
type sinkTap struct {
	mu   sync.Mutex
	left []int16
}

func (s *sinkTap) run(f *os.File) {
	buf := make([]byte, 2*pack.SampleRate*8/100) // 20 ms of sound every 10 ms
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for range tick.C {
		n, err := io.ReadFull(f, buf)
		s.mu.Lock()
		for i := 0; i+8 <= n; i += 8 {
			v := math.Float32frombits(binary.LittleEndian.Uint32(buf[i:]))
			s.left = append(s.left, int16(math.Round(float64(v)*32768)))
		}
		s.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (s *sinkTap) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.left)
}

func (s *sinkTap) from(i int) []int16 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.left[min(i, len(s.left)):])
}

// lineOfText finds the catalogue line (and seats, up to one) whose text is
// text, as the console prints it.
func lineOfText(t *testing.T, text string) (string, []int) {
	t.Helper()
	b, err := voice.Default()
	if err != nil {
		t.Fatal(err)
	}
	cat := script.New()
	for _, line := range b.Lines() {
		for _, args := range [][]int{nil, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}} {
			if got, err := cat.Render(line, args); err == nil && got == text {
				return line, args
			}
		}
	}
	t.Fatalf("no line of the catalogue reads %q", text)
	return "", nil
}

// TestResumeSpeaksAtOnce (issue 26): serve is killed mid-game and started
// again; the voice is ready from the decoded cache the first start wrote
// (no decode), and the first line the resumed game says reaches the
// sound card whole: every sample of it, as `voice render` gives it, in
// order. Before, the restarted table decoded the pack for seconds (4.3 s
// here) while the resumed game went on, and the lines of that time were
// text only.
func TestResumeSpeaksAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "sink")
	f, err := alsafile.OpenFIFO(fifo, 4096)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tap := &sinkTap{}
	go tap.run(f)
	os.WriteFile(filepath.Join(dir, "asound.conf"), []byte(alsafile.Config(fifo, "TestResumeSpeaksAtOnce")), 0o644)
	cfg := filepath.Join(dir, "config.toml")
	os.WriteFile(cfg, []byte(fmt.Sprintf("[table]\nmode = \"virtual\"\n[journal]\ndir = %q\n[console]\nlisten = \"off\"\n", filepath.Join(dir, "journals"))), 0o644)
	env := append(os.Environ(), "ALSA_CONFIG_PATH="+filepath.Join(dir, "asound.conf"), "HOME="+dir)
	judge := regexp.MustCompile(`^\d\d:\d\d:\d\d  法官：(.*)$`)

	serve := func(stop func(line string, judged int) bool) []string {
		return serveUntil(t, bin, cfg, env, judge, stop)
	}
	// The first start: the voice is decoded in the background into the
	// cache; killed once it is written and the game is a few lines in.
	cached := false
	serve(func(l string, judged int) bool {
		cached = cached || strings.Contains(l, "the decoded cache is written")
		return cached && judged >= 3
	})
	at := tap.len()
	var text, line string
	var args []int
	var want []int16
	found, heard := -1, time.Time{}
	second := serve(func(l string, _ int) bool {
		if m := judge.FindStringSubmatch(l); m != nil && text == "" {
			text = m[1]
			line, args = lineOfText(t, text)
			want = renderLine(t, bin, dir, line, args)
			heard = time.Now()
		}
		if want == nil {
			return false
		}
		// the sink plays at a device's pace: the line is whole by the next
		// lines the game prints, or never
		found = locate(tap.from(at), want)
		return found >= 0 || time.Since(heard) > time.Duration(len(want))*time.Second/pack.SampleRate+20*time.Second
	})
	log := strings.Join(second, "\n")
	if !strings.Contains(log, "resuming journal") {
		t.Fatalf("the second start did not resume:\n%s", log)
	}
	if !strings.Contains(log, "decoded_cache=true") {
		t.Errorf("the second start's voice did not come from the decoded cache:\n%s", log)
	}
	if found < 0 {
		t.Fatalf("the resumed game's first line %q (%s %v) did not reach the sound card whole (%d samples since the restart)\n%s",
			text, line, args, len(tap.from(at)), log)
	}
	t.Logf("the resumed game's first line %q (%s %v, %.2f s) reached the sound card whole, %.2f s into the second start's sound",
		text, line, args, float64(len(want))/pack.SampleRate, float64(found)/pack.SampleRate)
}

// serveUntil runs serve (bots, real time) until stop says so on a line of
// its output; it returns the lines, killing it (SIGKILL) when stop said so.
func serveUntil(t *testing.T, bin, cfg string, env []string, judge *regexp.Regexp, stop func(line string, judged int) bool) []string {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--config", cfg, "--bots", "--autostart", "--speed", "1", "--seed", "5")
	cmd.Env = env
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	var lines []string
	judged := 0
	sc := bufio.NewScanner(out)
	deadline := time.AfterFunc(3*time.Minute, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	for sc.Scan() {
		l := sc.Text()
		lines = append(lines, l)
		if judge.MatchString(l) {
			judged++
		}
		if stop(l, judged) {
			return lines
		}
	}
	t.Fatalf("serve ended before it was stopped:\n%s", strings.Join(lines[max(0, len(lines)-20):], "\n"))
	return nil
}

// renderLine is `voice render` of line: its left channel.
func renderLine(t *testing.T, bin, dir, line string, args []int) []int16 {
	t.Helper()
	rargs := []string{"voice", "render", line}
	for _, a := range args {
		rargs = append(rargs, fmt.Sprint(a))
	}
	wav := filepath.Join(dir, "line.wav")
	if out, err := exec.Command(bin, append(rargs, "--out", wav)...).CombinedOutput(); err != nil {
		t.Fatalf("voice render: %v\n%s", err, out)
	}
	raw, _ := os.ReadFile(wav)
	a, err := pack.DecodeWAV(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int16, a.Frames())
	for i := range want {
		want[i] = a.Samples[i*a.Channels]
	}
	return want
}

// locate finds want in got and returns where want starts in got, or -1.
// Silence does not count: a device underrun on a loaded machine puts
// zeros into a line (the sink plays on while the player is late), so the
// line is whole when its sound, all of it and in order, is in got, the
// zeros taken out of both.
func locate(got, want []int16) int {
	at := func(v int16) bool { return v != 0 }
	var g []int16
	var pos []int // pos[k]: where g[k] is in got
	for i, v := range got {
		if at(v) {
			g, pos = append(g, v), append(pos, i)
		}
	}
	w := slices.DeleteFunc(slices.Clone(want), func(v int16) bool { return !at(v) })
	if len(w) == 0 {
		return -1
	}
	lead := slices.IndexFunc(want, at)
	for i := 0; i+len(w) <= len(g); i++ {
		if g[i] == w[0] && slices.Equal(g[i:i+len(w)], w) {
			return max(pos[i]-lead, 0)
		}
	}
	return -1
}

// TestLocate: a line with an underrun's zeros inside is found where it
// starts; a line with a sample changed, or cut at its start, is not.
func TestLocate(t *testing.T) {
	want := []int16{0, 0, 5, 6, 0, 7, 8, 9}
	got := []int16{1, 2, 0, 0, 5, 6, 0, 0, 0, 0, 7, 8, 0, 9, 3}
	if at := locate(got, want); at != 2 {
		t.Errorf("with an underrun's zeros: at %d, want 2", at)
	}
	changed := slices.Clone(got)
	changed[11] = 4
	if at := locate(changed, want); at != -1 {
		t.Errorf("a sample changed: found at %d", at)
	}
	if at := locate(got[5:], want); at != -1 {
		t.Errorf("cut at its start: found at %d", at)
	}
}
