package core

import "wolftable/firmware-bridge/protocol"

// Timing of the bridge's side of the protocol, in µs of Tick time.
const (
	HeartbeatMicros   = 250_000   // a Ping to the host this often
	HostSilenceMicros = 1_000_000 // no valid frame from the host for this long: the host is silent
	RetransmitMicros  = 100_000   // resend an unacked KeyEvent after this long
	MaxInFlight       = 1         // unacked KeyEvents at most (one: a lost frame can never let a later key overtake it); the rest wait in the queue
	OutLen            = 1024      // bytes of frames buffered between two Ticks
)

// Config is what the bridge is.
type Config struct {
	Firmware    protocol.Version // reported in Hello
	Scan        ScanConfig       // the seat panels and the pedal
	PrivateLEDs bool             // each seat has a private indicator pixel after its number light
}

// inFlight is a KeyEvent sent and not yet acked.
type inFlight struct {
	ev     protocol.KeyEvent
	seq    uint8  // the seq it is sent with, every time
	sentAt uint64 // last (re)transmission, µs
}

// Bridge is the firmware: it scans the keys, drives the lights and speaks
// the protocol with the host. It has no clock and no goroutine: the main loop
// hands it the bytes from USB with HandleBytes and calls Tick about every
// millisecond with the time, and writes out what Tick returns.
//
// What it does:
//   - answers HostHello with Hello, Ping with Pong, StatsRequest with Stats,
//     SelfTestDumpKeys with SelfTestKeys;
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

	seq       uint8
	pending   [MaxInFlight]inFlight
	nPending  int
	nextPing  uint64
	pingNonce uint32

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
	b.out = b.outBuf[:0]
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
		b.send(&b.msg.hello, b.nextSeq())
	case protocol.TypeLights:
		var m protocol.Lights
		if m.UnmarshalBody(f.Body) == nil {
			b.lights.Set(&m)
			b.ack(f.Seq)
		}
	case protocol.TypeSelfTestSetLED:
		var m protocol.SelfTestSetLED
		if m.UnmarshalBody(f.Body) == nil {
			b.lights.SetRaw(int(m.Seat), m.R, m.G, m.B)
			b.ack(f.Seq)
		}
	case protocol.TypeAck:
		b.acked(f.Body[0])
	case protocol.TypePing:
		if b.msg.pong.UnmarshalBody(f.Body) == nil {
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
// or Tick.
func (b *Bridge) Tick(now uint64) []byte {
	b.now = now
	if b.heard {
		b.heard = false
		b.everHeard = true
		b.lastHeard = now
	}
	b.scan.Tick(now)
	b.lights.Tick(now)
	if now >= b.nextPing {
		b.pingNonce++
		b.msg.ping.Nonce = b.pingNonce
		b.send(&b.msg.ping, b.nextSeq())
		b.nextPing = now + HeartbeatMicros
	}
	if !b.HostSilent() {
		for i := 0; i < b.nPending; i++ {
			if p := &b.pending[i]; now-p.sentAt >= RetransmitMicros {
				b.sendEvent(p)
			}
		}
	}
	for b.nPending < MaxInFlight {
		ev, ok := b.scan.Next()
		if !ok {
			break
		}
		p := &b.pending[b.nPending]
		*p = inFlight{ev: ev, seq: b.nextSeq()}
		b.nPending++
		b.sendEvent(p)
	}
	out := b.out
	b.out = b.outBuf[:0]
	return out
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
	b.out = protocol.AppendFrame(b.out, m, seq)
}

// HostSilent reports whether no valid frame has come from the host in the
// last HostSilenceMicros (as of the last Tick), or ever.
func (b *Bridge) HostSilent() bool {
	return !b.everHeard || b.now-b.lastHeard >= HostSilenceMicros
}

// LightFrame renders the WS2812 chain; see Lights.Frame.
func (b *Bridge) LightFrame() []byte { return b.lights.Frame() }

// Lights returns the bridge's lights.
func (b *Bridge) Lights() *Lights { return b.lights }

// Stats returns the bridge's counters, as a Stats message reports them, with
// the uptime as of the last Tick. QueueOverflows counts key events dropped from the full queue and frames
// dropped from the full output buffer; Malformed includes frames of another
// protocol version.
func (b *Bridge) Stats() protocol.Stats {
	d := b.dec.Stats()
	return protocol.Stats{
		CRCErrors:      d.CRCErrors,
		Malformed:      d.Malformed + d.ForeignFrames,
		Overruns:       d.Overruns,
		QueueOverflows: b.scan.Overflows() + b.outDrops,
		UptimeMillis:   uint32(b.now / 1000),
	}
}
