package pack

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// cachePackFS is a small pack: three clips in two formats and a file that
// does not decode.
func cachePackFS() fstest.MapFS {
	return fstest.MapFS{
		ManifestName: {Data: []byte(testManifest)},
		"a.wav":      {Data: EncodeWAV(Audio{Rate: 22050, Channels: 1, Samples: sine(22050, 22050/2, 440, 9000)})},
		"b.wav":      {Data: EncodeWAV(Audio{Rate: 48000, Channels: 2, Samples: sine(48000, 48000, 300, 7000)})},
		"c.wav":      {Data: EncodeWAV(Audio{Rate: SampleRate, Channels: 1, Samples: sine(SampleRate, 1601, 1000, 5000)})},
		"bad.mp3":    {Data: []byte("not an mp3 at all")},
	}
}

// writeTestCache decodes fsys lazily and writes its cache into dir.
func writeTestCache(t *testing.T, fsys fstest.MapFS, dir string) (*Lazy, [32]byte, string) {
	t.Helper()
	z, err := OpenLazy(fsys)
	if err != nil {
		t.Fatal(err)
	}
	key, err := z.Key()
	if err != nil {
		t.Fatal(err)
	}
	p, err := z.Pack(context.Background())
	var lerr *LoadError
	if !errors.As(err, &lerr) || len(lerr.Files) != 1 {
		t.Fatalf("Pack: %v, want bad.mp3 refused", err)
	}
	path, err := WriteCache(dir, key, p, lerr.Files)
	if err != nil {
		t.Fatal(err)
	}
	return z, key, path
}

// TestCacheGivesLoadsSamples: a pack's decoded cache, opened again, gives
// every clip exactly as Load decodes it (and the file that does not
// decode with its error); a Lazy from the cache reads no clip file.
func TestCacheGivesLoadsSamples(t *testing.T) {
	fsys := cachePackFS()
	want, err := Load(fsys)
	if err == nil {
		t.Fatal("Load took bad.mp3")
	}
	dir := t.TempDir()
	_, key, path := writeTestCache(t, fsys, dir)
	c, err := OpenCache(dir, key)
	if err != nil {
		t.Fatal(err)
	}
	z, _ := OpenLazy(fsys)
	z.UseCache(c)
	for id, w := range want.Clips {
		fsys[w.File] = &fstest.MapFile{Data: []byte("gone: the cache must be used")}
		got, err := z.Load(id)
		if err != nil || !slices.Equal(got.Samples, w.Samples) || got.Source.Rate != w.Source.Rate || got.Source.Channels != w.Source.Channels {
			t.Errorf("%s from the cache: %v, %d samples (want %d), source %+v want %+v", id, err, len(got.Samples), len(w.Samples), got.Source, w.Source)
		}
	}
	if _, err := z.Load("bad"); err == nil {
		t.Error("the cache gave the undecodable clip")
	}
	if bad := c.Errors(); len(bad) != 1 || bad[0].File != "bad.mp3" {
		t.Errorf("the cache's errors: %v", bad)
	}
	if loaded, cached := z.Decoded(); loaded != 4 || cached != 4 {
		t.Errorf("loaded %d, cached %d: want 4 and 4", loaded, cached)
	}
	t.Logf("cache %s", filepath.Base(path))
}

// TestDamagedCache: a flipped bit in a clip's samples makes that clip
// decode from the pack again (its CRC); a damaged index, a cut file, a
// file of another key are refused with the reason; no file is
// ErrNoCache. Nothing is lost: the clips still play, decoded.
func TestDamagedCache(t *testing.T) {
	fsys := cachePackFS()
	want, _ := Load(fsys)
	dir := t.TempDir()
	_, key, path := writeTestCache(t, fsys, dir)
	good, _ := os.ReadFile(path)

	flipped := slices.Clone(good)
	flipped[cacheAlign+10] ^= 0x40 // in the first clip's samples
	os.WriteFile(path, flipped, 0o644)
	c, err := OpenCache(dir, key)
	if err != nil {
		t.Fatal(err)
	}
	z, _ := OpenLazy(fsys)
	z.UseCache(c)
	for id, w := range want.Clips {
		if got, err := z.Load(id); err != nil || !slices.Equal(got.Samples, w.Samples) {
			t.Errorf("%s: %v (a damaged clip must decode from the pack)", id, err)
		}
	}
	if _, cached := z.Decoded(); cached != 2 {
		t.Errorf("%d clips from the cache, want 2 (the damaged one decoded)", cached)
	}

	for name, b := range map[string][]byte{
		"cut":         good[:len(good)-100],
		"index":       append(slices.Clone(good[:len(good)-cacheFoot-5]), append([]byte("X"), good[len(good)-cacheFoot-4:]...)...),
		"header only": good[:cacheAlign],
		"magic":       append([]byte("WTVPCM99"), good[8:]...),
	} {
		os.WriteFile(path, b, 0o644)
		if _, err := OpenCache(dir, key); err == nil || errors.Is(err, ErrNoCache) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", name, err)
		}
	}
	os.Remove(path)
	if _, err := OpenCache(dir, key); !errors.Is(err, ErrNoCache) {
		t.Errorf("no file: %v", err)
	}
	other := key
	other[0] ^= 1
	os.WriteFile(path, good, 0o644)
	os.Rename(path, CachePath(dir, other))
	if _, err := OpenCache(dir, other); err == nil || !strings.Contains(err.Error(), "not this pack's") {
		t.Errorf("another key's file: %v", err)
	}
}

// TestKeyFollowsThePack: the key changes with a clip's bytes (the
// embedded pack has no modification times) and with a clip added, so
// a re-recorded pack never plays an old cache.
func TestKeyFollowsThePack(t *testing.T) {
	key := func(fsys fstest.MapFS) [32]byte {
		z, err := OpenLazy(fsys)
		if err != nil {
			t.Fatal(err)
		}
		k, err := z.Key()
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	fsys := cachePackFS()
	k0 := key(fsys)
	if key(cachePackFS()) != k0 {
		t.Fatal("the same pack, another key")
	}
	fsys["c.wav"] = &fstest.MapFile{Data: EncodeWAV(Audio{Rate: SampleRate, Channels: 1, Samples: sine(SampleRate, 1601, 1001, 5000)})}
	k1 := key(fsys)
	fsys["d.wav"] = fsys["c.wav"]
	if k1 == k0 || key(fsys) == k1 {
		t.Error("the key did not follow the pack's change")
	}
}

// TestCacheKeepsAFew: writing caches of several packs keeps the newest
// few in the folder, never the one just written.
func TestCacheKeepsAFew(t *testing.T) {
	dir := t.TempDir()
	p := &Pack{Clips: map[string]Clip{"a": {ID: "a", File: "a.wav", Samples: []int16{1, 2, 3}}}}
	var last string
	for i := range 6 {
		var k [32]byte
		k[0] = byte(i)
		path, err := WriteCache(dir, k, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		last = path
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"+cacheSuffix))
	if len(files) != cacheKeep || !slices.Contains(files, last) {
		t.Errorf("caches kept: %v", files)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".voice-*")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// FuzzOpenCache: any bytes under a cache's name give a cache whose every
// clip is within the file, or an error; never a panic.
func FuzzOpenCache(f *testing.F) {
	dir := f.TempDir()
	var key [32]byte
	p := &Pack{Clips: map[string]Clip{"a": {ID: "a", File: "a.wav", Samples: []int16{1, -2, 3, 400}}}}
	path, err := WriteCache(dir, key, p, []*FileError{{File: "b.mp3", Err: errors.New("bad")}})
	if err != nil {
		f.Fatal(err)
	}
	good, _ := os.ReadFile(path)
	f.Add(good)
	f.Add(good[:len(good)-1])
	f.Add([]byte(cacheMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(path, b, 0o644); err != nil { // one worker per process: its own folder
			t.Fatal(err)
		}
		c, err := OpenCache(dir, key)
		if err != nil {
			return
		}
		defer c.Close()
		for id, e := range c.entries {
			c.clip(id, e.File)
		}
	})
}
