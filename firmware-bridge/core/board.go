package core

import (
	"strconv"

	"wolftable/firmware-bridge/protocol"
)

// Board is how a firmware build describes its board: what cmd/pico's
// -ldflags "-X main.seats=… -X main.registersPerSeat=… -X
// main.chainFromLastSeat=…" set (make firmware SEATS=… REGISTERS=…
// FROM_LAST=…).
type Board struct {
	Seats            int  // seat panels on the chain, protocol.MinSeats…MaxSeats
	RegistersPerSeat int  // 74HC165s per panel: 2 (16 contacts, no BOOM key) or 3 (24)
	FromLastSeat     bool // the key chain and the LED chain start at the last seat, not seat 1
}

// DefaultBoard is the reference board: 12 seats of three registers, both
// chains from seat 1.
var DefaultBoard = Board{Seats: 12, RegistersPerSeat: 3}

// ParseBoard reads a build's strings (decimal seats and registers per
// seat, "1" or "0" for from the last seat); an empty string takes
// DefaultBoard's value.
func ParseBoard(seats, registersPerSeat, fromLastSeat string) (Board, error) {
	b := DefaultBoard
	if seats != "" {
		n, err := strconv.Atoi(seats)
		if err != nil || n < protocol.MinSeats || n > protocol.MaxSeats {
			return Board{}, boardError("SEATS (main.seats)", seats, n, err, "out of range 6…18")
		}
		b.Seats = n
	}
	if registersPerSeat != "" {
		n, err := strconv.Atoi(registersPerSeat)
		if err != nil || (n != 2 && n != 3) {
			return Board{}, boardError("REGISTERS (main.registersPerSeat)", registersPerSeat, n, err, "not 2 or 3")
		}
		b.RegistersPerSeat = n
	}
	switch fromLastSeat {
	case "":
	case "0", "1":
		b.FromLastSeat = fromLastSeat == "1"
	default:
		return Board{}, boardError("FROM_LAST (main.chainFromLastSeat)", fromLastSeat, 0, nil, "not 0 or 1: "+strconv.Quote(fromLastSeat))
	}
	return b, nil
}

func boardError(field, s string, n int, err error, reason string) error {
	if err != nil {
		reason = "not a number: " + strconv.Quote(s)
	}
	return &ConfigError{Field: field, Value: n, Reason: reason}
}

// Config returns the bridge's configuration for the board as cmd/pico
// wires it: the reference key map, keys to ground with pull-ups, the far
// register's DS to ground, the pedal on pedal (active low), and the LED
// chain in the key chain's order.
func (b Board) Config(firmware protocol.Version, pedal Pin) Config {
	bits := 8 * b.RegistersPerSeat
	return Config{
		Firmware: firmware,
		Scan: ScanConfig{
			Seats:             b.Seats,
			BitsPerSeat:       bits,
			KeyMap:            DefaultKeyMap(bits),
			ActiveLow:         true,
			ChainFromLastSeat: b.FromLastSeat,
			TailLow:           true,
			Pedal:             pedal,
			PedalActiveLow:    true,
		},
		LightsFromLastSeat: b.FromLastSeat,
	}
}
