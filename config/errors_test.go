package config

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// goType matches what a Go type looks like in an error: a struct, a
// package-qualified name, a Go kind, a pointer or a map type.
var goType = regexp.MustCompile(`struct|interface|map\[|\*[a-z]|\b(u?int(8|16|32|64)?|float(32|64)|bool|string)\b.*\btype\b|\bof type\b|\bconfig\.[A-Z]|\bhw\.[A-Z]|\[\]string`)

// TestErrorLines: each kind of mistake a venue makes in the config file is
// reported at the line it is written on, with its key and the problem in
// words, Chinese first, and no Go type (issue 13 item 1). Before the single
// decode, `volume = "loud"` was reported at another line with a Go struct
// type, an unknown game key at the line of another key, and seats = 99
// without a line.
func TestErrorLines(t *testing.T) {
	const head = "# the table at the venue\n[table]\nseats = 12\nmode = \"virtual\"\n\n[game]\nboard = \"預女獵愚\"\n\n[journal]\ndir = \"/tmp\"\n\n"
	// head is 11 lines; the case's lines follow from line 12.
	cases := []struct {
		name, src string
		line      int
		key, msg  string
	}{
		{"wrong type", "[voice]\npack = \"\"\nvolume = \"loud\"\n", 14, "voice.volume", "要是 0 到 1 之間的數字（0 靜音，1 原音量；不寫則為 1），這裡寫的是字串"},
		{"out of range", "[voice]\n\nvolume = 1.5\n", 14, "voice.volume", "不在 0..1 之間"},
		{"unknown key in a section", "[voice]\nvolume = 1\nbogus = 3\n", 14, "voice.bogus", "不認得這個鍵"},
		{"unknown key after a sub-table", "[game.options]\n\"witch.self_save\" = \"never\"\n[console]\nlistn = \"x\"\n", 15, "console.listn", "不認得這個鍵"},
		{"unknown section", "[voices]\nvolume = 1\n", 12, "voices", "不認得這個段落"},
		{"bad enum", "[pedal_actions]\nshort = \"jump\"\n", 13, "pedal_actions.short", `要是 "advance"、"repeat" 或 "pause"`},
		{"bad option", "[game.options]\n\"witch.self_save\" = \"always\"\n", 13, "game.options.witch.self_save", "這個選項不接受這個值"},
		{"unknown option", "[game.options]\n\"no.such\" = \"1\"\n", 13, "game.options.no.such", "沒有這個選項"},
		{"option not a string", "[game.options]\n\"witch.self_save\" = 3\n", 13, "game.options.witch.self_save", `選項的值要寫成字串，例如 "never"，這裡寫的是整數`},
		{"malformed TOML", "[voice]\nvolume = \n", 13, "", "TOML 格式錯誤"},
		{"wrong type, list", "[console]\nhosts = \"table7.local\"\n", 13, "console.hosts", "要是主機名稱字串的清單"},
		{"bad host", "[console]\nhosts = [\"http://x\"]\n", 13, "console.hosts", "要是主機名稱字串的清單"},
	}
	for _, c := range cases {
		src := head + c.src
		_, err := Parse([]byte(src))
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("%s: got %v, want an *Error", c.name, err)
			continue
		}
		if ce.Line != c.line || ce.Key != c.key || !strings.Contains(ce.Msg, c.msg) {
			t.Errorf("%s: got line %d key %q %q, want line %d key %q %q", c.name, ce.Line, ce.Key, ce.Msg, c.line, c.key, c.msg)
		}
		if goType.MatchString(err.Error()) {
			t.Errorf("%s: a Go type in %q", c.name, err)
		}
		if !startsChinese(ce.Msg) {
			t.Errorf("%s: not Chinese first: %q", c.name, ce.Msg)
		}
	}
	// The hardware sections: the line of the key.
	hwCases := []struct {
		src      string
		line     int
		key, msg string
	}{
		{"[table]\nmode = \"virtual\"\n\nseats = 99\n", 4, "table.seats", "要是 6 到 18 之間的整數"},
		{"[table]\nmode = \"lasers\"\n", 2, "table.mode", `要是 "virtual"、"gpio" 或 "serial"`},
		{"[table]\nseats = \"12\"\n", 2, "table.seats", "要是 6 到 18 之間的整數"},
		{"[table]\nseets = 12\n", 2, "table.seets", "不認得這個鍵"},
		{"[pedal]\nlong = 800\n", 2, "pedal.long", "帶單位的時間字串"},
		{"[serial]\n# the bridge\nbaud = 1200\n", 3, "serial.baud", "不可為 1200"},
		{"[table]\nseats = 10\n", 2, "table.seats", "兩者要相同"},
		{"[journal]\nresume = \"yes\"\n", 2, "journal.resume", "要是 true 或 false，這裡寫的是字串"},
		{"[journal]\ndir = \"\"\n", 2, "journal.dir", "不可為空"},
		{"[game]\nboard = \"nope\"\n", 2, "game.board", "不認得板子"},
		{"[game]\ndeal = \"stacked\"\n", 2, "game.deal", `要是 "random" 或 "manual"`},
		{"[voice]\nvolume = nan\n", 2, "voice.volume", "不在 0..1 之間"},
		{"[voice]\nvolume = 1\n[voice]\npack = \"\"\n", 3, "voice", "寫了兩次"},
		{"[[voice]]\nvolume = 1\n", 1, "voice", "要是一個段落"},
		{"[gpio]\nspi = \"SPI0.0\"\nled_order = [1, \"x\"]\n", 3, "gpio.led_order[1]", "要是座位號碼的清單"},
		{"[gpio]\n[[gpio.expanders]]\naddress = 0x20\n[[gpio.expanders]]\n# the second board\naddress = 0x40\n", 6, "gpio.expanders[1].address", "要是 MCP23017 的位址"},
		{"voice = 3\n", 1, "voice", "要是一個段落：[voice]，這裡寫的是整數"},
	}
	for _, c := range hwCases {
		_, err := Parse([]byte(c.src))
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("%q: got %v, want an *Error", c.src, err)
			continue
		}
		if ce.Line != c.line || ce.Key != c.key || !strings.Contains(ce.Msg, c.msg) {
			t.Errorf("%q: got line %d key %q %q, want line %d key %q %q", c.src, ce.Line, ce.Key, ce.Msg, c.line, c.key, c.msg)
		}
		if goType.MatchString(err.Error()) {
			t.Errorf("%q: a Go type in %q", c.src, err)
		}
		if !startsChinese(ce.Msg) {
			t.Errorf("%q: not Chinese first: %q", c.src, ce.Msg)
		}
	}
}

// startsChinese: the problem is said in Chinese first — the text before
// the English (after " / ") has Chinese characters.
func startsChinese(msg string) bool {
	zh, _, _ := strings.Cut(msg, " / ")
	for _, r := range zh {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

// TestGoTypeDetector: the detector of Go types finds the old messages.
func TestGoTypeDetector(t *testing.T) {
	for _, m := range []string{
		`toml: cannot decode TOML string into struct field struct { Pack *string "toml:\"pack\""; Volume *float64 }.Volume of type float64`,
		`cannot decode TOML integer into struct field config.Voice.Volume of type float64`,
		`cannot decode TOML integer into struct field config.V.Hosts of type []string`,
	} {
		if !goType.MatchString(m) {
			t.Errorf("not detected: %s", m)
		}
	}
}
