package hw

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"
)

// Mode says how the table is wired (design.md "Hardware topologies").
type Mode string

const (
	ModeVirtual Mode = "virtual" // no hardware: the table is drawn in the terminal
	ModeGPIO    Mode = "gpio"    // the Pi alone: WS2812 on SPI, MCP23017 on I2C, pedal on a GPIO
	ModeSerial  Mode = "serial"  // the seat-panel bridge on USB serial
)

// Pull is the pull resistor of an input pin.
type Pull uint8

const (
	PullUp Pull = iota
	PullDown
	PullNone
)

func (p Pull) String() string {
	switch p {
	case PullDown:
		return "down"
	case PullNone:
		return "none"
	}
	return "up"
}

// ExpanderPin is a pin of an MCP23017: 0..7 are GPA0..GPA7, 8..15 GPB0..GPB7.
// In the config it is written "A0".."A7", "B0".."B7".
type ExpanderPin uint8

func (p ExpanderPin) String() string {
	if p > 15 {
		return fmt.Sprintf("ExpanderPin(%d)", uint8(p))
	}
	return string(rune("AB"[p/8])) + strconv.Itoa(int(p%8))
}

// ParseExpanderPin reads a pin name as String writes it (case-insensitive).
func ParseExpanderPin(s string) (ExpanderPin, error) {
	if len(s) == 2 && s[1] >= '0' && s[1] <= '7' {
		switch s[0] {
		case 'A', 'a':
			return ExpanderPin(s[1] - '0'), nil
		case 'B', 'b':
			return ExpanderPin(8 + s[1] - '0'), nil
		}
	}
	return 0, fmt.Errorf("hw: %q is not an MCP23017 pin (A0..A7, B0..B7)", s)
}

// Config is the table's configuration: the part of the venue's config file
// that describes the table as a device. The file is TOML:
//
//	[table]
//	seats = 12            # 6..18
//	mode = "virtual"      # virtual | gpio | serial
//	brightness = 64       # 1..255: the number lights' default brightness
//
//	[pedal]
//	long = "800ms"        # held at least this long: a long press
//	double = "350ms"      # a second press this soon after the first release: a double press
//	pin = "GPIO17"        # the pedal's Pi GPIO; "" = no pedal on the Pi
//	pull = "up"           # up | down | none
//	active = "low"        # low | high: the pin's level while the pedal is pressed
//	debounce = "20ms"     # the level must hold this long to count
//
//	[gpio]                # mode = "gpio"
//	spi = "SPI0.0"        # the SPI port driving the WS2812 chain (MOSI = GPIO10)
//	leds_per_seat = 1     # LEDs per seat showing the seat's colour
//	private_led = false   # each seat's group ends with one private indicator LED
//	led_order = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]  # the seat at each place along the chain
//	i2c = "1"             # the I2C bus of the key expanders
//	poll = "5ms"          # key scan period (200 Hz)
//	key_debounce = "10ms" # a key's level must hold this long to count
//
//	[[gpio.expanders]]    # one per MCP23017, up to 8
//	address = 0x20        # 0x20..0x27 (A2 A1 A0 straps)
//	keys = { A0 = "1 UP", A1 = "1 DOWN", B7 = "2 OK" }  # pin = "seat KEY"
//
//	[serial]              # mode = "serial"
//	port = "/dev/ttyACM0" # or leave it out: the bridge is found by its USB ids
//	vid = "2e8a"          # hex; the default is a TinyGo Raspberry Pi Pico
//	pid = "000a"          # hex
//	baud = 115200         # never 1200: TinyGo resets to the bootloader
//	keys_per_seat = 17    # keys on each seat panel, as the bridge reports them (16: two 74HC165s, no BOOM)
//
// Every key is optional; DefaultConfig gives the defaults. Unknown keys are
// errors.
type Config struct {
	Seats      int   // 6..18
	Mode       Mode  // virtual, gpio or serial
	Brightness uint8 // 1..255: the number lights' brightness when a SeatLight says 0
	Pedal      PedalConfig
	GPIO       GPIOConfig   // used when Mode is ModeGPIO
	Serial     SerialConfig // used when Mode is ModeSerial
}

// PedalConfig is the judge's pedal: its timing and, when it is on one of the
// Pi's GPIOs, its pin.
type PedalConfig struct {
	Timing    PedalTiming
	Pin       string        // periph.io gpioreg name, e.g. "GPIO17"; "" = no pedal on the Pi
	Pull      Pull          // the pin's pull resistor
	ActiveLow bool          // the pin reads low while the pedal is pressed
	Debounce  time.Duration // the level must hold this long to count (0..200ms)
}

// GPIOConfig is the wiring of the gpio mode: WS2812 number lights on an SPI
// port, seat keys on MCP23017 expanders on an I2C bus.
type GPIOConfig struct {
	SPI         string        // periph.io spireg name, e.g. "SPI0.0"
	LEDsPerSeat int           // 1..16 LEDs per seat show the seat's colour
	PrivateLED  bool          // each seat's group ends with one private indicator LED
	LEDOrder    []int         // LEDOrder[i] is the seat of the i-th group along the chain
	I2C         string        // periph.io i2creg name, e.g. "1"
	Poll        time.Duration // key (and pedal) scan period, 1ms..50ms
	KeyDebounce time.Duration // a key's level must hold this long to count, 1ms..100ms
	Expanders   []Expander
}

// Expander is one MCP23017 and the keys wired to its pins. Keys close to
// ground; the expander's pull-ups are enabled on every mapped pin.
type Expander struct {
	Address uint16   // 0x20..0x27
	Keys    []KeyPin // sorted by Pin
}

// KeyPin says which seat's key is wired to an expander pin.
type KeyPin struct {
	Pin  ExpanderPin
	Seat int
	Key  Key
}

// SerialConfig is the seat-panel bridge on USB serial.
type SerialConfig struct {
	Port string // e.g. "/dev/ttyACM0"; "" = find the bridge by VID and PID
	VID  uint16 // USB vendor id (default DefaultVID); 0 = unset: the driver's default
	PID  uint16 // USB product id (default DefaultPID); 0 = unset: the driver's default
	Baud int    // default 115200; never 1200

	// KeysPerSeat is how many keys each seat panel has, 1..17; the bridge
	// must report as many. Default 17, every key (BOOM included); a panel
	// of two 74HC165s has 16.
	KeysPerSeat int
}

// Limits of the config values.
const (
	MinSeats       = 6
	MaxSeats       = 18
	MaxExpanders   = 8 // MCP23017 addresses 0x20..0x27
	MaxLEDsPerSeat = 16
	DefaultBaud    = 115200
	DefaultVID     = 0x2E8A // Raspberry Pi
	DefaultPID     = 0x000A // Pico (RP2040) running TinyGo, USB CDC
	MaxKeysPerSeat = 17     // a seat panel's keys: 0-9 OK CLR UP DOWN WAVE HAND BOOM
)

// DefaultConfig is the embedded default: a 12-seat virtual table.
func DefaultConfig() *Config {
	return &Config{
		Seats:      12,
		Mode:       ModeVirtual,
		Brightness: 64,
		Pedal: PedalConfig{
			Timing:    DefaultPedalTiming(),
			Pull:      PullUp,
			ActiveLow: true,
			Debounce:  20 * time.Millisecond,
		},
		GPIO: GPIOConfig{
			SPI:         "SPI0.0",
			LEDsPerSeat: 1,
			I2C:         "1",
			Poll:        5 * time.Millisecond,
			KeyDebounce: 10 * time.Millisecond,
		},
		Serial: SerialConfig{VID: DefaultVID, PID: DefaultPID, Baud: DefaultBaud, KeysPerSeat: MaxKeysPerSeat},
	}
}

// Order returns the chain order of the seats' LED groups: LEDOrder, or
// 1..Seats when it is empty.
func (g *GPIOConfig) Order(seats int) []int {
	if len(g.LEDOrder) > 0 {
		return g.LEDOrder
	}
	o := make([]int, seats)
	for i := range o {
		o[i] = i + 1
	}
	return o
}

// ConfigError is a problem with one key of the config, or a TOML syntax
// error (Key is empty, Line and Column are set).
type ConfigError struct {
	Key    string // e.g. "gpio.expanders[1].address"
	Line   int    // 1-based; 0 when unknown
	Column int
	Msg    string
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString("hw: config: ")
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	}
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ParseConfig reads a TOML table config over DefaultConfig. It reports
// every problem it finds (errors.Join of *ConfigError), each naming the key.
func ParseConfig(data []byte) (*Config, error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			msg := strings.TrimPrefix(de.Error(), "toml: ")
			return nil, &ConfigError{Key: strings.Join(de.Key(), "."), Line: line, Column: col, Msg: msg}
		}
		return nil, &ConfigError{Msg: err.Error()}
	}
	return ParseDocument(doc)
}

// ParseDocument is ParseConfig of a document already decoded, e.g. the
// [table], [pedal], [gpio] and [serial] sections of the daemon's config file
// (values as go-toml decodes them into map[string]any). Keys of other
// sections must not be in doc.
func ParseDocument(doc map[string]any) (*Config, error) {
	p := &parser{cfg: DefaultConfig()}
	p.document(doc)
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return p.cfg, nil
}

// Validate checks a config built in Go the way ParseConfig checks a file.
func (c *Config) Validate() error {
	p := &parser{cfg: c}
	p.check()
	return errors.Join(p.errs...)
}

type parser struct {
	cfg  *Config
	errs []error
	// badAddr marks the expanders whose address parsing already reported.
	badAddr map[int]bool
}

type seatKey struct {
	seat int
	key  Key
}

func (p *parser) errorf(key, format string, a ...any) {
	p.errs = append(p.errs, &ConfigError{Key: key, Msg: fmt.Sprintf(format, a...)})
}

func (p *parser) document(doc map[string]any) {
	p.known("", doc, "table", "pedal", "gpio", "serial")
	if m, ok := p.table("table", doc["table"]); ok {
		p.known("table", m, "seats", "mode", "brightness")
		if v, ok := p.integer("table.seats", m["seats"]); ok {
			p.cfg.Seats = clampInt(v)
		}
		if s, ok := p.str("table.mode", m["mode"]); ok {
			p.cfg.Mode = Mode(s)
		}
		if v, ok := p.integer("table.brightness", m["brightness"]); ok {
			if v < 1 || v > 255 {
				p.errorf("table.brightness", "%d is out of range 1..255", v)
			} else {
				p.cfg.Brightness = uint8(v)
			}
		}
	}
	if m, ok := p.table("pedal", doc["pedal"]); ok {
		p.pedal(m)
	}
	if m, ok := p.table("gpio", doc["gpio"]); ok {
		p.gpio(m)
	}
	if m, ok := p.table("serial", doc["serial"]); ok {
		p.serial(m)
	}
	p.check()
}

func (p *parser) pedal(m map[string]any) {
	c := &p.cfg.Pedal
	p.known("pedal", m, "long", "double", "pin", "pull", "active", "debounce")
	if d, ok := p.duration("pedal.long", m["long"]); ok {
		c.Timing.Long = d
	}
	if d, ok := p.duration("pedal.double", m["double"]); ok {
		c.Timing.Double = d
	}
	if s, ok := p.str("pedal.pin", m["pin"]); ok {
		c.Pin = s
	}
	if s, ok := p.str("pedal.pull", m["pull"]); ok {
		switch s {
		case "up":
			c.Pull = PullUp
		case "down":
			c.Pull = PullDown
		case "none":
			c.Pull = PullNone
		default:
			p.errorf("pedal.pull", "%q is not a pull (up, down, none)", s)
		}
	}
	if s, ok := p.str("pedal.active", m["active"]); ok {
		switch s {
		case "low":
			c.ActiveLow = true
		case "high":
			c.ActiveLow = false
		default:
			p.errorf("pedal.active", "%q is not a level (low, high)", s)
		}
	}
	if d, ok := p.duration("pedal.debounce", m["debounce"]); ok {
		c.Debounce = d
	}
}

func (p *parser) gpio(m map[string]any) {
	g := &p.cfg.GPIO
	p.known("gpio", m, "spi", "leds_per_seat", "private_led", "led_order", "i2c", "poll", "key_debounce", "expanders")
	if s, ok := p.str("gpio.spi", m["spi"]); ok {
		g.SPI = s
	}
	if v, ok := p.integer("gpio.leds_per_seat", m["leds_per_seat"]); ok {
		g.LEDsPerSeat = clampInt(v)
	}
	if v, ok := m["private_led"]; ok {
		if b, ok := v.(bool); ok {
			g.PrivateLED = b
		} else {
			p.errorf("gpio.private_led", "expected true or false, got %s", tomlType(v))
		}
	}
	if v, ok := m["led_order"]; ok {
		a, ok := v.([]any)
		if !ok {
			p.errorf("gpio.led_order", "expected an array of seat numbers, got %s", tomlType(v))
		} else {
			g.LEDOrder = []int{}
			for i, e := range a {
				if n, ok := p.integer(fmt.Sprintf("gpio.led_order[%d]", i), e); ok {
					g.LEDOrder = append(g.LEDOrder, clampInt(n))
				}
			}
		}
	}
	if s, ok := p.str("gpio.i2c", m["i2c"]); ok {
		g.I2C = s
	}
	if d, ok := p.duration("gpio.poll", m["poll"]); ok {
		g.Poll = d
	}
	if d, ok := p.duration("gpio.key_debounce", m["key_debounce"]); ok {
		g.KeyDebounce = d
	}
	if v, ok := m["expanders"]; ok {
		a, ok := v.([]any)
		if !ok {
			p.errorf("gpio.expanders", "expected an array of tables ([[gpio.expanders]]), got %s", tomlType(v))
			return
		}
		for i, e := range a {
			key := fmt.Sprintf("gpio.expanders[%d]", i)
			em, ok := p.table(key, e)
			if !ok {
				continue
			}
			p.known(key, em, "address", "keys")
			var x Expander
			if v, ok := p.integer(key+".address", em["address"]); ok && v >= 0 && v <= 0xFFFF {
				x.Address = uint16(v)
			} else {
				if ok {
					p.errorf(key+".address", "%#x is not an MCP23017 address (0x20–0x27)", v)
				} else if _, set := em["address"]; !set {
					p.errorf(key+".address", "missing: every expander needs its I2C address (0x20–0x27)")
				}
				if p.badAddr == nil {
					p.badAddr = map[int]bool{}
				}
				p.badAddr[len(g.Expanders)] = true
			}
			if km, ok := p.table(key+".keys", em["keys"]); ok {
				pins := make([]string, 0, len(km))
				for k := range km {
					pins = append(pins, k)
				}
				sort.Strings(pins)
				for _, name := range pins {
					pk := key + ".keys." + name
					pin, err := ParseExpanderPin(name)
					if err != nil {
						p.errorf(pk, "%q is not an MCP23017 pin (A0..A7, B0..B7)", name)
						continue
					}
					s, ok := p.str(pk, km[name])
					if !ok {
						continue
					}
					seat, k, err := parseSeatKey(s)
					if err != nil {
						p.errorf(pk, "%v", err)
						continue
					}
					x.Keys = append(x.Keys, KeyPin{Pin: pin, Seat: seat, Key: k})
				}
				slices.SortFunc(x.Keys, func(a, b KeyPin) int { return int(a.Pin) - int(b.Pin) })
			}
			g.Expanders = append(g.Expanders, x)
		}
	}
}

// parseSeatKey reads "3 UP": a seat number and a key name.
func parseSeatKey(s string) (int, Key, error) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("%q: expected \"SEAT KEY\", e.g. \"3 UP\"", s)
	}
	seat, err := strconv.Atoi(f[0])
	if err != nil {
		return 0, 0, fmt.Errorf("%q: %q is not a seat number", s, f[0])
	}
	k, err := ParseKey(strings.ToUpper(f[1]))
	if err != nil {
		return 0, 0, fmt.Errorf("%q: %q is not a key (0-9 OK CLR UP DOWN WAVE HAND BOOM)", s, f[1])
	}
	return seat, k, nil
}

func (p *parser) serial(m map[string]any) {
	c := &p.cfg.Serial
	p.known("serial", m, "port", "vid", "pid", "baud", "keys_per_seat")
	if s, ok := p.str("serial.port", m["port"]); ok {
		c.Port = s
	}
	for _, f := range []struct {
		name string
		dst  *uint16
	}{{"vid", &c.VID}, {"pid", &c.PID}} {
		key := "serial." + f.name
		if _, isInt := m[f.name].(int64); isInt {
			p.errorf(key, "write USB ids as hex strings, e.g. \"2e8a\"")
			continue
		}
		s, ok := p.str(key, m[f.name])
		if !ok {
			continue
		}
		h := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
		v, err := strconv.ParseUint(h, 16, 16)
		if err != nil || h == "" || len(h) > 4 {
			p.errorf(key, "%q is not a USB id (1 to 4 hex digits, e.g. \"2e8a\")", s)
			continue
		}
		if v == 0 {
			p.errorf(key, "%q: 0 is not a USB id", s)
			continue
		}
		*f.dst = uint16(v)
	}
	if v, ok := p.integer("serial.baud", m["baud"]); ok {
		c.Baud = clampInt(v)
	}
	if v, ok := p.integer("serial.keys_per_seat", m["keys_per_seat"]); ok {
		c.KeysPerSeat = clampInt(v)
	}
}

// check validates the whole config: ranges, and what spans sections.
func (p *parser) check() {
	c := p.cfg
	seatsOK := c.Seats >= MinSeats && c.Seats <= MaxSeats
	if !seatsOK {
		p.errorf("table.seats", "%d is out of range %d..%d", c.Seats, MinSeats, MaxSeats)
	}
	switch c.Mode {
	case ModeVirtual, ModeGPIO, ModeSerial:
	default:
		p.errorf("table.mode", "%q is not a mode (virtual, gpio, serial)", string(c.Mode))
	}
	if c.Brightness == 0 {
		p.errorf("table.brightness", "0 is out of range 1..255")
	}

	pd := &c.Pedal
	if pd.Timing.Long < 100*time.Millisecond || pd.Timing.Long > 10*time.Second {
		p.errorf("pedal.long", "%v is out of range 100ms..10s", pd.Timing.Long)
	}
	if pd.Timing.Double < 50*time.Millisecond || pd.Timing.Double > 2*time.Second {
		p.errorf("pedal.double", "%v is out of range 50ms..2s", pd.Timing.Double)
	}
	if pd.Debounce < 0 || pd.Debounce > 200*time.Millisecond {
		p.errorf("pedal.debounce", "%v is out of range 0s..200ms", pd.Debounce)
	}
	if pd.Pull > PullNone {
		p.errorf("pedal.pull", "%d is not a pull (up, down, none)", pd.Pull)
	}
	if strings.TrimSpace(pd.Pin) != pd.Pin || strings.ContainsFunc(pd.Pin, isControl) {
		p.errorf("pedal.pin", "%q is not a pin name (e.g. \"GPIO17\")", pd.Pin)
	}

	g := &c.GPIO
	if g.SPI == "" || strings.ContainsFunc(g.SPI, isControl) {
		p.errorf("gpio.spi", "%q is not an SPI port name (e.g. \"SPI0.0\")", g.SPI)
	}
	if g.I2C == "" || strings.ContainsFunc(g.I2C, isControl) {
		p.errorf("gpio.i2c", "%q is not an I2C bus name (e.g. \"1\")", g.I2C)
	}
	if g.LEDsPerSeat < 1 || g.LEDsPerSeat > MaxLEDsPerSeat {
		p.errorf("gpio.leds_per_seat", "%d is out of range 1..%d", g.LEDsPerSeat, MaxLEDsPerSeat)
	}
	if g.Poll < time.Millisecond || g.Poll > 50*time.Millisecond {
		p.errorf("gpio.poll", "%v is out of range 1ms..50ms", g.Poll)
	}
	if g.KeyDebounce < time.Millisecond || g.KeyDebounce > 100*time.Millisecond {
		p.errorf("gpio.key_debounce", "%v is out of range 1ms..100ms", g.KeyDebounce)
	}
	if g.LEDOrder != nil && seatsOK {
		if len(g.LEDOrder) != c.Seats {
			p.errorf("gpio.led_order", "has %d seats, the table has %d: list every seat once, in chain order", len(g.LEDOrder), c.Seats)
		} else {
			seen := make([]int, c.Seats+1)
			for i, s := range g.LEDOrder {
				key := fmt.Sprintf("gpio.led_order[%d]", i)
				switch {
				case s < 1 || s > c.Seats:
					p.errorf(key, "seat %d is out of range 1..%d", s, c.Seats)
				case seen[s] > 0:
					p.errorf(key, "seat %d is already at gpio.led_order[%d]", s, seen[s]-1)
				default:
					seen[s] = i + 1
				}
			}
		}
	}
	if len(g.Expanders) > MaxExpanders {
		p.errorf("gpio.expanders", "%d expanders: an I2C bus holds at most %d MCP23017 (0x20–0x27)", len(g.Expanders), MaxExpanders)
	}
	addrAt := map[uint16]int{}
	keyAt := map[seatKey]string{}
	for i, x := range g.Expanders {
		key := fmt.Sprintf("gpio.expanders[%d]", i)
		if p.badAddr[i] {
			// reported while parsing
		} else if x.Address < 0x20 || x.Address > 0x27 {
			p.errorf(key+".address", "%#x is not an MCP23017 address (0x20–0x27)", x.Address)
		} else if j, dup := addrAt[x.Address]; dup {
			p.errorf(key+".address", "%#x is already gpio.expanders[%d]", x.Address, j)
		} else {
			addrAt[x.Address] = i
		}
		var pinSeen [16]bool
		for _, kp := range x.Keys {
			pk := key + ".keys." + kp.Pin.String()
			switch {
			case kp.Pin > 15:
				p.errorf(pk, "%d is not an MCP23017 pin (A0..A7, B0..B7)", kp.Pin)
				continue
			case pinSeen[kp.Pin]:
				p.errorf(pk, "pin mapped twice")
				continue
			}
			pinSeen[kp.Pin] = true
			if kp.Key >= numKeys {
				p.errorf(pk, "%v is not a key", kp.Key)
				continue
			}
			if seatsOK && (kp.Seat < 1 || kp.Seat > c.Seats) {
				p.errorf(pk, "seat %d is out of range 1..%d", kp.Seat, c.Seats)
				continue
			}
			sk := seatKey{kp.Seat, kp.Key}
			if other, dup := keyAt[sk]; dup {
				p.errorf(pk, "seat %d %v is already on %s", kp.Seat, kp.Key, other)
				continue
			}
			keyAt[sk] = pk
		}
	}

	s := &c.Serial
	switch {
	case s.Baud == 1200:
		p.errorf("serial.baud", "1200 is refused: opening a TinyGo board's USB port at 1200 baud resets it to the bootloader")
	case s.Baud < 300 || s.Baud > 12_000_000:
		p.errorf("serial.baud", "%d is out of range 300..12000000", s.Baud)
	}
	if s.KeysPerSeat < 1 || s.KeysPerSeat > MaxKeysPerSeat {
		p.errorf("serial.keys_per_seat", "%d is out of range 1..%d", s.KeysPerSeat, MaxKeysPerSeat)
	}
	if strings.ContainsFunc(s.Port, isControl) || strings.TrimSpace(s.Port) != s.Port {
		p.errorf("serial.port", "%q is not a port path (e.g. \"/dev/ttyACM0\")", s.Port)
	}
	if (s.VID == 0) != (s.PID == 0) {
		if s.VID == 0 {
			p.errorf("serial.vid", "missing: give both vid and pid, or neither")
		} else {
			p.errorf("serial.pid", "missing: give both vid and pid, or neither")
		}
	}
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

func clampInt(v int64) int {
	const lim = 1 << 31
	return int(min(max(v, -lim), lim-1))
}

// known reports the keys of m that are not in names.
func (p *parser) known(path string, m map[string]any, names ...string) {
	var unknown []string
	for k := range m {
		if !slices.Contains(names, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		key := k
		if path != "" {
			key = path + "." + k
		}
		p.errorf(key, "unknown key (known here: %s)", strings.Join(names, ", "))
	}
}

func (p *parser) table(key string, v any) (map[string]any, bool) {
	if v == nil {
		return nil, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		p.errorf(key, "expected a table, got %s", tomlType(v))
	}
	return m, ok
}

func (p *parser) integer(key string, v any) (int64, bool) {
	if v == nil {
		return 0, false
	}
	n, ok := v.(int64)
	if !ok {
		p.errorf(key, "expected an integer, got %s", tomlType(v))
	}
	return n, ok
}

func (p *parser) str(key string, v any) (string, bool) {
	if v == nil {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		p.errorf(key, "expected a string, got %s", tomlType(v))
	}
	return s, ok
}

func (p *parser) duration(key string, v any) (time.Duration, bool) {
	if _, isInt := v.(int64); isInt {
		p.errorf(key, "write durations as strings with a unit, e.g. \"800ms\"")
		return 0, false
	}
	s, ok := p.str(key, v)
	if !ok {
		return 0, false
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		p.errorf(key, "%q is not a duration (e.g. \"800ms\", \"1.5s\")", s)
		return 0, false
	}
	return d, true
}

func tomlType(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

// Encode writes the config as a TOML file that ParseConfig reads back to an
// equal Config. It writes every key, defaults included.
func (c *Config) Encode() ([]byte, error) {
	type expander struct {
		Address hexAddress        `toml:"address"`
		Keys    map[string]string `toml:"keys,inline"`
	}
	type file struct {
		Table struct {
			Seats      int    `toml:"seats"`
			Mode       string `toml:"mode"`
			Brightness int    `toml:"brightness"`
		} `toml:"table"`
		Pedal struct {
			Long     string `toml:"long"`
			Double   string `toml:"double"`
			Pin      string `toml:"pin"`
			Pull     string `toml:"pull"`
			Active   string `toml:"active"`
			Debounce string `toml:"debounce"`
		} `toml:"pedal"`
		GPIO struct {
			SPI         string     `toml:"spi"`
			LEDsPerSeat int        `toml:"leds_per_seat"`
			PrivateLED  bool       `toml:"private_led"`
			LEDOrder    []int      `toml:"led_order,omitempty"`
			I2C         string     `toml:"i2c"`
			Poll        string     `toml:"poll"`
			KeyDebounce string     `toml:"key_debounce"`
			Expanders   []expander `toml:"expanders,omitempty"`
		} `toml:"gpio"`
		Serial struct {
			Port string `toml:"port,omitempty"`
			VID  string `toml:"vid,omitempty"`
			PID  string `toml:"pid,omitempty"`
			Baud int    `toml:"baud"`
			Keys int    `toml:"keys_per_seat"`
		} `toml:"serial"`
	}
	var f file
	f.Table.Seats, f.Table.Mode, f.Table.Brightness = c.Seats, string(c.Mode), int(c.Brightness)
	f.Pedal.Long, f.Pedal.Double = c.Pedal.Timing.Long.String(), c.Pedal.Timing.Double.String()
	f.Pedal.Pin, f.Pedal.Pull = c.Pedal.Pin, c.Pedal.Pull.String()
	f.Pedal.Active = "high"
	if c.Pedal.ActiveLow {
		f.Pedal.Active = "low"
	}
	f.Pedal.Debounce = c.Pedal.Debounce.String()
	g := &c.GPIO
	f.GPIO.SPI, f.GPIO.LEDsPerSeat, f.GPIO.PrivateLED, f.GPIO.LEDOrder = g.SPI, g.LEDsPerSeat, g.PrivateLED, g.LEDOrder
	f.GPIO.I2C, f.GPIO.Poll, f.GPIO.KeyDebounce = g.I2C, g.Poll.String(), g.KeyDebounce.String()
	for _, x := range g.Expanders {
		e := expander{Address: hexAddress(x.Address), Keys: map[string]string{}}
		for _, k := range x.Keys {
			e.Keys[k.Pin.String()] = fmt.Sprintf("%d %v", k.Seat, k.Key)
		}
		f.GPIO.Expanders = append(f.GPIO.Expanders, e)
	}
	s := &c.Serial
	f.Serial.Port, f.Serial.Baud, f.Serial.Keys = s.Port, s.Baud, s.KeysPerSeat
	if s.VID != 0 {
		f.Serial.VID = fmt.Sprintf("%04x", s.VID)
	}
	if s.PID != 0 {
		f.Serial.PID = fmt.Sprintf("%04x", s.PID)
	}
	var b bytes.Buffer
	enc := toml.NewEncoder(&b)
	enc.SetIndentTables(false)
	enc.EnableMarshalerInterface()
	if err := enc.Encode(&f); err != nil {
		return nil, fmt.Errorf("hw: config: %w", err)
	}
	return b.Bytes(), nil
}

// hexAddress writes an I2C address the way datasheets do.
type hexAddress uint16

// MarshalTOML implements go-toml's unstable.Marshaler.
func (a hexAddress) MarshalTOML() ([]byte, error) {
	return []byte(fmt.Sprintf("0x%02x", uint16(a))), nil
}
