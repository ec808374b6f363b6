package studio

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"wolftable/audio/check"
	"wolftable/audio/pack"
	"wolftable/audio/voice"
	"wolftable/internal/atomicfile"
)

// The studio's folder.
const (
	workName   = "studio"      // the pack being recorded
	packsName  = "packs"       // activated copies
	activeName = "active.json" // which copy the table speaks with
)

// DefaultName is the working pack's name until the venue gives its own.
const DefaultName = "本店法官語音"

// Errors of the studio; the message is for the judge (Chinese, then English).
var (
	ErrUnknownClip = errors.New("沒有這一句：台詞代號不在腳本裡 / no such clip in the script")
	ErrNothing     = errors.New("還沒有錄好任何一句 / no clip recorded yet")
	ErrNoTake      = errors.New("這一句還沒有錄 / this clip is not recorded")
)

// IncompleteError refuses to activate a pack that lacks clips unless the
// default pack fills them.
type IncompleteError struct{ Missing int }

func (e *IncompleteError) Error() string {
	return fmt.Sprintf("還有 %d 句沒錄好：錄完，或選「缺的用內建語音補上」 / %d clips missing: record them, or let the default pack fill the gaps", e.Missing, e.Missing)
}

// CheckError is a take refused by voice check's rules (an Error finding,
// such as clipping): it was not saved, and the clip's earlier take stands.
type CheckError struct{ Result Result }

func (e *CheckError) Error() string {
	msgs := []string{}
	for _, n := range Notes(e.Result.Findings, 0) {
		if n.Severity == check.Error.String() {
			msgs = append(msgs, n.Message)
		}
	}
	return "沒有存檔（原來的錄音保留）：" + strings.Join(msgs, "；") + " / not saved: the take fails voice check"
}

// Studio is the table's recording studio (package doc): a working pack the
// judge records into clip by clip, and the copy of it the table speaks with
// once the venue activates it. Its methods are safe for concurrent use; one
// runs at a time.
type Studio struct {
	dir string
	b   *voice.Binding
	log *slog.Logger
	now func() time.Time

	override string
	phonetic string // Options.Phonetic

	mu       sync.Mutex
	scanned  bool            // takes holds every file of the working pack
	takes    map[string]take // the working pack's clips, checked
	onChange func(Active, bool)
}

// take is one recorded clip as checked.
type take struct {
	file     string
	seconds  float64
	findings []check.Finding
	at       time.Time
}

func (t take) worst() check.Severity { return check.Worst(t.findings) }

// Options configure Open.
type Options struct {
	// Log gets the studio's log; nil = slog.Default().
	Log *slog.Logger
	// Now is the clock of the activation's date; nil = time.Now.
	Now func() time.Time
	// Override is the config's [voice] pack when it names one: the table
	// speaks with it whatever the studio activates (Listing.Override).
	Override string
	// OnChange is called after an activation (true) or a return to the
	// default pack (false), outside the studio's lock: the table reloads
	// its voice.
	OnChange func(a Active, on bool)
	// Phonetic is the venue's reading aid ([venue] phonetic): "zhuyin"
	// gives each clip its 注音 (ClipState.Zhuyin); else pinyin alone.
	Phonetic string
}

// Open opens (and makes, the first time) the studio in dir: dir/studio is
// the pack being recorded, with a pack.txt of DefaultName. Its takes are
// read and checked when the studio is first used.
func Open(dir string, o Options) (*Studio, error) {
	b, err := voice.Default()
	if err != nil {
		return nil, err
	}
	s := &Studio{dir: dir, b: b, log: o.Log, now: o.Now, onChange: o.OnChange, override: o.Override, phonetic: o.Phonetic, takes: map[string]take{}}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.now == nil {
		s.now = time.Now
	}
	work := s.work()
	if err := os.MkdirAll(work, 0o750); err != nil {
		return nil, fmt.Errorf("studio: %w", err)
	}
	mpath := filepath.Join(work, pack.ManifestName)
	if _, err := os.Stat(mpath); errors.Is(err, os.ErrNotExist) {
		m, _ := pack.Manifest{Name: DefaultName, Language: "zh-TW"}.MarshalText()
		if err := atomicfile.Write(mpath, m, 0o644); err != nil {
			return nil, fmt.Errorf("studio: %w", err)
		}
	}
	return s, nil
}

// scan checks every take of the working pack, once, when the studio is
// first used (not at Open: the table starts without reading them); s.mu
// is held.
func (s *Studio) scan() {
	if s.scanned {
		return
	}
	s.scanned = true
	l, err := pack.List(os.DirFS(s.work()))
	if err != nil {
		s.log.Error("studio: the working pack cannot be read", "err", err)
		return
	}
	for id, files := range l.Clips {
		if _, ok := s.b.Clip(id); !ok || len(files) != 1 {
			s.log.Warn("studio: a file of the working pack is not one clip of the script; ignored", "files", files)
			continue
		}
		if _, done := s.takes[id]; !done {
			s.takes[id] = s.checkFile(id, files[0])
		}
	}
}

func (s *Studio) work() string { return filepath.Join(s.dir, workName) }

// checkFile checks a clip file of the working pack as voice check does.
func (s *Studio) checkFile(id, file string) take {
	path := filepath.Join(s.work(), file)
	t := take{file: file}
	if st, err := os.Stat(path); err == nil {
		t.at = st.ModTime()
	}
	b, err := pack.ReadFile(os.DirFS(s.work()), file, pack.MaxClipFileSize)
	if err != nil {
		t.findings = []check.Finding{{Severity: check.Error, Kind: check.Unreadable, Clip: id, File: file, Message: err.Error()}}
		return t
	}
	t.findings = check.Clip(id, file, b, check.WithSuggested(s.b.Suggested))
	if a, err := pack.DecodeFile(file, b); err == nil {
		t.seconds = a.Duration().Seconds()
	}
	return t
}

// Record makes an upload the take of clip id: processed (Process), checked,
// and saved in one rename. A refused upload, or a take with an Error
// finding (*CheckError), changes nothing.
func (s *Studio) Record(id string, upload []byte) (Result, error) {
	if _, ok := s.b.Clip(id); !ok {
		return Result{}, ErrUnknownClip
	}
	wav, r, err := Process(id, upload, check.WithSuggested(s.b.Suggested))
	if err != nil {
		return Result{}, err
	}
	if !r.OK {
		return r, &CheckError{Result: r}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scan()
	if err := Save(s.work(), id, wav); err != nil {
		return Result{}, err
	}
	s.takes[id] = take{file: r.File, seconds: r.Seconds, findings: r.Findings, at: s.now()}
	s.log.Info("studio: clip recorded", "clip", id, "seconds", r.Seconds, "gain_db", r.GainDB, "worst", check.Worst(r.Findings).String())
	return r, nil
}

// Take is the working pack's file of clip id, for playback.
func (s *Studio) Take(id string) ([]byte, error) {
	if _, ok := s.b.Clip(id); !ok {
		return nil, ErrUnknownClip
	}
	s.mu.Lock()
	s.scan()
	t, ok := s.takes[id]
	s.mu.Unlock()
	if !ok {
		return nil, ErrNoTake
	}
	return pack.ReadFile(os.DirFS(s.work()), t.file, pack.MaxClipFileSize)
}

// ClipState is one clip of the script as the studio page shows it.
type ClipState struct {
	ID        string   `json:"id"`
	Kind      string   `json:"kind"` // line, seat, count
	Text      string   `json:"text"`
	Pinyin    string   `json:"pinyin"`           // tone digits, as the voice tools write it: xuan3 shou3
	Marks     string   `json:"pinyin_marks"`     // with tone marks, as a reader reads it: xuǎn shǒu
	Zhuyin    string   `json:"zhuyin,omitempty"` // 注音 where the venue reads it (Options.Phonetic): ㄒㄩㄢˇ ㄕㄡˇ
	Group     string   `json:"group"`            // the part of the script (groups.go)
	Sub       string   `json:"sub,omitempty"`    // in the night: the role whose step it is (or 共用)
	Lines     []string `json:"lines"`
	Suggested float64  `json:"suggested"` // seconds
	// State is missing (no take), ok, warning (plays, with a warning) or
	// error (the table would not play it: an imported file it cannot read).
	State    string    `json:"state"`
	Seconds  float64   `json:"seconds,omitempty"`
	Notes    []Note    `json:"notes"`
	Recorded time.Time `json:"recorded,omitzero"`
}

// stateOf is a take's ClipState.State by its worst finding.
func stateOf(fs []check.Finding) string {
	return map[check.Severity]string{check.Info: "ok", check.Warning: "warning", check.Error: "error"}[check.Worst(fs)]
}

// Listing is the studio as a whole.
type Listing struct {
	Clips    []ClipState `json:"clips"`  // in script order
	Groups   []Group     `json:"groups"` // the parts of the script, in a game's order, with their counts
	Total    int         `json:"total"`
	Recorded int         `json:"recorded"` // clips with a take
	Usable   int         `json:"usable"`   // takes the table would play (ok or warning)
	Name     string      `json:"name"`     // the working pack's name
	By       string      `json:"recorded_by"`
	Active   *Active     `json:"active"` // nil: the table speaks the default pack
	// Override is the config's [voice] pack, which the table speaks with
	// instead of the studio's ("" when the config names none).
	Override string `json:"override,omitempty"`
}

// List is every clip of the script with its take's state.
func (s *Studio) List() Listing {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scan()
	clips := s.b.Clips()
	l := Listing{Clips: make([]ClipState, 0, len(clips)), Total: len(clips), Override: s.override}
	for _, c := range clips {
		cs := ClipState{ID: c.ID, Kind: c.Kind.String(), Text: c.Text, Pinyin: c.Pinyin, Marks: voice.ToneMarks(c.Pinyin), Lines: c.Lines,
			Suggested: c.Suggested().Seconds(), State: "missing", Notes: []Note{}}
		cs.Group, cs.Sub = groupOf(c.ID, cs.Kind)
		if s.phonetic == "zhuyin" {
			cs.Zhuyin = voice.Zhuyin(c.Pinyin)
		}
		if t, ok := s.takes[c.ID]; ok {
			l.Recorded++
			cs.State = stateOf(t.findings)
			if t.worst() < check.Error {
				l.Usable++
			}
			cs.Seconds, cs.Notes, cs.Recorded = t.seconds, Notes(t.findings, c.Suggested()), t.at
		}
		l.Clips = append(l.Clips, cs)
	}
	l.Groups = listGroups(l.Clips)
	if m, err := s.manifest(); err == nil {
		l.Name, l.By = m.Name, m.RecordedBy
	}
	if a, ok, err := ActivePack(s.dir); err == nil && ok {
		l.Active = &a
	}
	return l
}

func (s *Studio) manifest() (pack.Manifest, error) {
	b, err := pack.ReadFile(os.DirFS(s.work()), pack.ManifestName, pack.MaxManifestSize)
	if err != nil {
		return pack.Manifest{}, err
	}
	return pack.ParseManifest(b)
}

// Name sets the working pack's name and who recorded it (pack.txt).
func (s *Studio) Name(name, by string) error {
	name, by = strings.TrimSpace(name), strings.TrimSpace(by)
	if name == "" {
		name = DefaultName
	}
	m := pack.Manifest{Name: name, Language: "zh-TW", RecordedBy: by}
	b, _ := m.MarshalText()
	if _, err := pack.ParseManifest(b); err != nil || len([]rune(name)) > 80 || len([]rune(by)) > 80 {
		return errors.New("名稱不行：最多 80 字，不可有換行 / the name must be one line of at most 80 characters")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return atomicfile.Write(filepath.Join(s.work(), pack.ManifestName), b, 0o644)
}

// Active is the activated pack the table speaks with.
type Active struct {
	Pack   string    `json:"-"`      // its folder (absolute)
	Dir    string    `json:"pack"`   // the same, inside the studio's folder
	Name   string    `json:"name"`   // the pack's name
	Fill   bool      `json:"fill"`   // the default pack fills its gaps
	Clips  int       `json:"clips"`  // the pack's own clips
	Filled int       `json:"filled"` // clips the default pack gives
	At     time.Time `json:"at"`
}

// ActivePack reads which pack the studio in dir activated; false when none
// is (the table speaks the default pack, or the config's).
func ActivePack(dir string) (Active, bool, error) {
	b, err := os.ReadFile(filepath.Join(dir, activeName))
	if errors.Is(err, os.ErrNotExist) {
		return Active{}, false, nil
	}
	if err != nil {
		return Active{}, false, fmt.Errorf("studio: %w", err)
	}
	var a Active
	if err := json.Unmarshal(b, &a); err != nil {
		return Active{}, false, fmt.Errorf("studio: 錄音室的 %s 讀不懂 / %s: %w", activeName, activeName, err)
	}
	rel := filepath.ToSlash(a.Dir)
	if !strings.HasPrefix(rel, packsName+"/") || !fs.ValidPath(rel) || strings.Count(rel, "/") != 1 {
		return Active{}, false, fmt.Errorf("studio: 錄音室的 %s 指向 %q，不是 %s 裡的語音包 / %s names %q, not a pack of %s", activeName, a.Dir, packsName, activeName, a.Dir, packsName)
	}
	a.Pack = filepath.Join(dir, filepath.FromSlash(rel))
	if st, err := os.Stat(a.Pack); err != nil || !st.IsDir() {
		return Active{}, false, fmt.Errorf("studio: 啟用的語音包 %s 不見了 / the activated pack %s is gone", a.Pack, a.Pack)
	}
	return a, true, nil
}

// Activate makes a copy of the working pack the table's voice: the usable
// takes (ok or warning) and pack.txt, in a new folder of dir/packs, then
// active.json names it (one rename), and older copies go. Without fill,
// every clip must have a usable take (*IncompleteError); with it, the
// default pack says the rest. Takes recorded later reach the table at the
// next activation.
func (s *Studio) Activate(fill bool) (Active, error) {
	a, err := s.activate(fill)
	if err == nil && s.onChange != nil {
		s.onChange(a, true)
	}
	return a, err
}

func (s *Studio) activate(fill bool) (Active, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scan()
	var usable []take
	for _, id := range s.b.ClipIDs() {
		if t, ok := s.takes[id]; ok && t.worst() < check.Error {
			usable = append(usable, t)
		}
	}
	total := len(s.b.ClipIDs())
	switch {
	case len(usable) == 0:
		return Active{}, ErrNothing
	case len(usable) < total && !fill:
		return Active{}, &IncompleteError{Missing: total - len(usable)}
	}
	m, err := s.manifest()
	if err != nil {
		return Active{}, fmt.Errorf("studio: %s: %w", pack.ManifestName, err)
	}
	at := s.now()
	name := at.UTC().Format("20060102T150405.000")
	packs := filepath.Join(s.dir, packsName)
	if err := os.MkdirAll(packs, 0o750); err != nil {
		return Active{}, err
	}
	tmp, err := os.MkdirTemp(packs, ".new-")
	if err != nil {
		return Active{}, err
	}
	defer os.RemoveAll(tmp) // gone once renamed
	m.Date = time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
	mb, _ := m.MarshalText()
	if err := atomicfile.Write(filepath.Join(tmp, pack.ManifestName), mb, 0o644); err != nil {
		return Active{}, err
	}
	for _, t := range usable {
		if err := linkOrCopy(filepath.Join(s.work(), t.file), filepath.Join(tmp, t.file)); err != nil {
			return Active{}, err
		}
	}
	if err := syncDir(tmp); err != nil {
		return Active{}, err
	}
	if err := os.Rename(tmp, filepath.Join(packs, name)); err != nil {
		return Active{}, err
	}
	a := Active{Dir: packsName + "/" + name, Name: m.Name, Fill: len(usable) < total, Clips: len(usable), Filled: total - len(usable), At: at}
	b, _ := json.MarshalIndent(a, "", "  ")
	if err := atomicfile.Write(filepath.Join(s.dir, activeName), append(b, '\n'), 0o644); err != nil {
		return Active{}, err
	}
	a.Pack = filepath.Join(packs, name)
	s.prune(name)
	s.log.Info("studio: pack activated", "pack", a.Pack, "clips", a.Clips, "from_default_pack", a.Filled)
	return a, nil
}

// Deactivate returns the table to the default pack.
func (s *Studio) Deactivate() error {
	s.mu.Lock()
	err := os.Remove(filepath.Join(s.dir, activeName))
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	if err == nil {
		err = syncDir(s.dir)
		s.prune("")
		s.log.Info("studio: back to the default pack")
	}
	s.mu.Unlock()
	if err == nil && s.onChange != nil {
		s.onChange(Active{}, false)
	}
	return err
}

// prune removes the activated copies but keep.
func (s *Studio) prune(keep string) {
	packs := filepath.Join(s.dir, packsName)
	es, _ := os.ReadDir(packs)
	for _, e := range es {
		if e.Name() != keep {
			if err := os.RemoveAll(filepath.Join(packs, e.Name())); err != nil {
				s.log.Warn("studio: an old activated pack could not be removed", "err", err)
			}
		}
	}
}

// linkOrCopy puts src at dst: a hard link (a take is replaced by a rename,
// never written in place, so the link keeps the take as it was), or a
// copy where links are not possible.
func linkOrCopy(src, dst string) error {
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return atomicfile.Write(dst, b, 0o644)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
