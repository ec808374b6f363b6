package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
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

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"wolftable/audio/alsafile"
	"wolftable/audio/check"
	"wolftable/audio/defaultpack"
	"wolftable/audio/pack"
	"wolftable/audio/studio"
	"wolftable/audio/voice"
	"wolftable/console"
)

// fakeMicrophone is what Chromium's fake microphone says, over and over: a
// voice-like sound (three partials under a smooth envelope) of 1.2 s
// between 0.4 s silences, well under full scale.
func fakeMicrophone(t *testing.T, path string) {
	t.Helper()
	const rate = 48000
	lead, voiced, trail := int(0.4*rate), int(1.2*rate), int(0.4*rate)
	s := make([]int16, lead+voiced+trail)
	for i := range voiced {
		x := float64(i) / rate
		env := math.Min(1, math.Min(float64(i), float64(voiced-i))/(0.03*rate))
		v := (math.Sin(2*math.Pi*210*x) + 0.5*math.Sin(2*math.Pi*630*x+1) + 0.3*math.Sin(2*math.Pi*1470*x+2)) / 1.8
		s[lead+i] = int16(math.Round(0.12 * env * v * 32767))
	}
	if err := os.WriteFile(path, pack.EncodeWAV(pack.Audio{Rate: rate, Channels: 1, Samples: s}), 0o644); err != nil {
		t.Fatal(err)
	}
}

// chromiumPath is the browser the test drives, or "".
func chromiumPath() string {
	if p := os.Getenv("WOLFTABLE_CHROMIUM"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// lockedBuffer is a process's output that the test reads while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// drainFIFO reads a sound card's FIFO (32-bit float stereo frames) a few
// times faster than a card would, and keeps the left channel as 16-bit
// samples (oto scales them by 1/32768 exactly).
type drainFIFO struct {
	mu      sync.Mutex
	samples []int16
}

func (d *drainFIFO) run(f *os.File) {
	buf := make([]byte, 4096)
	var pending []byte
	for {
		time.Sleep(5 * time.Millisecond)
		n, err := f.Read(buf)
		pending = append(pending, buf[:n]...)
		whole := len(pending) / 8 * 8
		d.mu.Lock()
		for i := 0; i < whole; i += 8 {
			d.samples = append(d.samples, int16(float64(math.Float32frombits(binary.LittleEndian.Uint32(pending[i:])))*32768))
		}
		d.mu.Unlock()
		pending = append(pending[:0], pending[whole:]...)
		if err != nil {
			return
		}
	}
}

// soundCard is a sound card for a process of the test: in dir, an ALSA
// configuration whose default PCM writes into a FIFO drained here; env
// points the process's ALSA at it.
func soundCard(t *testing.T, dir string) (sink *drainFIFO, env []string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "sink")
	f, err := alsafile.OpenFIFO(fifo, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	sink = &drainFIFO{}
	go sink.run(f)
	conf := filepath.Join(dir, "asound.conf")
	if err := os.WriteFile(conf, []byte(alsafile.Config(fifo, t.Name())), 0o644); err != nil {
		t.Fatal(err)
	}
	return sink, []string{"ALSA_CONFIG_PATH=" + conf, "HOME=" + dir}
}

func (d *drainFIFO) take() []int16 {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := d.samples
	d.samples = nil
	return s
}

// sound is s without its exact zeros: a loaded machine may leave the card
// without samples for a moment (oto plays silence in between), which is
// not what is compared.
func sound(s []int16) []int16 {
	return slices.DeleteFunc(slices.Clone(s), func(v int16) bool { return v == 0 })
}

// contains reports whether clip's samples are heard, sample for sample, in
// what the card got.
func contains(heard, clip []int16) bool {
	h, c := sound(heard), sound(clip)
	if len(c) == 0 {
		return false
	}
	for i := 0; i+len(c) <= len(h); i++ {
		if h[i] == c[0] && slices.Equal(h[i:i+len(c)], c) {
			return true
		}
	}
	return false
}

func clipSamples(t *testing.T, dir, file string) []int16 {
	t.Helper()
	var c pack.Clip
	var err error
	if dir == "" {
		c, err = pack.LoadClip(defaultpack.FS(), file)
	} else {
		c, err = pack.LoadClip(os.DirFS(dir), file)
	}
	if err != nil {
		t.Fatal(err)
	}
	return c.Samples
}

// TestStudioRecordsInTheBrowser is issue 17's acceptance: `wolftable serve`
// with its console; headless Chromium with a fake microphone opens the
// studio page, logs in and records three clips (a line, a seat, a
// countdown number); the studio's folder gets trimmed clips at the pack's
// level that voice check passes; the page activates them with the default
// pack filling the gaps, serve takes the new voice, and `wolftable voice
// say` plays the recorded clips through ALSA (a file sink) — the seat
// spliced into a sentence of default clips — and not the default ones.
func TestStudioRecordsInTheBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes and a browser")
	}
	chrome := chromiumPath()
	if chrome == "" {
		t.Skip("no Chromium: apt-get install chromium (or set WOLFTABLE_CHROMIUM)")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	mic := filepath.Join(dir, "mic.wav")
	fakeMicrophone(t, mic)
	const pin = "246810"
	cfg := filepath.Join(dir, "config.toml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`[journal]
dir = %q
[console]
listen = "127.0.0.1:0"
tls_listen = "off"
pin_hash = %q
`, filepath.Join(dir, "journals"), console.HashPIN(pin))), 0o644)
	os.MkdirAll(filepath.Join(dir, "journals"), 0o755)

	_, serveEnv := soundCard(t, filepath.Join(dir, "serve-alsa"))
	srv := exec.Command(bin, "serve", "--config", cfg)
	out := &lockedBuffer{} // read while serve writes it
	srv.Stdout, srv.Stderr, srv.Env = out, out, append(os.Environ(), serveEnv...)
	stdin, err := srv.StdinPipe() // the virtual table reads it
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		srv.Process.Kill()
		srv.Wait()
	}()
	var addr string
	untilProgress(t, srv.Process.Pid, out, 30*time.Second, "serve printed no console address", func() bool {
		if m := regexp.MustCompile(`主控台：http://([0-9.:]+)/`).FindStringSubmatch(out.String()); m != nil {
			addr = m[1]
		}
		return addr != ""
	})
	base := "http://" + addr

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chrome),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("use-fake-device-for-media-stream", true),
		chromedp.Flag("use-file-for-fake-audio-capture", mic),
		chromedp.Flag("autoplay-policy", "no-user-gesture-required"),
		chromedp.UserDataDir(filepath.Join(dir, "chromium")),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.WindowSize(430, 1400),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(alloc)
	defer cancelTab()
	if err := chromedp.Do(tab); err != nil {
		t.Fatal(err)
	}
	var pageErrors []string
	var errMu sync.Mutex
	chromedp.Listen(tab, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			errMu.Lock()
			pageErrors = append(pageErrors, e.ExceptionDetails.Text)
			errMu.Unlock()
		}
	})
	shots := t.ArtifactDir()
	nshot := 0
	shot := func(name string) {
		ctx, cancel := context.WithTimeout(tab, 10*time.Second)
		defer cancel()
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(90))
		if err == nil {
			nshot++
			os.WriteFile(filepath.Join(shots, fmt.Sprintf("%02d-%s.png", nshot, name)), png, 0o644)
		}
	}
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		ctx, cancel := context.WithTimeout(tab, 30*time.Second)
		defer cancel()
		if err := chromedp.Do(ctx, actions...); err != nil {
			shot("FAILED")
			t.Fatalf("%s: %v\nserve:\n%s", what, err, out.String())
		}
	}
	until := func(what, js string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(tab, 30*time.Second)
		defer cancel()
		if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(25*time.Second), chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
			shot("FAILED")
			t.Fatalf("%s: %v\nserve:\n%s", what, err, out.String())
		}
	}

	run("open /studio", chromedp.Navigate(base+"/studio"), chromedp.WaitVisible(chromedp.ID("login")))
	run("log in", chromedp.SendKeys(chromedp.ID("pin"), pin), chromedp.Click(chromedp.ID("login-btn")), chromedp.WaitVisible(chromedp.ID("app")))
	until("the clips", `document.querySelectorAll('#clips li.clip').length > 250 && document.querySelector('#progress').textContent.includes('已錄 0 /')`)
	shot("studio")

	ids := []string{"line.game.over.void.1", "seat.3", "count.3"}
	for _, id := range ids {
		card := fmt.Sprintf(`#clips li[data-id=%q]`, id)
		// its part of the script opened (one is open at first), as its link at the top does
		part := map[string]string{"line": "game", "seat": "seat", "count": "count"}[strings.Split(id, ".")[0]]
		run("open the part of "+id, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#group-nav a[href="#group-%s"]`, part))))
		run("scroll to "+id, chromedp.ScrollIntoView(chromedp.CSS(card)))
		// One take of 1.2 s by the page's own clock (the fake microphone's
		// loop is 2 s: 0.4 to 1.2 s of voice), however slow the test's
		// round trips to the browser.
		take := fmt.Sprintf(`(async () => {
			const li = document.querySelector('%s');
			li.querySelector('.rec-btn').click();
			const wait = (ms) => new Promise((r) => setTimeout(r, ms));
			for (let i = 0; i < 1000 && !li.classList.contains('recording'); i++) await wait(10);
			await wait(1200);
			li.querySelector('.rec-btn').click();
			return true;
		})()`, card)
		tctx, cancel := context.WithTimeout(tab, 30*time.Second)
		if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](take, chromedp.EvalAwaitPromise)); err != nil {
			cancel()
			shot("FAILED")
			t.Fatalf("record %s: %v", id, err)
		}
		cancel()
		until(id+" saved", fmt.Sprintf(`document.querySelector('%s').dataset.state === 'ok' && document.querySelector('%s .clip-msg').textContent.includes('已存')`, card, card))
	}
	until("the progress", `document.querySelector('#progress').textContent.includes('已錄 3 /')`)
	shot("three-recorded")

	// Without the microphone: a file from the phone's own recorder (here
	// one Chromium's MediaRecorder made, WebM/Opus), decoded by the page.
	webm, err := filepath.Abs(filepath.Join("..", "..", "audio", "opus", "testdata", "tone-chromium-mono.webm"))
	if err != nil {
		t.Fatal(err)
	}
	card := `#clips li[data-id="seat.4"]`
	run("a file for seat.4", chromedp.SetUploadFiles(chromedp.CSS(card+" input[type=file]"), []string{webm}))
	until("seat.4 saved", fmt.Sprintf(`document.querySelector('%s').dataset.state === 'ok' && document.querySelector('%s .clip-msg').textContent.includes('已存')`, card, card))
	// A file that is not audio: refused beside the clip, nothing saved.
	junk := filepath.Join(dir, "notes.m4a")
	os.WriteFile(junk, []byte("not a recording at all"), 0o644)
	run("a junk file for seat.5", chromedp.SetUploadFiles(chromedp.CSS(`#clips li[data-id="seat.5"] input[type=file]`), []string{junk}))
	until("seat.5 refused", `document.querySelector('#clips li[data-id="seat.5"]').dataset.state === 'missing' && document.querySelector('#clips li[data-id="seat.5"] .clip-msg').textContent.includes('不是可讀的錄音')`)
	if _, err := os.Stat(filepath.Join(dir, "voice", "studio", "seat.5.wav")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused file was saved: %v", err)
	}
	shot("from-files")

	// The studio's folder: four trimmed clips at the pack's level that voice check passes.
	work := filepath.Join(dir, "voice", "studio")
	b, err := voice.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range check.Check(os.DirFS(work), append(ids, "seat.4"), check.WithSuggested(b.Suggested)) {
		switch {
		case f.Severity > check.Info:
			t.Errorf("voice check of the studio's folder: %v", f)
		case f.Kind == check.Level && math.Abs(f.Value-studio.TargetDBFS) > 1.5:
			t.Errorf("%s: level %.1f dBFS, want about %.1f", f.Clip, f.Value, studio.TargetDBFS)
		}
	}
	for _, id := range ids {
		a, err := pack.DecodeWAV(mustRead(t, filepath.Join(work, id+".wav")))
		if err != nil || a.Rate != pack.SampleRate || a.Channels != 1 || a.Duration() > 1500*time.Millisecond {
			t.Errorf("%s: %d Hz × %d, %v (trimmed from a 1.2 s take): %v", id, a.Rate, a.Channels, a.Duration(), err)
		}
	}

	// Activate with the default filling the gaps, on the page.
	until("fill proposed", `document.querySelector('#fill').checked`)
	run("activate", chromedp.ScrollIntoView(chromedp.ID("btn-activate")), chromedp.Click(chromedp.ID("btn-activate")))
	until("activated", `document.querySelector('#active').textContent.includes('錄音室語音') && document.querySelector('#active').textContent.includes('自錄 4 句')`)
	shot("activated")
	a, ok, err := studio.ActivePack(filepath.Join(dir, "voice"))
	if err != nil || !ok || !a.Fill || a.Clips != 4 {
		t.Fatalf("activated: %+v %v %v", a, ok, err)
	}
	untilProgress(t, srv.Process.Pid, out, 30*time.Second, "serve did not take the studio's voice", func() bool {
		return strings.Contains(out.String(), "語音：錄音室語音「本店法官語音」，")
	})

	// voice say, in the table's voice, through ALSA into a FIFO.
	sink, sayEnv := soundCard(t, filepath.Join(dir, "say-alsa"))
	say := func(args ...string) ([]int16, string) {
		t.Helper()
		return voiceSay(t, bin, cfg, sink, sayEnv, args...)
	}
	heard, said := say("game.over.void")
	if !strings.Contains(said, "錄音室語音") {
		t.Errorf("voice say did not use the studio's voice:\n%s", said)
	}
	mine := clipSamples(t, a.Pack, "line.game.over.void.1.wav")
	if !contains(heard, mine) {
		t.Errorf("voice say game.over.void: the recorded clip is not what was heard (%d samples heard, %d of the clip)", len(sound(heard)), len(sound(mine)))
	}
	if contains(heard, clipSamples(t, "", "line.game.over.void.1.mp3")) {
		t.Error("voice say game.over.void played the default clip")
	}
	heard, said = say("day.deaths", "3")
	if !contains(heard, clipSamples(t, a.Pack, "seat.3.wav")) || contains(heard, clipSamples(t, "", "seat.3.mp3")) {
		t.Errorf("voice say day.deaths 3: the recorded seat.3 is not what was heard:\n%s", said)
	}
	if !contains(heard, clipSamples(t, "", "line.day.deaths.1.mp3")) || !strings.Contains(said, "段取自內建語音") {
		t.Errorf("voice say day.deaths 3: the default pack did not fill the sentence:\n%s", said)
	}

	errMu.Lock()
	defer errMu.Unlock()
	if len(pageErrors) > 0 {
		t.Errorf("script errors on the page: %v", pageErrors)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// voiceSay runs `voice say --config cfg ARGS` with the sound card sink
// and returns what the card got and what the command printed.
func voiceSay(t *testing.T, bin, cfg string, sink *drainFIFO, env []string, args ...string) ([]int16, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"voice", "say", "--config", cfg}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	sink.take()
	o, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("voice say %v: %v\n%s", args, err, o)
	}
	time.Sleep(300 * time.Millisecond) // the last frames out of the FIFO
	return sink.take(), string(o)
}
