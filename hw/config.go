package hw

import (
	"bytes"
	"errors"
	"fmt"
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
// errors. The file decodes into Sections, typed structs in the file's own
// words (config_table.go, config_pedal.go, config_gpio.go,
// config_serial.go); Sections.Config checks them and converts them.
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
// error (Key is empty). Line and Column say where the file writes it, as
// the parser saw it (Positions); 0 for a config built in Go.
type ConfigError struct {
	Key    string // e.g. "gpio.expanders[1].address"
	Line   int    // 1-based; 0 when unknown
	Column int    // 1-based, in bytes
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
// every problem it finds (errors.Join of *ConfigError), each naming the key
// and where the file writes it. A key of the wrong kind stops the decode
// there: it is the one problem reported.
func ParseConfig(data []byte) (*Config, error) {
	s := DefaultConfig().Sections()
	at := ReadPositions(data)
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(s)
	var unknown []error
	var missing *toml.StrictMissingError
	var de *toml.DecodeError
	switch {
	case err == nil:
	case errors.As(err, &missing):
		// the rest of the file decoded: its problems are told too
		for i := range missing.Errors {
			unknown = append(unknown, DecodeProblem(&missing.Errors[i], true, at))
		}
	case errors.As(err, &de):
		return nil, DecodeProblem(de, false, at)
	default:
		return nil, &ConfigError{Msg: err.Error()}
	}
	c, errs := s.config(at)
	if errs = append(unknown, errs...); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

// Validate checks a config built in Go the way ParseConfig checks a file.
func (c *Config) Validate() error {
	p := &problems{}
	p.check(c)
	return errors.Join(p.errs...)
}

// problems collects the problems of a config, each naming its key.
type problems struct {
	errs []error
	// badAddr marks the expanders whose address the decode already reported.
	badAddr map[int]bool
}

func (p *problems) add(key, format string, a ...any) {
	p.errs = append(p.errs, &ConfigError{Key: key, Msg: fmt.Sprintf(format, a...)})
}

// duration reads a duration the file writes as a string with a unit.
func (p *problems) duration(key, s string, dst *time.Duration) {
	d, err := time.ParseDuration(s)
	if err != nil {
		p.add(key, "%q is not a duration (e.g. \"800ms\", \"1.5s\")", s)
		return
	}
	*dst = d
}

// check validates the whole config: ranges, and what spans sections.
func (p *problems) check(c *Config) {
	seatsOK := p.checkTable(c)
	p.checkPedal(&c.Pedal)
	p.checkGPIO(&c.GPIO, c.Seats, seatsOK)
	p.checkSerial(&c.Serial)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

func clampInt(v int64) int {
	const lim = 1 << 31
	return int(min(max(v, -lim), lim-1))
}

// Encode writes the config as a TOML file that ParseConfig reads back to an
// equal Config. It writes every key, defaults included.
func (c *Config) Encode() ([]byte, error) {
	var b bytes.Buffer
	enc := toml.NewEncoder(&b)
	enc.SetIndentTables(false)
	enc.EnableMarshalerInterface()
	if err := enc.Encode(c.Sections()); err != nil {
		return nil, fmt.Errorf("hw: config: %w", err)
	}
	return b.Bytes(), nil
}
