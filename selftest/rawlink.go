package selftest

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	bugst "go.bug.st/serial"

	"wolftable/firmware-bridge/protocol"
)

// rawLink is a protocol session of the self-test's own with the bridge,
// before the serial driver opens it: the driver has no heartbeat
// round-trip to report, and the bridge's counters it keeps are up to ten
// seconds old. The session answers the bridge's pings and never acks its
// key events, so they come again to the driver later.
type rawLink struct {
	port bugst.Port
	path string
	dec  protocol.Decoder
	seq  uint8
	rx   chan rawChunk
	done chan struct{}
	rd   chan struct{}
	msgs []rawMsg // decoded, not yet taken
	lag  Lag      // every wait is counted in the host's running time
}

type rawChunk struct {
	data []byte
	err  error
}

// rawMsg is a message from the bridge and when it was read.
type rawMsg struct {
	seq uint8
	m   protocol.Message
	at  time.Time
}

func openRaw(path string, baud int, lag Lag) (*rawLink, error) {
	if lag == nil {
		lag = noLag{}
	}
	p, err := bugst.Open(path, &bugst.Mode{BaudRate: baud, DataBits: 8, Parity: bugst.NoParity, StopBits: bugst.OneStopBit})
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := p.SetReadTimeout(20 * time.Millisecond); err != nil {
		p.Close()
		return nil, fmt.Errorf("%s: read timeout: %w", path, err)
	}
	_ = p.SetDTR(true) // TinyGo's CDC writes only while DTR is up; a pty has none
	_ = p.ResetInputBuffer()
	l := &rawLink{port: p, path: path, rx: make(chan rawChunk, 256), done: make(chan struct{}), rd: make(chan struct{}), lag: lag}
	go l.read()
	if _, err := p.Write([]byte{0}); err != nil {
		l.close()
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return l, nil
}

func (l *rawLink) read() {
	defer close(l.rd)
	buf := make([]byte, 4096)
	for {
		n, err := l.port.Read(buf)
		if n == 0 && err == nil {
			select {
			case <-l.done:
				return
			default:
				continue
			}
		}
		c := rawChunk{data: bytes.Clone(buf[:n]), err: err}
		select {
		case l.rx <- c:
		case <-l.done:
			return
		}
		if err != nil {
			return
		}
	}
}

func (l *rawLink) close() {
	close(l.done)
	l.port.Close()
	<-l.rd
}

// send writes one frame and returns its seq.
func (l *rawLink) send(m protocol.Message) (uint8, error) {
	seq := l.seq
	l.seq++
	if _, err := l.port.Write(protocol.Encode(m, seq)); err != nil {
		return seq, fmt.Errorf("write %s: %w", l.path, err)
	}
	return seq, nil
}

var errRawTimeout = errors.New("no answer")

// wait is a wait of d on the host's running time (see patience).
func (l *rawLink) wait(d time.Duration) patience { return patient(l.lag, d) }

// next returns the next message from the bridge, answering pings on the
// way, or errRawTimeout once the wait w is over.
func (l *rawLink) next(w patience) (rawMsg, error) {
	for {
		if len(l.msgs) > 0 {
			m := l.msgs[0]
			l.msgs = l.msgs[1:]
			if p, ok := m.m.(*protocol.Ping); ok {
				if _, err := l.send(&protocol.Pong{Nonce: p.Nonce}); err != nil {
					return rawMsg{}, err
				}
				continue
			}
			return m, nil
		}
		d := w.left(time.Now())
		if d <= 0 {
			return rawMsg{}, errRawTimeout
		}
		t := time.NewTimer(d)
		select {
		case c := <-l.rx:
			t.Stop()
			if c.err != nil {
				return rawMsg{}, fmt.Errorf("read %s: %w", l.path, c.err)
			}
			now := time.Now()
			for p := c.data; len(p) > 0; {
				n, f, err := l.dec.Feed(p)
				p = p[n:]
				if err != nil || f.Type == 0 {
					continue
				}
				if m, err := f.Message(); err == nil {
					l.msgs = append(l.msgs, rawMsg{seq: f.Seq, m: m, at: now})
				}
			}
		case <-t.C: // over, or stalls moved the end on
		}
	}
}

// await returns the first message ok accepts before the wait w is over;
// the others are dropped.
func (l *rawLink) await(w patience, ok func(rawMsg) bool) (rawMsg, error) {
	for {
		m, err := l.next(w)
		if err != nil {
			return m, err
		}
		if ok(m) {
			return m, nil
		}
	}
}

// rawResult is what the raw session found.
type rawResult struct {
	hello       protocol.Hello
	keys        *protocol.SelfTestKeys // nil: the bridge did not answer
	rtts        []timed                // idle heartbeats
	lost        int                    // idle pings unanswered
	loadRTTs    []timed                // heartbeats during the soak
	loadLost    int
	before      protocol.Stats // the bridge's counters before the soak
	after       protocol.Stats // and after
	afterOK     bool
	decBefore   protocol.DecoderStats
	decAfter    protocol.DecoderStats
	soak        time.Duration // how long it ran
	soakStalled time.Duration // how long the host stalled meanwhile
	sent, acked int           // light frames
	soakErr     error         // why the soak stopped early
}

// timed is a measured time and how long the host stalled during it.
type timed struct{ took, stalled time.Duration }

// rawSession shakes hands, dumps the raw keys, times pings, and soaks the
// link with light frames for soak.
func (l *rawLink) session(seats int, pings int, soak time.Duration) (rawResult, error) {
	var res rawResult
	hh := &protocol.HostHello{Protocol: protocol.ProtocolVersion, Seats: uint8(seats), Software: "wolftable selftest"}
	hello := l.wait(time.Second)
	for {
		if _, err := l.send(hh); err != nil {
			return res, err
		}
		m, err := l.await(l.wait(100*time.Millisecond), func(m rawMsg) bool {
			_, ok := m.m.(*protocol.Hello)
			return ok
		})
		if err == nil {
			res.hello = *m.m.(*protocol.Hello)
			break
		}
		if !errors.Is(err, errRawTimeout) {
			return res, err
		}
		if hello.over() {
			return res, fmt.Errorf("no Hello from %s within 1s%s", l.path, stalledNote(hello))
		}
	}

	if _, err := l.send(&protocol.SelfTestDumpKeys{}); err != nil {
		return res, err
	}
	if m, err := l.await(l.wait(500*time.Millisecond), func(m rawMsg) bool {
		_, ok := m.m.(*protocol.SelfTestKeys)
		return ok
	}); err == nil {
		res.keys = m.m.(*protocol.SelfTestKeys)
	}

	ping := func(nonce uint32, wait time.Duration) (timed, error) {
		w := l.wait(wait)
		if _, err := l.send(&protocol.Ping{Nonce: nonce}); err != nil {
			return timed{}, err
		}
		m, err := l.await(w, func(m rawMsg) bool {
			p, ok := m.m.(*protocol.Pong)
			return ok && p.Nonce == nonce
		})
		if err != nil {
			return timed{}, err
		}
		return timed{m.at.Sub(w.start), l.lag.Stalled(w.start, m.at)}, nil
	}
	for i := range pings {
		rtt, err := ping(uint32(0x5E1F0000+i), 500*time.Millisecond)
		switch {
		case errors.Is(err, errRawTimeout):
			res.lost++
		case err != nil:
			return res, err
		default:
			res.rtts = append(res.rtts, rtt)
		}
	}

	stats := func() (protocol.Stats, error) {
		if _, err := l.send(&protocol.StatsRequest{}); err != nil {
			return protocol.Stats{}, err
		}
		m, err := l.await(l.wait(500*time.Millisecond), func(m rawMsg) bool {
			_, ok := m.m.(*protocol.Stats)
			return ok
		})
		if err != nil {
			return protocol.Stats{}, err
		}
		return *m.m.(*protocol.Stats), nil
	}
	var err error
	if res.before, err = stats(); err != nil {
		return res, fmt.Errorf("no Stats from the bridge: %w", err)
	}
	res.decBefore = l.dec.Stats()
	if soak > 0 {
		res.soakErr = l.soak(&res, seats, soak)
	}
	// Leave the lights dark for the driver.
	off := &protocol.Lights{Seats: uint8(seats)}
	if seq, err := l.send(off); err == nil {
		l.await(l.wait(500*time.Millisecond), func(m rawMsg) bool {
			a, ok := m.m.(*protocol.Ack)
			return ok && a.Seq == seq
		})
	}
	if res.after, err = stats(); err == nil {
		res.afterOK = true
	}
	res.decAfter = l.dec.Stats()
	return res, nil
}

// bridgeRxRing is the Pico's USB CDC receive ring under TinyGo 0.39: 128
// bytes, and what comes while it is full is dropped (protocol.HostPaceBytes).
const bridgeRxRing = 128

// soakBytes bounds the bytes of the light frames the soak has sent and
// the bridge not yet acked: a frame not acked may still wait in the ring
// unread, so these never exceed it, less room for a heartbeat Ping of the
// soak's and a Pong to the bridge's own, which go meanwhile (one of each;
// neither is counted). One frame is always let go, whatever its size (an
// 18-seat Lights frame is 98 bytes: one at a time; a 6-seat one 38: two).
var soakBytes = bridgeRxRing - len(protocol.Encode(&protocol.Ping{Nonce: ^uint32(0)}, 0xff)) -
	len(protocol.Encode(&protocol.Pong{Nonce: ^uint32(0)}, 0xff))

// soak sends light frames as fast as the bridge acks them, as many in
// flight as fit the bridge's receive ring (soakBytes), each a different
// pattern, with a heartbeat every 100 ms.
func (l *rawLink) soak(res *rawResult, seats int, d time.Duration) error {
	start := time.Now()
	end := start.Add(d)
	inflight := map[uint8]int{} // seq: the frame's bytes
	flying := 0                 // their sum
	pings := map[uint32]time.Time{}
	var nonce uint32 = 0x50A40000
	nextPing := start
	lastProgress := start
	frame := 0
	defer func() {
		now := time.Now()
		res.soak, res.soakStalled = now.Sub(start), l.lag.Stalled(start, now)
	}()
	// ran is how long the host ran (its stalls taken out) since t.
	ran := func(t, now time.Time) time.Duration { return now.Sub(t) - l.lag.Stalled(t, now) }
	for {
		now := time.Now()
		if now.After(end) && len(inflight) == 0 && (len(pings) == 0 || ran(end, now) > 500*time.Millisecond) {
			break
		}
		if ran(lastProgress, now) > time.Second {
			return fmt.Errorf("the bridge stopped acknowledging light frames (%d waiting for 1s)", len(inflight))
		}
		for now.Before(end) {
			m := soakFrame(seats, frame)
			n := len(protocol.Encode(m, 0)) // COBS: the length does not depend on the bytes, below 254
			if len(inflight) > 0 && flying+n > soakBytes {
				break
			}
			frame++
			seq, err := l.send(m)
			if err != nil {
				return err
			}
			inflight[seq] = n
			flying += n
			res.sent++
		}
		if now.After(nextPing) && now.Before(end) {
			nonce++
			if _, err := l.send(&protocol.Ping{Nonce: nonce}); err != nil {
				return err
			}
			pings[nonce] = time.Now()
			nextPing = now.Add(100 * time.Millisecond)
		}
		msg, err := l.next(l.wait(50 * time.Millisecond))
		if errors.Is(err, errRawTimeout) {
			continue
		}
		if err != nil {
			return err
		}
		switch m := msg.m.(type) {
		case *protocol.Ack:
			if n, ok := inflight[m.Seq]; ok {
				delete(inflight, m.Seq)
				flying -= n
				res.acked++
				lastProgress = msg.at
			}
		case *protocol.Pong:
			if at, ok := pings[m.Nonce]; ok {
				res.loadRTTs = append(res.loadRTTs, timed{msg.at.Sub(at), l.lag.Stalled(at, msg.at)})
				delete(pings, m.Nonce)
				lastProgress = msg.at
			}
		}
	}
	res.loadLost = len(pings)
	return nil
}

// soakFrame is the soak's light frame number frame: each a different
// pattern of colours, brightness and pulses.
func soakFrame(seats, frame int) *protocol.Lights {
	m := &protocol.Lights{Seats: uint8(seats)}
	for s := range seats {
		c := &m.Seat[s]
		switch (frame + s) % 4 {
		case 0:
			c.R = 255
		case 1:
			c.G = 255
		case 2:
			c.B = 255
		}
		c.Brightness = uint8(16 + (frame*7+s*13)%240)
		if (frame+s)%5 == 0 {
			c.Flags |= protocol.LightPulse
		}
	}
	return m
}
