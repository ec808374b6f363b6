package emulator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/protocol"
)

// DefaultFirmware is the firmware version an Emulator reports in its Hello
// unless Config.Firmware says otherwise.
var DefaultFirmware = protocol.Version{Major: 0, Minor: 1, Patch: 0}

// Timing of the main loop and of the USB side.
const (
	TickInterval = time.Millisecond       // Bridge.Tick rate: 1 kHz, as on the RP2040
	writeTimeout = 500 * time.Millisecond // a write the host does not read within this is dropped, as TinyGo's CDC drops writes nobody reads
	txQueue      = 256                    // chunks waiting for the writer
)

// Errors.
var (
	ErrClosed    = errors.New("emulator: closed")
	ErrUnplugged = errors.New("emulator: unplugged")
	ErrPlugged   = errors.New("emulator: already plugged in")
	ErrNoPedal   = errors.New("emulator: the pedal is not wired to this bridge")
)

// Config describes the emulated bridge.
type Config struct {
	// Link is the path of a symlink to the pseudo-terminal's slave device,
	// made at Start and at every Replug, removed by Unplug and Close. An
	// existing symlink there is replaced; any other file is an error. Empty:
	// no link; the host opens TTY.
	Link string

	Seats       int              // seats on the chain, 6…18; 0 means 12
	BitsPerSeat int              // shift-register bits per seat panel, 16…24; 0 means 24 (every key wired; with 16 the panel has no BOOM)
	Firmware    protocol.Version // reported in Hello; zero means DefaultFirmware
	NoPedal     bool             // the pedal is not wired to the bridge: Hello lacks CapPedal, Pedal fails
	PrivateLEDs bool             // each seat has a private indicator pixel after its number light

	Logger *slog.Logger // nil: slog.Default()

	// ManualClock stops the emulator's clock: it moves only when Advance
	// moves it, the main loop running one turn per TickInterval of it, and
	// the gestures (Tap, Pedal) advance it themselves. The firmware's
	// timing then no longer depends on how loaded the machine is: for
	// tests.
	ManualClock bool

	// ResetReason is why the emulated board started, as its Stats report
	// it to a host that speaks protocol version 2; zero: a power-on (the
	// USB cable).
	ResetReason protocol.ResetReason

	// OnKeySent, if set, is called from the main loop each time the firmware
	// writes a KeyEvent frame towards the host, with retransmit set for a
	// resend, and the time of the write. It must not block.
	OnKeySent func(ev protocol.KeyEvent, retransmit bool, at time.Time)
	// OnKeyAcked, if set, is called once for each KeyEvent the host acks
	// (the first Ack of the frame's seq; a repeated Ack is not counted):
	// the host has taken the event, and the firmware forgets it. It must
	// not block.
	OnKeyAcked func(ev protocol.KeyEvent, at time.Time)
}

// RGB is a light's colour as the LED shows it, brightness applied.
type RGB struct {
	R uint8 `json:"r"`
	G uint8 `json:"g"`
	B uint8 `json:"b"`
}

// Stats are the Emulator's counters since Start; Bridge is the firmware's
// own, since the last plug-in.
type Stats struct {
	Plugged           bool   // the pseudo-terminal is up
	Plugs             int    // times plugged in, Start included
	BootloaderTouches int    // times the host set 1200 baud (each unplugged the bridge)
	HostSilent        bool   // the firmware counts the host silent (core.Bridge.HostSilent)
	Hung              bool   // Hang(true) is in force
	Ticks             uint64 // Bridge.Tick calls
	BytesIn           uint64 // bytes the host wrote
	BytesOut          uint64 // bytes written towards the host, InjectHost's included
	FramesIn          uint64 // valid frames from the host
	FramesOut         uint64 // frames the firmware wrote
	KeyEventsSent     uint64 // KeyEvent frames sent for the first time
	KeyRetransmits    uint64 // KeyEvent frames resent
	KeyEventsAcked    uint64 // KeyEvents the host acked (once each)
	LightsIn          uint64 // Lights frames from the host
	LightChanges      uint64 // times the LED frame changed on the host's word (not counting the pulse animation)
	Injected          uint64 // bytes InjectHost queued
	TxQueued          uint64 // bytes queued towards the host, the firmware's and InjectHost's: BytesOut and TxDropped once written
	TxDropped         uint64 // bytes dropped because the host did not read them in time or the queue was full

	Bridge protocol.Stats // the firmware's counters, as a Stats message reports them
}

// Emulator is a seat-panel bridge running on the host behind a
// pseudo-terminal. Its methods are safe for concurrent use.
type Emulator struct {
	cfg      Config
	log      *slog.Logger
	epoch    time.Time // the emulator clock's zero: contact timings
	cancel   context.CancelFunc
	loopDone chan struct{}
	rx       chan rxChunk

	plugMu sync.Mutex // serialises Unplug, Replug, Close and the bootloader touch

	mu        sync.Mutex
	panel     *panel
	pedal     *pedalPin
	plug      *plug // nil while unplugged
	gen       uint64
	hung      bool
	closed    bool
	deadLED   [protocol.MaxSeats]bool
	changed   chan struct{} // closed, and replaced, when the lights change
	stats     Stats
	frameCopy [2 * 3 * protocol.MaxSeats]byte

	bytesOut, txDropped, txQueued atomic.Uint64

	steps   chan chan struct{} // Advance's turns (ManualClock)
	elapsed atomic.Int64       // ManualClock: ns since Start
}

// plug is one USB session: a pseudo-terminal and the firmware booted on it.
type plug struct {
	gen    uint64
	line   *line
	bridge *core.Bridge
	boot   time.Time
	tx     chan txChunk  // towards the host; never closed
	done   chan struct{} // closed by unplug
	wg     sync.WaitGroup

	in, out protocol.Decoder // read back both directions, for Stats and OnKeySent
	sent    [256]protocol.KeyEvent
	sentOK  [256]bool
	acked   [256]bool // sent[seq] was acked
}

type rxChunk struct {
	gen  uint64
	data []byte
}

// txChunk is bytes towards the host: the firmware's, or injected noise.
type txChunk struct {
	data  []byte
	noise bool // InjectHost's: written however long the host takes
}

// sentKey is a KeyEvent the firmware wrote, for OnKeySent.
type sentKey struct {
	ev         protocol.KeyEvent
	retransmit bool
}

// Start boots an emulated bridge behind a new pseudo-terminal and runs its
// main loop until ctx is cancelled or Close is called.
func Start(ctx context.Context, cfg Config) (*Emulator, error) {
	if cfg.Seats == 0 {
		cfg.Seats = 12
	}
	if cfg.BitsPerSeat == 0 {
		cfg.BitsPerSeat = protocol.MaxBitsPerSeat
	}
	if cfg.Firmware == (protocol.Version{}) {
		cfg.Firmware = DefaultFirmware
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	e := &Emulator{
		cfg:      cfg,
		log:      cfg.Logger.With("component", "bridge-emulator"),
		epoch:    time.Now(),
		loopDone: make(chan struct{}),
		rx:       make(chan rxChunk, 64),
		panel:    newPanel(cfg.Seats, cfg.BitsPerSeat),
		changed:  make(chan struct{}),
		steps:    make(chan chan struct{}),
	}
	e.pedal = &pedalPin{e.panel}
	// Check the configuration once, before making a pseudo-terminal.
	if _, err := e.newBridge(); err != nil {
		return nil, err
	}
	if err := e.Replug(); err != nil {
		return nil, err
	}
	ctx, e.cancel = context.WithCancel(ctx)
	go e.run(ctx)
	return e, nil
}

func (e *Emulator) newBridge() (*core.Bridge, error) {
	cfg := core.Config{
		Firmware: e.cfg.Firmware,
		Scan: core.ScanConfig{
			Seats:       e.cfg.Seats,
			BitsPerSeat: e.cfg.BitsPerSeat,
			KeyMap:      core.DefaultKeyMap(e.cfg.BitsPerSeat),
			ActiveLow:   true,
		},
		PrivateLEDs: e.cfg.PrivateLEDs,
		ResetReason: e.cfg.ResetReason,
	}
	if cfg.ResetReason == protocol.ResetUnknown {
		cfg.ResetReason = protocol.ResetPowerOn
	}
	if !e.cfg.NoPedal {
		cfg.Scan.Pedal, cfg.Scan.PedalActiveLow = e.pedal, true
	}
	b, err := core.NewBridge(cfg, e.panel)
	if err != nil {
		return nil, fmt.Errorf("emulator: %w", err)
	}
	return b, nil
}

// Close stops the firmware, closes the pseudo-terminal and removes the link.
func (e *Emulator) Close() error {
	e.cancel()
	<-e.loopDone
	return nil
}

// run is the firmware's main loop.
func (e *Emulator) run(ctx context.Context) {
	defer close(e.loopDone)
	defer e.shutdown()
	var ticks <-chan time.Time // none on a manual clock: Advance's steps instead
	if !e.cfg.ManualClock {
		t := time.NewTicker(TickInterval)
		defer t.Stop()
		ticks = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case c := <-e.rx:
			e.receive(c)
		case <-ticks:
			e.tick()
		case done := <-e.steps:
			e.step(done)
		}
	}
}

func (e *Emulator) shutdown() {
	e.plugMu.Lock()
	defer e.plugMu.Unlock()
	e.unplug()
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
}

// receive hands bytes from the host to the firmware.
func (e *Emulator) receive(c rxChunk) {
	acked := e.receiveLocked(c)
	if e.cfg.OnKeyAcked != nil {
		now := time.Now()
		for _, ev := range acked {
			e.cfg.OnKeyAcked(ev, now)
		}
	}
}

// receiveLocked is receive under e.mu; it returns the KeyEvents acked.
func (e *Emulator) receiveLocked(c rxChunk) (acked []protocol.KeyEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	p := e.plug
	if p == nil || p.gen != c.gen {
		return // from a pseudo-terminal since unplugged
	}
	e.stats.BytesIn += uint64(len(c.data))
	if e.hung {
		return
	}
	for in := c.data; len(in) > 0; {
		n, f, err := p.in.Feed(in)
		in = in[n:]
		if err == nil && f.Type != 0 {
			e.stats.FramesIn++
			if f.Type == protocol.TypeLights {
				e.stats.LightsIn++
			}
			if f.Type == protocol.TypeAck && len(f.Body) == 1 {
				if seq := f.Body[0]; p.sentOK[seq] && !p.acked[seq] {
					p.acked[seq] = true
					e.stats.KeyEventsAcked++
					acked = append(acked, p.sent[seq])
				}
			}
		}
	}
	before := e.frameCopy[:copy(e.frameCopy[:], p.bridge.LightFrame())]
	p.bridge.HandleBytes(c.data)
	if !bytes.Equal(before, p.bridge.LightFrame()) {
		e.lightsChanged()
	}
	return acked
}

// tick runs one pass of the firmware's main loop and writes what it sends.
func (e *Emulator) tick() {
	e.mu.Lock()
	p := e.plug
	if p == nil || e.hung {
		e.mu.Unlock()
		return
	}
	now := e.now()
	e.panel.now = uint64(now.Sub(e.epoch) / time.Microsecond)
	out := p.bridge.Tick(uint64(now.Sub(p.boot) / time.Microsecond))
	e.stats.Ticks++
	var sent []sentKey
	if len(out) > 0 {
		out = bytes.Clone(out)
		sent = e.readBack(p, out)
	}
	touch := false
	if e.stats.Ticks%10 == 0 {
		if b, err := p.line.baud(); err == nil && b == unix.B1200 {
			touch = true
		}
	}
	e.mu.Unlock()

	if len(out) > 0 {
		select {
		case p.tx <- txChunk{data: out}:
			e.txQueued.Add(uint64(len(out)))
		default:
			e.txDropped.Add(uint64(len(out)))
			e.txQueued.Add(uint64(len(out)))
		}
	}
	if e.cfg.OnKeySent != nil {
		for _, s := range sent {
			e.cfg.OnKeySent(s.ev, s.retransmit, now)
		}
	}
	if touch {
		e.bootloaderTouch(p)
	}
}

// readBack decodes the firmware's own output for Stats and OnKeySent.
func (e *Emulator) readBack(p *plug, out []byte) []sentKey {
	var sent []sentKey
	for len(out) > 0 {
		n, f, err := p.out.Feed(out)
		out = out[n:]
		if err != nil || f.Type == 0 {
			continue
		}
		e.stats.FramesOut++
		if f.Type != protocol.TypeKeyEvent {
			continue
		}
		var ev protocol.KeyEvent
		if ev.UnmarshalBody(f.Body) != nil {
			continue
		}
		re := p.sentOK[f.Seq] && p.sent[f.Seq] == ev
		p.sent[f.Seq], p.sentOK[f.Seq] = ev, true
		if re {
			e.stats.KeyRetransmits++
		} else {
			e.stats.KeyEventsSent++
			p.acked[f.Seq] = false
		}
		sent = append(sent, sentKey{ev, re})
	}
	return sent
}

// bootloaderTouch is what 1200 baud does to an RP2040 running TinyGo: it
// reboots into the UF2 bootloader, which is not a serial port.
func (e *Emulator) bootloaderTouch(p *plug) {
	e.plugMu.Lock()
	defer e.plugMu.Unlock()
	e.mu.Lock()
	same := e.plug == p
	if same {
		e.stats.BootloaderTouches++
	}
	e.mu.Unlock()
	if same {
		e.log.Warn("host set 1200 baud: the bridge reboots into its bootloader (unplugged; Replug to bring it back)", "tty", p.line.tty)
		e.unplug()
	}
}

// lightsChanged wakes WaitLights. e.mu is held.
func (e *Emulator) lightsChanged() {
	e.stats.LightChanges++
	close(e.changed)
	e.changed = make(chan struct{})
}

// Unplug pulls the USB cable: the pseudo-terminal closes (the host's reads
// fail), the link disappears and the bridge loses power (its LEDs go dark).
func (e *Emulator) Unplug() error {
	e.plugMu.Lock()
	defer e.plugMu.Unlock()
	e.mu.Lock()
	closed, p := e.closed, e.plug
	e.mu.Unlock()
	switch {
	case closed:
		return ErrClosed
	case p == nil:
		return ErrUnplugged
	}
	e.unplug()
	return nil
}

// unplug tears the current plug down, if any. e.plugMu is held.
func (e *Emulator) unplug() {
	e.mu.Lock()
	p := e.plug
	e.plug = nil
	if p != nil {
		e.lightsChanged()
	}
	e.mu.Unlock()
	if p == nil {
		return
	}
	close(p.done)
	if e.cfg.Link != "" {
		unlink(e.cfg.Link, p.line.tty)
	}
	p.line.close()
	p.wg.Wait()
	for pending := true; pending; { // what never reached the host
		select {
		case c := <-p.tx:
			e.txDropped.Add(uint64(len(c.data)))
		default:
			pending = false
		}
	}
	e.log.Info("bridge unplugged", "tty", p.line.tty)
}

// Replug plugs the bridge back in: it boots afresh (dark lights, press
// counters from 1) behind a new pseudo-terminal, linked at Config.Link.
func (e *Emulator) Replug() error {
	e.plugMu.Lock()
	defer e.plugMu.Unlock()
	e.mu.Lock()
	closed, plugged := e.closed, e.plug != nil
	e.mu.Unlock()
	switch {
	case closed:
		return ErrClosed
	case plugged:
		return ErrPlugged
	}
	b, err := e.newBridge()
	if err != nil {
		return err
	}
	l, err := openLine()
	if err != nil {
		return err
	}
	p := &plug{line: l, bridge: b, boot: e.now(), tx: make(chan txChunk, txQueue), done: make(chan struct{})}
	e.mu.Lock()
	e.gen++
	p.gen = e.gen
	e.plug = p
	e.stats.Plugs++
	e.lightsChanged()
	e.mu.Unlock()
	p.wg.Add(2)
	go e.read(p)
	go e.write(p)
	if e.cfg.Link != "" {
		if err := linkTo(e.cfg.Link, l.tty); err != nil {
			e.unplug()
			return err
		}
	}
	e.log.Info("bridge plugged in", "tty", l.tty, "link", e.cfg.Link)
	return nil
}

// read moves the host's bytes to the main loop.
func (e *Emulator) read(p *plug) {
	defer p.wg.Done()
	buf := make([]byte, 4096)
	for {
		n, err := p.line.master.Read(buf)
		if n > 0 {
			select {
			case e.rx <- rxChunk{p.gen, bytes.Clone(buf[:n])}:
			case <-p.done:
				return
			}
		}
		if err != nil {
			select {
			case <-p.done:
			default:
				e.log.Warn("pty read", "err", err)
			}
			return
		}
	}
}

// write moves the firmware's frames (and injected bytes) to the host. The
// firmware's are dropped if the host does not read them within
// writeTimeout; injected noise waits for the host.
func (e *Emulator) write(p *plug) {
	defer p.wg.Done()
	for {
		var c txChunk
		select {
		case <-p.done:
			return
		case c = <-p.tx:
		}
		var deadline time.Time
		if !c.noise {
			deadline = time.Now().Add(writeTimeout)
		}
		p.line.master.SetWriteDeadline(deadline)
		n, err := p.line.master.Write(c.data)
		e.bytesOut.Add(uint64(n))
		if err != nil {
			e.txDropped.Add(uint64(len(c.data) - n))
			if !errors.Is(err, unix.EAGAIN) && !isTimeout(err) {
				select {
				case <-p.done:
				default:
					e.log.Warn("pty write", "err", err)
				}
				return
			}
		}
	}
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// Path returns where the host opens the bridge: Config.Link, or TTY without
// a link.
func (e *Emulator) Path() string {
	if e.cfg.Link != "" {
		return e.cfg.Link
	}
	return e.TTY()
}

// TTY returns the current pseudo-terminal's slave device, or "" while
// unplugged.
func (e *Emulator) TTY() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.plug == nil {
		return ""
	}
	return e.plug.line.tty
}

// Seats returns the number of seats on the chain.
func (e *Emulator) Seats() int { return e.cfg.Seats }

// Plugged reports whether the bridge is plugged in.
func (e *Emulator) Plugged() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.plug != nil
}

// Hang freezes the firmware (hung true) as a crashed RP2040 would: no scans,
// no frames, bytes from the host are lost, the LEDs hold. Hang(false) lets
// it run on from where it stopped.
func (e *Emulator) Hang(hung bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.hung = hung
}

// InjectHost writes p towards the host between two of the firmware's
// writes, as line noise. It waits while the write queue is full; the bytes
// are written however long the host takes to read them.
func (e *Emulator) InjectHost(p []byte) error {
	e.mu.Lock()
	pl := e.plug
	e.mu.Unlock()
	if pl == nil {
		return ErrUnplugged
	}
	select {
	case pl.tx <- txChunk{data: bytes.Clone(p), noise: true}:
		e.txQueued.Add(uint64(len(p)))
		e.mu.Lock()
		e.stats.Injected += uint64(len(p))
		e.mu.Unlock()
		return nil
	case <-pl.done:
		return ErrUnplugged
	}
}

// Stats returns the counters.
func (e *Emulator) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.stats
	s.Plugged = e.plug != nil
	s.Hung = e.hung
	s.BytesOut = e.bytesOut.Load()
	s.TxDropped = e.txDropped.Load()
	s.TxQueued = e.txQueued.Load()
	if e.plug != nil {
		s.Bridge = e.plug.bridge.Stats()
		s.HostSilent = e.plug.bridge.HostSilent()
	}
	return s
}

// Lights returns each seat's number light as the LEDs show it now: seat n is
// element n-1. Unplugged, every LED is dark; a dead LED is always dark.
func (e *Emulator) Lights() []RGB {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.lights(0)
}

// PrivateLights returns each seat's private indicator as the LEDs show it
// now, or nil if the bridge has none.
func (e *Emulator) PrivateLights() []RGB {
	if !e.cfg.PrivateLEDs {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.lights(1)
}

// lights reads pixel offset (0: number light, 1: private indicator) of every
// seat from the firmware's WS2812 frame (GRB bytes). e.mu is held.
func (e *Emulator) lights(offset int) []RGB {
	out := make([]RGB, e.cfg.Seats)
	if e.plug == nil {
		return out
	}
	frame := e.plug.bridge.LightFrame()
	perSeat := 1
	if e.cfg.PrivateLEDs {
		perSeat = 2
	}
	for i := range out {
		j := 3 * (perSeat*i + offset)
		if e.deadLED[i] || j+3 > len(frame) {
			continue
		}
		out[i] = RGB{R: frame[j+1], G: frame[j], B: frame[j+2]}
	}
	return out
}

// WaitLights waits until ok accepts the number lights (see Lights), checking
// them now and after every change the host makes, until ctx is done.
func (e *Emulator) WaitLights(ctx context.Context, ok func([]RGB) bool) error {
	for {
		e.mu.Lock()
		done, changed := ok(e.lights(0)), e.changed
		e.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// SetDeadLED breaks (dead true) or mends seat's number light: a dead LED
// stays dark whatever the firmware sends it.
func (e *Emulator) SetDeadLED(seat int, dead bool) error {
	if seat < 1 || seat > e.cfg.Seats {
		return &SeatError{Seat: seat, Seats: e.cfg.Seats}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.deadLED[seat-1] = dead
	e.lightsChanged()
	return nil
}

// SetKeyFault gives seat's key a fault, or mends it with NoFault.
func (e *Emulator) SetKeyFault(seat int, key protocol.Key, f KeyFault) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	c, err := e.panel.key(seat, key)
	if err != nil {
		return err
	}
	c.fault = f
	c.since = e.clock()
	return nil
}

// clock returns the emulator clock, µs since Start.
func (e *Emulator) clock() uint64 { return uint64(e.now().Sub(e.epoch) / time.Microsecond) }

// Press puts a finger on seat's key (1…Seats) and keeps it there.
func (e *Emulator) Press(seat int, key protocol.Key) error { return e.setKey(seat, key, true) }

// Release lifts the finger from seat's key.
func (e *Emulator) Release(seat int, key protocol.Key) error { return e.setKey(seat, key, false) }

func (e *Emulator) setKey(seat int, key protocol.Key, pressed bool) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	c, err := e.panel.key(seat, key)
	if err != nil {
		return err
	}
	set(c, pressed, e.clock())
	return nil
}
