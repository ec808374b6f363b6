package voice

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"wolftable/audio/defaultpack"
	"wolftable/audio/pack"
	"wolftable/audio/player"
	"wolftable/audio/speaker"
)

// Options configures Open.
type Options struct {
	// Pack is a voice-pack folder; "" is the embedded default pack.
	Pack string
	// Volume is the voice's volume from 0 (silent) to 1 (as recorded): the
	// config's [voice] volume, whose default is 1. It is applied as given,
	// so the zero value is silent.
	Volume float64
	// Log gets the voice's problems (no sound device, a missing clip); nil
	// is slog.Default(). Each is logged once.
	Log *slog.Logger
	// Clips, when set, loads only these clips of the pack instead of all:
	// enough to audition a line (wolftable voice say) without decoding the
	// whole pack.
	Clips []string
	// Fill takes the clips Pack lacks from the embedded default pack (a
	// venue's recording in progress, activated with the default filling
	// the gaps: the studio's). Voice.Filled lists them.
	Fill bool
	// FullSamples keeps the clips as 16-bit samples; by default they are
	// packed (pack.LoadPacked: a quarter of the memory, about 24 dB signal
	// to noise on the default pack).
	FullSamples bool
}

// testSpeakerOpts are added to the speaker's options by the tests.
var testSpeakerOpts []speaker.Option

// Voice is the judge's voice: it says catalogue lines on the sound device
// (daemon.Voice). Say queues and returns at once; lines follow one another
// gaplessly. Without a sound device it logs that once and goes on in real
// time, so the game's timing is the same and the console shows the text.
type Voice struct {
	b      *Binding
	p      *pack.Pack
	filled []string // clips from the default pack (Options.Fill)
	sp     *speaker.Speaker
	log    *slog.Logger

	mu     sync.Mutex
	stop   func() bool // ends the context.AfterFunc that closes the Voice
	warned map[string]bool
	closed bool
}

// Open loads the pack and opens the sound device. It fails if the pack
// cannot be read (no such folder, no valid manifest); clip files the pack
// cannot decode are logged and left out, as are lines that need them. The
// Voice is closed when ctx is done.
//
// Loading decodes every clip (the table never decodes an MP3 while it
// plays): for the default pack, about 8 minutes of voice, 3.9 MB packed (15
// MB as 16-bit samples under FullSamples), a second or two of CPU (see
// BenchmarkLoadDefaultPack).
func Open(ctx context.Context, o Options) (*Voice, error) {
	log := o.Log
	if log == nil {
		log = slog.Default()
	}
	b, err := Default()
	if err != nil {
		return nil, err
	}
	fsys, name, err := packFS(o.Pack)
	if err != nil {
		return nil, err
	}
	var filled []string
	if o.Fill && o.Pack != "" {
		if fsys, filled, err = fill(fsys, defaultpack.FS(), b.ClipIDs()); err != nil {
			return nil, fmt.Errorf("voice: pack %s: %w", name, err)
		}
	}
	var p *pack.Pack
	if o.Clips != nil {
		p, err = loadSome(fsys, o.Clips)
	} else if o.FullSamples {
		p, err = pack.Load(fsys)
	} else {
		p, err = pack.LoadPacked(fsys) // a quarter of the memory (pack/adpcm.go)
	}
	var lerr *pack.LoadError
	switch {
	case errors.As(err, &lerr) && p != nil:
		log.Warn("voice: some clip files of the pack cannot be played; lines that need them are shown as text only",
			"pack", name, "err", err)
	case err != nil:
		return nil, fmt.Errorf("voice: pack %s: %w", name, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	v := &Voice{b: b, p: p, filled: filled, log: log, warned: map[string]bool{}}
	if o.Clips == nil {
		var missing []string
		for _, id := range b.ClipIDs() {
			if _, ok := p.Clips[id]; !ok {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			log.Warn("voice: the pack lacks clips; lines that need them are shown as text only (wolftable voice check lists them)",
				"pack", name, "missing", len(missing), "first", strings.Join(missing[:min(5, len(missing))], " "))
		}
	}
	opts := append([]speaker.Option{speaker.WithLogger(log)}, testSpeakerOpts...)
	sp, err := speaker.Open(newSource(p), opts...)
	if err != nil {
		return nil, fmt.Errorf("voice: %w", err)
	}
	sp.SetVolume(o.Volume)
	v.sp = sp
	log.Info("voice: ready", "pack", name, "voice", p.Manifest.Name, "clips", len(p.Clips),
		"from_default_pack", len(filled), "memory_mb", math.Round(float64(p.Bytes())/1e5)/10)
	stop := context.AfterFunc(ctx, func() { v.Close() })
	v.mu.Lock()
	v.stop = stop
	v.mu.Unlock()
	return v, nil
}

// LoadClips loads the manifest and the given clips of the pack folder dir
// ("" = the embedded default pack), and nothing else: a few prompts' clips
// (the self-test's) without decoding the whole voice.
func LoadClips(dir string, ids []string) (*pack.Pack, error) {
	fsys, name, err := packFS(dir)
	if err != nil {
		return nil, err
	}
	p, err := loadSome(fsys, ids)
	if err != nil {
		return p, fmt.Errorf("voice: pack %s: %w", name, err)
	}
	return p, nil
}

// packFS opens a pack folder, or the default pack for "".
func packFS(dir string) (fs.FS, string, error) {
	if dir == "" {
		return defaultpack.FS(), "(default)", nil
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, dir, fmt.Errorf("voice: pack: %w", err)
	}
	if !st.IsDir() {
		return nil, dir, fmt.Errorf("voice: pack %s is not a folder", dir)
	}
	return os.DirFS(dir), dir, nil
}

// loadSome loads the manifest and the given clips of a pack.
func loadSome(fsys fs.FS, ids []string) (*pack.Pack, error) {
	l, err := pack.List(fsys)
	if err != nil {
		return nil, err
	}
	if !l.Manifest {
		return nil, &pack.ManifestError{Msg: "missing"}
	}
	mb, err := pack.ReadFile(fsys, pack.ManifestName, pack.MaxManifestSize)
	if err != nil {
		return nil, &pack.ManifestError{Msg: err.Error()}
	}
	m, err := pack.ParseManifest(mb)
	if err != nil {
		return nil, err
	}
	p := &pack.Pack{Manifest: m, Clips: map[string]pack.Clip{}}
	var lerr pack.LoadError
	for _, id := range ids {
		files := l.Clips[id]
		if _, done := p.Clips[id]; done || len(files) == 0 {
			continue
		}
		if len(files) > 1 {
			lerr.Files = append(lerr.Files, &pack.FileError{File: strings.Join(files, ", "), Err: fmt.Errorf("clip %q is given by %d files; keep one", id, len(files))})
			continue
		}
		c, err := pack.LoadClip(fsys, files[0])
		if err != nil {
			lerr.Files = append(lerr.Files, &pack.FileError{File: files[0], Err: err})
			continue
		}
		p.Clips[id] = c
	}
	if len(lerr.Files) > 0 {
		return p, &lerr
	}
	return p, nil
}

// source is where the speaker finds clips: the pack's, and the pauses.
type source struct {
	p      *pack.Pack
	pauses map[string]pack.Clip
}

// Source is what a speaker plays a pack's sequences from (see Sequence): the
// pack's clips and the pauses the Voice makes as silence. The self-test's
// prompts use it.
func Source(p *pack.Pack) player.Clips { return newSource(p) }

func newSource(p *pack.Pack) *source {
	silence := func(id string, d time.Duration) pack.Clip {
		return pack.Clip{ID: id, Samples: make([]int16, int(int64(d)*pack.SampleRate/int64(time.Second)))}
	}
	return &source{p: p, pauses: map[string]pack.Clip{
		PauseComma: silence(PauseComma, PauseCommaLength),
		PauseList:  silence(PauseList, PauseListLength),
		PauseCount: silence(PauseCount, CountPause(p)),
	}}
}

func (s *source) Clip(id string) (pack.Clip, bool) {
	if c, ok := s.pauses[id]; ok {
		return c, true
	}
	return s.p.Clip(id)
}

// CountPause is the silence between a countdown's numbers in a pack: the
// numbers start CountBeat apart on average, with at least 200 ms between.
func CountPause(p *pack.Pack) time.Duration {
	var sum time.Duration
	n := 0
	for id, c := range p.Clips {
		if strings.HasPrefix(id, "count.") {
			sum += c.Duration()
			n++
		}
	}
	if n == 0 {
		return CountBeat - 400*time.Millisecond
	}
	return max(minCountPause, CountBeat-sum/time.Duration(n))
}

// Say queues a catalogue line with its arguments (seat numbers) and returns
// at once. A line it cannot say (unknown, a cue, bad arguments, clips the
// pack lacks) is logged, once per line, and skipped: the console shows the
// text anyway.
func (v *Voice) Say(line string, args []int) {
	if err := v.Speak(line, args); err != nil && !errors.Is(err, player.ErrClosed) {
		v.warnOnce(line, err)
	}
}

// Speak is Say that returns the error instead of logging it.
func (v *Voice) Speak(line string, args []int) error {
	seq, err := v.b.Sequence(line, args)
	if err != nil {
		return err
	}
	if err := v.sp.Say(seq); err != nil {
		return fmt.Errorf("voice: %s: %w", line, err)
	}
	return nil
}

func (v *Voice) warnOnce(line string, err error) {
	v.mu.Lock()
	seen := v.warned[line]
	v.warned[line] = true
	v.mu.Unlock()
	if !seen {
		v.log.Warn("voice: line not spoken (text only)", "line", line, "err", err)
	}
}

// Interrupt cuts the line being said with a short fade and drops the queued
// ones: the judge's repeat and skip.
func (v *Voice) Interrupt() { v.sp.Interrupt() }

// Wait blocks until everything said has been heard (or would have been,
// without a device), or ctx is done.
func (v *Voice) Wait(ctx context.Context) error { return v.sp.Wait(ctx) }

// SetVolume sets the volume, 0 to 1.
func (v *Voice) SetVolume(x float64) { v.sp.SetVolume(x) }

// Device reports the sound device's failure, or nil while it plays.
func (v *Voice) Device() error { return v.sp.Err() }

// Pack is the loaded pack.
func (v *Voice) Pack() *pack.Pack { return v.p }

// Filled lists the clips taken from the default pack (Options.Fill).
func (v *Voice) Filled() []string { return slices.Clone(v.filled) }

// Close stops the voice. The process's sound device stays open for a later
// Open.
func (v *Voice) Close() error {
	v.mu.Lock()
	if v.closed {
		v.mu.Unlock()
		return nil
	}
	v.closed = true
	stop := v.stop
	v.mu.Unlock()
	if stop != nil {
		stop()
	}
	return v.sp.Close()
}

// Export writes the embedded default pack to dir as a pack folder. dir is
// created, or must hold nothing but a pack, which is replaced.
func Export(dir string) (int, error) {
	fsys := defaultpack.FS()
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return 0, err
	}
	files := map[string][]byte{}
	clips := 0
	for _, e := range entries {
		if e.IsDir() || !isPackFile(e.Name()) {
			continue
		}
		b, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return 0, err
		}
		files[e.Name()] = b
		if e.Name() != pack.ManifestName {
			clips++
		}
	}
	return clips, writePack(dir, files)
}
