// Package hwtest is a fake hw.Table for tests of the code that drives the
// table (the runtime, the self-test).
//
// A Table records every SetLights call in a history and lets the test
// inject what the hardware would report: seat keys going down and up,
// classified pedal presses and link changes. Like the real tables, Close
// turns the lights off (the history ends with an all-off frame), closes the
// events channel, and makes later SetLights calls fail.
//
// Nothing here sleeps or reads a clock unless the test leaves Table.Now nil.
package hwtest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"wolftable/hw"
)

// ErrClosed is returned by a Table used after Close.
var ErrClosed = errors.New("hwtest: table closed")

// Table implements hw.Table in memory.
type Table struct {
	// Now stamps injected events. Nil means time.Now. Set it before use.
	Now func() time.Time
	// FailSetLights, when set, is returned by SetLights (the call is still
	// recorded in Calls, not in History).
	FailSetLights error

	seats  int
	events chan hw.Event

	injectMu sync.Mutex // serialises injections with closing the channel

	mu      sync.Mutex
	history [][]hw.SeatLight
	calls   int
	closed  bool
	done    chan struct{}
}

var _ hw.Table = (*Table)(nil)

// Buffer is the number of events a Table holds before injections block
// (until the test reads them, or Close).
const Buffer = 256

// New returns a fake table of seats seats, lights all off.
func New(seats int) *Table {
	return &Table{
		seats:  seats,
		events: make(chan hw.Event, Buffer),
		done:   make(chan struct{}),
	}
}

// Seats implements hw.Table.
func (t *Table) Seats() int { return t.seats }

// SetLights implements hw.Table. It checks the frame's length like a real
// table and records a copy.
func (t *Table) SetLights(lights []hw.SeatLight) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.calls++
	if t.closed {
		return ErrClosed
	}
	if len(lights) != t.seats {
		return fmt.Errorf("hwtest: SetLights: %d lights for %d seats", len(lights), t.seats)
	}
	if t.FailSetLights != nil {
		return t.FailSetLights
	}
	t.history = append(t.history, slices.Clone(lights))
	return nil
}

// Events implements hw.Table.
func (t *Table) Events() <-chan hw.Event { return t.events }

// Close implements hw.Table: the lights go off (an all-off frame is
// recorded), the events channel is closed and injections fail. Closing
// twice is harmless.
func (t *Table) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	t.closed = true
	t.history = append(t.history, make([]hw.SeatLight, t.seats))
	close(t.done)
	// An injection blocked on a full channel holds no lock: it sees done.
	// Injections that are not blocked are serialised by injectMu.
	t.injectMu.Lock()
	close(t.events)
	t.injectMu.Unlock()
	return nil
}

// Closed reports whether Close was called.
func (t *Table) Closed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}

// History returns a copy of every frame SetLights accepted, oldest first
// (and, after Close, the all-off frame).
func (t *Table) History() [][]hw.SeatLight {
	t.mu.Lock()
	defer t.mu.Unlock()
	h := make([][]hw.SeatLight, len(t.history))
	for i, f := range t.history {
		h[i] = slices.Clone(f)
	}
	return h
}

// Lights returns the last frame (all off before the first SetLights).
func (t *Table) Lights() []hw.SeatLight {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.history) == 0 {
		return make([]hw.SeatLight, t.seats)
	}
	return slices.Clone(t.history[len(t.history)-1])
}

// Calls is the number of SetLights calls, failed ones included.
func (t *Table) Calls() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.calls
}

// Inject delivers an event as the hardware would. It stamps At from Now
// when it is zero. It fails after Close.
func (t *Table) Inject(ev hw.Event) error {
	if ev.At.IsZero() {
		ev.At = t.now()
	}
	if ev.Kind == hw.EventKey && ev.Key.At.IsZero() {
		ev.Key.At = ev.At
	}
	t.injectMu.Lock()
	defer t.injectMu.Unlock()
	select {
	case <-t.done:
		return ErrClosed
	default:
	}
	select {
	case t.events <- ev:
		return nil
	case <-t.done:
		return ErrClosed
	}
}

// KeyDown injects a seat key going down.
func (t *Table) KeyDown(seat int, k hw.Key) error { return t.key(seat, k, hw.Down) }

// KeyUp injects a seat key coming up.
func (t *Table) KeyUp(seat int, k hw.Key) error { return t.key(seat, k, hw.Up) }

// Press injects a key going down then up, as a player's press.
func (t *Table) Press(seat int, keys ...hw.Key) error {
	for _, k := range keys {
		if err := t.KeyDown(seat, k); err != nil {
			return err
		}
		if err := t.KeyUp(seat, k); err != nil {
			return err
		}
	}
	return nil
}

// Pedal injects a classified pedal press.
func (t *Table) Pedal(p hw.PedalPress) error {
	return t.Inject(hw.Event{Kind: hw.EventPedal, Pedal: p})
}

// SetLink injects a change of the link to the hardware.
func (t *Table) SetLink(up bool, detail string) error {
	return t.Inject(hw.Event{Kind: hw.EventLink, Link: hw.Link{Up: up, Detail: detail}})
}

func (t *Table) key(seat int, k hw.Key, e hw.Edge) error {
	if seat < 1 || seat > t.seats {
		return fmt.Errorf("hwtest: seat %d is out of range 1..%d", seat, t.seats)
	}
	at := t.now()
	return t.Inject(hw.Event{Kind: hw.EventKey, At: at, Key: hw.KeyEvent{Seat: seat, Key: k, Edge: e, At: at}})
}

func (t *Table) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}
