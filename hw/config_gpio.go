package hw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// GPIOSection is [gpio], the wiring of the gpio mode: the WS2812 chain on
// SPI and the MCP23017 key expanders on I2C.
type GPIOSection struct {
	SPI         string            `toml:"spi"`                 // periph.io spireg name
	LEDsPerSeat int64             `toml:"leds_per_seat"`       // 1..16
	PrivateLED  bool              `toml:"private_led"`         // each seat's group ends with a private LED
	LEDOrder    []int64           `toml:"led_order,omitempty"` // the seat of each group along the chain
	I2C         string            `toml:"i2c"`                 // periph.io i2creg name
	Poll        string            `toml:"poll"`                // a duration: the key scan period
	KeyDebounce string            `toml:"key_debounce"`        // a duration
	Expanders   []ExpanderSection `toml:"expanders,omitempty"` // [[gpio.expanders]]
}

// ExpanderSection is one [[gpio.expanders]]: an MCP23017 and its keys.
type ExpanderSection struct {
	Address *ExpanderAddress  `toml:"address"`     // 0x20..0x27; nil: the file leaves it out
	Keys    map[string]string `toml:"keys,inline"` // pin ("A0".."B7") = "SEAT KEY"
}

// ExpanderAddress is an expander's I2C address as the file writes it,
// wide enough to hold what a wrong file writes.
type ExpanderAddress int64

// MarshalTOML writes the address the way datasheets do (go-toml's
// unstable.Marshaler).
func (a ExpanderAddress) MarshalTOML() ([]byte, error) {
	return fmt.Appendf(nil, "0x%02x", int64(a)), nil
}

func (g *GPIOConfig) section() GPIOSection {
	s := GPIOSection{
		SPI:         g.SPI,
		LEDsPerSeat: int64(g.LEDsPerSeat),
		PrivateLED:  g.PrivateLED,
		I2C:         g.I2C,
		Poll:        g.Poll.String(),
		KeyDebounce: g.KeyDebounce.String(),
	}
	if g.LEDOrder != nil {
		s.LEDOrder = make([]int64, len(g.LEDOrder))
		for i, seat := range g.LEDOrder {
			s.LEDOrder[i] = int64(seat)
		}
	}
	for _, x := range g.Expanders {
		addr := ExpanderAddress(x.Address)
		e := ExpanderSection{Address: &addr, Keys: map[string]string{}}
		for _, k := range x.Keys {
			e.Keys[k.Pin.String()] = fmt.Sprintf("%d %v", k.Seat, k.Key)
		}
		s.Expanders = append(s.Expanders, e)
	}
	return s
}

func (s *GPIOSection) decode(g *GPIOConfig, p *problems) {
	g.SPI = s.SPI
	g.LEDsPerSeat = clampInt(s.LEDsPerSeat)
	g.PrivateLED = s.PrivateLED
	if s.LEDOrder != nil {
		g.LEDOrder = make([]int, len(s.LEDOrder))
		for i, seat := range s.LEDOrder {
			g.LEDOrder[i] = clampInt(seat)
		}
	}
	g.I2C = s.I2C
	p.duration("gpio.poll", s.Poll, &g.Poll)
	p.duration("gpio.key_debounce", s.KeyDebounce, &g.KeyDebounce)
	for i := range s.Expanders {
		g.Expanders = append(g.Expanders, s.Expanders[i].decode(i, p))
	}
}

func (s *ExpanderSection) decode(i int, p *problems) Expander {
	key := fmt.Sprintf("gpio.expanders[%d]", i)
	var x Expander
	switch a := s.Address; {
	case a == nil:
		p.add(key+".address", "missing: every expander needs its I2C address (0x20–0x27)")
		p.badAddress(i)
	case *a < 0 || *a > 0xFFFF:
		p.add(key+".address", "%#x is not an MCP23017 address (0x20–0x27)", int64(*a))
		p.badAddress(i)
	default:
		x.Address = uint16(*a)
	}
	pins := make([]string, 0, len(s.Keys))
	for name := range s.Keys {
		pins = append(pins, name)
	}
	slices.Sort(pins)
	for _, name := range pins {
		pk := key + ".keys." + name
		pin, err := ParseExpanderPin(name)
		if err != nil {
			p.add(pk, "%q is not an MCP23017 pin (A0..A7, B0..B7)", name)
			continue
		}
		seat, k, err := parseSeatKey(s.Keys[name])
		if err != nil {
			p.add(pk, "%v", err)
			continue
		}
		x.Keys = append(x.Keys, KeyPin{Pin: pin, Seat: seat, Key: k})
	}
	slices.SortFunc(x.Keys, func(a, b KeyPin) int { return int(a.Pin) - int(b.Pin) })
	return x
}

// badAddress marks expander i's address as reported: check says nothing more of it.
func (p *problems) badAddress(i int) {
	if p.badAddr == nil {
		p.badAddr = map[int]bool{}
	}
	p.badAddr[i] = true
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

func (p *problems) checkGPIO(g *GPIOConfig, seats int, seatsOK bool) {
	if g.SPI == "" || strings.ContainsFunc(g.SPI, isControl) {
		p.add("gpio.spi", "%q is not an SPI port name (e.g. \"SPI0.0\")", g.SPI)
	}
	if g.I2C == "" || strings.ContainsFunc(g.I2C, isControl) {
		p.add("gpio.i2c", "%q is not an I2C bus name (e.g. \"1\")", g.I2C)
	}
	if g.LEDsPerSeat < 1 || g.LEDsPerSeat > MaxLEDsPerSeat {
		p.add("gpio.leds_per_seat", "%d is out of range 1..%d", g.LEDsPerSeat, MaxLEDsPerSeat)
	}
	if g.Poll < time.Millisecond || g.Poll > 50*time.Millisecond {
		p.add("gpio.poll", "%v is out of range 1ms..50ms", g.Poll)
	}
	if g.KeyDebounce < time.Millisecond || g.KeyDebounce > 100*time.Millisecond {
		p.add("gpio.key_debounce", "%v is out of range 1ms..100ms", g.KeyDebounce)
	}
	if g.LEDOrder != nil && seatsOK {
		p.checkLEDOrder(g.LEDOrder, seats)
	}
	p.checkExpanders(g.Expanders, seats, seatsOK)
}

// checkLEDOrder: every seat once.
func (p *problems) checkLEDOrder(order []int, seats int) {
	if len(order) != seats {
		p.add("gpio.led_order", "has %d seats, the table has %d: list every seat once, in chain order", len(order), seats)
		return
	}
	seen := make([]int, seats+1)
	for i, s := range order {
		key := fmt.Sprintf("gpio.led_order[%d]", i)
		switch {
		case s < 1 || s > seats:
			p.add(key, "seat %d is out of range 1..%d", s, seats)
		case seen[s] > 0:
			p.add(key, "seat %d is already at gpio.led_order[%d]", s, seen[s]-1)
		default:
			seen[s] = i + 1
		}
	}
}

type seatKey struct {
	seat int
	key  Key
}

// checkExpanders: the addresses on the bus, and each seat's key on one pin.
func (p *problems) checkExpanders(xs []Expander, seats int, seatsOK bool) {
	if len(xs) > MaxExpanders {
		p.add("gpio.expanders", "%d expanders: an I2C bus holds at most %d MCP23017 (0x20–0x27)", len(xs), MaxExpanders)
	}
	addrAt := map[uint16]int{}
	keyAt := map[seatKey]string{}
	for i, x := range xs {
		key := fmt.Sprintf("gpio.expanders[%d]", i)
		if p.badAddr[i] {
			// reported by the decode
		} else if x.Address < 0x20 || x.Address > 0x27 {
			p.add(key+".address", "%#x is not an MCP23017 address (0x20–0x27)", x.Address)
		} else if j, dup := addrAt[x.Address]; dup {
			p.add(key+".address", "%#x is already gpio.expanders[%d]", x.Address, j)
		} else {
			addrAt[x.Address] = i
		}
		var pinSeen [16]bool
		for _, kp := range x.Keys {
			pk := key + ".keys." + kp.Pin.String()
			switch {
			case kp.Pin > 15:
				p.add(pk, "%d is not an MCP23017 pin (A0..A7, B0..B7)", kp.Pin)
			case pinSeen[kp.Pin]:
				p.add(pk, "pin mapped twice")
			case kp.Key >= numKeys:
				pinSeen[kp.Pin] = true
				p.add(pk, "%v is not a key", kp.Key)
			case seatsOK && (kp.Seat < 1 || kp.Seat > seats):
				pinSeen[kp.Pin] = true
				p.add(pk, "seat %d is out of range 1..%d", kp.Seat, seats)
			default:
				pinSeen[kp.Pin] = true
				sk := seatKey{kp.Seat, kp.Key}
				if other, dup := keyAt[sk]; dup {
					p.add(pk, "seat %d %v is already on %s", kp.Seat, kp.Key, other)
				} else {
					keyAt[sk] = pk
				}
			}
		}
	}
}
