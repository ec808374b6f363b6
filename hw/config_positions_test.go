package hw_test

import (
	"strings"
	"testing"

	"wolftable/hw"
)

// TestPositions: the position of every kind of key, from the parser's
// tokens: a value (its first byte), a table's header (its name), a table
// under an array of tables, dotted keys, inline tables, elements of an
// array (one on a line of its own), quoted keys, and a key the file leaves
// out (its nearest written parent).
func TestPositions(t *testing.T) {
	src := strings.Join([]string{
		`# a comment`,                         // 1
		`[table]`,                             // 2
		`  seats = 12   # twelve`,             // 3
		`mode="gpio"`,                         // 4
		`[gpio]`,                              // 5
		`led_order = [`,                       // 6
		`  1, 2,`,                             // 7
		`  3, {a = 1}, [4, 5]]`,               // 8
		`[[gpio.expanders]]`,                  // 9
		`address = 0x20`,                      // 10
		`keys = { A0 = "1 UP", B7 = "2 OK" }`, // 11
		`[[gpio.expanders]]`,                  // 12
		`[gpio.expanders.keys]`,               // 13
		`A1 = "3 UP"`,                         // 14
		`[game.options]`,                      // 15
		`"witch.self_save" = "never"`,         // 16
		`serial.port.x = "p"`,                 // 17: a dotted key, in [game.options]
		``,
	}, "\n")
	at := hw.ReadPositions([]byte(src))
	for key, want := range map[string]hw.Position{
		"table":                           {Line: 2, Column: 2},
		"table.seats":                     {Line: 3, Column: 11},
		"table.mode":                      {Line: 4, Column: 6},
		"table.brightness":                {Line: 2, Column: 2}, // left out: its table
		"gpio.led_order":                  {Line: 6, Column: 13},
		"gpio.led_order[0]":               {Line: 7, Column: 3},
		"gpio.led_order[2]":               {Line: 8, Column: 3},
		"gpio.led_order[3]":               {Line: 8, Column: 6},
		"gpio.led_order[3].a":             {Line: 8, Column: 11},
		"gpio.led_order[4][1]":            {Line: 8, Column: 19},
		"gpio.led_order[4]":               {Line: 6, Column: 13}, // an array in an array: go-toml keeps no range, so its parent
		"gpio.expanders":                  {Line: 9, Column: 3},
		"gpio.expanders[0]":               {Line: 9, Column: 3},
		"gpio.expanders[0].address":       {Line: 10, Column: 11},
		"gpio.expanders[0].keys":          {Line: 11, Column: 8},
		"gpio.expanders[0].keys.A0":       {Line: 11, Column: 15},
		"gpio.expanders[0].keys.B7":       {Line: 11, Column: 28},
		"gpio.expanders[1]":               {Line: 12, Column: 3},
		"gpio.expanders[1].address":       {Line: 12, Column: 3}, // left out: its [[gpio.expanders]]
		"gpio.expanders[1].keys":          {Line: 13, Column: 2},
		"gpio.expanders[1].keys.A1":       {Line: 14, Column: 6},
		"game.options.witch.self_save":    {Line: 16, Column: 21},
		"game.options.serial.port.x":      {Line: 17, Column: 17},
		"game.options.serial":             {Line: 17, Column: 1},
		"serial.port":                     {},
		"pedal":                           {},
		"gpio.expanders[2].address":       {Line: 9, Column: 3}, // no third: the array
		"gpio.led_order[9]":               {Line: 6, Column: 13},
		"gpio.expanders[0].keys.B0":       {Line: 11, Column: 8},
		"gpio.expanders[1].keys.A1.extra": {Line: 14, Column: 6},
	} {
		if got := at.Of(key); got != want {
			t.Errorf("Of(%s) = %+v, want %+v", key, got, want)
		}
	}
	var none *hw.Positions
	if got := none.Of("table.seats"); got != (hw.Position{}) {
		t.Errorf("a nil Positions: %+v", got)
	}
	// A document the parser refuses: the keys before the error.
	at = hw.ReadPositions([]byte("[table]\nseats = 12\nmode = \"gpio\n"))
	if got := at.Of("table.seats"); got != (hw.Position{Line: 2, Column: 9}) {
		t.Errorf("before a syntax error: %+v", got)
	}
}

// TestDecodeProblemKeys: go-toml's key of a problem leaves out the indexes
// of arrays (and names an inline table's key in an array after the
// array's table); ParseConfig's names the key written at the position
// go-toml gives, with its indexes, and says what it takes.
func TestDecodeProblemKeys(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"[gpio]\nexpanders = [{address = 0x20, foo = 2}]\n",
			"hw: config: line 2, column 31: gpio.expanders[0].foo: unknown key (known here: address, keys)"},
		{"[[gpio.expanders]]\naddress = 0x20\n[[gpio.expanders]]\naddress = 0x21\npins = 3\n",
			"hw: config: line 5, column 1: gpio.expanders[1].pins: unknown key (known here: address, keys)"},
		{"[gpio]\nexpanders = [{address = 0x20}, {address = \"x\"}]\n",
			"hw: config: line 2, column 43: gpio.expanders[1].address: expected an integer, got a string"},
		{"[[gpio.expanders]]\naddress = 0x20\nkeys = {A1 = 3}\n",
			"hw: config: line 3, column 14: gpio.expanders[0].keys.A1: expected a string, got an integer"},
		{"[[gpio.expanders]]\naddress = 0x20\n[gpio.expanders.keys]\nA1 = true\n",
			"hw: config: line 4, column 6: gpio.expanders[0].keys.A1: expected a string, got a boolean"},
		{"[[gpio.expanders]]\naddress = 0x20\n[[gpio.expanders.keys]]\nA1 = \"1 OK\"\n",
			"hw: config: line 3, column 3: gpio.expanders[0].keys: expected a table, got an array"},
		{"[gpio]\nled_order = [1, 2,\n  \"x\"]\n",
			"hw: config: line 3, column 3: gpio.led_order[2]: expected an integer, got a string"},
		{"[gpio]\nled_order = [1, [2]]\n",
			"hw: config: line 2, column 13: gpio.led_order: expected an array of seat numbers, got a value of another kind"},
		{"[table]\nfoo.bar = 1\n",
			"hw: config: line 2, column 1: table.foo: unknown key (known here: seats, mode, brightness)"},
		{"[table.seats]\n",
			"hw: config: line 1, column 2: table.seats: expected an integer, got a table"},
		{"[gpio.expanders]\naddress = 0x20\n",
			"hw: config: line 1, column 2: gpio.expanders: expected an array of tables ([[gpio.expanders]]), got a table"},
	} {
		_, err := hw.ParseConfig([]byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\ngot  %v\nwant %s", tc.src, err, tc.want)
		}
	}
}
