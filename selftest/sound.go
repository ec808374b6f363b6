package selftest

import (
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"wolftable/audio/alsafile"
	"wolftable/audio/pack"
	"wolftable/audio/player"
	"wolftable/audio/speaker"
	wvoice "wolftable/audio/voice"
)

// ToneClip is the id of the generated test line.
const ToneClip = "selftest.tone"

// toneNotes are the test line: three rising beeps, 120 ms each.
var toneNotes = []float64{660, 880, 1320}

const (
	toneBeep = 120 * time.Millisecond
	toneGap  = 60 * time.Millisecond
)

// Tone returns the test line: three rising beeps at a moderate level, mono
// at pack.SampleRate, with soft edges (no clicks).
func Tone() pack.Clip {
	rate := pack.SampleRate
	beep := int(toneBeep.Seconds() * float64(rate))
	gap := int(toneGap.Seconds() * float64(rate))
	ramp := rate / 200 // 5 ms
	var s []int16
	for _, hz := range toneNotes {
		for i := 0; i < beep; i++ {
			env := 1.0
			if i < ramp {
				env = float64(i) / float64(ramp)
			} else if beep-i < ramp {
				env = float64(beep-i) / float64(ramp)
			}
			s = append(s, int16(12000*env*math.Sin(2*math.Pi*hz*float64(i)/float64(rate))))
		}
		s = append(s, make([]int16, gap)...)
	}
	return pack.Clip{ID: ToneClip, Samples: s, File: "(generated)"}
}

// clipSet is the voice pack (if any) plus the test line.
type clipSet struct {
	voice player.Clips // the pack's clips and the voice's pauses; nil: no pack
	tone  pack.Clip
}

func (c *clipSet) Clip(id string) (pack.Clip, bool) {
	switch {
	case id == ToneClip:
		return c.tone, true
	case c.voice == nil:
		return pack.Clip{}, false
	}
	return c.voice.Clip(id)
}

// logRecorder is a slog.Handler that remembers what the speaker logs (its
// device errors and stalls are only logged) and passes warnings on.
type logRecorder struct {
	next slog.Handler // nil: nothing passed on
	mu   *sync.Mutex
	recs *[]logged
}

// logged is one record: its text, when, and the quiet it reports (a
// stall's), if any.
type logged struct {
	text  string
	at    time.Time
	quiet time.Duration
}

func newLogRecorder(next slog.Handler) *logRecorder {
	return &logRecorder{next: next, mu: &sync.Mutex{}, recs: new([]logged)}
}

func (h *logRecorder) Enabled(context.Context, slog.Level) bool { return true }

func (h *logRecorder) Handle(ctx context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	l := logged{at: r.Time}
	r.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		if a.Key == "quiet" && a.Value.Kind() == slog.KindDuration {
			l.quiet = a.Value.Duration()
		}
		return true
	})
	l.text = b.String()
	h.mu.Lock()
	*h.recs = append(*h.recs, l)
	h.mu.Unlock()
	if h.next != nil && r.Level >= slog.LevelWarn && h.next.Enabled(ctx, r.Level) {
		return h.next.Handle(ctx, r)
	}
	return nil
}

func (h *logRecorder) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	if h.next != nil {
		c.next = h.next.WithAttrs(as)
	}
	return &c
}

func (h *logRecorder) WithGroup(name string) slog.Handler {
	c := *h
	if h.next != nil {
		c.next = h.next.WithGroup(name)
	}
	return &c
}

// since returns the records logged after the first n.
func (h *logRecorder) since(n int) []logged {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n > len(*h.recs) {
		return nil
	}
	return append([]logged(nil), (*h.recs)[n:]...)
}

func (h *logRecorder) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(*h.recs)
}

// Speaker is the table's speaker (audio/speaker: oto on ALSA) for the
// self-test: the test line, and the voice prompts when the voice pack has
// their clips.
type Speaker struct {
	// OnPlay, if set, is called just before the test line starts (the
	// emulated run resets its sound card's ears there).
	OnPlay func()
	// Lag measures the host's stalls: the waits are counted in the
	// host's running time, and a device that stopped pulling samples while
	// the host stalled as long is a warning, not a fault. Nil: none measured.
	Lag Lag

	sp     *speaker.Speaker
	clips  *clipSet
	log    *logRecorder
	opened time.Time
}

var _ Sound = (*Speaker)(nil)

// OpenSpeaker opens the sound device through audio/speaker. voice may be
// nil (no voice pack: prompts are shown only). Warnings go to logger as
// well as into the report.
func OpenSpeaker(voice *pack.Pack, logger *slog.Logger) (*Speaker, error) {
	var next slog.Handler
	if logger != nil {
		next = logger.Handler()
	}
	rec := newLogRecorder(next)
	clips := &clipSet{tone: Tone()}
	if voice != nil {
		clips.voice = wvoice.Source(voice)
	}
	s := &Speaker{clips: clips, log: rec}
	sp, err := speaker.Open(s.clips, speaker.WithLogger(slog.New(rec)), speaker.WithReadyTimeout(3*time.Second))
	if err != nil {
		return nil, fmt.Errorf("selftest: speaker: %w", err)
	}
	s.sp, s.opened = sp, time.Now()
	return s, nil
}

// Close closes the speaker.
func (s *Speaker) Close() error { return s.sp.Close() }

// SetVolume sets the volume, 0 to 1 (the config's voice.volume).
func (s *Speaker) SetVolume(v float64) { s.sp.SetVolume(v) }

// Describe implements Sound.
func (s *Speaker) Describe() string { return "三聲上升的嗶聲" }

// Say implements Sound. A prompt cuts the one before it: the technician has
// moved on to the next seat.
func (s *Speaker) Say(clips []string) bool {
	for _, id := range clips {
		if _, ok := s.clips.Clip(id); !ok {
			return false
		}
	}
	s.sp.Interrupt()
	return s.sp.Say(clips) == nil
}

// PlayTest implements Sound: it plays the test line and reports the device
// (opened by oto on ALSA, or its error), the playback (the line played in
// about its time) and stalls. ALSA's own underruns (xruns) are recovered
// inside oto without a word; what shows here is the device stopping to pull
// samples (the speaker's stall watch) and a period longer than asked for.
func (s *Speaker) PlayTest(ctx context.Context) []Check {
	var checks []Check
	// A device still opening gets a moment.
	for wait := patient(s.Lag, 2*time.Second); s.sp.Err() == nil && !s.sp.Playing() && !wait.over(); {
		time.Sleep(20 * time.Millisecond)
	}
	if err := s.sp.Err(); err != nil {
		return append(checks, Check{Name: "sound device", Status: Fail, Detail: "音效裝置打不開（oto/ALSA）：" + err.Error()})
	}
	if !s.sp.Playing() {
		return append(checks, Check{Name: "sound device", Status: Fail,
			Detail: fmt.Sprintf("音效裝置 %v 內沒有打開（ALSA 卡在開啟：裝置被占用？）", time.Since(s.opened).Round(100*time.Millisecond))})
	}
	checks = append(checks, Check{Name: "sound device", Status: Pass, Detail: fmt.Sprintf("已打開（ALSA；預先緩衝 %v）", s.sp.ReadAhead())})

	mark := s.log.count()
	length := s.clips.tone.Duration()
	s.sp.Interrupt() // a prompt still speaking must not delay the test line
	if s.OnPlay != nil {
		s.OnPlay()
	}
	start := time.Now()
	if err := s.sp.Say([]string{ToneClip}); err != nil {
		return append(checks, Check{Name: "test line", Status: Fail, Detail: err.Error()})
	}
	wctx, cancel := patient(s.Lag, length+3*time.Second).context(ctx)
	err := s.sp.Wait(wctx)
	cancel()
	took := time.Since(start)
	switch {
	case ctx.Err() != nil:
		return append(checks, Check{Name: "test line", Status: NotRun, Detail: "中斷"})
	case err != nil:
		checks = append(checks, Check{Name: "test line", Status: Fail, Detail: fmt.Sprintf("%v 內沒有播完", length+3*time.Second)})
	case s.sp.Err() != nil:
		checks = append(checks, Check{Name: "test line", Status: Fail, Detail: "播放中裝置故障（oto/ALSA）：" + s.sp.Err().Error()})
	default:
		checks = append(checks, playedCheck(length, took))
	}
	return append(checks, s.underruns(mark))
}

// underruns judges the device's stalls since the log's record mark. A
// stall the host's own stall explains (the device's quiet less the host's
// stall meanwhile is short of the stall watch's threshold) is the host
// being busy: a warning.
func (s *Speaker) underruns(mark int) Check {
	var stalls, notes, busy []string
	var busyStalled time.Duration
	lag := s.Lag
	if lag == nil {
		lag = noLag{}
	}
	for _, l := range s.log.since(mark) {
		switch {
		case strings.Contains(l.text, "stopped playing"), strings.Contains(l.text, "nothing is playing"):
			if st := lag.Stalled(l.at.Add(-l.quiet), l.at); l.quiet > 0 && l.quiet-st < speaker.DefaultStallAfter {
				busy = append(busy, l.text)
				busyStalled += st
				continue
			}
			stalls = append(stalls, l.text)
		case strings.Contains(l.text, "read-ahead raised"):
			notes = append(notes, l.text)
		}
	}
	var c Check
	switch {
	case len(stalls) > 0:
		c = Check{Name: "underruns", Status: Fail, Detail: "裝置停止取樣：" + strings.Join(stalls, "；")}
	case len(notes) > 0:
		c = Check{Name: "underruns", Status: Pass, Detail: "沒有斷音；裝置的週期比要求的長，已加大預先緩衝：" + strings.Join(notes, "；")}
	default:
		c = Check{Name: "underruns", Status: Pass, Detail: "播放中沒有斷音"}
	}
	if len(busy) > 0 {
		c.Detail += fmt.Sprintf("（主機停頓 %v 時裝置沒有聲音：%s）", round(busyStalled), strings.Join(busy, "；"))
		c.Warning = hostBusy(CompSpeaker, "音效裝置曾停止取樣 ("+strings.Join(busy, "; ")+")", busyStalled).Message
	}
	return c
}

// SoundCard is an emulated sound card for the emulated run: ALSA is
// configured (ALSA_CONFIG_PATH, a file of our own; the machine's
// configuration is not read) with a default PCM of type file over null
// that writes what oto plays into a FIFO, and the card reads the FIFO at
// the rate of a real device, so the real oto/ALSA path runs at real pace.
// It keeps the loudest sample since Reset: the robot technician listens
// with it.
type SoundCard struct {
	dir  string
	fifo *os.File
	conf string

	mu     sync.Mutex
	peak   float64
	frames int64
}

// alsaNoDevice is the no-speaker fault's ALSA configuration: the default
// device is a sound card that does not exist.
const alsaNoDevice = `# Written by wolftable selftest --emulate --fault no-speaker.
pcm.!default {
	type hw
	card 31
	device 0
}
`

// cardRate is what the emulated card consumes: oto hands ALSA 32-bit float
// stereo at pack.SampleRate.
const cardFrameBytes = 2 * 4

// StartSoundCard makes the FIFO and the ALSA configuration in dir and
// starts consuming. Point ALSA at Config before the process opens the
// sound device.
func StartSoundCard(dir string) (*SoundCard, error) {
	path := filepath.Join(dir, "card.fifo")
	f, err := alsafile.OpenFIFO(path, 0)
	if err != nil {
		return nil, fmt.Errorf("selftest: sound card: %w", err)
	}
	conf := filepath.Join(dir, "asound.conf")
	if err := os.WriteFile(conf, []byte(alsafile.Config(path, "wolftable selftest --emulate: an emulated sound card")), 0o600); err != nil {
		f.Close()
		return nil, fmt.Errorf("selftest: sound card: %w", err)
	}
	c := &SoundCard{dir: dir, fifo: f, conf: conf}
	go c.run()
	return c, nil
}

// Config is the path of the card's ALSA configuration.
func (c *SoundCard) Config() string { return c.conf }

// run reads the FIFO as a device plays, by the wall clock in steps of a
// few milliseconds; if it falls behind it re-bases rather than gulping.
func (c *SoundCard) run() {
	rate := float64(pack.SampleRate * cardFrameBytes)
	buf := make([]byte, 64<<10)
	var pending []byte
	start := time.Now()
	var consumed int64
	for {
		time.Sleep(2 * time.Millisecond)
		due := int64(time.Since(start).Seconds()*rate) - consumed
		if due > int64(rate/50) { // 20 ms behind: re-base
			start = time.Now().Add(-time.Duration(float64(consumed) / rate * float64(time.Second)))
			due = int64(rate / 100)
		}
		if due <= 0 {
			continue
		}
		n, err := c.fifo.Read(buf[:min(int(due), len(buf))])
		if err != nil {
			return // closed
		}
		consumed += int64(n)
		pending = append(pending, buf[:n]...)
		whole := len(pending) / 4 * 4
		peak := 0.0
		for i := 0; i < whole; i += 4 {
			v := math.Abs(float64(math.Float32frombits(binary.LittleEndian.Uint32(pending[i:]))))
			if v > peak && !math.IsNaN(v) {
				peak = v
			}
		}
		pending = append(pending[:0], pending[whole:]...)
		c.mu.Lock()
		c.frames += int64(n / cardFrameBytes)
		c.peak = max(c.peak, peak)
		c.mu.Unlock()
	}
}

// Reset forgets the loudest sample so far.
func (c *SoundCard) Reset() {
	c.mu.Lock()
	c.peak = 0
	c.mu.Unlock()
}

// Peak is the loudest sample since Reset, 0…1.
func (c *SoundCard) Peak() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.peak
}

// Frames counts the frames played so far.
func (c *SoundCard) Frames() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.frames
}

// Close stops the card. The process's oto context outlives it: do not
// play after.
func (c *SoundCard) Close() error { return c.fifo.Close() }

// playedCheck judges the test line's playing time. A line that ends in less
// than half its length was played faster than it was made: the sound device
// runs at another rate than the table's (pack.SampleRate), which ALSA's
// default device converts with its plug layer; a device opened without one
// makes the judge's voice a chipmunk. Half, because a device that has just
// opened takes the first 100 ms or so at once into its empty buffers: the
// emulated card has shown a 540 ms line "played" in 391 ms.
func playedCheck(length, took time.Duration) Check {
	detail := fmt.Sprintf("%v 的測試語句播了 %v", length.Round(time.Millisecond), took.Round(time.Millisecond))
	if took < length/2 {
		return Check{Name: "test line", Status: Fail, Detail: detail + fmt.Sprintf(
			"：太快了，音效裝置沒有以 %d Hz 播放（ALSA 的預設裝置要轉換取樣率：plug、dmix 或 PipeWire）", pack.SampleRate)}
	}
	return Check{Name: "test line", Status: Pass, Detail: detail}
}
