package hw

import (
	"fmt"
	"strconv"
	"strings"
)

// SerialSection is [serial]: the seat-panel bridge on USB serial.
type SerialSection struct {
	Port        string `toml:"port,omitempty"` // "" = find the bridge by its USB ids
	VID         string `toml:"vid,omitempty"`  // hex, e.g. "2e8a"
	PID         string `toml:"pid,omitempty"`  // hex, e.g. "000a"
	Baud        int64  `toml:"baud"`           // never 1200
	KeysPerSeat int64  `toml:"keys_per_seat"`  // 1..17
}

func (c *SerialConfig) section() SerialSection {
	s := SerialSection{Port: c.Port, Baud: int64(c.Baud), KeysPerSeat: int64(c.KeysPerSeat)}
	if c.VID != 0 {
		s.VID = fmt.Sprintf("%04x", c.VID)
	}
	if c.PID != 0 {
		s.PID = fmt.Sprintf("%04x", c.PID)
	}
	return s
}

func (s *SerialSection) decode(c *SerialConfig, p *problems) {
	c.Port = s.Port
	p.usbID("serial.vid", s.VID, &c.VID)
	p.usbID("serial.pid", s.PID, &c.PID)
	c.Baud = clampInt(s.Baud)
	c.KeysPerSeat = clampInt(s.KeysPerSeat)
}

// usbID reads a USB id the file writes as hex ("2e8a", "0x2E8A").
func (p *problems) usbID(key, s string, dst *uint16) {
	h := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	v, err := strconv.ParseUint(h, 16, 16)
	switch {
	case err != nil || h == "" || len(h) > 4:
		p.add(key, "%q is not a USB id (1 to 4 hex digits, e.g. \"2e8a\")", s)
	case v == 0:
		p.add(key, "%q: 0 is not a USB id", s)
	default:
		*dst = uint16(v)
	}
}

func (p *problems) checkSerial(s *SerialConfig) {
	switch {
	case s.Baud == 1200:
		p.add("serial.baud", "1200 is refused: opening a TinyGo board's USB port at 1200 baud resets it to the bootloader")
	case s.Baud < 300 || s.Baud > 12_000_000:
		p.add("serial.baud", "%d is out of range 300..12000000", s.Baud)
	}
	if s.KeysPerSeat < 1 || s.KeysPerSeat > MaxKeysPerSeat {
		p.add("serial.keys_per_seat", "%d is out of range 1..%d", s.KeysPerSeat, MaxKeysPerSeat)
	}
	if strings.ContainsFunc(s.Port, isControl) || strings.TrimSpace(s.Port) != s.Port {
		p.add("serial.port", "%q is not a port path (e.g. \"/dev/ttyACM0\")", s.Port)
	}
	if (s.VID == 0) != (s.PID == 0) {
		if s.VID == 0 {
			p.add("serial.vid", "missing: give both vid and pid, or neither")
		} else {
			p.add("serial.pid", "missing: give both vid and pid, or neither")
		}
	}
}
