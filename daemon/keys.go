package daemon

import (
	"errors"
	"fmt"
	"strings"

	"wolftable/engine"
	"wolftable/hw"
)

// A seat's keys become inputs here: a typed number and OK, or a gesture.
//
// Each is taken once. The serial bridge sends a key event until a host
// acks it, to the next host process too, and serve acks a seat key's event
// only once the journal has its input (serial.Config.HoldAcks); a host
// killed between the two leaves the bridge sending the next one an event
// already journaled. So an event's identity (hw.KeyEvent.ID) is journaled
// in its input's source (KeySource), serve gives the identities of the
// newest journals' inputs to the next game (Config.KeysJournaled), and an
// event that comes with one of them is signed — the bridge is acked — and
// dropped.

// onKey takes a seat's key event; only key-down edges count.
func (d *Daemon) onKey(k hw.KeyEvent) {
	if k.Edge != hw.Down || k.Seat < 1 || k.Seat >= len(d.entry) {
		return
	}
	if k.ID != "" && d.keys[k.ID] {
		// journaled before the host restarted, its ack lost with it:
		// signed now (the table acks it) and not applied again
		d.log.Info("a key event the journal holds came again; dropped", "seat", k.Seat, "key", k.ID)
		return
	}
	if in, ok := d.keyInput(k.Seat, k.Key); ok {
		id := k.ID
		if !validKeyID(id) {
			id = ""
		}
		if err := d.apply(in, KeySource(k.Seat, id)); id != "" && (err == nil || isRefusal(err)) {
			d.keys[id] = true
		}
	}
}

// isRefusal reports whether err is the engine's refusal (the journal has
// the input and its refused record), not a journal failure.
func isRefusal(err error) bool {
	var ee *engine.Error
	return errors.As(err, &ee)
}

// KeySource is the source of an input a seat's key made: "seat-7", and
// with the key event's identity (hw.KeyEvent.ID) "seat-7 key=ID", so that
// the journal holds which event it was (Config.KeysJournaled,
// journal/doc.go).
func KeySource(seat int, id string) string {
	if id == "" {
		return fmt.Sprintf("seat-%d", seat)
	}
	return fmt.Sprintf("seat-%d key=%s", seat, id)
}

// SourceKey is the key event identity in a source KeySource made, or "".
func SourceKey(source string) string {
	_, id, ok := strings.Cut(source, " key=")
	if !ok || !strings.HasPrefix(source, "seat-") || !validKeyID(id) {
		return ""
	}
	return id
}

// validKeyID: printable ASCII without spaces, 1 to hw.MaxKeyID bytes.
func validKeyID(id string) bool {
	if id == "" || len(id) > hw.MaxKeyID {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] <= ' ' || id[i] > '~' {
			return false
		}
	}
	return true
}

// keyInput keeps a seat's typed number; it returns an input when one is complete.
func (d *Daemon) keyInput(seat int, k hw.Key) (engine.Input, bool) {
	switch {
	case k <= hw.Key9:
		n := d.entry[seat]
		if n < 0 || n >= 10 {
			n = 0 // a third digit starts again: seats are 1..18
		}
		d.entry[seat] = n*10 + int(k)
		return engine.Input{}, false
	case k == hw.KeyCLR:
		d.entry[seat] = -1
		return engine.Input{}, false
	case k == hw.KeyOK:
		n := d.entry[seat]
		d.entry[seat] = -1
		if n < 0 {
			n = 0
		}
		return engine.SeatTarget(seat, n), true
	}
	a, ok := gestures[k]
	if !ok {
		// not a key of the panel (a driver or bridge newer than this
		// daemon): ignored, and the number being typed is kept
		d.log.Warn("unknown seat key ignored", "seat", seat, "key", int(k))
		return engine.Input{}, false
	}
	d.entry[seat] = -1
	return engine.SeatGesture(seat, a), true
}

// gestures are the panel's gesture keys and their actions.
var gestures = map[hw.Key]engine.Action{hw.KeyUp: engine.ActUp, hw.KeyDown: engine.ActDown, hw.KeyWave: engine.ActWave,
	hw.KeyHand: engine.ActHand, hw.KeyBoom: engine.ActBoom}
