package voice

import (
	"io/fs"
	"slices"
	"strings"

	"wolftable/audio/pack"
)

// filledFS is a pack folder with the clips it lacks taken from another pack
// (the embedded default): the pack's own files, its manifest, and for each
// expected clip id it has no file for, the other pack's file.
type filledFS struct {
	own    fs.FS
	from   fs.FS
	filled map[string]bool // file names taken from `from`
	extra  []fs.DirEntry   // their entries
}

// fill is own with the expected clips it lacks taken from `from`; it also
// returns the ids so taken, in the order of expected.
func fill(own, from fs.FS, expected []string) (fs.FS, []string, error) {
	mine, err := pack.List(own)
	if err != nil {
		return nil, nil, err
	}
	theirs, err := pack.List(from)
	if err != nil {
		return nil, nil, err
	}
	f := &filledFS{own: own, from: from, filled: map[string]bool{}}
	var ids []string
	for _, id := range expected {
		files := theirs.Clips[id]
		if len(mine.Clips[id]) > 0 || len(files) != 1 {
			continue
		}
		st, err := fs.Stat(from, files[0])
		if err != nil {
			return nil, nil, err
		}
		f.filled[files[0]] = true
		f.extra = append(f.extra, fs.FileInfoToDirEntry(st))
		ids = append(ids, id)
	}
	return f, ids, nil
}

func (f *filledFS) Open(name string) (fs.File, error) {
	if f.filled[name] {
		return f.from.Open(name)
	}
	return f.own.Open(name)
}

func (f *filledFS) ReadDir(name string) ([]fs.DirEntry, error) {
	es, err := fs.ReadDir(f.own, name)
	if err != nil || name != "." {
		return es, err
	}
	es = append(es, f.extra...)
	slices.SortFunc(es, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return es, nil
}

var _ fs.ReadDirFS = (*filledFS)(nil)
