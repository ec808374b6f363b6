package pack

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unsafe"
)

// The decoded cache (issue 26). A pack's clips decoded once — MP3 or WAV
// to mono 16-bit at SampleRate, exactly Load's samples — are kept in one
// file per pack, named by the pack's Key, and memory-mapped at the next
// start: the voice is ready at once and plays the same samples, with no
// second lossy coding anywhere. The page cache holds the file; the
// process's memory holds only the pages of the clips it plays.
//
// File layout (little-endian): a header, the clips' samples from
// cacheAlign on (each at its index entry's offset), and the index last,
// so that the file is written in one pass as the clips are decoded:
//
//	"WTVPCM01" | key [32] | sample rate u32 | zeros to cacheAlign
//	samples of each clip …
//	index (JSON) | index length u32 | CRC-32 of the index u32 | "WTVPCEND"
//
// Each entry carries the CRC-32 of its samples, checked when the clip is
// first played; a clip that fails the check (a flipped bit on the SD
// card) is decoded from the pack instead. The file is written to a
// temporary name, synced and renamed: a power cut leaves the old cache
// or none, never a torn one.

const (
	cacheMagic   = "WTVPCM01"
	cacheAlign   = 4096
	cacheHead    = len(cacheMagic) + 32 + 4
	cacheEnd     = "WTVPCEND"
	cacheFoot    = 4 + 4 + len(cacheEnd)
	cacheMaxIdx  = 4 << 20 // bounds a damaged index length
	cacheSuffix  = ".pcm"
	cacheKeep    = 3 // caches kept in a folder: the active pack's and two more
	keyVersion   = "wolftable decoded voice v1"
	maxHashBytes = 1 << 30
)

// Key identifies what a pack decodes to: the format's version, the
// table's rate, the manifest and every clip file — its name and, where
// the file system gives one, its size and modification time (a studio's
// take is written anew, so a new time), else its bytes (the embedded
// default pack).
func (z *Lazy) Key() ([32]byte, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00", keyVersion, SampleRate, len(z.manifest))
	h.Write(z.manifest)
	for _, id := range z.IDs() {
		name := z.files[id]
		fmt.Fprintf(h, "%s\x00", name)
		if st, err := fs.Stat(z.fsys, name); err == nil && !st.ModTime().IsZero() {
			fmt.Fprintf(h, "s%d t%d\x00", st.Size(), st.ModTime().UnixNano())
			continue
		}
		f, err := z.fsys.Open(name)
		if err != nil {
			return [32]byte{}, fmt.Errorf("pack: %s: %w", name, err)
		}
		n, err := io.Copy(h, io.LimitReader(f, maxHashBytes))
		f.Close()
		if err != nil {
			return [32]byte{}, fmt.Errorf("pack: %s: %w", name, err)
		}
		fmt.Fprintf(h, "\x00n%d\x00", n)
	}
	var k [32]byte
	h.Sum(k[:0])
	return k, nil
}

// CachePath is the cache file of key in dir.
func CachePath(dir string, key [32]byte) string {
	return filepath.Join(dir, hex.EncodeToString(key[:12])+cacheSuffix)
}

type cacheEntry struct {
	ID       string `json:"id"`
	File     string `json:"file"`
	Rate     int    `json:"rate,omitempty"`     // the file's own format (Clip.Source)
	Channels int    `json:"channels,omitempty"` //
	Off      int64  `json:"off,omitempty"`
	Frames   int    `json:"frames,omitempty"`
	CRC      uint32 `json:"crc,omitempty"`
	Err      string `json:"err,omitempty"` // the file could not be decoded
}

// Cache is an opened cache file: the decoded clips of one pack.
type Cache struct {
	Path    string
	data    []byte // the mapped file
	entries map[string]cacheEntry
	unmap   func() error
}

// ErrNoCache: OpenCache found no usable file (none, or one of another
// version or host).
var ErrNoCache = errors.New("pack: no decoded cache")

// littleEndian: the cache holds the samples as the host reads them.
var littleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()

// OpenCache opens the cache of key in dir. No file is ErrNoCache; a file
// that is not a whole cache of this key (damaged, cut, of an older
// version) is an error that says so, and the caller decodes instead.
func OpenCache(dir string, key [32]byte) (*Cache, error) {
	if !littleEndian {
		return nil, ErrNoCache
	}
	path := CachePath(dir, key)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoCache
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	bad := func(why string) error { return fmt.Errorf("pack: decoded cache %s: %s", path, why) }
	size := st.Size()
	head := make([]byte, cacheHead)
	if _, err := io.ReadFull(f, head); err != nil || size < cacheAlign+int64(cacheFoot) {
		return nil, bad("shorter than its header")
	}
	if string(head[:8]) != cacheMagic || string(head[8:40]) != string(key[:]) {
		return nil, bad("not this pack's (another version or key)")
	}
	if binary.LittleEndian.Uint32(head[40:]) != SampleRate {
		return nil, bad("of another sample rate")
	}
	foot := make([]byte, cacheFoot)
	if _, err := f.ReadAt(foot, size-int64(cacheFoot)); err != nil || string(foot[8:]) != cacheEnd {
		return nil, bad("cut (no end mark)")
	}
	n := int64(binary.LittleEndian.Uint32(foot))
	if n > cacheMaxIdx || cacheAlign+n+int64(cacheFoot) > size {
		return nil, bad("its index is cut or damaged")
	}
	idxAt := size - int64(cacheFoot) - n
	idx := make([]byte, n)
	if _, err := f.ReadAt(idx, idxAt); err != nil {
		return nil, bad("its index is cut")
	}
	if crc32.ChecksumIEEE(idx) != binary.LittleEndian.Uint32(foot[4:]) {
		return nil, bad("its index is damaged (CRC)")
	}
	var list []cacheEntry
	if err := json.Unmarshal(idx, &list); err != nil {
		return nil, bad("its index does not read: " + err.Error())
	}
	start := int64(cacheAlign)
	c := &Cache{Path: path, entries: make(map[string]cacheEntry, len(list))}
	for _, e := range list {
		if e.Err == "" && (e.Off < start || e.Off%2 != 0 || e.Frames < 0 || e.Off+2*int64(e.Frames) > idxAt) {
			return nil, bad(fmt.Sprintf("clip %q lies outside the file", e.ID))
		}
		c.entries[e.ID] = e
	}
	if c.data, c.unmap, err = mapFile(f, idxAt); err != nil {
		return nil, bad(err.Error())
	}
	return c, nil
}

// clip is the cached clip id from file name: ok is false when the cache
// does not hold it as that file's, or its samples fail their CRC.
func (c *Cache) clip(id, name string) (Clip, error, bool) {
	e, ok := c.entries[id]
	if !ok || e.File != name {
		return Clip{}, nil, false
	}
	if e.Err != "" {
		return Clip{}, errors.New(e.Err), true
	}
	b := c.data[e.Off : e.Off+2*int64(e.Frames)]
	if crc32.ChecksumIEEE(b) != e.CRC {
		return Clip{}, nil, false
	}
	var s []int16
	if e.Frames > 0 {
		s = unsafe.Slice((*int16)(unsafe.Pointer(&b[0])), e.Frames)
	}
	return Clip{ID: id, Samples: s, File: name, Source: Audio{Rate: e.Rate, Channels: e.Channels}}, nil, true
}

// Errors are the clip files the cache records as not decodable.
func (c *Cache) Errors() []*FileError {
	var out []*FileError
	for _, e := range c.entries {
		if e.Err != "" {
			out = append(out, &FileError{File: e.File, Err: errors.New(e.Err)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

// Close unmaps the file. The clips it gave must no longer be played.
func (c *Cache) Close() error {
	if c == nil || c.unmap == nil {
		return nil
	}
	u := c.unmap
	c.unmap = nil
	return u()
}

// CacheWriter writes a cache file as the clips are decoded, one pass:
// Add each clip, Fail each file that cannot be decoded, then Commit (or
// Abort). Nothing is visible under the cache's name before Commit.
type CacheWriter struct {
	dir, path string
	f         *os.File
	w         *bufio.Writer
	at        int64
	list      []cacheEntry
	err       error
}

// CreateCache starts the cache of key in dir (created if need be).
func CreateCache(dir string, key [32]byte) (*CacheWriter, error) {
	if !littleEndian {
		return nil, ErrNoCache
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, ".voice-*.tmp")
	if err != nil {
		return nil, err
	}
	cw := &CacheWriter{dir: dir, path: CachePath(dir, key), f: f, w: bufio.NewWriterSize(f, 1<<16), at: cacheAlign}
	head := make([]byte, cacheAlign)
	copy(head, cacheMagic)
	copy(head[8:], key[:])
	binary.LittleEndian.PutUint32(head[40:], SampleRate)
	_, cw.err = cw.w.Write(head)
	return cw, nil
}

// Add writes a decoded clip.
func (cw *CacheWriter) Add(c Clip) {
	if cw.err != nil {
		return
	}
	b := sampleBytes(c.Samples)
	cw.list = append(cw.list, cacheEntry{ID: c.ID, File: c.File, Rate: c.Source.Rate, Channels: c.Source.Channels,
		Off: cw.at, Frames: len(c.Samples), CRC: crc32.ChecksumIEEE(b)})
	_, cw.err = cw.w.Write(b)
	cw.at += int64(len(b))
}

// Fail records a clip file that cannot be decoded, with why.
func (cw *CacheWriter) Fail(id, file string, err error) {
	cw.list = append(cw.list, cacheEntry{ID: id, File: file, Err: err.Error()})
}

// Abort drops the file.
func (cw *CacheWriter) Abort() {
	cw.f.Close()
	os.Remove(cw.f.Name())
}

// Commit writes the index, syncs the file and gives it the cache's name;
// it removes the folder's older caches past the newest few. It returns the
// cache's path.
func (cw *CacheWriter) Commit() (string, error) {
	defer cw.Abort() // after the rename, the temporary name is gone
	idx, err := json.Marshal(cw.list)
	if err != nil {
		return "", err
	}
	foot := make([]byte, cacheFoot)
	binary.LittleEndian.PutUint32(foot, uint32(len(idx)))
	binary.LittleEndian.PutUint32(foot[4:], crc32.ChecksumIEEE(idx))
	copy(foot[8:], cacheEnd)
	for _, b := range [][]byte{idx, foot} {
		if cw.err == nil {
			_, cw.err = cw.w.Write(b)
		}
	}
	if cw.err == nil {
		cw.err = cw.w.Flush()
	}
	if cw.err == nil {
		cw.err = cw.f.Sync()
	}
	if cw.err == nil {
		cw.err = os.Rename(cw.f.Name(), cw.path)
	}
	if cw.err != nil {
		return "", cw.err
	}
	if d, err := os.Open(cw.dir); err == nil {
		d.Sync()
		d.Close()
	}
	pruneCaches(cw.dir, cw.path)
	return cw.path, nil
}

// WriteCache writes the cache of key in dir from p, a whole pack
// (Lazy.Pack), and the files it could not decode (its *LoadError's).
func WriteCache(dir string, key [32]byte, p *Pack, failed []*FileError) (string, error) {
	cw, err := CreateCache(dir, key)
	if err != nil {
		return "", err
	}
	for _, id := range p.IDs() {
		cw.Add(p.Clips[id])
	}
	for _, f := range failed {
		if id, ok := ClipID(f.File); ok && !strings.Contains(f.File, ", ") { // not a clip given twice: Lazy finds those
			cw.Fail(id, f.File, f.Err)
		}
	}
	return cw.Commit()
}

// sampleBytes is s as little-endian bytes (the host's, checked).
func sampleBytes(s []int16) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), 2*len(s))
}

// pruneCaches removes the caches of dir past the cacheKeep newest, never
// keep.
func pruneCaches(dir, keep string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*"+cacheSuffix))
	type aged struct {
		path string
		t    int64
	}
	var all []aged
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && f != keep {
			all = append(all, aged{f, st.ModTime().UnixNano()})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].t > all[j].t })
	for i, a := range all {
		if i >= cacheKeep-1 {
			os.Remove(a.path)
		}
	}
}
