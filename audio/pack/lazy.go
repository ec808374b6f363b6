package pack

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Lazy is a voice pack whose clips are decoded the first time they are
// asked for (Clip), each once, to exactly the samples Load gives. Opening
// one reads the folder's listing and the manifest, nothing else: the
// table's voice is ready at once and decodes in the background (Pack).
// A Cache, when one is given, supplies clips decoded by an earlier run.
// It is safe for concurrent use.
type Lazy struct {
	Manifest Manifest
	manifest []byte            // the manifest's bytes (Key)
	fsys     fs.FS             //
	files    map[string]string // clip id → its file
	bad      []*FileError      // clip ids given by more than one file

	mu    sync.Mutex
	cache *Cache
	clips map[string]*lazyClip
}

type lazyClip struct {
	once   sync.Once
	c      Clip
	err    error
	cached bool        // from the Cache, not decoded
	done   atomic.Bool // c and err are set (cached is then too)
}

// OpenLazy reads the listing and the manifest of the pack at the top of
// fsys. A missing or invalid manifest, or an unreadable folder, is an
// error, as for Load.
func OpenLazy(fsys fs.FS) (*Lazy, error) {
	l, err := List(fsys)
	if err != nil {
		return nil, err
	}
	mb, m, err := readManifest(fsys, l)
	if err != nil {
		return nil, err
	}
	z := &Lazy{Manifest: m, manifest: mb, fsys: fsys, files: map[string]string{}, clips: map[string]*lazyClip{}}
	for _, id := range sortedKeys(l.Clips) {
		files := l.Clips[id]
		if len(files) > 1 {
			z.bad = append(z.bad, &FileError{File: strings.Join(files, ", "), Err: fmt.Errorf("clip %q is given by %d files; keep one", id, len(files))})
			continue
		}
		z.files[id] = files[0]
	}
	return z, nil
}

// readManifest reads and parses the manifest of a listed pack.
func readManifest(fsys fs.FS, l Listing) ([]byte, Manifest, error) {
	if !l.Manifest {
		return nil, Manifest{}, &ManifestError{Msg: "missing: a voice pack needs a " + ManifestName + " with at least name and language"}
	}
	mb, err := ReadFile(fsys, ManifestName, MaxManifestSize)
	if err != nil {
		return nil, Manifest{}, &ManifestError{Msg: err.Error()}
	}
	m, err := ParseManifest(mb)
	return mb, m, err
}

// Has reports whether the pack has a clip file for id (decodable or not).
func (z *Lazy) Has(id string) bool {
	_, ok := z.files[id]
	return ok
}

// IDs lists the pack's clip ids in order.
func (z *Lazy) IDs() []string {
	ids := make([]string, 0, len(z.files))
	for id := range z.files {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// FS is the pack's file system.
func (z *Lazy) FS() fs.FS { return z.fsys }

// Loaded reports whether the clip id is loaded (said, or decoded).
func (z *Lazy) Loaded(id string) bool {
	z.mu.Lock()
	defer z.mu.Unlock()
	e := z.clips[id]
	return e != nil && e.done.Load()
}

// File is the clip file of id.
func (z *Lazy) File(id string) string { return z.files[id] }

// UseCache makes the clips not decoded yet come from c where it holds
// them (and they check out); the others are still decoded.
func (z *Lazy) UseCache(c *Cache) {
	z.mu.Lock()
	z.cache = c
	z.mu.Unlock()
}

// Clip returns the clip with the given id, decoding it if no one has; false
// if the pack has no such clip or its file cannot be decoded (Load says
// why).
func (z *Lazy) Clip(id string) (Clip, bool) {
	c, err := z.Load(id)
	return c, err == nil
}

// Load is Clip with the reason: fs.ErrNotExist for an id the pack lacks,
// else the file's decoding error.
func (z *Lazy) Load(id string) (Clip, error) {
	name, ok := z.files[id]
	if !ok {
		return Clip{}, fmt.Errorf("pack: clip %q: %w", id, fs.ErrNotExist)
	}
	z.mu.Lock()
	e := z.clips[id]
	if e == nil {
		e = &lazyClip{}
		z.clips[id] = e
	}
	cache := z.cache
	z.mu.Unlock()
	e.once.Do(func() {
		defer e.done.Store(true)
		if cache != nil {
			if c, err, ok := cache.clip(id, name); ok {
				e.c, e.err, e.cached = c, err, true
				return
			}
		}
		e.c, e.err = LoadClip(z.fsys, name)
	})
	return e.c, e.err
}

// Decoded counts the clips loaded so far, and how many of them came from
// the cache.
func (z *Lazy) Decoded() (loaded, cached int) {
	z.mu.Lock()
	defer z.mu.Unlock()
	for _, e := range z.clips {
		if e.done.Load() {
			loaded++
			if e.cached {
				cached++
			}
		}
	}
	return loaded, cached
}

// Pack loads every clip not loaded yet, one at a time in id order (the
// background decode: one core), and returns the whole pack, with a
// *LoadError naming the files that cannot be decoded as Load does. It
// stops early, with ctx's error, when ctx is done.
func (z *Lazy) Pack(ctx context.Context) (*Pack, error) {
	p := &Pack{Manifest: z.Manifest, Clips: make(map[string]Clip, len(z.files))}
	lerr := LoadError{Files: append([]*FileError(nil), z.bad...)}
	for _, id := range z.IDs() {
		if err := ctx.Err(); err != nil {
			return p, err
		}
		c, err := z.Load(id)
		if err != nil {
			lerr.Files = append(lerr.Files, &FileError{File: z.files[id], Err: err})
			continue
		}
		p.Clips[id] = c
	}
	if len(lerr.Files) > 0 {
		sort.Slice(lerr.Files, func(i, j int) bool { return lerr.Files[i].File < lerr.Files[j].File })
		return p, &lerr
	}
	return p, nil
}
