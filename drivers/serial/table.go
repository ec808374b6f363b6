package serial

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"wolftable/firmware-bridge/protocol"
	"wolftable/hw"
)

// Info is what a bridge says about itself in its Hello, and in its first
// Stats.
type Info struct {
	Port        string           // where it was found
	Firmware    protocol.Version // its firmware version
	Protocol    int              // the newest protocol version it answered in: 1, or 2
	Seats       int              // seats on its chain
	KeysPerSeat int              // keys wired on each seat panel
	Caps        protocol.Capabilities

	// LastReset is why the bridge last started (protocol version 2's
	// Stats): ResetUnknown until its first Stats, or from a version 1
	// bridge.
	LastReset protocol.ResetReason
}

// Capabilities returns the names of the bridge's optional hardware:
// "private-led", "pedal"; and "chain-fault" when the bridge reports its key
// chain broken (unplugged, cut or without power: see protocol.CapChainFault).
func (i Info) Capabilities() []string {
	caps := []string{}
	if i.Caps&protocol.CapPrivateLED != 0 {
		caps = append(caps, "private-led")
	}
	if i.Caps&protocol.CapPedal != 0 {
		caps = append(caps, "pedal")
	}
	if i.Caps&protocol.CapChainFault != 0 {
		caps = append(caps, "chain-fault")
	}
	return caps
}

func (i Info) String() string {
	return fmt.Sprintf("bridge fw %v, %d seats, on %s", i.Firmware, i.Seats, i.Port)
}

// Stats are the driver's counters since Open.
type Stats struct {
	Decoder     protocol.DecoderStats // what the host's decoder made of the line, every connection
	Bridge      protocol.Stats        // the bridge's own counters, as of the last clock sync
	Connects    int                   // handshakes completed
	KeyEvents   uint64                // KeyEvents delivered (pedal edges included)
	Duplicates  uint64                // retransmitted KeyEvents dropped
	HeldBack    uint64                // KeyEvents held back to keep them in order (see GapWait, KeyWait)
	Synthesized uint64                // key edges supplied because the bridge's were lost for good
	Late        uint64                // KeyEvents delivered after later ones, their frame lost for longer than GapWait
	LightsSent  uint64                // Lights frames sent, retransmissions included
	LightsAcked uint64                // Lights frames the bridge acked
	Dropped     uint64                // events dropped because nobody read Events
	TxDropped   uint64                // frames not written because the write queue was full
}

// Table is the table through the seat-panel bridge. It implements hw.Table;
// its methods are safe for concurrent use.
type Table struct {
	cfg    Config
	log    *slog.Logger
	seats  int
	events chan hw.Event
	kick   chan struct{} // the lights changed
	qkick  chan struct{} // an event was queued
	cancel context.CancelFunc
	done   chan struct{} // the session goroutine and the deliverer have stopped

	mu       sync.Mutex
	closed   bool
	up       bool
	downMsg  string // the last link-down detail reported
	lastErr  error  // why the last connection attempt failed
	info     Info
	want     protocol.Lights
	wantGen  uint64 // 0: lights never set
	ackedGen uint64
	acked    chan struct{} // closed, and replaced, when the bridge acks lights
	queue    []hw.Event
	stats    Stats

	// Config.HoldAcks: the acks of the events whose Done ran, for the
	// session loop, and the last of those events, so that a
	// retransmission of one is acked again.
	acks    chan heldAck
	gen     uint64 // the current session's number
	doneEvs [doneDepth]protocol.KeyEvent
	doneN   int
}

// heldAck is the ack of a key event held until its Done.
type heldAck struct {
	gen uint64
	seq uint8
}

const doneDepth = 64

// receipt is the hw.Receipt of a key event sent with seq in session gen.
func (t *Table) receipt(ev protocol.KeyEvent, gen uint64, seq uint8) *hw.Receipt {
	return hw.NewReceipt(func() {
		t.mu.Lock()
		t.doneEvs[t.doneN%doneDepth] = ev
		t.doneN++
		t.mu.Unlock()
		select {
		case t.acks <- heldAck{gen, seq}:
		default: // full: the bridge sends the event again, and wasDone acks it
		}
	})
}

// keyID is a key event's hw.KeyEvent.ID: its seat, key, edge, press
// counter and bridge timestamp, "7.HAND.down.12.3456789" — what a
// retransmission repeats, to the next host process too, and what the
// sequencer tells duplicates by. The bridge's Hello carries no boot
// identity; a rebooted bridge counts presses from 1 again but on a clock
// that is at another microsecond, so an edge of one boot is taken for one
// of another only when the same seat's key has the same press count at
// the same microsecond of both clocks (which wrap every 71 minutes).
func keyID(ev protocol.KeyEvent) string {
	return fmt.Sprintf("%d.%s.%s.%d.%d", ev.Seat, ev.Key, ev.Edge, ev.Counter, ev.Micros)
}

// wasDone reports whether ev's Done has run (Config.HoldAcks).
func (t *Table) wasDone(ev protocol.KeyEvent) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, d := range t.doneEvs[:min(t.doneN, doneDepth)] {
		if d == ev {
			return true
		}
	}
	return false
}

var _ hw.Table = (*Table)(nil)

// Open connects to the bridge cfg describes and returns the table. Unless
// cfg.WaitLink is negative it waits up to cfg.WaitLink for the bridge to
// answer, and fails if it does not or if it does not fit the table (a
// *HandshakeError). The table runs until Close or until ctx is done; it
// reconnects by itself after losing the bridge.
func Open(ctx context.Context, cfg Config) (*Table, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	t := &Table{
		cfg:    cfg,
		log:    cfg.Logger.With("component", "serial-bridge"),
		seats:  cfg.Seats,
		events: make(chan hw.Event, 64),
		kick:   make(chan struct{}, 1),
		qkick:  make(chan struct{}, 1),
		done:   make(chan struct{}),
		acked:  make(chan struct{}),
		acks:   make(chan heldAck, 64),
	}
	ctx, t.cancel = context.WithCancel(ctx)
	first := make(chan error, 1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); t.run(ctx, first) }()
	go func() { defer wg.Done(); t.deliver(ctx) }()
	go func() { wg.Wait(); close(t.events); close(t.done) }()
	if cfg.WaitLink < 0 {
		return t, nil
	}
	timer := time.NewTimer(cfg.WaitLink)
	defer timer.Stop()
	select {
	case err = <-first:
	case <-timer.C:
		t.mu.Lock()
		err = t.lastErr
		t.mu.Unlock()
		if err == nil {
			err = errors.New("serial: no answer from the bridge")
		}
		err = fmt.Errorf("%w (waited %v)", err, cfg.WaitLink)
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		t.cancel()
		<-t.done
		return nil, err
	}
	return t, nil
}

// Seats returns the number of seats.
func (t *Table) Seats() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seats
}

// Info returns what the bridge said in its last Hello.
func (t *Table) Info() Info {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.info
}

// Stats returns the driver's counters.
func (t *Table) Stats() Stats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stats
}

// Events delivers key, pedal and link events until Close. The first, once
// the bridge answers, is the link coming up.
func (t *Table) Events() <-chan hw.Event { return t.events }

// colors are the number lights' colours at full brightness.
var colors = [...]protocol.SeatLight{
	hw.Off:   {},
	hw.Green: {G: 255},
	hw.Red:   {R: 255},
	hw.Blue:  {B: 255},
}

// lightsFrame builds the protocol's full state of the table's lights.
func (t *Table) lightsFrame(lights []hw.SeatLight) (protocol.Lights, error) {
	seats := t.Seats()
	if len(lights) != seats {
		return protocol.Lights{}, fmt.Errorf("serial: %d lights for %d seats", len(lights), seats)
	}
	m := protocol.Lights{Seats: uint8(seats)}
	for i, l := range lights {
		if int(l.Color) >= len(colors) {
			return protocol.Lights{}, fmt.Errorf("serial: seat %d: unknown colour %d", i+1, l.Color)
		}
		s := colors[l.Color]
		if l.Color != hw.Off {
			s.Brightness = l.Brightness
			if s.Brightness == 0 {
				s.Brightness = t.cfg.Brightness
			}
		}
		if l.Pulse {
			s.Flags |= protocol.LightPulse
		}
		if l.Private {
			s.Flags |= protocol.LightPrivate
		}
		m.Seat[i] = s
	}
	return m, nil
}

// SetLights sets every seat's light at once (lights[0] is seat 1) and
// returns without waiting for the bridge; the newest state is sent until the
// bridge acks it, and again after every reconnection.
func (t *Table) SetLights(lights []hw.SeatLight) error {
	_, err := t.setLights(lights, false)
	return err
}

// SetLightsAcked is SetLights that waits until the bridge has acked these
// lights (or newer ones), or ctx is done.
func (t *Table) SetLightsAcked(ctx context.Context, lights []hw.SeatLight) error {
	gen, err := t.setLights(lights, false)
	if err != nil {
		return err
	}
	return t.waitAcked(ctx, gen)
}

func (t *Table) setLights(lights []hw.SeatLight, closing bool) (uint64, error) {
	m, err := t.lightsFrame(lights)
	if err != nil {
		return 0, err
	}
	t.mu.Lock()
	if t.closed && !closing {
		t.mu.Unlock()
		return 0, ErrClosed
	}
	t.want = m
	t.wantGen++
	gen := t.wantGen
	t.mu.Unlock()
	select {
	case t.kick <- struct{}{}:
	default:
	}
	return gen, nil
}

func (t *Table) waitAcked(ctx context.Context, gen uint64) error {
	for {
		t.mu.Lock()
		done, acked := t.ackedGen >= gen, t.acked
		t.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-acked:
		case <-ctx.Done():
			return fmt.Errorf("serial: lights not acknowledged: %w", ctx.Err())
		case <-t.done:
			return ErrClosed
		}
	}
}

// closeLightsWait bounds how long Close waits for the bridge to ack the
// lights going off.
const closeLightsWait = 500 * time.Millisecond

// Close turns the lights off (unless Config.LeaveLights), closes the port
// and closes Events.
func (t *Table) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		<-t.done
		return nil
	}
	t.closed = true
	up, seats := t.up, t.seats
	t.mu.Unlock()
	if up && !t.cfg.LeaveLights && seats > 0 {
		if gen, err := t.setLights(make([]hw.SeatLight, seats), true); err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), closeLightsWait)
			if err := t.waitAcked(ctx, gen); err != nil {
				t.log.Warn("lights may stay on", "err", err)
			}
			cancel()
		}
	}
	t.cancel()
	<-t.done
	return nil
}

// emit queues an event for Events.
func (t *Table) emit(ev hw.Event) {
	t.mu.Lock()
	if len(t.queue) >= queueLimit {
		defer t.queue[0].Receipt.Done() // dropped: the bridge must not hold it for ever
		t.queue = t.queue[1:]
		t.stats.Dropped++
		if t.stats.Dropped == 1 {
			t.log.Error("nobody reads the table's events; dropping the oldest")
		}
	}
	t.queue = append(t.queue, ev)
	t.mu.Unlock()
	select {
	case t.qkick <- struct{}{}:
	default:
	}
}

// deliver moves queued events to Events, in order.
func (t *Table) deliver(ctx context.Context) {
	for {
		t.mu.Lock()
		var ev hw.Event
		have := len(t.queue) > 0
		if have {
			ev = t.queue[0]
		}
		t.mu.Unlock()
		if !have {
			select {
			case <-t.qkick:
				continue
			case <-ctx.Done():
				return
			}
		}
		select {
		case t.events <- ev:
			t.mu.Lock()
			if len(t.queue) > 0 {
				t.queue[0] = hw.Event{}
				t.queue = t.queue[1:]
			}
			t.mu.Unlock()
		case <-ctx.Done():
			return
		}
	}
}

// linkUp records a completed handshake and reports it.
func (t *Table) linkUp(info Info) {
	now := time.Now()
	t.mu.Lock()
	t.up, t.info, t.downMsg = true, info, ""
	t.lastErr = nil
	t.stats.Connects++
	if t.seats == 0 {
		t.seats = info.Seats
	}
	t.mu.Unlock()
	t.log.Info("link up", "port", info.Port, "firmware", info.Firmware.String(), "seats", info.Seats)
	t.emit(hw.Event{Kind: hw.EventLink, Link: hw.Link{Up: true, Detail: info.String()}, At: now})
}

// linkDown reports the link going down, or, before it ever came up, why it
// is not up; later reasons while it stays down are only logged.
func (t *Table) linkDown(reason string) {
	t.mu.Lock()
	wasUp, first, same := t.up, t.downMsg == "" && t.stats.Connects == 0, reason == t.downMsg
	t.up, t.downMsg = false, reason
	t.mu.Unlock()
	switch {
	case wasUp:
		t.log.Warn("link down", "reason", reason)
	case same:
		return
	default:
		t.log.Info("bridge not connected", "reason", reason)
	}
	if wasUp || first {
		t.emit(hw.Event{Kind: hw.EventLink, Link: hw.Link{Up: false, Detail: reason}, At: time.Now()})
	}
}

// failed records why a connection attempt failed.
func (t *Table) failed(err error) {
	t.mu.Lock()
	t.lastErr = err
	t.mu.Unlock()
	msg := err.Error()
	t.linkDown(strings.TrimPrefix(msg, "serial: "))
}
