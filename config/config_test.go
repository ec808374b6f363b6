package config

import (
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

// FuzzParse: never panics; errors are *Error.
func FuzzParse(f *testing.F) {
	f.Add([]byte("[table]\nseats = 12\n[game]\nboard = \"預女獵愚\"\n"))
	f.Add([]byte("[journal]\ndir = \"\"\n"))
	f.Add([]byte("[[x]]\n= \x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse(data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
		}
	})
}
