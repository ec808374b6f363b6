package core_test

import (
	"testing"

	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/core/coretest"
	"wolftable/firmware-bridge/protocol"
)

// hostMode is how a host program uses a session.
type hostMode int

const (
	// probeHost is `wolftable bridge probe`, the driver's handshake and its
	// retries after a seat-count mismatch: HostHello, read until the Hello,
	// close. It never answers a Ping.
	probeHost hostMode = iota
	// fullHost is the daemon: HostHello until the Hello, then it answers
	// Pings, pings every 250 ms and acks KeyEvents.
	fullHost
)

// hostProgram is one session of a host program on the port.
type hostProgram struct {
	mode    hostMode
	dec     protocol.Decoder
	seq     uint8
	start   uint64 // bytes the device had accepted when the session began: later ones are this session's
	opened  uint64 // µs
	helloAt uint64 // when the program had its Hello; 0: not yet
	lastHH  uint64 // last HostHello sent
	done    bool   // a probe that has its Hello closes

	nonce    uint32
	nextPing uint64
	pings    map[uint32]uint64
	pongs    int
	events   []protocol.KeyEvent
	seen     map[protocol.KeyEvent]bool
	answers  map[protocol.Type]int
	answered map[protocol.Type]uint64 // when each type first came after the session began
}

func (h *hostProgram) send(c *tinygoCDC, m protocol.Message) {
	c.toDevice = protocol.AppendFrame(c.toDevice, m, h.seq)
	h.seq++
}

func (h *hostProgram) hostHello(c *tinygoCDC) {
	h.lastHH = c.now
	h.send(c, &protocol.HostHello{Protocol: protocol.ProtocolVersion, Seats: protocol.MaxSeats, Software: "model"})
}

// cdcRig is the firmware's main loop on a board with its seat panels, on
// the USB model, with a host program on the far end.
type cdcRig struct {
	t     *testing.T
	c     *tinygoCDC
	loop  *picoLoop
	chain *coretest.Chain
	host  *hostProgram
	paced bool
}

func newCDCRig(t *testing.T, seats int) *cdcRig {
	t.Helper()
	chain := coretest.NewChain(seats, 24, true)
	cfg := core.ScanConfig{Seats: seats, BitsPerSeat: 24, KeyMap: core.DefaultKeyMap(24), ActiveLow: true}
	b, err := core.NewBridge(core.Config{Scan: cfg}, chain)
	if err != nil {
		t.Fatal(err)
	}
	// The rig starts at 1 s of uptime, the loop a little off the 50 µs grid
	// of the bus.
	c := &tinygoCDC{now: 1_000_000}
	return &cdcRig{t: t, c: c, loop: &picoLoop{b: b, next: 1_000_000}, chain: chain, paced: true}
}

// run runs the model for micros µs.
func (r *cdcRig) run(micros uint64) {
	for end := r.c.now + micros; r.c.now < end; {
		r.c.step(r.paced)
		r.loop.step(r.c, r.c.now)
		r.hostStep()
	}
}

// session starts a host program: it opens the port (after a bus reset DTR
// is still up and the device sees no edge) and sends 0x00 and HostHello.
func (r *cdcRig) session(mode hostMode) *hostProgram {
	r.c.openPort()
	h := &hostProgram{
		mode: mode, start: r.c.accepted, opened: r.c.now, nextPing: r.c.now,
		pings: map[uint32]uint64{}, seen: map[protocol.KeyEvent]bool{},
		answers: map[protocol.Type]int{}, answered: map[protocol.Type]uint64{},
	}
	r.c.toDevice = append(r.c.toDevice, 0)
	h.hostHello(r.c)
	r.host = h
	return h
}

// close closes the port at the end of the session.
func (r *cdcRig) close() {
	r.c.closePort()
	r.host = nil
}

// waitHello runs until the session has its Hello, at most within µs.
func (r *cdcRig) waitHello(what string, within uint64) {
	r.t.Helper()
	h := r.host
	for end := r.c.now + within; h.helloAt == 0 && r.c.now < end; {
		r.run(stepMicros)
	}
	if h.helloAt == 0 {
		r.t.Fatalf("%s: no Hello within %d ms of opening the port (the bridge has gone mute)", what, within/1000)
	}
}

// hostStep is the host program's turn: it reads what cdc-acm delivered and
// answers as its mode does.
func (r *cdcRig) hostStep() {
	h, c := r.host, r.c
	if h == nil || !c.open {
		return
	}
	base := c.delivered - uint64(len(c.toProgram))
	p := c.toProgram
	c.toProgram = nil
	for len(p) > 0 {
		n, f, err := h.dec.Feed(p)
		p = p[n:]
		base += uint64(n)
		if err != nil || f.Type == 0 || base <= h.start {
			continue // garbage, or what an earlier session left behind
		}
		r.frame(f)
	}
	if h.mode == probeHost && h.helloAt != 0 && !h.done {
		h.done = true
		r.close()
		return
	}
	if h.helloAt == 0 && c.now-h.lastHH >= 100_000 {
		h.hostHello(c) // the driver's handshake retries every 100 ms
	}
	if h.mode == fullHost && h.helloAt != 0 && c.now >= h.nextPing {
		h.nonce++
		h.pings[h.nonce] = c.now
		h.send(c, &protocol.Ping{Nonce: h.nonce})
		h.nextPing = c.now + 250_000
	}
}

// frame is the host program handling one frame of its session.
func (r *cdcRig) frame(f protocol.Frame) {
	h, c := r.host, r.c
	m, _ := f.Message()
	h.answers[f.Type]++
	if _, ok := h.answered[f.Type]; !ok {
		h.answered[f.Type] = c.now
	}
	switch m := m.(type) {
	case *protocol.Hello:
		if h.helloAt == 0 {
			h.helloAt = c.now
		}
	case *protocol.Ping:
		if h.mode == fullHost {
			h.send(c, &protocol.Pong{Nonce: m.Nonce})
		}
	case *protocol.Pong:
		if _, ok := h.pings[m.Nonce]; ok {
			delete(h.pings, m.Nonce)
			h.pongs++
		}
	case *protocol.KeyEvent:
		if h.mode == fullHost {
			h.send(c, &protocol.Ack{Seq: f.Seq})
			if !h.seen[*m] {
				h.seen[*m] = true
				h.events = append(h.events, *m)
			}
		}
	}
}

// tap presses and releases seat's key k: two events.
func (r *cdcRig) tap(seat int, k protocol.Key) {
	r.chain.Press(seat, int(k))
	r.run(10_000)
	r.chain.Release(seat, int(k))
	r.run(10_000)
}

// checkLink fails the test if TinyGo's CDC ever dropped or overwrote a
// write, or got a full packet into an idle ring.
func (r *cdcRig) checkLink() {
	r.t.Helper()
	c := r.c
	if c.droppedWrites != 0 || c.overwrites != 0 {
		r.t.Errorf("TinyGo's transmit ring dropped %d writes and overwrote queued packets %d times", c.droppedWrites, c.overwrites)
	}
	if c.fullIntoIdle != 0 {
		r.t.Errorf("%d writes of a full %d-byte packet into an idle ring (cdc-acm holds them until the next packet)", c.fullIntoIdle, packetLen)
	}
	if c.rxDropped != 0 {
		r.t.Errorf("TinyGo's receive ring dropped %d bytes from the host", c.rxDropped)
	}
	if c.maxWrite > core.TxPerPoll {
		r.t.Errorf("a write of %d bytes, more than TxPerPoll", c.maxWrite)
	}
}

// TestUSBNeverMute (H2, M2): 40 probe sessions, each closing once it has its
// Hello without answering a Ping, then full sessions: one whose host's USB
// stops collecting for 2 s while keys are pressed, one that closes while
// it is stopped, one cut by a USB bus reset, and one after the host's
// reboot, which reopens the port with no DTR edge after 3 s of silence.
// Every session gets its Hello within 50 ms, the keys arrive, and TinyGo's
// ring never overflows.
func TestUSBNeverMute(t *testing.T) {
	r := newCDCRig(t, 12)
	r.run(100_000)
	for i := range 40 {
		r.session(probeHost)
		r.waitHello("probe "+itoa(i+1), 50_000)
		if r.host != nil {
			t.Fatalf("probe %d did not close", i+1)
		}
		r.run(uint64(5_000 + 1_000*(i%7)))
	}

	h := r.session(fullHost)
	r.waitHello("full session 1", 50_000)
	r.run(500_000)
	for i := range 4 {
		r.tap(1+i, protocol.KeyOK)
	}
	r.c.collecting = false // the host's USB stops collecting
	for i := range 10 {
		r.tap(1+i, protocol.KeyHand)
	}
	r.run(2_000_000)
	r.c.collecting = true
	r.run(2_000_000)
	if len(h.events) != 28 {
		t.Errorf("full session 1: %d key events, want 28", len(h.events))
	}
	if len(h.pings) > 1 {
		t.Errorf("full session 1: %d of the host's pings unanswered", len(h.pings))
	}

	// The host's USB stops again and the program closes the port: what was
	// queued stays in TinyGo's ring for the next session to read.
	r.c.collecting = false
	r.tap(5, protocol.Key5)
	r.run(1_000_000)
	r.close()
	r.run(100_000)

	h = r.session(fullHost)
	r.waitHello("full session 2", 50_000)
	r.tap(6, protocol.Key6)
	r.run(1_000_000)
	if len(h.events) < 2 {
		t.Errorf("full session 2: key events %+v, want seat 6's press", h.events)
	}
	r.c.busReset() // the Pi resets its USB, or reboots, with the Pico powered
	r.host = nil
	r.tap(7, protocol.Key7) // pressed while the host is away
	r.run(3_000_000)

	h = r.session(fullHost) // DTR is still up: no edge
	r.waitHello("full session 3, after a bus reset", 50_000)
	r.run(500_000)
	r.tap(8, protocol.Key8)
	r.run(500_000)
	if len(h.events) < 4 {
		t.Errorf("full session 3: key events %+v, want seat 7's and seat 8's presses", h.events)
	}
	r.checkLink()
}

// TestUSBHostHelloAfterSilence (M2): a host whose USB stopped collecting
// leaves a full window behind; the bus is reset with the Pico powered and
// the host comes back after 2 s without a DTR edge. Its HostHello is
// answered at once.
func TestUSBHostHelloAfterSilence(t *testing.T) {
	r := newCDCRig(t, 12)
	r.session(fullHost)
	r.waitHello("first session", 50_000)
	r.run(300_000)
	r.c.collecting = false
	for i := range 12 {
		r.tap(1+i, protocol.KeyOK) // fills the window
	}
	r.c.busReset()
	r.host = nil
	r.run(2_000_000)
	r.session(fullHost)
	r.waitHello("after the bus reset", 50_000)
	r.checkLink()
}

// TestUSBNoFullPacketIntoIdleRing (M1): the bridge never writes exactly one
// full packet into an idle ring, which cdc-acm would hold until the next
// packet: the raw keys of 18 seats (a 63-byte frame after a 0x00) come back
// within 5 ms every time (a loop turn, an LED frame, the bus), not at the
// next heartbeat, and so does every byte under a key storm.
func TestUSBNoFullPacketIntoIdleRing(t *testing.T) {
	r := newCDCRig(t, 18)
	h := r.session(fullHost)
	r.waitHello("session", 50_000)
	r.run(300_000)
	for i := range 20 {
		delete(h.answered, protocol.TypeSelfTestKeys)
		asked := r.c.now
		h.send(r.c, &protocol.SelfTestDumpKeys{})
		r.run(uint64(37_000 + 1_000*i)) // between heartbeats, at many phases
		got, ok := h.answered[protocol.TypeSelfTestKeys]
		if !ok || got-asked > 5_000 {
			t.Fatalf("dump %d: SelfTestKeys after %d µs (answered: %v), want within 5 ms", i, got-asked, ok)
		}
	}
	for i := range 40 {
		r.chain.Press(1+i%18, i%17)
		r.run(3_000)
	}
	r.run(2_000_000)
	if r.c.maxLatency > 5_000 {
		t.Errorf("a write reached the host program %d µs after it was written", r.c.maxLatency)
	}
	r.checkLink()
}

// TestUSBSessionStartBurst (M5): at a session's start the host sends more
// than 300 bytes at once (HostHello, two full Lights, a raw-key dump, a
// Ping, a StatsRequest, self-test colours), whenever that falls in the
// firmware's loop, an LED frame included. Paced as protocol.HostPaceBytes
// says, none of it is lost in TinyGo's 128-byte receive ring; sent as fast
// as USB goes, it is.
func TestUSBSessionStartBurst(t *testing.T) {
	for _, paced := range []bool{true, false} {
		lost := 0
		for phase := uint64(0); phase < lightsMicros; phase += 750 {
			r := newCDCRig(t, 18)
			r.paced = paced
			r.run(phase)
			h := r.session(fullHost)
			lights := &protocol.Lights{Seats: 18}
			for i := range lights.Seat[:18] {
				lights.Seat[i] = protocol.SeatLight{R: 0x55, G: 0xAA, B: byte(i), Brightness: 200}
			}
			h.send(r.c, lights)
			h.send(r.c, lights)
			h.send(r.c, &protocol.SelfTestDumpKeys{})
			h.send(r.c, &protocol.Ping{Nonce: 0xC0FFEE})
			h.send(r.c, &protocol.StatsRequest{})
			for s := range 6 {
				h.send(r.c, &protocol.SelfTestSetLED{Seat: uint8(1 + s), R: 1})
			}
			if n := len(r.c.toDevice); n < 300 {
				t.Fatalf("the burst is %d bytes", n)
			}
			r.run(100_000)
			lost += r.c.rxDropped
			complete := h.helloAt != 0 && h.answers[protocol.TypeAck] >= 8 && h.answers[protocol.TypeSelfTestKeys] == 1 &&
				h.answers[protocol.TypeStats] == 1 && h.answers[protocol.TypePong] >= 1
			if paced && (!complete || r.c.rxDropped != 0) {
				t.Errorf("paced, at %d µs into the LED period: %d bytes lost, answers %v", phase, r.c.rxDropped, h.answers)
			}
		}
		if !paced && lost == 0 {
			t.Error("an unpaced burst lost nothing: the model's receive ring does not overflow")
		}
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
