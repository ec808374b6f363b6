package hw

// TableSection is [table]: the table's size, wiring and brightness.
type TableSection struct {
	Seats      int64  `toml:"seats"`      // 6..18
	Mode       string `toml:"mode"`       // virtual | gpio | serial
	Brightness int64  `toml:"brightness"` // 1..255
}

func (c *Config) tableSection() TableSection {
	return TableSection{Seats: int64(c.Seats), Mode: string(c.Mode), Brightness: int64(c.Brightness)}
}

func (s *TableSection) decode(c *Config, p *problems) {
	c.Seats = clampInt(s.Seats)
	c.Mode = Mode(s.Mode)
	if s.Brightness < 1 || s.Brightness > 255 {
		p.add("table.brightness", "%d is out of range 1..255", s.Brightness)
	} else {
		c.Brightness = uint8(s.Brightness)
	}
}

// checkTable checks [table]; seatsOK: the seats are in range, so the
// seats of the other sections can be checked against them.
func (p *problems) checkTable(c *Config) (seatsOK bool) {
	seatsOK = c.Seats >= MinSeats && c.Seats <= MaxSeats
	if !seatsOK {
		p.add("table.seats", "%d is out of range %d..%d", c.Seats, MinSeats, MaxSeats)
	}
	switch c.Mode {
	case ModeVirtual, ModeGPIO, ModeSerial:
	default:
		p.add("table.mode", "%q is not a mode (virtual, gpio, serial)", string(c.Mode))
	}
	if c.Brightness == 0 {
		p.add("table.brightness", "0 is out of range 1..255")
	}
	return seatsOK
}
