package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestErrorColumns: an error names the line and the column of the token
// the parser saw: a value of the table's sections out of range, of the
// wrong kind, in an inline table or on a line of its own in an array, a
// key hw does not know, a TOML syntax error, a daemon key of the wrong
// kind and a daemon value Validate refuses.
func TestErrorColumns(t *testing.T) {
	for _, c := range []struct {
		src       string
		line, col int
		key       string
	}{
		{"[table]\nmode = \"virtual\"\n\nseats =  99\n", 4, 10, "table.seats"},
		{"[table]\nseats = 10\n", 2, 9, "table.seats"},
		{"[pedal]\n  long = 800\n", 2, 10, "pedal.long"},
		{"[gpio]\nled_order = [\n  1, 2,\n  \"x\"]\n", 4, 3, "gpio.led_order[2]"},
		{"[[gpio.expanders]]\naddress = 0x20\nkeys = {A0 = \"1 UP\", C1 = \"1 OK\"}\n", 3, 27, "gpio.expanders[0].keys.C1"},
		{"[gpio]\n[[gpio.expanders]]\naddress = 0x20\n[[gpio.expanders]]\n# the second board\naddress = 0x40\n", 6, 11, "gpio.expanders[1].address"},
		{"[[gpio.expanders]]\naddress = 0x20\n[[gpio.expanders]]\nkeys = {}\n", 3, 3, "gpio.expanders[1].address"},
		{"[table]\nseets = 12\n", 2, 1, "table.seets"},
		{"[table]\nseats = 12\nmode = \"gpio\n", 3, 13, ""},
		{"[journal]\nresume = \"yes\"\n", 2, 10, "journal.resume"},
		{"[voice]\nvolume = nan\n", 2, 10, "voice.volume"},
		{"[game.options]\n\"witch.self_save\" = \"always\"\n", 2, 21, "game.options.witch.self_save"},
	} {
		_, err := Parse([]byte(c.src))
		var ce *Error
		if !errors.As(err, &ce) || ce.Line != c.line || ce.Column != c.col || ce.Key != c.key {
			t.Errorf("%q: got %v, want %s at %d:%d", c.src, err, c.key, c.line, c.col)
			continue
		}
		if want := fmt.Sprintf("config: config:%d:%d: ", c.line, c.col); !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %q does not start with %q", c.src, err, want)
		}
	}
}
