package virtual

import (
	"fmt"
	"strconv"
	"strings"

	"wolftable/hw"
)

type actionKind uint8

const (
	actNone    actionKind = iota
	actKey                // a seat key for the selected seat
	actPedal              // a pedal press
	actPick               // 's': choose a seat by number
	actNext               // Tab, Right
	actPrev               // Shift-Tab, Left
	actCancel             // Esc
	actUnbound            // a key that does nothing
)

type action struct {
	kind  actionKind
	key   hw.Key
	pedal hw.PedalPress
	b     byte
}

// keyReader turns the bytes of a raw terminal into actions. It keeps the
// state of escape sequences across reads.
type keyReader struct {
	esc    int  // 0: none; 1: after ESC; 2: inside ESC [ or ESC O
	lastCR bool // the previous byte was '\r' (so "\r\n" is one Enter)
}

func (r *keyReader) feed(b byte) action {
	lastCR := r.lastCR
	r.lastCR = b == '\r'
	switch r.esc {
	case 1:
		if b == '[' || b == 'O' {
			r.esc = 2
			return action{}
		}
		// A lone Esc (already reported as a cancel), then an ordinary key.
		r.esc = 0
		if b == 0x1b {
			r.esc = 1
			return action{kind: actCancel}
		}
		return r.plain(b, lastCR)
	case 2:
		if b < 0x40 || b > 0x7e {
			return action{} // parameter bytes
		}
		r.esc = 0
		switch b {
		case 'Z', 'D':
			return action{kind: actPrev}
		case 'C':
			return action{kind: actNext}
		}
		return action{}
	}
	if b == 0x1b {
		r.esc = 1
		return action{kind: actCancel}
	}
	return r.plain(b, lastCR)
}

func (r *keyReader) plain(b byte, lastCR bool) action {
	switch {
	case b >= '0' && b <= '9':
		return action{kind: actKey, key: hw.Key0 + hw.Key(b-'0')}
	case b == '\r':
		return action{kind: actKey, key: hw.KeyOK}
	case b == '\n':
		if lastCR {
			return action{}
		}
		return action{kind: actKey, key: hw.KeyOK}
	case b == 0x7f || b == 0x08:
		return action{kind: actKey, key: hw.KeyCLR}
	case b == '\t':
		return action{kind: actNext}
	case b == ' ':
		return action{kind: actPedal, pedal: hw.PedalShort}
	}
	switch b | 0x20 { // letters, either case
	case 'u':
		return action{kind: actKey, key: hw.KeyUp}
	case 'd':
		return action{kind: actKey, key: hw.KeyDown}
	case 'w':
		return action{kind: actKey, key: hw.KeyWave}
	case 'h':
		return action{kind: actKey, key: hw.KeyHand}
	case 'b':
		return action{kind: actKey, key: hw.KeyBoom}
	case 's':
		return action{kind: actPick}
	case 'l':
		return action{kind: actPedal, pedal: hw.PedalLong}
	case 'p':
		return action{kind: actPedal, pedal: hw.PedalDouble}
	}
	return action{kind: actUnbound, b: b}
}

// plainCommand is one line of plain input.
type plainCommand struct {
	seat  int
	keys  []hw.Key
	pedal *hw.PedalPress
}

// parseLine reads a plain command: "3 OK", "7 9 OK", "pedal short". A blank
// or comment line is the zero command.
func parseLine(line string, seats int) (plainCommand, error) {
	f := strings.Fields(line)
	if len(f) == 0 || strings.HasPrefix(f[0], "#") {
		return plainCommand{}, nil
	}
	if strings.EqualFold(f[0], "pedal") {
		if len(f) != 2 {
			return plainCommand{}, fmt.Errorf("%q: expected \"pedal short\", \"pedal long\" or \"pedal double\"", line)
		}
		for _, p := range []hw.PedalPress{hw.PedalShort, hw.PedalLong, hw.PedalDouble} {
			if strings.EqualFold(f[1], p.String()) {
				return plainCommand{pedal: &p}, nil
			}
		}
		return plainCommand{}, fmt.Errorf("%q is not a pedal press (short, long, double)", f[1])
	}
	seat, err := strconv.Atoi(f[0])
	if err != nil {
		return plainCommand{}, fmt.Errorf("%q: expected a seat and its keys (\"7 9 OK\") or \"pedal short|long|double\"", line)
	}
	if seat < 1 || seat > seats {
		return plainCommand{}, fmt.Errorf("there is no seat %d (1..%d)", seat, seats)
	}
	if len(f) < 2 {
		return plainCommand{}, fmt.Errorf("seat %d: no keys (0-9 OK CLR UP DOWN WAVE HAND BOOM)", seat)
	}
	cmd := plainCommand{seat: seat}
	for _, w := range f[1:] {
		if isDigits(w) {
			for _, c := range w {
				cmd.keys = append(cmd.keys, hw.Key0+hw.Key(c-'0'))
			}
			continue
		}
		k, err := hw.ParseKey(strings.ToUpper(w))
		if err != nil {
			return plainCommand{}, fmt.Errorf("%q is not a key (0-9 OK CLR UP DOWN WAVE HAND BOOM)", w)
		}
		cmd.keys = append(cmd.keys, k)
	}
	return cmd, nil
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// plainLights is the plain style's line for a frame of lights.
func plainLights(lights []hw.SeatLight) string {
	var b strings.Builder
	b.WriteString("lights")
	for i, l := range lights {
		fmt.Fprintf(&b, " %d:%v", i+1, l.Color)
		if l.Pulse {
			b.WriteString("+pulse")
		}
		if l.Private {
			b.WriteString("+private")
		}
	}
	return b.String()
}
