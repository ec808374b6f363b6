package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"wolftable/hw"
)

func TestDefaultsWithNoFile(t *testing.T) {
	c, err := Load("/nonexistent/wolftable.toml", false)
	if err != nil {
		t.Fatal(err)
	}
	if c.Game.Board != "seer-witch-hunter-idiot" || c.Table.Mode != hw.ModeVirtual || !c.Journal.Resume {
		t.Fatalf("defaults: %+v", c)
	}
	if _, err := Load("/nonexistent/wolftable.toml", true); err == nil {
		t.Fatal("a named file that is missing must be an error")
	}
}

func TestParse(t *testing.T) {
	c, err := Parse([]byte(`
[table]
seats = 12
mode = "serial"
[serial]
port = "/dev/ttyACM0"
[game]
board = "狼王守衛"
[game.options]
"witch.self_save" = "first_night"
[voice]
volume = 0.5
[journal]
dir = "/tmp/j"
resume = false
[pedal_actions]
long = "pause"
double = "repeat"
`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Board()
	if err != nil {
		t.Fatal(err)
	}
	if b.ID != "wolfking-guard" || b.Options.WitchSelfSave != "first_night" || c.Journal.Resume || c.Voice.Volume != 0.5 || c.Table.Mode != hw.ModeSerial {
		t.Fatalf("parsed: %+v %+v", c, b.Options)
	}
}

func TestVoiceSectionKeepsDefaults(t *testing.T) {
	c, err := Parse([]byte("[voice]\npack = \"/srv/pack\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Voice.Volume != 1 || c.Voice.Pack != "/srv/pack" {
		t.Fatalf("a [voice] without volume must keep volume 1: %+v", c.Voice)
	}
}

func TestErrorsNameTheKey(t *testing.T) {
	cases := []struct{ src, want string }{
		{"[game]\nboard = \"nope\"\n", "game.board"},
		{"[game.options]\n\"witch.self_save\" = \"always\"\n", "game.options.witch.self_save"},
		{"[game.options]\n\"no.such\" = \"1\"\n", "unknown option"},
		{"[voice]\nvolume = 3\n", "voice.volume"},
		{"[console]\nlisten = \"8080\"\n", "console.listen"},
		{"[console]\npin_hash = \"1234\"\n", "console.pin_hash"},
		{"[pedal_actions]\nshort = \"jump\"\n", "pedal_actions.short"},
		{"[table]\nseats = 20\n", "table.seats"},
		{"[table]\nseats = 10\n", "board seer-witch-hunter-idiot has 12 players"},
		{"[serial]\nbaud = 1200\n", "serial.baud"},
		{"[game]\nboardd = \"x\"\n", "game.boardd"},
		{"[game]\nboard = \n", "config:2"},
		{"[nope]\nx = 1\n", "nope"},
		{"[game]\ndeal = \"stacked\"\n", "game.deal"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}

// FuzzParse: never panics; errors are *Error and say the problem in
// Chinese first.
func FuzzParse(f *testing.F) {
	f.Add([]byte("[table]\nseats = 12\n[game]\nboard = \"預女獵愚\"\n"))
	f.Add([]byte("[journal]\ndir = \"\"\n"))
	f.Add([]byte("[[x]]\n= \x00"))
	f.Add([]byte("\xef\xbb\xbf[voice]\nvolume = 0.5\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse(data)
		if err != nil {
			ce, ok := err.(*Error)
			if !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if !startsChinese(ce.Msg) {
				t.Fatalf("not in Chinese first: %v", err)
			}
		}
	})
}

// TestVolumeNotANumber: nan and inf are refused with the key and its line.
func TestVolumeNotANumber(t *testing.T) {
	for _, v := range []string{"nan", "+nan", "-nan", "inf", "+inf", "-inf", "1.5", "-0.1"} {
		src := "[game]\ndeal = \"random\"\n[voice]\npack = \"\"\nvolume = " + v + "\n"
		_, err := Parse([]byte(src))
		var ce *Error
		if !errors.As(err, &ce) || ce.Key != "voice.volume" || ce.Line != 5 || !strings.Contains(ce.Msg, "不在 0..1 之間") {
			t.Errorf("volume = %s: got %v, want voice.volume refused at line 5", v, err)
		}
	}
	for _, v := range []string{"0", "0.0", "1", "1.0", "0.25"} {
		if _, err := Parse([]byte("[voice]\nvolume = " + v + "\n")); err != nil {
			t.Errorf("volume = %s: %v", v, err)
		}
	}
}

// TestKeyLine: the line of a key in tables, dotted keys and sub-tables, and
// 0 for a key the file does not set.
func TestKeyLine(t *testing.T) {
	src := []byte("# c\n[table]\nseats = 12\n\n[journal]\n  dir = \"/x\" # d\n[game.options]\n\"witch.self_save\" = \"never\"\n[voice]\nvolume=1\n")
	for key, want := range map[string]int{"table.seats": 3, "journal.dir": 6, "game.options.witch.self_save": 8, "voice.volume": 10, "voice.pack": 0, "dir": 0} {
		if got := KeyLine(src, key); got != want {
			t.Errorf("KeyLine(%s) = %d, want %d", key, got, want)
		}
	}
	if got := KeyLine([]byte("[[x]]\n= \x00"), "x"); got != 0 {
		t.Errorf("a broken document: %d", got)
	}
}

// TestCheckPaths: a missing journal folder, a journal "folder" that is a
// file, a missing voice pack and a folder without clips are refused with
// the key, the line and a Chinese message; existing ones pass.
func TestCheckPaths(t *testing.T) {
	dir := t.TempDir()
	packDir := filepath.Join(dir, "pack")
	os.Mkdir(packDir, 0o755)
	os.WriteFile(filepath.Join(packDir, "night.wav"), []byte("RIFF"), 0o644)
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	cases := []struct {
		journal, pack string
		key           string
		line          int
		msg           string
	}{
		{dir, "", "", 0, ""},
		{dir, packDir, "", 0, ""},
		{filepath.Join(dir, "nope"), "", "journal.dir", 3, "不存在"},
		{file, "", "journal.dir", 3, "不是資料夾"},
		{dir, filepath.Join(dir, "nopack"), "voice.pack", 6, "不存在"},
		{dir, empty, "voice.pack", 6, "不是語音包"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, "config.toml")
		src := fmt.Sprintf("[journal]\n# where\ndir = %q\n\n[voice]\npack = %q\n", c.journal, c.pack)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := Load(path, true)
		if err != nil {
			t.Fatal(err)
		}
		err = cfg.CheckPaths()
		if c.key == "" {
			if err != nil {
				t.Errorf("%s %s: %v", c.journal, c.pack, err)
			}
			continue
		}
		var ce *Error
		if !errors.As(err, &ce) || ce.Key != c.key || ce.Line != c.line || !strings.Contains(ce.Msg, c.msg) ||
			!strings.Contains(err.Error(), fmt.Sprintf("%s:%d: %s", path, c.line, c.key)) {
			t.Errorf("%s %s: got %v, want %s at line %d: %s", c.journal, c.pack, err, c.key, c.line, c.msg)
		}
	}
	// The defaults (no file): a missing default folder names the key, no line.
	c := Default()
	c.Journal.Dir = filepath.Join(dir, "missing")
	if err := c.CheckPaths(); err == nil || !strings.Contains(err.Error(), "journal.dir: 日誌資料夾") {
		t.Errorf("defaults: %v", err)
	}
}

// effectiveConsole is the [console] section as the daemon acts on it:
// redirect_http's absence is its default (RedirectsHTTP).
func effectiveConsole(c *Config) Console {
	k := c.Console
	r := c.RedirectsHTTP()
	k.RedirectHTTP = &r
	return k
}

// TestDeployConfigDefaults: every key deploy/config.toml shows commented
// out with a value, for the sections this package reads, is the default
// the code uses: uncommenting it alone changes nothing. The file as
// shipped parses to the defaults.
func TestDeployConfigDefaults(t *testing.T) {
	data, err := os.ReadFile("../deploy/config.toml")
	if err != nil {
		t.Fatal(err)
	}
	base, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	def := Default()
	if base.Voice != def.Voice || base.Journal != def.Journal || !reflect.DeepEqual(effectiveConsole(base), effectiveConsole(def)) || base.Pedal != def.Pedal {
		t.Fatalf("the shipped file is not the defaults: %+v %+v", base.Voice, base.Journal)
	}
	ours := map[string]bool{"game": true, "voice": true, "journal": true, "console": true, "pedal_actions": true}
	keyLine := regexp.MustCompile(`^# ([a-z_]+ = ("[^"]*"|[0-9.]+|true|false))(\s+#.*)?$`)
	lines := strings.Split(string(data), "\n")
	section, checked := "", 0
	for i, l := range lines {
		if m := regexp.MustCompile(`^\[([a-z_.]+)\]`).FindStringSubmatch(l); m != nil {
			section = m[1]
			continue
		}
		m := keyLine.FindStringSubmatch(l)
		if m == nil || !ours[section] {
			continue
		}
		edited := append([]string(nil), lines...)
		edited[i] = m[1]
		c, err := Parse([]byte(strings.Join(edited, "\n")))
		if err != nil {
			t.Errorf("line %d %q uncommented: %v", i+1, m[1], err)
			continue
		}
		if c.Voice != base.Voice || c.Journal != base.Journal || !reflect.DeepEqual(effectiveConsole(c), effectiveConsole(base)) || c.Pedal != base.Pedal ||
			c.Game.Board != base.Game.Board || c.Game.Deal != base.Game.Deal {
			t.Errorf("line %d [%s] %q: the documented value is not the default", i+1, section, m[1])
		}
		checked++
	}
	if checked < 8 {
		t.Fatalf("only %d documented keys checked", checked)
	}
}

// TestVenue: [venue] script and phonetic are read; a bad value is
// refused in Chinese with the file's line; ScriptOf reads the file.
func TestVenue(t *testing.T) {
	c, err := Parse([]byte("[venue]\nscript = \"hans\"\nphonetic = \"zhuyin\"\n"))
	if err != nil || c.Venue.Script != "hans" || c.Venue.Phonetic != "zhuyin" {
		t.Fatalf("%+v %v", c, err)
	}
	if c, err := Parse(nil); err != nil || c.Venue.Script != "" {
		t.Fatalf("default: %+v %v", c.Venue, err)
	}
	for src, line := range map[string]int{
		"[venue]\nscript = \"zh-CN\"\n":             2,
		"# a\n[venue]\n\nphonetic = \"bopomofo\"\n": 4,
		"[venue]\nscript = 1\n":                     2,
		"[venue]\nfont = \"x\"\n":                   2,
	} {
		_, err := Parse([]byte(src))
		ce, ok := err.(*Error)
		if !ok || ce.Line != line || !startsChinese(ce.Msg) || !strings.HasPrefix(ce.Key, "venue.") {
			t.Errorf("%q: %v (want line %d)", src, err, line)
		}
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(p, []byte("[venue]\nscript = \"hans\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ScriptOf(p) != "hans" || ScriptOf(filepath.Join(dir, "none.toml")) != "hant" {
		t.Error("ScriptOf")
	}
}
