package core

import "wolftable/firmware-bridge/protocol"

// Pulse animation of a seat whose light has protocol.LightPulse: its
// brightness follows a triangle wave between PulseFloor/255 and full, once
// every PulseMicros. The colour does not change.
const (
	PulseMicros = 1_000_000
	PulseFloor  = 64
)

// Lights holds the host's last protocol.Lights and renders the WS2812 chain
// from it. It changes nothing on its own: whether the host is talking or
// silent, the frame only changes when a new Lights (or a self-test colour)
// arrives, or with the pulse animation the host asked for.
//
// The chain has one pixel per seat, seat 1 first (the last seat first on a
// board wired from the other end: Config.LightsFromLastSeat), or with
// private indicator LEDs two: seat n's number light, then seat n's private
// indicator. Each pixel is three bytes, green, red, blue, as a WS2812 takes
// them.
type Lights struct {
	seats    int
	private  bool
	fromLast bool
	state    protocol.Lights
	raw      [protocol.MaxSeats]rawColor
	now      uint64
	frame    [2 * 3 * protocol.MaxSeats]byte
}

// rawColor is a self-test colour that overrides a seat's number light.
type rawColor struct {
	on      bool
	r, g, b uint8
}

// NewLights returns dark Lights for seats seats, with a private indicator
// pixel after each seat's number light if private.
func NewLights(seats int, private bool) *Lights {
	return &Lights{seats: min(max(seats, 0), protocol.MaxSeats), private: private}
}

// Set replaces the whole state with m and clears self-test colours. Seats
// beyond m.Seats go dark; seats m describes beyond the chain are ignored.
func (l *Lights) Set(m *protocol.Lights) {
	l.state = *m
	l.raw = [protocol.MaxSeats]rawColor{}
}

// SetRaw shows a raw colour (no brightness, no pulse) on seat's number light
// until the next Set. seat is 1…Seats; other seats are ignored.
func (l *Lights) SetRaw(seat int, r, g, b uint8) {
	if seat >= 1 && seat <= l.seats {
		l.raw[seat-1] = rawColor{on: true, r: r, g: g, b: b}
	}
}

// Tick sets the animation clock, in µs since boot.
func (l *Lights) Tick(now uint64) { l.now = now }

// Frame renders the chain: 3 bytes per pixel, GRB, brightness applied. The
// slice is valid until the next call to Frame.
func (l *Lights) Frame() []byte {
	out := l.frame[:0]
	for n := 0; n < l.seats; n++ {
		i := n // the seat index of the n-th pixel group along the chain
		if l.fromLast {
			i = l.seats - 1 - n
		}
		var s protocol.SeatLight
		if i < int(l.state.Seats) {
			s = l.state.Seat[i]
		}
		switch raw := l.raw[i]; {
		case raw.on:
			out = append(out, raw.g, raw.r, raw.b)
		case s.Flags&protocol.LightPulse != 0:
			out = appendPixel(out, s, scale(s.Brightness, pulse(l.now)))
		default:
			out = appendPixel(out, s, s.Brightness)
		}
		if !l.private {
			continue
		}
		if s.Flags&protocol.LightPrivate != 0 && !l.raw[i].on {
			out = appendPixel(out, s, s.Brightness)
		} else {
			out = append(out, 0, 0, 0)
		}
	}
	return out
}

// Pixels returns the number of pixels on the chain.
func (l *Lights) Pixels() int {
	if l.private {
		return 2 * l.seats
	}
	return l.seats
}

func appendPixel(out []byte, s protocol.SeatLight, brightness uint8) []byte {
	return append(out, scale(s.G, brightness), scale(s.R, brightness), scale(s.B, brightness))
}

// scale returns c·b/255, rounded.
func scale(c, b uint8) uint8 { return uint8((uint16(c)*uint16(b) + 127) / 255) }

// pulse returns the pulse animation's brightness factor at now: a triangle
// wave from PulseFloor up to 255 and back every PulseMicros.
func pulse(now uint64) uint8 {
	const half = PulseMicros / 2
	ph := now % PulseMicros
	if ph > half {
		ph = PulseMicros - ph
	}
	return uint8(PulseFloor + ph*(255-PulseFloor)/half)
}
