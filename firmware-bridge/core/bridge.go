package core

import "wolftable/firmware-bridge/protocol"

// Timing of the bridge's side of the protocol, in µs of Tick time.
const (
	HeartbeatMicros   = 250_000   // a Ping to the host this often
	HostSilenceMicros = 1_000_000 // no valid frame from the host for this long: the host is silent
	RetransmitMicros  = 100_000   // resend an unacked KeyEvent after this long
	MaxInFlight       = 1         // unacked KeyEvents at most (one: a lost frame can never let a later key overtake it); the rest wait in the queue
	OutLen            = 1024      // bytes of frames buffered between two Ticks (or waiting for the port, with Poll)
)

// The USB side of Poll, for TinyGo 0.39's USB CDC on the RP2040 (see
// docs/wiring.md). Its transmit ring holds eight 64-byte packets besides the
// one on the wire; Write never blocks and never fails: it drops what it is
// given while the host's DTR is down, drops a write into a full ring, and
// overwrites queued packets with one that overflows it (later TinyGo spins
// instead), and the firmware cannot ask how full the ring is. So Poll never
// lets more than TxWindow bytes be written and not yet known to be read by
// the host: it knows a byte was read when the host answers, with a Pong, a
// Ping written after it.
//
// Each session starts with a new window: when the port opens (DTR rises),
// or, with no DTR edge (after a USB bus reset the Pico sees none), at the
// first HostHello after a host silence. What an earlier session left unread
// is at most a window, and usually nothing: Linux's cdc-acm keeps reading
// the endpoint while the port is open, whether the program reads or not,
// and drops DTR before it stops reading at close, after which TinyGo drops
// writes. A session whose host never answers a Ping (a probe, which closes
// once it has the Hello) therefore costs the next one nothing: the bridge
// answers every session's HostHello. (Only a host whose USB stopped
// collecting packets and that reopened the port twice without reading in
// between could fill the ring; TinyGo 0.39 then drops or garbles output
// until the host reads again, which the frames' CRC and the retransmissions
// repair.)
//
// A write never ends on a full 64-byte packet into an idle ring: Linux reads
// the CDC endpoint 128 bytes at a time and TinyGo sends no zero-length
// packet, so such a packet would wait in the host's buffer for the next one
// (up to a heartbeat). TinyGo's receive ring holds 128 bytes and drops what
// does not fit (there is no flow control): the firmware's loop drains it
// every turn and again after writing the LEDs (Receive), and a host paces
// what it sends (protocol.HostPaceBytes).
const (
	TxWindow        = 192          // bytes written and not yet known read, at most
	TxPerPoll       = 63           // bytes written per Poll, at most: less than one full-speed USB packet
	RxPerPoll       = 256          // bytes read per Poll or Receive, at most: TinyGo's receive ring holds 128
	CreditPingBytes = TxWindow / 4 // a Ping after this many bytes, so the host's Pongs keep the window open
	pingMarks       = 32           // recent Pings whose Pong opens the window: more than fit in the window and OutLen
)

// Port is the USB CDC serial port as Poll uses it. TinyGo's machine.Serial
// (a machine.Serialer, with -serial=usb) has these methods.
type Port interface {
	Buffered() int               // bytes waiting to be read
	ReadByte() (byte, error)     // the next byte, or an error if none
	Write(p []byte) (int, error) // queues p for the host
	DTR() bool                   // the host has the port open
}

// Config is what the bridge is.
type Config struct {
	Firmware    protocol.Version // reported in Hello
	Scan        ScanConfig       // the seat panels and the pedal
	PrivateLEDs bool             // each seat has a private indicator pixel after its number light

	// LightsFromLastSeat: the WS2812 chain starts at the last seat's
	// pixel(s), not seat 1's (a board wired from the other end, as
	// ScanConfig.ChainFromLastSeat is for the keys).
	LightsFromLastSeat bool

	// ResetReason is why the board last started, reported in Stats to a
	// host that speaks protocol version 2 (cmd/pico reads it from the
	// RP2040's reset registers: ResetReasonOf).
	ResetReason protocol.ResetReason
}

// inFlight is a KeyEvent sent and not yet acked.
type inFlight struct {
	ev     protocol.KeyEvent
	seq    uint8  // the seq it is sent with, every time
	sentAt uint64 // last (re)transmission, µs
}

// Bridge is the firmware: it scans the keys, drives the lights and speaks
// the protocol with the host. It has no clock and no goroutine: the
// firmware's main loop calls Poll with the USB port about every millisecond
// with the time (see Poll); a host-side emulator, whose link never blocks,
// hands it the bytes from the host with HandleBytes, calls Tick as often and
// writes out what Tick returns.
//
// What it does:
//   - answers HostHello with Hello, Ping with Pong, StatsRequest with Stats,
//     SelfTestDumpKeys with SelfTestKeys, in the protocol version of the
//     session's HostHello (1 or 2; with 2, Stats carries Config.ResetReason);
//   - acks Lights and SelfTestSetLED and shows them (see Lights);
//   - sends a Ping every HeartbeatMicros, and counts the host silent when no
//     valid frame has come from it for HostSilenceMicros;
//   - sends each KeyEvent with its own seq and resends it, with the same seq
//     and press counter, every RetransmitMicros until the host acks that seq.
//     At most MaxInFlight events are unacked; later ones wait in the
//     Scanner's queue (QueueLen), and beyond that are dropped and counted.
//     While the host is silent resending pauses; the first frame from the
//     host resumes it, so presses made while the host was away arrive late
//     rather than never (the host judges them by their timestamps).
//   - reports CapChainFault in Hello while the Scanner sees the chain broken
//     (see ChainFault).
//   - with Poll, sends only while the port is open and the host talks, and
//     paces its output by the host's Pongs (TxWindow).
//
// Frames the host should not send (Hello, KeyEvent, …) are ignored.
type Bridge struct {
	cfg    Config
	scan   *Scanner
	lights *Lights
	dec    protocol.Decoder

	outBuf   [OutLen]byte
	out      []byte
	outDrops uint32

	// Poll's side of the USB link (see TxWindow).
	polled    bool // Poll drives the bridge: send only while the host is there
	dtr       bool // the port was open at the last Poll
	rx        [RxPerPoll]byte
	written   uint32 // bytes handed to the port since boot, wrapping
	confirmed uint32 // of those, bytes the host has read for sure (or left behind in an earlier session)
	pings     [pingMarks]struct {
		nonce uint32
		end   uint32 // stream position just after the Ping
	}
	lastPingEnd uint32 // stream position after the last Ping queued

	seq       uint8
	pending   [MaxInFlight]inFlight
	nPending  int
	nextPing  uint64
	pingNonce uint32

	version uint8 // the session's protocol version: its HostHello's; 1 until one comes

	now       uint64
	heard     bool // a valid frame from the host since the last Tick
	everHeard bool
	lastHeard uint64

	// Outgoing messages live here, not on the stack, so that sending one
	// does not allocate.
	msg struct {
		hello protocol.Hello
		ack   protocol.Ack
		ping  protocol.Ping
		pong  protocol.Pong
		stats protocol.Stats
		keys  protocol.SelfTestKeys
		event protocol.KeyEvent
		// incoming, parsed in place
		lights protocol.Lights
		setLED protocol.SelfTestSetLED
		hpong  protocol.Pong
	}
}

// NewBridge returns a Bridge scanning chain as cfg describes.
func NewBridge(cfg Config, chain ShiftChain) (*Bridge, error) {
	if chain == nil {
		return nil, &ConfigError{"chain", 0, "nil ShiftChain"}
	}
	scan, err := NewScanner(chain, cfg.Scan)
	if err != nil {
		return nil, err
	}
	b := &Bridge{
		cfg:    cfg,
		scan:   scan,
		lights: NewLights(cfg.Scan.Seats, cfg.PrivateLEDs),
	}
	b.lights.fromLast = cfg.LightsFromLastSeat
	b.out = b.outBuf[:0]
	b.version = protocol.ProtocolVersion
	var caps protocol.Capabilities
	if cfg.PrivateLEDs {
		caps |= protocol.CapPrivateLED
	}
	if cfg.Scan.Pedal != nil {
		caps |= protocol.CapPedal
	}
	b.msg.hello = protocol.Hello{
		Firmware:    cfg.Firmware,
		Protocol:    protocol.ProtocolVersion,
		Seats:       uint8(cfg.Scan.Seats),
		KeysPerSeat: uint8(scan.KeysPerSeat()),
		Caps:        caps,
	}
	return b, nil
}

// HandleBytes takes bytes received from the host, in any pieces. Replies are
// returned by the next Tick.
func (b *Bridge) HandleBytes(in []byte) {
	for len(in) > 0 {
		n, f, err := b.dec.Feed(in)
		in = in[n:]
		if err != nil || f.Type == 0 {
			continue
		}
		b.heard = true
		b.handle(f)
	}
}

func (b *Bridge) handle(f protocol.Frame) {
	// The Decoder has checked every body, so UnmarshalBody cannot fail here.
	switch f.Type {
	case protocol.TypeHostHello:
		if b.polled && b.HostSilent() {
			// A new session without a DTR edge (a USB bus reset, the
			// host rebooted with the Pico powered): a new window.
			b.newWindow()
		}
		// The session speaks the HostHello's version: a version 1 host
		// gets version 1 frames only (Stats without the reset reason).
		b.version = f.Version
		b.msg.hello.Protocol = f.Version
		b.msg.hello.Caps &^= protocol.CapChainFault
		if b.scan.Fault().Any() {
			b.msg.hello.Caps |= protocol.CapChainFault
		}
		b.send(&b.msg.hello, b.nextSeq())
	case protocol.TypeLights:
		if m := &b.msg.lights; m.UnmarshalBody(f.Body) == nil {
			b.lights.Set(m)
			b.ack(f.Seq)
		}
	case protocol.TypeSelfTestSetLED:
		if m := &b.msg.setLED; m.UnmarshalBody(f.Body) == nil {
			b.lights.SetRaw(int(m.Seat), m.R, m.G, m.B)
			b.ack(f.Seq)
		}
	case protocol.TypePong:
		if m := &b.msg.hpong; m.UnmarshalBody(f.Body) == nil {
			b.ponged(m.Nonce)
		}
	case protocol.TypeAck:
		b.acked(f.Body[0])
	case protocol.TypePing:
		// With a backlog for the port the Pong would come too late to tell
		// the host anything: it is not sent (and not counted as dropped).
		if (!b.polled || len(b.out) < TxWindow) && b.msg.pong.UnmarshalBody(f.Body) == nil {
			b.send(&b.msg.pong, b.nextSeq())
		}
	case protocol.TypeStatsRequest:
		b.msg.stats = b.Stats()
		b.send(&b.msg.stats, b.nextSeq())
	case protocol.TypeSelfTestDumpKeys:
		k := &b.msg.keys
		k.BitsPerSeat = uint8(b.scan.BitsPerSeat())
		k.Seats = uint8(b.scan.Seats())
		for i := range k.Bits {
			k.Bits[i] = b.scan.RawBits(i + 1)
		}
		b.send(k, b.nextSeq())
	}
}

func (b *Bridge) ack(seq uint8) {
	b.msg.ack.Seq = seq
	b.send(&b.msg.ack, b.nextSeq())
}

// acked forgets the in-flight KeyEvent sent with seq, if any.
func (b *Bridge) acked(seq uint8) {
	for i := 0; i < b.nPending; i++ {
		if b.pending[i].seq == seq {
			copy(b.pending[i:b.nPending], b.pending[i+1:b.nPending])
			b.nPending--
			return
		}
	}
}

// Tick advances the bridge to now, in µs since boot: it scans the keys,
// sends heartbeats and key events, and returns every frame to write to the
// host since the last Tick. The slice is valid until the next HandleBytes
// or Tick. Tick is for a link that never blocks (the emulator's pty); the
// firmware calls Poll instead. A Bridge is driven by one or the other.
func (b *Bridge) Tick(now uint64) []byte {
	b.tick(now)
	out := b.out
	b.out = b.outBuf[:0]
	return out
}

// Poll is one turn of the firmware's main loop at now, in µs since boot: it
// takes at most RxPerPoll bytes from port (see Receive), scans the keys, and
// hands port at most TxPerPoll bytes of what there is to send, never more
// than TxWindow ahead of what the host is known to have read. It never
// waits for the host. It sends only while the port is open (DTR) and the
// host is talking (see HostSilent); meanwhile key events wait in the queue
// (QueueLen, then counted as overflows), and what was queued for a port
// that closed is dropped (unacked key events are sent again).
func (b *Bridge) Poll(port Port, now uint64) {
	b.Receive(port)
	dtr := port.DTR()
	switch {
	case dtr && !b.dtr:
		b.newWindow() // opened again: a new session
	case !dtr && b.dtr:
		b.dropOutput()
	}
	b.dtr = dtr
	b.tick(now)
	if !dtr {
		b.dropOutput()
		return
	}
	room := TxWindow - int(b.written-b.confirmed)
	w := min(len(b.out), TxPerPoll, room)
	if w <= 0 {
		return
	}
	k, _ := port.Write(b.out[:w]) // a short or failed write: the rest waits
	k = min(max(k, 0), w)
	b.written += uint32(k)
	b.out = b.outBuf[:copy(b.outBuf[:], b.out[k:])]
}

// Receive takes at most RxPerPoll bytes from port and handles them, as Poll
// does first; the replies go out with the next Poll. The firmware calls it
// between two Polls when its loop turn was long (after writing the LEDs),
// so that TinyGo's 128-byte receive ring, which drops what does not fit, is
// drained often enough.
func (b *Bridge) Receive(port Port) {
	b.polled = true
	n := 0
	for n < len(b.rx) && port.Buffered() > 0 {
		c, err := port.ReadByte()
		if err != nil {
			break
		}
		b.rx[n] = c
		n++
	}
	b.HandleBytes(b.rx[:n])
}

// newWindow starts a session's send window: what earlier sessions wrote and
// the host did not confirm is not waited for.
func (b *Bridge) newWindow() { b.confirmed = b.written }

// dropOutput forgets what is queued for the port, and the Pings in it.
func (b *Bridge) dropOutput() {
	b.out = b.outBuf[:0]
	for i := range b.pings {
		if b.pings[i].end-b.written-1 < 1<<31 { // end > written: never written
			b.pings[i].end = b.confirmed
		}
	}
	b.lastPingEnd = b.written
}

// ponged opens the window up to the Ping the host answered.
func (b *Bridge) ponged(nonce uint32) {
	for _, p := range b.pings {
		if p.nonce != nonce || nonce == 0 {
			continue
		}
		if ahead := p.end - b.confirmed; ahead != 0 && ahead < 1<<31 && b.written-p.end < 1<<31 {
			b.confirmed = p.end
		}
		return
	}
}

// linkUp reports whether Poll may send: the port is open and the host talks.
func (b *Bridge) linkUp() bool { return !b.polled || b.dtr && !b.HostSilent() }

// room reports whether the output buffer has room for another frame.
func (b *Bridge) room() bool { return cap(b.out)-len(b.out) >= protocol.MaxWireLen+1 }

func (b *Bridge) tick(now uint64) {
	b.now = now
	if b.heard {
		b.heard = false
		b.everHeard = true
		b.lastHeard = now
	}
	b.scan.Tick(now)
	b.lights.Tick(now)
	up := b.linkUp()
	if now >= b.nextPing {
		if up && (!b.polled || len(b.out) < TxWindow) {
			b.ping()
		}
		b.nextPing = now + HeartbeatMicros
	}
	if !b.HostSilent() && up {
		for i := 0; i < b.nPending; i++ {
			// (with Poll, not while a backlog waits for the port)
			if p := &b.pending[i]; now-p.sentAt >= RetransmitMicros && b.room() && (!b.polled || len(b.out) < TxPerPoll) {
				b.sendEvent(p)
			}
		}
	}
	for up && b.nPending < MaxInFlight && b.room() {
		ev, ok := b.scan.Next()
		if !ok {
			break
		}
		p := &b.pending[b.nPending]
		*p = inFlight{ev: ev, seq: b.nextSeq()}
		b.nPending++
		b.sendEvent(p)
	}
}

// ping queues a Ping and remembers where it ends in the stream.
func (b *Bridge) ping() {
	b.pingNonce++
	b.msg.ping.Nonce = b.pingNonce
	before := len(b.out)
	b.send(&b.msg.ping, b.nextSeq())
	if len(b.out) == before {
		return // dropped
	}
	end := b.written + uint32(len(b.out))
	mark := &b.pings[b.pingNonce%pingMarks]
	mark.nonce, mark.end = b.pingNonce, end
	b.lastPingEnd = end
}

func (b *Bridge) sendEvent(p *inFlight) {
	p.sentAt = b.now
	b.msg.event = p.ev
	b.send(&b.msg.event, p.seq)
}

// nextSeq returns the next frame number, skipping those of in-flight
// KeyEvents so that an Ack is never ambiguous.
func (b *Bridge) nextSeq() uint8 {
	for {
		s := b.seq
		b.seq++
		if !b.inFlight(s) {
			return s
		}
	}
}

func (b *Bridge) inFlight(seq uint8) bool {
	for _, p := range b.pending[:b.nPending] {
		if p.seq == seq {
			return true
		}
	}
	return false
}

// send appends m's frame to the output, or drops it (counted as a queue
// overflow) if the output buffer is full.
func (b *Bridge) send(m protocol.Message, seq uint8) {
	if cap(b.out)-len(b.out) < protocol.MaxWireLen+1 {
		b.outDrops++
		return
	}
	if len(b.out) == 0 {
		// a delimiter first: a frame that follows line noise is not glued
		// to it (the protocol lets a sender send 0x00 at any time)
		b.out = append(b.out, 0)
	}
	b.out = protocol.AppendFrameVersion(b.out, m, seq, b.version)
	// With Poll, a Ping at least every CreditPingBytes of the stream: then
	// any TxWindow bytes written hold a whole Ping, whose Pong opens the
	// window again.
	if b.polled && m != protocol.Message(&b.msg.ping) && b.written+uint32(len(b.out))-b.lastPingEnd >= CreditPingBytes {
		b.ping()
	}
}

// HostSilent reports whether no valid frame has come from the host in the
// last HostSilenceMicros (as of the last Tick), or ever.
func (b *Bridge) HostSilent() bool {
	return !b.everHeard || b.now-b.lastHeard >= HostSilenceMicros
}

// ChainFault returns what the scanner has seen wrong with the key chain.
func (b *Bridge) ChainFault() ChainFault { return b.scan.Fault() }

// LightFrame renders the WS2812 chain; see Lights.Frame.
func (b *Bridge) LightFrame() []byte { return b.lights.Frame() }

// Lights returns the bridge's lights.
func (b *Bridge) Lights() *Lights { return b.lights }

// Stats returns the bridge's counters, as a Stats message reports them, with
// the uptime as of the last Tick. QueueOverflows counts key events dropped
// from the full queue and frames dropped from the full output buffer (not the
// Pongs Poll holds back behind a backlog); Malformed includes frames of
// another protocol version.
func (b *Bridge) Stats() protocol.Stats {
	d := b.dec.Stats()
	return protocol.Stats{
		CRCErrors:      d.CRCErrors,
		Malformed:      d.Malformed + d.ForeignFrames,
		Overruns:       d.Overruns,
		QueueOverflows: b.scan.Overflows() + b.outDrops,
		UptimeMillis:   uint32(b.now / 1000),
		ResetReason:    b.cfg.ResetReason,
	}
}
