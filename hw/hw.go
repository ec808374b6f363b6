// Package hw is the table as a device, independent of how it is wired: one
// number light per seat, an optional private indicator per seat, each seat's
// keys, the judge's foot pedal, and the state of the link to the hardware.
//
// Implementations: the virtual table (hw/virtual, the embedded default),
// the Pi's own GPIO (drivers/gpio) and the seat-panel bridge on USB serial
// (drivers/serial). Fakes for tests are in hw/hwtest. This package imports
// no rules: the runtime maps hw events to engine inputs.
package hw

import (
	"fmt"
	"sync"
	"time"
)

// Key is a logical key of a seat panel (design.md "Seat panel").
type Key uint8

const (
	Key0 Key = iota
	Key1
	Key2
	Key3
	Key4
	Key5
	Key6
	Key7
	Key8
	Key9
	KeyOK
	KeyCLR
	KeyUp   // 拇指向上
	KeyDown // 拇指向下
	KeyWave // 擺手 / 不使用技能
	KeyHand // 舉手: 上警, 退水
	KeyBoom // 自爆 (guarded)
	numKeys
)

// Keys lists every logical key.
func Keys() []Key {
	k := make([]Key, numKeys)
	for i := range k {
		k[i] = Key(i)
	}
	return k
}

func (k Key) String() string {
	switch {
	case k <= Key9:
		return string(rune('0' + k))
	case k == KeyOK:
		return "OK"
	case k == KeyCLR:
		return "CLR"
	case k == KeyUp:
		return "UP"
	case k == KeyDown:
		return "DOWN"
	case k == KeyWave:
		return "WAVE"
	case k == KeyHand:
		return "HAND"
	case k == KeyBoom:
		return "BOOM"
	}
	return fmt.Sprintf("Key(%d)", uint8(k))
}

// ParseKey reads a key name as String writes it.
func ParseKey(s string) (Key, error) {
	for _, k := range Keys() {
		if k.String() == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("hw: unknown key %q (0-9 OK CLR UP DOWN WAVE HAND BOOM)", s)
}

// Edge is a key going down or coming up.
type Edge uint8

const (
	Down Edge = iota
	Up
)

func (e Edge) String() string {
	if e == Up {
		return "up"
	}
	return "down"
}

// Color is a number light's colour (rules.md A1).
type Color uint8

const (
	Off   Color = iota
	Green       // alive
	Red         // sheriff candidate, sheriff
	Blue        // PK voter
)

func (c Color) String() string {
	switch c {
	case Green:
		return "green"
	case Red:
		return "red"
	case Blue:
		return "blue"
	}
	return "off"
}

// SeatLight is the state of one seat's number light and private indicator.
type SeatLight struct {
	Color      Color
	Pulse      bool  // the current speaker's light pulses
	Brightness uint8 // 0 = the table's configured default
	Private    bool  // the private indicator only the seated player can see
}

// KeyEvent is a seat key going down or up.
type KeyEvent struct {
	Seat int // 1..Seats
	Key  Key
	Edge Edge
	At   time.Time
	// ID is the device's identity of this edge: the same each time the
	// device sends the edge again, a new host process included, and no
	// other edge's; "" if the device gives none. Printable ASCII, no
	// spaces, at most MaxKeyID bytes. The daemon journals it with the
	// input the edge makes, so that after a restart an edge the journal
	// already holds is dropped, not applied twice (the serial bridge:
	// serial.Config.HoldAcks).
	ID string
}

// MaxKeyID is the longest KeyEvent.ID.
const MaxKeyID = 64

// PedalPress is a classified press of the judge's pedal.
type PedalPress uint8

const (
	PedalShort PedalPress = iota
	PedalLong
	PedalDouble
)

func (p PedalPress) String() string {
	switch p {
	case PedalLong:
		return "long"
	case PedalDouble:
		return "double"
	}
	return "short"
}

// EventKind says which field of an Event is set.
type EventKind uint8

const (
	EventKey EventKind = iota
	EventPedal
	EventLink
)

// Link is the state of the link to the hardware (a bridge, GPIO buses).
type Link struct {
	Up     bool
	Detail string // e.g. "bridge fw 1.0.0 on /dev/ttyACM0", "reconnecting: missed heartbeats"
}

// Event is something the table reports.
type Event struct {
	Kind  EventKind
	Key   KeyEvent
	Pedal PedalPress
	Link  Link
	At    time.Time
	// Receipt, when set, is to be signed (Done) once the event is kept:
	// journaled as an input, or used or dropped on purpose. A table that
	// holds its acknowledgement until then (the serial bridge with
	// serial.Config.HoldAcks) lets no event the device was told is taken
	// be lost by a crash between the two.
	Receipt *Receipt
}

// Receipt is an event's acknowledgement, held by the table until the
// receiver has kept the event.
type Receipt struct {
	once sync.Once
	done func()
}

// NewReceipt is a receipt that runs done once, at the first Done.
func NewReceipt(done func()) *Receipt { return &Receipt{done: done} }

// Done signs the receipt; on a nil receipt it does nothing, and only the
// first Done counts.
func (r *Receipt) Done() {
	if r != nil {
		r.once.Do(r.done)
	}
}

// Table is the table as a device.
type Table interface {
	// Seats is the number of seats (6..18).
	Seats() int
	// SetLights sets every seat's light at once: lights[0] is seat 1. A
	// table that loses a frame replaces it with the next (full state).
	SetLights(lights []SeatLight) error
	// Events delivers key, pedal and link events until Close.
	Events() <-chan Event
	// Close releases the hardware; the lights are turned off.
	Close() error
}
