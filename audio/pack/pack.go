package pack

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// SampleRate is the rate of every Clip in memory and of the table's output.
// 16 kHz is wideband speech (the band of HD voice calls and of most speech
// synthesizers, up to 7.6 kHz here): every syllable and sibilant of a judge's
// line, at a third of the memory of 48 kHz. The default pack's 280 s of voice
// hold 9 MB, which keeps the daemon within its 30 MB of RSS on a Pi (24 kHz
// measured 31–33 MB, 16 kHz 26–29: scripts/measure). ALSA's default device
// converts the rate for cards that want 44.1 or 48 kHz.
const SampleRate = 16000

// MaxClipFileSize bounds a clip file; a bigger one is rejected unread.
const MaxClipFileSize = 64 << 20

// Clip is one recorded piece of the judge's script, ready to play: mono
// signed 16-bit samples at SampleRate.
type Clip struct {
	ID      string
	Samples []int16
	File    string // the file it came from, e.g. "9號.wav"
	Source  Audio  // the file's format; Source.Samples is nil
}

// Len is the clip's length in samples.
func (c Clip) Len() int { return len(c.Samples) }

// Duration is how long the clip plays.
func (c Clip) Duration() time.Duration {
	return time.Duration(c.Len()) * time.Second / SampleRate
}

// Pack is a loaded voice pack.
type Pack struct {
	Manifest Manifest
	Clips    map[string]Clip
}

// Clip returns the clip with the given id.
func (p *Pack) Clip(id string) (Clip, bool) {
	if p == nil {
		return Clip{}, false
	}
	c, ok := p.Clips[id]
	return c, ok
}

// IDs lists the pack's clip ids in order.
func (p *Pack) IDs() []string {
	ids := make([]string, 0, len(p.Clips))
	for id := range p.Clips {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Bytes is the memory the clips' samples take.
func (p *Pack) Bytes() int {
	n := 0
	for _, c := range p.Clips {
		n += 2 * len(c.Samples)
	}
	return n
}

// FileError is one clip file that could not be loaded.
type FileError struct {
	File string
	Err  error
}

func (e *FileError) Error() string { return e.File + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// LoadError lists the clip files Load skipped. The pack Load returns with it
// holds every other clip.
type LoadError struct {
	Files []*FileError
}

func (e *LoadError) Error() string {
	msgs := make([]string, len(e.Files))
	for i, f := range e.Files {
		msgs[i] = f.Error()
	}
	return fmt.Sprintf("pack: %d clip file(s) skipped: %s", len(e.Files), strings.Join(msgs, "; "))
}

// Unwrap lets errors.Is and errors.As look at each file's error.
func (e *LoadError) Unwrap() []error {
	errs := make([]error, len(e.Files))
	for i, f := range e.Files {
		errs[i] = f
	}
	return errs
}

// splitClipName returns the clip id and lower-case extension of a clip file
// name, and whether it is one.
func splitClipName(name string) (id, ext string, ok bool) {
	ext = strings.ToLower(path.Ext(name))
	if ext != ".wav" && ext != ".mp3" {
		return "", "", false
	}
	id = name[:len(name)-len(ext)]
	if id == "" || strings.HasPrefix(id, ".") {
		return "", "", false
	}
	return id, ext, true
}

// ClipID returns the clip id a file name stands for ("9號.wav" → "9號"), and
// false for files that are not clips (wrong extension, hidden files).
func ClipID(name string) (string, bool) {
	id, _, ok := splitClipName(name)
	return id, ok
}

// Listing is what the top of a pack holds, by the naming rules of the package
// documentation.
type Listing struct {
	Clips     map[string][]string // clip id → file names (more than one is an error)
	Manifest  bool                // pack.txt is present
	Unrelated []string            // other files and folders
}

// List reads the top folder of a pack.
func List(fsys fs.FS) (Listing, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return Listing{}, fmt.Errorf("pack: %w", err)
	}
	l := Listing{Clips: map[string][]string{}}
	for _, e := range entries {
		name := e.Name()
		switch id, ok := ClipID(name); {
		case name == ManifestName && !e.IsDir():
			l.Manifest = true
		case ok && !e.IsDir():
			l.Clips[id] = append(l.Clips[id], name)
		default:
			l.Unrelated = append(l.Unrelated, name)
		}
	}
	return l, nil
}

// ReadFile reads a file of the pack, refusing ones bigger than max bytes.
func ReadFile(fsys fs.FS, name string, max int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b []byte
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() <= max {
		// Read in one allocation when the size is known.
		b = make([]byte, 0, st.Size()+1)
	}
	b, err = readAll(io.LimitReader(f, max+1), b)
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrUnsupported, max)
	}
	return b, nil
}

// readAll is io.ReadAll into b's spare capacity.
func readAll(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// LoadClip decodes a clip file and converts it to the in-memory format.
func LoadClip(fsys fs.FS, name string) (Clip, error) {
	id, ok := ClipID(name)
	if !ok {
		return Clip{}, fmt.Errorf("%w: %s: not a .wav or .mp3 file", ErrUnsupported, name)
	}
	b, err := ReadFile(fsys, name, MaxClipFileSize)
	if err != nil {
		return Clip{}, err
	}
	a, err := DecodeFile(name, b)
	if err != nil {
		return Clip{}, err
	}
	samples := Resample(a.Mono(), a.Rate, SampleRate)
	src := a
	src.Samples = nil
	return Clip{ID: id, Samples: samples, File: name, Source: src}, nil
}

// Load reads a voice pack from the top of fsys: the manifest and every clip,
// decoded, mixed to mono and resampled to SampleRate, in parallel.
//
// A missing or invalid manifest, or an unreadable folder, is an error and no
// pack. Clip files that cannot be decoded, and clip ids given by two files,
// are skipped: Load then returns the pack of the remaining clips together with
// a *LoadError naming them, so the table can still speak what it has.
func Load(fsys fs.FS) (*Pack, error) {
	l, err := List(fsys)
	if err != nil {
		return nil, err
	}
	_, m, err := readManifest(fsys, l)
	if err != nil {
		return nil, err
	}

	p := &Pack{Manifest: m, Clips: make(map[string]Clip, len(l.Clips))}
	var (
		mu    sync.Mutex
		lerr  LoadError
		names = make(chan string)
		wg    sync.WaitGroup
	)
	fail := func(file string, err error) {
		mu.Lock()
		lerr.Files = append(lerr.Files, &FileError{File: file, Err: err})
		mu.Unlock()
	}
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name := range names {
				c, err := LoadClip(fsys, name)
				if err != nil {
					fail(name, err)
					continue
				}
				mu.Lock()
				p.Clips[c.ID] = c
				mu.Unlock()
			}
		}()
	}
	for _, id := range sortedKeys(l.Clips) {
		files := l.Clips[id]
		if len(files) > 1 {
			fail(strings.Join(files, ", "), fmt.Errorf("clip %q is given by %d files; keep one", id, len(files)))
			continue
		}
		names <- files[0]
	}
	close(names)
	wg.Wait()

	if len(lerr.Files) > 0 {
		sort.Slice(lerr.Files, func(i, j int) bool { return lerr.Files[i].File < lerr.Files[j].File })
		return p, &lerr
	}
	return p, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
