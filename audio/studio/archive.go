package studio

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"wolftable/audio/pack"
)

const (
	// MaxArchive bounds an imported archive: a whole pack of 48 kHz stereo
	// WAV takes is about 100 MB.
	MaxArchive = 256 << 20
	// maxEntries bounds an archive's files (a pack has a few hundred).
	maxEntries = 2000
)

// ErrNotArchive is an import that is not a zip archive of a pack.
var ErrNotArchive = errors.New("不是語音包的 zip 壓縮檔 / not a zip archive of a voice pack")

// ErrCancelled is a change stopped before its end because its context
// ended: the console cancels the studio's changes when a game starts.
var ErrCancelled = errors.New("已中止：對局開始了，錄音室的變更請在這局結束後再做 / cancelled: a game started")

// Export writes the working pack as one zip archive: pack.txt and every
// take, at the top level (the layout `wolftable voice check` and the
// config's [voice] pack read once unpacked).
func (s *Studio) Export(w io.Writer) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scan()
	names := []string{pack.ManifestName}
	for _, t := range s.takes {
		names = append(names, t.file)
	}
	sort.Strings(names[1:])
	z := zip.NewWriter(w)
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(s.work(), name))
		if err != nil {
			return fmt.Errorf("studio: export: %w", err)
		}
		// WAV barely deflates; store it and spare the Pi's CPU.
		fw, err := z.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			return err
		}
		if _, err := fw.Write(b); err != nil {
			return err
		}
	}
	return z.Close()
}

// Skipped is a file of an archive that did not become a take.
type Skipped struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// Imported is what an import did.
type Imported struct {
	Clips   []string  `json:"clips"` // the takes saved, in script order
	Skipped []Skipped `json:"skipped"`
	Name    string    `json:"name,omitempty"` // the pack.txt taken, if any
}

// Import takes a zip archive of a pack (Export's, or a folder of clips
// zipped, with or without one top folder): each clip file of the script
// is processed as an upload (Process: WAV, WebM/Opus, Ogg/Opus or MP3) and
// saved as that clip's take, replacing the old one; a pack.txt becomes the
// working pack's name. Files that are not clips of the script, or that
// Process or voice check refuse, are skipped with the reason and leave the
// clip's take as it was. An archive with no clip to take changes nothing.
func (s *Studio) Import(r io.ReaderAt, size int64) (Imported, error) {
	return s.ImportContext(context.Background(), r, size)
}

// ImportContext is Import, stopped when ctx ends (the console's table
// starting a game): between two clips, so that at most the clip being
// processed is finished. The clips saved until then are in the result,
// the pack.txt is not taken, and the error is ErrCancelled.
func (s *Studio) ImportContext(ctx context.Context, r io.ReaderAt, size int64) (Imported, error) {
	if err := cancelled(ctx); err != nil {
		return Imported{}, err
	}
	if size > MaxArchive {
		return Imported{}, fmt.Errorf("壓縮檔太大（上限 %d MB） / the archive is too large", MaxArchive>>20)
	}
	z, err := zip.NewReader(r, size)
	if err != nil {
		return Imported{}, fmt.Errorf("%w: %v", ErrNotArchive, err)
	}
	if len(z.File) > maxEntries {
		return Imported{}, fmt.Errorf("%w: %d files", ErrNotArchive, len(z.File))
	}
	var res Imported
	clips, manifest := s.archiveClips(z, &res)
	var m pack.Manifest
	if manifest != nil {
		b, err := readEntry(manifest, pack.MaxManifestSize)
		if err == nil {
			m, err = pack.ParseManifest(b)
		}
		if err != nil {
			return Imported{}, fmt.Errorf("%w: %s: %v", ErrNotArchive, pack.ManifestName, err)
		}
	}
	if len(clips) == 0 {
		return res, fmt.Errorf("%w: 裡面沒有腳本裡的任何一句 / it holds no clip of the script", ErrNotArchive)
	}
	order := map[string]int{}
	for i, id := range s.b.ClipIDs() {
		order[id] = i
	}
	sort.Slice(clips, func(i, j int) bool { return order[clips[i].id] < order[clips[j].id] })
	for _, c := range clips {
		if err := cancelled(ctx); err != nil {
			s.log.Warn("studio: import cancelled", "clips_saved", len(res.Clips), "err", err)
			return res, err
		}
		b, err := readEntry(c.f, MaxUpload)
		if err == nil {
			_, err = s.Record(c.id, b)
		}
		if err != nil {
			res.Skipped = append(res.Skipped, Skipped{c.f.Name, err.Error()})
			continue
		}
		res.Clips = append(res.Clips, c.id)
	}
	if err := cancelled(ctx); err != nil {
		return res, err
	}
	if len(res.Clips) > 0 && manifest != nil {
		if err := s.Name(m.Name, m.RecordedBy); err == nil {
			res.Name = m.Name
		}
	}
	s.log.Info("studio: archive imported", "clips", len(res.Clips), "skipped", len(res.Skipped))
	if len(res.Clips) == 0 {
		return res, fmt.Errorf("%w: 沒有一句可用 / no clip of it could be used", ErrNotArchive)
	}
	return res, nil
}

// archiveClipID is the clip id of an archive's file: a clip file of a pack,
// or a recording named by its clip (.webm, .ogg, .opus).
func archiveClipID(name string) (string, bool) {
	if id, ok := pack.ClipID(name); ok {
		return id, true
	}
	ext := strings.ToLower(path.Ext(name))
	switch ext {
	case ".webm", ".ogg", ".opus":
		return strings.TrimSuffix(name, name[len(name)-len(ext):]), true
	}
	return "", false
}

// topFolder is the one folder every file of the archive is in ("pack/"),
// or "".
func topFolder(files []*zip.File) string {
	prefix := ""
	for i, f := range files {
		dir, _, ok := strings.Cut(f.Name, "/")
		if !ok {
			return ""
		}
		if i == 0 {
			prefix = dir + "/"
		} else if dir+"/" != prefix {
			return ""
		}
	}
	return prefix
}

// readEntry reads an archive's file, refusing one over max bytes whatever
// its header says (a zip bomb stops at max).
func readEntry(f *zip.File, max int64) ([]byte, error) {
	if f.UncompressedSize64 > uint64(max) {
		return nil, ErrTooLarge
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotArchive, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, max+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotArchive, err)
	}
	if int64(len(b)) > max {
		return nil, ErrTooLarge
	}
	return b, nil
}

// archiveClip is a clip file of an imported archive.
type archiveClip struct {
	id string
	f  *zip.File
}

// archiveClips sorts an archive's files: the clips of the script (one
// file each) and the pack.txt; the rest goes to res.Skipped with its
// reason.
func (s *Studio) archiveClips(z *zip.Reader, res *Imported) (clips []archiveClip, manifest *zip.File) {
	prefix := topFolder(z.File)
	seen := map[string]string{}
	for _, f := range z.File {
		name := strings.TrimPrefix(f.Name, prefix)
		if f.FileInfo().IsDir() || name == "" || strings.HasPrefix(path.Base(name), ".") || strings.HasPrefix(name, "__MACOSX/") {
			continue
		}
		if strings.Contains(name, "/") {
			res.Skipped = append(res.Skipped, Skipped{f.Name, "在子資料夾裡 / in a sub-folder"})
			continue
		}
		if name == pack.ManifestName {
			manifest = f
			continue
		}
		id, ok := archiveClipID(name)
		if _, known := s.b.Clip(id); !ok || !known {
			res.Skipped = append(res.Skipped, Skipped{f.Name, "不是腳本裡的台詞 / not a clip of the script"})
			continue
		}
		if other, dup := seen[id]; dup {
			res.Skipped = append(res.Skipped, Skipped{f.Name, "和 " + other + " 是同一句 / the same clip as " + other})
			continue
		}
		seen[id] = f.Name
		clips = append(clips, archiveClip{id, f})
	}
	return clips, manifest
}

// cancelled is ErrCancelled, with ctx's cause, once ctx has ended.
func cancelled(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return fmt.Errorf("%w（%v）", ErrCancelled, cause)
	}
	return ErrCancelled
}
