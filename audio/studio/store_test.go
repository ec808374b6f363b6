package studio

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"wolftable/audio/check"

	"wolftable/audio/voice"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// take is a good recording of clip id at about its suggested length.
func goodTake(t testing.TB, id string) []byte {
	t.Helper()
	b, err := voice.Default()
	if err != nil {
		t.Fatal(err)
	}
	return recording(48000, 1, 300*time.Millisecond, b.Suggested(id), 400*time.Millisecond, -30)
}

func openStudio(t *testing.T, dir string, o Options) *Studio {
	t.Helper()
	if o.Log == nil {
		o.Log = quiet()
	}
	s, err := Open(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func state(s *Studio, id string) ClipState {
	for _, c := range s.List().Clips {
		if c.ID == id {
			return c
		}
	}
	return ClipState{}
}

// TestRecordAndRefuse: a good take is saved and listed; a refused upload
// and a take that fails voice check change nothing; an unknown clip is
// refused before anything is read.
func TestRecordAndRefuse(t *testing.T) {
	dir := t.TempDir()
	s := openStudio(t, dir, Options{})
	l := s.List()
	if l.Total < 250 || l.Recorded != 0 || l.Name != DefaultName || l.Active != nil {
		t.Fatalf("a new studio: total %d recorded %d name %q active %v", l.Total, l.Recorded, l.Name, l.Active)
	}
	const id = "line.game.over.void.1"
	r, err := s.Record(id, goodTake(t, id))
	if err != nil || !r.OK {
		t.Fatalf("Record: %v %+v", err, r)
	}
	cs := state(s, id)
	if cs.State != "ok" || cs.Seconds == 0 || cs.Text != "本局流局" || cs.Pinyin == "" || len(cs.Notes) == 0 {
		t.Errorf("listed as %+v", cs)
	}
	good, err := os.ReadFile(filepath.Join(dir, "studio", id+".wav"))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := s.Take(id); err != nil || !bytes.Equal(b, good) {
		t.Errorf("Take: %v", err)
	}

	clipped := recording(48000, 1, 100*time.Millisecond, time.Second, 100*time.Millisecond, 3) // driven past full scale
	var ce *CheckError
	if _, err := s.Record(id, clipped); !errors.As(err, &ce) || !strings.Contains(err.Error(), "爆音") {
		t.Errorf("a clipped take: %v", err)
	}
	for name, up := range map[string][]byte{"empty": nil, "html": []byte("<html>"), "silence": recording(16000, 1, time.Second, 0, 0, -20)} {
		if _, err := s.Record(id, up); err == nil {
			t.Errorf("%s: taken", name)
		}
	}
	if _, err := s.Record("line.no.such.1", goodTake(t, id)); !errors.Is(err, ErrUnknownClip) {
		t.Errorf("an unknown clip: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "studio", id+".wav")); !bytes.Equal(b, good) {
		t.Error("a refused upload changed the good take")
	}
	if st := state(s, id); st.State != "ok" {
		t.Errorf("after refusals the clip is %s", st.State)
	}
	if _, err := s.Take("seat.3"); !errors.Is(err, ErrNoTake) {
		t.Errorf("Take of a clip not recorded: %v", err)
	}
	// A reopened studio finds its takes again.
	if st := state(openStudio(t, dir, Options{}), id); st.State != "ok" {
		t.Errorf("reopened: %+v", st)
	}
}

// TestActivate: an incomplete pack is refused unless the default fills
// it; the activated copy holds the usable takes and passes voice check;
// a take recorded later changes the table's voice only at the next
// activation; the default pack again after Deactivate.
func TestActivate(t *testing.T) {
	dir := t.TempDir()
	var changes []bool
	s := openStudio(t, dir, Options{OnChange: func(a Active, on bool) { changes = append(changes, on) }})
	if _, err := s.Activate(true); !errors.Is(err, ErrNothing) {
		t.Errorf("nothing recorded: %v", err)
	}
	ids := []string{"line.game.over.void.1", "seat.3", "count.2"}
	for _, id := range ids {
		if _, err := s.Record(id, goodTake(t, id)); err != nil {
			t.Fatal(id, err)
		}
	}
	var ie *IncompleteError
	if _, err := s.Activate(false); !errors.As(err, &ie) || ie.Missing != s.List().Total-3 {
		t.Errorf("incomplete without fill: %v", err)
	}
	if _, ok, _ := ActivePack(dir); ok {
		t.Fatal("a refused activation activated")
	}
	a, err := s.Activate(true)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Fill || a.Clips != 3 || a.Filled != s.List().Total-3 || a.Name != DefaultName {
		t.Errorf("activated %+v", a)
	}
	got, ok, err := ActivePack(dir)
	if err != nil || !ok || got.Pack != a.Pack || !got.Fill {
		t.Fatalf("ActivePack: %+v %v %v", got, ok, err)
	}
	b, _ := voice.Default()
	for _, f := range check.Check(os.DirFS(a.Pack), ids, check.WithSuggested(b.Suggested)) {
		if f.Severity > check.Info {
			t.Errorf("voice check of the activated pack: %v", f)
		}
	}
	before, _ := os.ReadFile(filepath.Join(a.Pack, "seat.3.wav"))
	if _, err := s.Record("seat.3", recording(44100, 2, 0, 600*time.Millisecond, 0, -25)); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(filepath.Join(a.Pack, "seat.3.wav")); !bytes.Equal(before, after) {
		t.Error("a new take changed the activated pack")
	}
	a2, err := s.Activate(true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(a.Pack); !errors.Is(err, os.ErrNotExist) || a2.Pack == a.Pack {
		t.Errorf("the older copy %s stays beside %s", a.Pack, a2.Pack)
	}
	if err := s.Deactivate(); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := ActivePack(dir); ok || err != nil {
		t.Errorf("after Deactivate: %v %v", ok, err)
	}
	if !slices.Equal(changes, []bool{true, true, false}) {
		t.Errorf("OnChange calls %v", changes)
	}
}

// TestActivePackRefusesForgedNames: active.json may only name a copy in
// packs/.
func TestActivePackRefusesForgedNames(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "packs", "x"), 0o755)
	for _, body := range []string{`{"pack":"../../etc"}`, `{"pack":"/etc"}`, `{"pack":"packs/../studio"}`, `{"pack":"packs/gone"}`, `not json`} {
		os.WriteFile(filepath.Join(dir, activeName), []byte(body), 0o644)
		if _, ok, err := ActivePack(dir); ok || err == nil {
			t.Errorf("%s: taken", body)
		}
	}
	os.WriteFile(filepath.Join(dir, activeName), []byte(`{"pack":"packs/x","fill":true}`), 0o644)
	if a, ok, err := ActivePack(dir); !ok || err != nil || a.Pack != filepath.Join(dir, "packs", "x") {
		t.Errorf("a good one: %+v %v %v", a, ok, err)
	}
}

func zipOf(t testing.TB, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		w, _ := z.Create(n)
		w.Write(files[n])
	}
	z.Close()
	return buf.Bytes()
}

// TestExportImport: an exported pack imported into another studio gives
// the same takes and name; a folder zipped whole is read too; a file that
// is not a clip, or a bad take, is skipped with its reason and leaves the
// clip as it was; an archive with nothing to take changes nothing.
func TestExportImport(t *testing.T) {
	s := openStudio(t, t.TempDir(), Options{})
	for _, id := range []string{"line.game.over.void.1", "seat.3"} {
		if _, err := s.Record(id, goodTake(t, id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Name("小梁的錄音", "小梁"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := s.Export(&buf); err != nil {
		t.Fatal(err)
	}
	other := openStudio(t, t.TempDir(), Options{})
	res, err := other.Import(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Clips, []string{"line.game.over.void.1", "seat.3"}) || len(res.Skipped) != 0 || res.Name != "小梁的錄音" {
		t.Errorf("imported %+v", res)
	}
	if l := other.List(); l.Recorded != 2 || l.Name != "小梁的錄音" || l.By != "小梁" {
		t.Errorf("after import: %d recorded, %q by %q", l.Recorded, l.Name, l.By)
	}

	good, _ := other.Take("seat.3")
	arch := zipOf(t, map[string][]byte{
		"my pack/seat.3.wav":                []byte("RIFF broken"),
		"my pack/seat.4.wav":                goodTake(t, "seat.4"),
		"my pack/readme.txt":                []byte("hello"),
		"my pack/line.no.such.1.wav":        goodTake(t, "seat.4"),
		"my pack/count.1.webm":              []byte("not webm"),
		"my pack/.DS_Store":                 []byte("x"),
		"my pack/sub/seat.5.wav":            goodTake(t, "seat.5"),
		"my pack/line.game.over.void.1.wav": goodTake(t, "line.game.over.void.1"),
	})
	res, err = other.Import(bytes.NewReader(arch), int64(len(arch)))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Clips, []string{"line.game.over.void.1", "seat.4"}) || len(res.Skipped) != 5 {
		t.Errorf("imported %v, skipped %+v", res.Clips, res.Skipped)
	}
	if b, _ := other.Take("seat.3"); !bytes.Equal(b, good) {
		t.Error("a bad file in the archive changed the good take")
	}

	for name, bad := range map[string][]byte{
		"not a zip":    []byte("PK but not really"),
		"no clips":     zipOf(t, map[string][]byte{"readme.txt": []byte("x")}),
		"bad manifest": zipOf(t, map[string][]byte{"pack.txt": []byte("nonsense"), "seat.6.wav": goodTake(t, "seat.6")}),
		"all refused":  zipOf(t, map[string][]byte{"seat.6.wav": []byte("RIFF")}),
	} {
		before := other.List()
		if _, err := other.Import(bytes.NewReader(bad), int64(len(bad))); !errors.Is(err, ErrNotArchive) {
			t.Errorf("%s: %v", name, err)
		}
		if after := other.List(); after.Recorded != before.Recorded || after.Name != before.Name {
			t.Errorf("%s changed the studio", name)
		}
	}
}

// TestImportBoundsEntries: an entry bigger than an upload is refused
// however its header understates it.
func TestImportBoundsEntries(t *testing.T) {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	w, _ := z.Create("seat.7.wav")
	w.Write(bytes.Repeat([]byte{0}, MaxUpload+10))
	z.Close()
	s := openStudio(t, t.TempDir(), Options{})
	res, err := s.Import(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err == nil || len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, "太大") {
		t.Errorf("%v %+v", err, res)
	}
}

// FuzzImport: any bytes are an import or an error; never a panic, and a
// refused archive leaves the studio as it was.
func FuzzImport(f *testing.F) {
	f.Add(zipOf(f, map[string][]byte{"seat.1.wav": recording(16000, 1, 0, 400*time.Millisecond, 0, -20), "pack.txt": []byte("name: x\nlanguage: zh-TW\n")}))
	f.Add(zipOf(f, map[string][]byte{"a/seat.2.wav": []byte("RIFF")}))
	f.Add([]byte("PK\x03\x04"))
	dir := f.TempDir()
	s, err := Open(dir, Options{Log: quiet()})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		before := s.List().Recorded
		res, err := s.Import(bytes.NewReader(b), int64(len(b)))
		if err != nil && s.List().Recorded != before+len(res.Clips) {
			t.Fatalf("a refused import changed the studio")
		}
	})
}

// TestOverride: the config's pack is shown, so that the judge knows an
// activation will not be heard.
func TestOverride(t *testing.T) {
	if l := openStudio(t, t.TempDir(), Options{Override: "/srv/pack"}).List(); l.Override != "/srv/pack" {
		t.Errorf("override %q", l.Override)
	}
	if l := openStudio(t, t.TempDir(), Options{}).List(); l.Override != "" {
		t.Errorf("override %q without one", l.Override)
	}
}
