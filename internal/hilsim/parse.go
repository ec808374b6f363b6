package hilsim

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// Expander is one MCP23017 model as hil-i2c reports it: its registers (A in
// the low byte, B in the high one), its closed contacts, whether it
// answers, how often the driver polled it and how far its script is.
type Expander struct {
	Addr                    uint16
	IODIR, IPOL, GPPU, OLAT uint16
	IOCON                   uint8
	Closed                  uint16
	NAK                     bool
	Polls                   uint64
	Step, Steps             int
}

// Line is one line of hil-gpio: its direction ("in", "out"), its bias
// ("pull-up", "pull-down", "none"), the outside drive ("0", "1", "z"), the
// level it reads, how often it was read and how far its script is.
type Line struct {
	Offset           int
	Name             string
	Dir, Bias, Drive string
	Level            int
	Reads            uint64
	Step, Steps      int
}

// Transfer is hil-spi's last transfer: its number since the reset, clock,
// SPI mode, word size and bytes (Truncated: only the first ones are shown).
type Transfer struct {
	N         uint64
	SpeedHz   uint32
	Mode      uint32
	Bits      int
	Len       int
	Data      []byte
	Truncated bool
}

// fields reads "key=value" words after the first n plain ones.
type fields struct {
	plain []string
	kv    map[string]string
	err   error
}

func splitFields(line string, n int) *fields {
	f := &fields{kv: map[string]string{}}
	for i, w := range strings.Fields(line) {
		if i < n {
			f.plain = append(f.plain, w)
			continue
		}
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			f.err = fmt.Errorf("%q is not key=value", w)
			return f
		}
		f.kv[k] = v
	}
	if len(f.plain) < n {
		f.err = fmt.Errorf("%d words, want at least %d", len(f.plain), n)
	}
	return f
}

func (f *fields) uint(key string, base, bits int) uint64 {
	if f.err != nil {
		return 0
	}
	v, ok := f.kv[key]
	if !ok {
		f.err = fmt.Errorf("no %s=", key)
		return 0
	}
	n, err := strconv.ParseUint(v, base, bits)
	if err != nil {
		f.err = fmt.Errorf("%s=%s: %w", key, v, err)
	}
	return n
}

func (f *fields) str(key string) string {
	if f.err != nil {
		return ""
	}
	v, ok := f.kv[key]
	if !ok {
		f.err = fmt.Errorf("no %s=", key)
	}
	return v
}

// step reads "step=N/M".
func (f *fields) step() (int, int) {
	s := f.str("step")
	if f.err != nil {
		return 0, 0
	}
	a, b, ok := strings.Cut(s, "/")
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || x < 0 || y < 0 {
		f.err = fmt.Errorf("step=%s is not N/M", s)
	}
	return x, y
}

// ParseExpanders reads hil-i2c's hil_state.
func ParseExpanders(text string) ([]Expander, error) {
	var out []Expander
	for i, line := range nonEmptyLines(text) {
		f := splitFields(line, 1)
		var x Expander
		if f.err == nil {
			a, err := strconv.ParseUint(f.plain[0], 0, 16)
			if err != nil {
				f.err = fmt.Errorf("address %q: %w", f.plain[0], err)
			}
			x.Addr = uint16(a)
		}
		x.IODIR = uint16(f.uint("iodir", 16, 16))
		x.IPOL = uint16(f.uint("ipol", 16, 16))
		x.GPPU = uint16(f.uint("gppu", 16, 16))
		x.IOCON = uint8(f.uint("iocon", 16, 8))
		x.OLAT = uint16(f.uint("olat", 16, 16))
		x.Closed = uint16(f.uint("closed", 16, 16))
		x.NAK = f.uint("nak", 10, 1) == 1
		x.Polls = f.uint("polls", 10, 64)
		x.Step, x.Steps = f.step()
		if f.err != nil {
			return nil, fmt.Errorf("hilsim: hil_state line %d: %v", i+1, f.err)
		}
		out = append(out, x)
	}
	return out, nil
}

// ParseLines reads hil-gpio's state.
func ParseLines(text string) ([]Line, error) {
	var out []Line
	for i, line := range nonEmptyLines(text) {
		f := splitFields(line, 2)
		var l Line
		if f.err == nil {
			n, err := strconv.Atoi(f.plain[0])
			if err != nil || n < 0 {
				f.err = fmt.Errorf("offset %q is not a number", f.plain[0])
			}
			l.Offset, l.Name = n, f.plain[1]
		}
		l.Dir, l.Bias, l.Drive = f.str("dir"), f.str("bias"), f.str("drive")
		l.Level = int(f.uint("level", 10, 1))
		l.Reads = f.uint("reads", 10, 64)
		l.Step, l.Steps = f.step()
		if f.err != nil {
			return nil, fmt.Errorf("hilsim: gpio state line %d: %v", i+1, f.err)
		}
		out = append(out, l)
	}
	return out, nil
}

// ParseTransfer reads hil-spi's hil_last.
func ParseTransfer(text string) (Transfer, error) {
	f := splitFields(strings.TrimSpace(text), 0)
	var t Transfer
	t.N = f.uint("xfer", 10, 64)
	t.SpeedHz = uint32(f.uint("speed_hz", 10, 32))
	t.Mode = uint32(f.uint("mode", 0, 32))
	t.Bits = int(f.uint("bits", 10, 8))
	t.Len = int(f.uint("len", 10, 31))
	data := f.str("data")
	if f.err != nil {
		return Transfer{}, fmt.Errorf("hilsim: hil_last: %v", f.err)
	}
	data, t.Truncated = strings.CutSuffix(data, "...")
	b, err := hex.DecodeString(data)
	if err != nil {
		return Transfer{}, fmt.Errorf("hilsim: hil_last: data: %w", err)
	}
	if len(b) > t.Len || (!t.Truncated && len(b) != t.Len) {
		return Transfer{}, fmt.Errorf("hilsim: hil_last: %d bytes of data for len=%d", len(b), t.Len)
	}
	t.Data = b
	return t, nil
}

func nonEmptyLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// RGB is one LED's colour.
type RGB struct{ R, G, B uint8 }

// DecodeWS2812 reads what a chain of WS2812 LEDs takes from the SPI bytes of
// one frame at 2.5 MHz, from the datasheet: the line low (zero bytes) before
// the data, then each LED's 24 bits in G, R, B order, most significant bit
// first, each bit as 4 SPI bits (1110 for a 1, 1000 for a 0), then the line
// low again (the latch). Anything else is an error: a chain would show
// garbage.
func DecodeWS2812(wire []byte) ([]RGB, error) {
	start := 0
	for start < len(wire) && wire[start] == 0 {
		start++
	}
	end := len(wire)
	for end > start && wire[end-1] == 0 {
		end--
	}
	if start == 0 && len(wire) > 0 {
		return nil, fmt.Errorf("hilsim: ws2812: the frame does not start with the line low")
	}
	// An LED at full off is 12 bytes of 0x88; the tail of zeros is the latch.
	body := wire[start:end]
	if (len(body))%12 != 0 {
		return nil, fmt.Errorf("hilsim: ws2812: %d data bytes are not whole LEDs (12 bytes each)", len(body))
	}
	leds := make([]RGB, 0, len(body)/12)
	for i := 0; i < len(body); i += 12 {
		var grb [3]uint8
		for c := range 3 {
			for j := range 4 {
				b := body[i+4*c+j]
				for half := range 2 {
					sym := b >> (4 * (1 - half)) & 0xf
					bit := 7 - (2*j + half)
					switch sym {
					case 0b1110:
						grb[c] |= 1 << bit
					case 0b1000:
					default:
						return nil, fmt.Errorf("hilsim: ws2812: LED %d: symbol %04b at byte %d is neither a 1 (1110) nor a 0 (1000)", i/12+1, sym, start+i+4*c+j)
					}
				}
			}
		}
		leds = append(leds, RGB{R: grb[1], G: grb[0], B: grb[2]})
	}
	return leds, nil
}
