package hw_test

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"wolftable/hw"
)

func TestDefaultConfig(t *testing.T) {
	c := hw.DefaultConfig()
	if c.Mode != hw.ModeVirtual || c.Seats != 12 {
		t.Fatalf("default: mode %q, %d seats; want virtual, 12", c.Mode, c.Seats)
	}
	if c.Pedal.Timing != hw.DefaultPedalTiming() {
		t.Errorf("default pedal timing %+v", c.Pedal.Timing)
	}
	if c.Serial.Baud != 115200 || c.Serial.VID != 0x2e8a || c.Serial.PID != 0x000a {
		t.Errorf("default serial %+v: want 115200 baud, a TinyGo Pico's USB ids", c.Serial)
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("default config does not validate: %v", err)
	}
	// An empty file is the default.
	got, err := hw.ParseConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, c) {
		t.Errorf("empty file: %+v\nwant %+v", got, c)
	}
}

func TestParseConfigGPIO(t *testing.T) {
	b, err := os.ReadFile("testdata/gpio.toml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := hw.ParseConfig(b)
	if err != nil {
		t.Fatal(err)
	}
	want := hw.DefaultConfig()
	want.Mode = hw.ModeGPIO
	want.Brightness = 80
	want.Pedal = hw.PedalConfig{
		Timing:    hw.PedalTiming{Long: 900 * time.Millisecond, Double: 300 * time.Millisecond},
		Pin:       "GPIO17",
		Pull:      hw.PullUp,
		ActiveLow: true,
		Debounce:  15 * time.Millisecond,
	}
	want.GPIO.LEDsPerSeat = 2
	want.GPIO.PrivateLED = true
	want.GPIO.LEDOrder = []int{1, 2, 3, 4, 5, 6, 12, 11, 10, 9, 8, 7}
	want.GPIO.Expanders = []hw.Expander{
		{Address: 0x20, Keys: []hw.KeyPin{
			{Pin: 0, Seat: 1, Key: hw.KeyUp}, {Pin: 1, Seat: 1, Key: hw.KeyDown},
			{Pin: 2, Seat: 1, Key: hw.KeyOK}, {Pin: 3, Seat: 1, Key: hw.KeyHand},
			{Pin: 8, Seat: 2, Key: hw.KeyUp}, {Pin: 9, Seat: 2, Key: hw.KeyDown},
			{Pin: 10, Seat: 2, Key: hw.KeyOK}, {Pin: 11, Seat: 2, Key: hw.KeyHand},
		}},
		{Address: 0x21, Keys: []hw.KeyPin{
			{Pin: 0, Seat: 3, Key: hw.KeyUp}, {Pin: 15, Seat: 12, Key: hw.KeyBoom},
		}},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
}

func TestParseConfigSerial(t *testing.T) {
	b, err := os.ReadFile("testdata/serial.toml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := hw.ParseConfig(b)
	if err != nil {
		t.Fatal(err)
	}
	if c.Mode != hw.ModeSerial || c.Seats != 18 || c.Serial.VID != 0x2e8b || c.Serial.PID != 0x000b || c.Serial.Baud != 115200 ||
		c.Serial.KeysPerSeat != 17 {
		t.Errorf("got %+v", c)
	}
	c, err = hw.ParseConfig([]byte("[serial]\nkeys_per_seat = 16\n"))
	if err != nil || c.Serial.KeysPerSeat != 16 {
		t.Errorf("keys_per_seat = 16: %+v, %v", c, err)
	}
}

func TestParseConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string // every line of the error, in order
	}{
		{"seats", "[table]\nseats = 20\n", []string{"hw: config: line 2, column 9: table.seats: 20 is out of range 6..18"}},
		{"seats low", "[table]\nseats = 5\n", []string{"hw: config: line 2, column 9: table.seats: 5 is out of range 6..18"}},
		{"seats type", "[table]\nseats = \"12\"\n", []string{"hw: config: line 2, column 9: table.seats: expected an integer, got a string"}},
		{"mode", "[table]\nmode = \"usb\"\n", []string{`hw: config: line 2, column 8: table.mode: "usb" is not a mode (virtual, gpio, serial)`}},
		{"brightness", "[table]\nbrightness = 0\n", []string{"hw: config: line 2, column 14: table.brightness: 0 is out of range 1..255"}},
		{"unknown top", "[tabel]\nseats = 12\n", []string{"hw: config: line 1, column 2: tabel: unknown key (known here: table, pedal, gpio, serial)"}},
		{"unknown key", "[table]\nseat = 12\n", []string{"hw: config: line 2, column 1: table.seat: unknown key (known here: seats, mode, brightness)"}},
		{"table type", "table = 3\n", []string{"hw: config: line 1, column 9: table: expected a table, got an integer"}},
		{"syntax", "[table]\nseats = 12\nmode = \"gpio\n", []string{"hw: config: line 3, column 13: basic strings cannot have new lines"}},
		{"duplicate key", "[table]\nseats = 12\nseats = 13\n", []string{"hw: config: line 3, column 1: "}},
		{"duration int", "[pedal]\nlong = 800\n", []string{`hw: config: line 2, column 8: pedal.long: write durations as strings with a unit, e.g. "800ms"`}},
		{"duration bad", "[pedal]\ndouble = \"soon\"\n", []string{`hw: config: line 2, column 10: pedal.double: "soon" is not a duration (e.g. "800ms", "1.5s")`}},
		{"duration range", "[pedal]\nlong = \"50ms\"\n", []string{"hw: config: line 2, column 8: pedal.long: 50ms is out of range 100ms..10s"}},
		{"pull", "[pedal]\npull = \"sideways\"\n", []string{`hw: config: line 2, column 8: pedal.pull: "sideways" is not a pull (up, down, none)`}},
		{"active", "[pedal]\nactive = \"yes\"\n", []string{`hw: config: line 2, column 10: pedal.active: "yes" is not a level (low, high)`}},
		{"expander address", "[[gpio.expanders]]\naddress = 0x20\n[[gpio.expanders]]\naddress = 0x30\n",
			[]string{"hw: config: line 4, column 11: gpio.expanders[1].address: 0x30 is not an MCP23017 address (0x20–0x27)"}},
		{"expander address huge", "[[gpio.expanders]]\naddress = 0x12345\n",
			[]string{"hw: config: line 2, column 11: gpio.expanders[0].address: 0x12345 is not an MCP23017 address (0x20–0x27)"}},
		{"expander address missing", "[[gpio.expanders]]\nkeys = {A0 = \"1 OK\"}\n",
			[]string{"hw: config: line 1, column 3: gpio.expanders[0].address: missing: every expander needs its I2C address (0x20–0x27)"}},
		{"expander address twice", "[[gpio.expanders]]\naddress = 0x21\n[[gpio.expanders]]\naddress = 0x21\n",
			[]string{"hw: config: line 4, column 11: gpio.expanders[1].address: 0x21 is already gpio.expanders[0]"}},
		{"expanders type", "[gpio]\nexpanders = 3\n", []string{"hw: config: line 2, column 13: gpio.expanders: expected an array of tables ([[gpio.expanders]]), got an integer"}},
		{"expander unknown", "[[gpio.expanders]]\naddress = 0x20\npins = 3\n", []string{"hw: config: line 3, column 1: gpio.expanders[0].pins: unknown key (known here: address, keys)"}},
		{"key pin", "[[gpio.expanders]]\naddress = 0x20\nkeys = {C1 = \"1 OK\"}\n",
			[]string{`hw: config: line 3, column 14: gpio.expanders[0].keys.C1: "C1" is not an MCP23017 pin (A0..A7, B0..B7)`}},
		{"key value", "[[gpio.expanders]]\naddress = 0x20\nkeys = {A1 = \"OK\"}\n",
			[]string{`hw: config: line 3, column 14: gpio.expanders[0].keys.A1: "OK": expected "SEAT KEY", e.g. "3 UP"`}},
		{"key name", "[[gpio.expanders]]\naddress = 0x20\nkeys = {A1 = \"1 JUMP\"}\n",
			[]string{`hw: config: line 3, column 14: gpio.expanders[0].keys.A1: "1 JUMP": "JUMP" is not a key (0-9 OK CLR UP DOWN WAVE HAND BOOM)`}},
		{"key seat", "[[gpio.expanders]]\naddress = 0x20\nkeys = {B1 = \"13 OK\"}\n",
			[]string{"hw: config: line 3, column 14: gpio.expanders[0].keys.B1: seat 13 is out of range 1..12"}},
		{"key seat of a 7-seat table", "[table]\nseats = 7\n[[gpio.expanders]]\naddress = 0x20\nkeys = {B1 = \"8 OK\"}\n",
			[]string{"hw: config: line 5, column 14: gpio.expanders[0].keys.B1: seat 8 is out of range 1..7"}},
		{"led order of a 9-seat table", "[table]\nseats = 9\n[gpio]\nled_order = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n",
			[]string{"hw: config: line 4, column 13: gpio.led_order: has 10 seats, the table has 9"}},
		{"key twice", "[[gpio.expanders]]\naddress = 0x20\nkeys = {A0 = \"1 OK\"}\n[[gpio.expanders]]\naddress = 0x21\nkeys = {B7 = \"1 ok\"}\n",
			[]string{"hw: config: line 6, column 14: gpio.expanders[1].keys.B7: seat 1 OK is already on gpio.expanders[0].keys.A0"}},
		{"led order length", "[gpio]\nled_order = [1, 2, 3]\n",
			[]string{"hw: config: line 2, column 13: gpio.led_order: has 3 seats, the table has 12: list every seat once, in chain order"}},
		{"led order repeat", "[table]\nseats = 6\n[gpio]\nled_order = [1, 2, 3, 4, 5, 1]\n",
			[]string{"hw: config: line 4, column 29: gpio.led_order[5]: seat 1 is already at gpio.led_order[0]"}},
		{"led order range", "[table]\nseats = 6\n[gpio]\nled_order = [1, 2, 3, 4, 5, 7]\n",
			[]string{"hw: config: line 4, column 29: gpio.led_order[5]: seat 7 is out of range 1..6"}},
		{"leds per seat", "[gpio]\nleds_per_seat = 0\n", []string{"hw: config: line 2, column 17: gpio.leds_per_seat: 0 is out of range 1..16"}},
		{"poll", "[gpio]\npoll = \"100ms\"\n", []string{"hw: config: line 2, column 8: gpio.poll: 100ms is out of range 1ms..50ms"}},
		{"spi", "[gpio]\nspi = \"\"\n", []string{`hw: config: line 2, column 7: gpio.spi: "" is not an SPI port name (e.g. "SPI0.0")`}},
		{"private_led", "[gpio]\nprivate_led = \"yes\"\n", []string{"hw: config: line 2, column 15: gpio.private_led: expected true or false, got a string"}},
		{"baud 1200", "[serial]\nbaud = 1200\n",
			[]string{"hw: config: line 2, column 8: serial.baud: 1200 is refused: opening a TinyGo board's USB port at 1200 baud resets it to the bootloader"}},
		{"baud range", "[serial]\nbaud = 0\n", []string{"hw: config: line 2, column 8: serial.baud: 0 is out of range 300..12000000"}},
		{"keys per seat", "[serial]\nkeys_per_seat = 18\n", []string{"hw: config: line 2, column 17: serial.keys_per_seat: 18 is out of range 1..17"}},
		{"vid int", "[serial]\nvid = 0x2e8a\npid = \"a\"\n", []string{`hw: config: line 2, column 7: serial.vid: write USB ids as hex strings, e.g. "2e8a"`}},
		{"vid hex", "[serial]\nvid = \"xyz\"\npid = \"a\"\n", []string{`hw: config: line 2, column 7: serial.vid: "xyz" is not a USB id (1 to 4 hex digits, e.g. "2e8a")`}},
		{"vid 0", "[serial]\nvid = \"0\"\n", []string{`hw: config: line 2, column 7: serial.vid: "0": 0 is not a USB id`}},
		{"several", "[table]\nseats = 40\nmode = \"x\"\n[serial]\nbaud = 1200\n", []string{
			"hw: config: line 2, column 9: table.seats: 40 is out of range 6..18",
			`hw: config: line 3, column 8: table.mode: "x" is not a mode (virtual, gpio, serial)`,
			"hw: config: line 5, column 8: serial.baud: 1200 is refused: opening a TinyGo board's USB port at 1200 baud resets it to the bootloader",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := hw.ParseConfig([]byte(tc.file))
			if err == nil {
				t.Fatalf("no error; config %+v", c)
			}
			if c != nil {
				t.Errorf("config %+v returned with the error", c)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tc.want) {
				t.Fatalf("error:\n%v\nwant %d lines:\n%s", err, len(tc.want), strings.Join(tc.want, "\n"))
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("line %d: %q\nwant prefix %q", i, lines[i], w)
				}
			}
			var ce *hw.ConfigError
			if !errors.As(err, &ce) {
				t.Errorf("%T is not a *hw.ConfigError", err)
			}
		})
	}
}

func TestParseConfigSyntaxPosition(t *testing.T) {
	_, err := hw.ParseConfig([]byte("[table]\nseats = 12\n\n[gpio\n"))
	var ce *hw.ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("%v (%T) is not a *hw.ConfigError", err, err)
	}
	if ce.Line != 4 || ce.Column == 0 {
		t.Errorf("position %d:%d, want line 4: %v", ce.Line, ce.Column, err)
	}
}

func TestConfigEncodeRoundTrip(t *testing.T) {
	for _, f := range []string{"testdata/gpio.toml", "testdata/serial.toml"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkRoundTrip(t, b)
	}
	def, err := hw.DefaultConfig().Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(def), "seats = 12") || !strings.Contains(string(def), "mode = 'virtual'") {
		t.Errorf("default encoding:\n%s", def)
	}
}

func TestConfigValidate(t *testing.T) {
	c := hw.DefaultConfig()
	c.Seats = 19
	c.Serial.Baud = 1200
	c.Serial.PID = 0
	err := c.Validate()
	for _, want := range []string{
		"hw: config: table.seats: 19 is out of range 6..18",
		"hw: config: serial.baud: 1200 is refused",
		"hw: config: serial.pid: missing: give both vid and pid, or neither",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate: %v\nwant %q", err, want)
		}
	}
}

func TestExpanderPin(t *testing.T) {
	for i := range 16 {
		p := hw.ExpanderPin(i)
		q, err := hw.ParseExpanderPin(strings.ToLower(p.String()))
		if err != nil || q != p {
			t.Errorf("%v: parsed %v, %v", p, q, err)
		}
	}
	for _, s := range []string{"", "A", "A8", "C0", "A00", "b-1"} {
		if _, err := hw.ParseExpanderPin(s); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
}

// checkRoundTrip: a file that parses encodes to a file that parses to the
// same config.
func checkRoundTrip(t *testing.T, data []byte) {
	t.Helper()
	c, err := hw.ParseConfig(data)
	if err != nil {
		return
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("parsed config does not validate: %v\n%s", err, data)
	}
	out, err := c.Encode()
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	back, err := hw.ParseConfig(out)
	if err != nil {
		t.Fatalf("encoded config does not parse: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back, c) {
		t.Fatalf("round trip:\n%+v\nwant\n%+v\nencoded:\n%s", back, c, out)
	}
}

// checkPositions: every problem is a *ConfigError at a place of the file
// (a line it has, a column of that line or just past its end), names its
// key unless it is a syntax error, and names no Go type.
func checkPositions(t *testing.T, data []byte) {
	t.Helper()
	_, err := hw.ParseConfig(data)
	if err == nil {
		return
	}
	list := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	}
	lines := strings.Split(string(data), "\n")
	for _, e := range list {
		ce, ok := e.(*hw.ConfigError)
		if !ok {
			t.Fatalf("%v (%T) is not a *hw.ConfigError", e, e)
		}
		if ce.Line < 0 || ce.Line > len(lines) || ce.Line > 0 && (ce.Column < 1 || ce.Column > len(lines[ce.Line-1])+1) {
			t.Fatalf("%v: no such place in\n%q", ce, data)
		}
		if ce.Key == "" && ce.Line == 0 {
			t.Fatalf("%v: neither a key nor a place", ce)
		}
		if strings.Contains(ce.Msg, "struct field") || strings.Contains(ce.Msg, "hw.") {
			t.Fatalf("%v: a Go type in the words", ce)
		}
	}
}

// FuzzParseConfig guards that the parser never panics on any bytes, that
// what it tells is at a place of the file, that what it accepts
// validates, and that it encodes and parses back to itself.
func FuzzParseConfig(f *testing.F) {
	for _, name := range []string{"testdata/gpio.toml", "testdata/serial.toml"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("[table]\nseats = 20\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkPositions(t, data)
		checkRoundTrip(t, data)
	})
}
