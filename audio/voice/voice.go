package voice

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
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
	// so the zero value is silent; at 1 the device gets the pack's decoded
	// samples bit for bit.
	Volume float64
	// Log gets the voice's problems (no sound device, a missing clip); nil
	// is slog.Default(). Each is logged once.
	Log *slog.Logger
	// Clips, when set, loads only these clips of the pack instead of all:
	// enough to audition a line (wolftable voice say) without decoding the
	// whole pack, and no background decode.
	Clips []string
	// Fill takes the clips Pack lacks from the embedded default pack (a
	// venue's recording in progress, activated with the default filling
	// the gaps: the studio's). Voice.Filled lists them.
	Fill bool
	// CacheDir holds the decoded cache (pack.Cache): the pack's clips
	// decoded by an earlier start, memory-mapped. "" is no cache: every
	// start decodes the pack again in the background, into memory.
	CacheDir string
	// Decoded, if set, is called once the background decode is over (the
	// daemon settles its memory limit then).
	Decoded func()
	// FullSamples is kept for old configs and does nothing: the voice is
	// always the pack's decoded samples.
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
	lazy   *pack.Lazy // the pack, decoded as it is said (nil with Options.Clips)
	some   *pack.Pack // Options.Clips's clips
	name   string     // the pack's name for the log
	filled []string   // clips from the default pack (Options.Fill)
	sp     *speaker.Speaker
	log    *slog.Logger
	warm   chan struct{} // closed when the background decode is over
	cancel context.CancelFunc

	mu     sync.Mutex
	stop   func() bool // ends the context.AfterFunc that closes the Voice
	warned map[string]bool
	closed bool
}

// Open opens the pack and the sound device, and returns at once: the
// clips are decoded when they are first said, each once, and the whole
// pack is decoded in the background on one core (or memory-mapped from
// the decoded cache of an earlier start: Options.CacheDir). It fails if
// the pack cannot be read (no such folder, no valid manifest); clip files
// the pack cannot decode are logged once found and left out, as are
// lines that need them. The Voice is closed when ctx is done.
//
// What the device gets is the pack's samples as decoded — MP3 or WAV to
// mono 16-bit at pack.SampleRate, resampled once — with no second lossy
// coding (Render writes the same samples to a file).
func Open(ctx context.Context, o Options) (*Voice, error) {
	began := time.Now()
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
	v := &Voice{b: b, name: name, filled: filled, log: log, warned: map[string]bool{}, warm: make(chan struct{})}
	var clips player.Clips
	var manifest pack.Manifest
	var cache *pack.Cache
	var key [32]byte
	if o.Clips != nil {
		p, err := loadSome(fsys, o.Clips)
		var lerr *pack.LoadError
		switch {
		case errors.As(err, &lerr) && p != nil:
			log.Warn("voice: some clip files of the pack cannot be played; lines that need them are shown as text only", "pack", name, "err", err)
		case err != nil:
			return nil, fmt.Errorf("voice: pack %s: %w", name, err)
		}
		v.some, clips, manifest = p, p, p.Manifest
		close(v.warm)
	} else {
		z, err := pack.OpenLazy(fsys)
		if err != nil {
			return nil, fmt.Errorf("voice: pack %s: %w", name, err)
		}
		v.lazy, clips, manifest = z, z, z.Manifest
		key, cache = v.mapCache(o.CacheDir)
		v.warnMissing()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts := append([]speaker.Option{speaker.WithLogger(log)}, testSpeakerOpts...)
	sp, err := speaker.Open(newSource(clips), opts...)
	if err != nil {
		return nil, fmt.Errorf("voice: %w", err)
	}
	sp.SetVolume(o.Volume)
	v.sp = sp
	log.Info("voice: ready", "pack", name, "voice", manifest.Name, "clips", clipCount(v),
		"from_default_pack", len(filled), "decoded_cache", cache != nil, "ready_ms", time.Since(began).Milliseconds())
	wctx, cancel := context.WithCancel(context.Background())
	v.cancel = cancel
	if v.lazy != nil {
		go func() {
			v.decodeAll(wctx, o.CacheDir, key, cache)
			if o.Decoded != nil && wctx.Err() == nil {
				o.Decoded()
			}
		}()
	}
	stop := context.AfterFunc(ctx, func() { v.Close() })
	v.mu.Lock()
	v.stop = stop
	v.mu.Unlock()
	return v, nil
}

// mapCache maps the lazy pack's decoded cache in dir, if it has one.
func (v *Voice) mapCache(dir string) (key [32]byte, cache *pack.Cache) {
	if dir == "" {
		return key, nil
	}
	key, err := v.lazy.Key()
	if err == nil {
		cache, err = sharedCache(dir, key)
	}
	switch {
	case cache != nil:
		v.lazy.UseCache(cache)
	case err != nil && !errors.Is(err, pack.ErrNoCache):
		v.log.Warn("voice: the decoded cache cannot be used; the pack is decoded again", "err", err)
	}
	return key, cache
}

// warnMissing logs the catalogue's clips the pack lacks.
func (v *Voice) warnMissing() {
	var missing []string
	for _, id := range v.b.ClipIDs() {
		if !v.lazy.Has(id) {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		v.log.Warn("voice: the pack lacks clips; lines that need them are shown as text only (wolftable voice check lists them)",
			"pack", v.name, "missing", len(missing), "first", strings.Join(missing[:min(5, len(missing))], " "))
	}
}

func clipCount(v *Voice) int {
	if v.lazy != nil {
		return len(v.lazy.IDs())
	}
	return len(v.some.Clips)
}

// caches are the decoded caches this process has mapped, by path: each
// is mapped once and never unmapped (a Voice reopened after the studio's
// activation, or for the next game, shares it; the clips a closed Voice
// gave out stay valid).
var caches = struct {
	sync.Mutex
	m map[string]*pack.Cache
}{m: map[string]*pack.Cache{}}

func sharedCache(dir string, key [32]byte) (*pack.Cache, error) {
	path := pack.CachePath(dir, key)
	caches.Lock()
	defer caches.Unlock()
	if c := caches.m[path]; c != nil {
		return c, nil
	}
	c, err := pack.OpenCache(dir, key)
	if err != nil {
		return nil, err
	}
	caches.m[path] = c
	return c, nil
}

// decodeAll is the background decode: every clip of the pack not said
// yet, one at a time, each written to a new decoded cache (when there is
// a cache folder and no cache) and dropped, so that the process holds
// only the clips it said; then the cache is mapped and the rest come from
// it. Without a cache folder the clips stay in memory. The files that
// cannot be decoded are logged.
func (v *Voice) decodeAll(ctx context.Context, dir string, key [32]byte, cache *pack.Cache) {
	defer close(v.warm)
	z := v.lazy
	began := time.Now()
	if cache != nil {
		if bad := cache.Errors(); len(bad) > 0 {
			v.log.Warn("voice: some clip files of the pack cannot be played; lines that need them are shown as text only",
				"pack", v.name, "err", &pack.LoadError{Files: bad})
		}
		return
	}
	var cw *pack.CacheWriter
	if dir != "" {
		var err error
		if cw, err = pack.CreateCache(dir, key); err != nil {
			v.log.Warn("voice: no decoded cache (each start decodes the pack again)", "dir", dir, "err", err)
		}
	}
	var lerr pack.LoadError
	for _, id := range decodeOrder(v.b, z) {
		if ctx.Err() != nil {
			if cw != nil {
				cw.Abort()
			}
			return
		}
		var c pack.Clip
		var err error
		if cw == nil || z.Loaded(id) {
			c, err = z.Load(id) // kept in memory
		} else {
			c, err = pack.LoadClip(z.FS(), z.File(id)) // into the cache only
		}
		switch {
		case err != nil:
			lerr.Files = append(lerr.Files, &pack.FileError{File: z.File(id), Err: err})
			if cw != nil {
				cw.Fail(id, z.File(id), err)
			}
		case cw != nil:
			cw.Add(c)
		}
	}
	if len(lerr.Files) > 0 {
		v.log.Warn("voice: some clip files of the pack cannot be played; lines that need them are shown as text only", "pack", v.name, "err", &lerr)
	}
	if cw == nil {
		v.log.Info("voice: the pack is decoded", "pack", v.name, "seconds", time.Since(began).Seconds())
		return
	}
	path, err := cw.Commit()
	if err == nil {
		cache, err = sharedCache(dir, key)
	}
	if err != nil {
		v.log.Warn("voice: the decoded cache was not written (each start decodes the pack again)", "dir", dir, "err", err)
		return
	}
	z.UseCache(cache)
	v.log.Info("voice: the pack is decoded; the decoded cache is written", "pack", v.name, "cache", path, "seconds", time.Since(began).Seconds())
}

// decodeOrder is the background decode's order: the seats' numbers and
// the countdown's first (most lines say one), then the lines' clips in the
// catalogue's order (a game's first lines first), then the pack's other
// files.
func decodeOrder(b *Binding, z *pack.Lazy) []string {
	var first, lines, rest []string
	known := map[string]bool{}
	for _, id := range b.ClipIDs() {
		known[id] = true
		switch {
		case !z.Has(id):
		case strings.HasPrefix(id, "seat.") || strings.HasPrefix(id, "count."):
			first = append(first, id)
		default:
			lines = append(lines, id)
		}
	}
	for _, id := range z.IDs() {
		if !known[id] {
			rest = append(rest, id)
		}
	}
	return slices.Concat(first, lines, rest)
}

// Decoded waits for the background decode (or ctx) and reports how many
// clips were loaded and how many of them came from the decoded cache.
func (v *Voice) Decoded(ctx context.Context) (loaded, cached int, err error) {
	select {
	case <-v.warm:
	case <-ctx.Done():
		return 0, 0, ctx.Err()
	}
	if v.lazy == nil {
		return len(v.some.Clips), 0, nil
	}
	loaded, cached = v.lazy.Decoded()
	return loaded, cached, nil
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
	clips  player.Clips
	pauses map[string]pack.Clip
	count  func() pack.Clip // the countdown's pause, made when first said
}

// Source is what a speaker plays a pack's sequences from (see Sequence): the
// pack's clips and the pauses the Voice makes as silence. The self-test's
// prompts use it.
func Source(p *pack.Pack) player.Clips { return newSource(p) }

func silence(id string, d time.Duration) pack.Clip {
	return pack.Clip{ID: id, Samples: make([]int16, int(int64(d)*pack.SampleRate/int64(time.Second)))}
}

func newSource(c player.Clips) *source {
	return &source{clips: c, pauses: map[string]pack.Clip{
		PauseComma: silence(PauseComma, PauseCommaLength),
		PauseList:  silence(PauseList, PauseListLength),
	}, count: sync.OnceValue(func() pack.Clip { return silence(PauseCount, countPause(c)) })}
}

func (s *source) Clip(id string) (pack.Clip, bool) {
	if c, ok := s.pauses[id]; ok {
		return c, true
	}
	if id == PauseCount {
		return s.count(), true
	}
	return s.clips.Clip(id)
}

// countPause is CountPause of whatever holds the clips.
func countPause(c player.Clips) time.Duration {
	switch c := c.(type) {
	case *pack.Pack:
		return CountPause(c)
	case *pack.Lazy:
		p := &pack.Pack{Clips: map[string]pack.Clip{}}
		for _, id := range c.IDs() {
			if strings.HasPrefix(id, "count.") {
				if clip, ok := c.Clip(id); ok {
					p.Clips[id] = clip
				}
			}
		}
		return CountPause(p)
	}
	return CountPause(&pack.Pack{})
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

// Pack is the pack, every clip decoded (it waits for those not decoded
// yet).
func (v *Voice) Pack() *pack.Pack {
	if v.lazy == nil {
		return v.some
	}
	p, _ := v.lazy.Pack(context.Background())
	return p
}

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
	v.cancel()
	<-v.warm // the background decode stops between two clips
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
