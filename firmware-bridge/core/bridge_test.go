package core_test

import (
	"bytes"
	"errors"
	"testing"

	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/core/coretest"
	"wolftable/firmware-bridge/protocol"
)

// rx is a frame the host received.
type rx struct {
	at  uint64
	seq uint8
	msg protocol.Message
}

// harness is a bridge on a fake board with a fake host on the other end of
// the USB cable. Time advances 1 ms per tick.
type harness struct {
	t       *testing.T
	chain   *coretest.Chain
	pedal   *coretest.Pin
	b       *core.Bridge
	now     uint64
	host    protocol.Decoder
	hostSeq uint8
	autoAck bool // the host acks every KeyEvent it receives
	got     []rx
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{t: t, chain: coretest.NewChain(12, 24, true), pedal: &coretest.Pin{High: true}}
	cfg := core.Config{
		Firmware: protocol.Version{Major: 1, Minor: 4, Patch: 2},
		Scan: core.ScanConfig{
			Seats: 12, BitsPerSeat: 24, KeyMap: core.DefaultKeyMap(24), ActiveLow: true,
			Pedal: h.pedal, PedalActiveLow: true,
		},
		PrivateLEDs: true,
	}
	b, err := core.NewBridge(cfg, h.chain)
	if err != nil {
		t.Fatal(err)
	}
	h.b = b
	return h
}

// send writes a frame from the host to the bridge and returns its seq.
func (h *harness) send(m protocol.Message) uint8 {
	seq := h.hostSeq
	h.hostSeq++
	h.b.HandleBytes(protocol.Encode(m, seq))
	return seq
}

// run ticks the bridge for ms milliseconds.
func (h *harness) run(ms int) {
	for range ms {
		out := h.b.Tick(h.now)
		for p := out; len(p) > 0; {
			n, f, err := h.host.Feed(p)
			p = p[n:]
			if err != nil {
				h.t.Fatalf("host: bridge sent a bad frame: %v", err)
			}
			if f.Type == 0 {
				continue
			}
			m, _ := f.Message()
			h.got = append(h.got, rx{h.now, f.Seq, m})
			if _, ok := m.(*protocol.KeyEvent); ok && h.autoAck {
				h.send(&protocol.Ack{Seq: f.Seq})
			}
		}
		h.now += 1000
	}
}

// take removes and returns the received frames of type ty.
func (h *harness) take(ty protocol.Type) []rx {
	var match, rest []rx
	for _, r := range h.got {
		if r.msg.Type() == ty {
			match = append(match, r)
		} else {
			rest = append(rest, r)
		}
	}
	h.got = rest
	return match
}

func keyEvents(rs []rx) []protocol.KeyEvent {
	var evs []protocol.KeyEvent
	for _, r := range rs {
		evs = append(evs, *r.msg.(*protocol.KeyEvent))
	}
	return evs
}

func TestBridgePressSeat7OK(t *testing.T) {
	h := newHarness(t)
	h.run(20)
	h.chain.Press(7, int(protocol.KeyOK))
	h.run(20)
	evs := h.take(protocol.TypeKeyEvent)
	if len(evs) != 1 {
		t.Fatalf("KeyEvent frames = %d, want 1: %+v", len(evs), evs)
	}
	ke := evs[0].msg.(*protocol.KeyEvent)
	if ke.Seat != 7 || ke.Key != protocol.KeyOK || ke.Edge != protocol.EdgeDown || ke.Counter != 1 {
		t.Errorf("KeyEvent = %+v, want seat 7 OK down counter 1", ke)
	}
	if want := uint32(20_000); ke.Micros != want { // the scan that first saw it pressed
		t.Errorf("Micros = %d, want %d", ke.Micros, want)
	}
	for _, r := range h.got {
		if r.msg.Type() != protocol.TypePing {
			t.Errorf("unexpected %v", r.msg.Type())
		}
	}
}

func TestBridgeHello(t *testing.T) {
	h := newHarness(t)
	h.send(&protocol.HostHello{Protocol: 1, Seats: 12, Software: "wolftable test"})
	h.run(1)
	hellos := h.take(protocol.TypeHello)
	want := protocol.Hello{Firmware: protocol.Version{Major: 1, Minor: 4, Patch: 2}, Protocol: 1, Seats: 12, KeysPerSeat: 17,
		Caps: protocol.CapPrivateLED | protocol.CapPedal}
	if len(hellos) != 1 || *hellos[0].msg.(*protocol.Hello) != want {
		t.Fatalf("Hello = %+v, want %+v", hellos, want)
	}
}

func TestBridgePingPong(t *testing.T) {
	h := newHarness(t)
	h.send(&protocol.Ping{Nonce: 0xC0FFEE})
	h.send(&protocol.Ping{Nonce: 7})
	h.run(1)
	pongs := h.take(protocol.TypePong)
	if len(pongs) != 2 || pongs[0].msg.(*protocol.Pong).Nonce != 0xC0FFEE || pongs[1].msg.(*protocol.Pong).Nonce != 7 {
		t.Fatalf("pongs = %+v", pongs)
	}
}

func TestBridgeHeartbeat(t *testing.T) {
	h := newHarness(t)
	h.run(2000)
	pings := h.take(protocol.TypePing)
	if len(pings) != 8 {
		t.Fatalf("%d pings in 2 s, want 8", len(pings))
	}
	for i, p := range pings {
		if want := uint64(i) * core.HeartbeatMicros; p.at != want {
			t.Errorf("ping %d at %d µs, want %d", i, p.at, want)
		}
		if n := p.msg.(*protocol.Ping).Nonce; n != uint32(i+1) {
			t.Errorf("ping %d nonce %d, want %d", i, n, i+1)
		}
	}
}

func TestBridgeHostSilence(t *testing.T) {
	h := newHarness(t)
	h.run(1)
	if !h.b.HostSilent() {
		t.Fatal("host counted present before it said anything")
	}
	h.send(&protocol.Pong{Nonce: 1})
	h.run(1) // heard at 1 ms
	if h.b.HostSilent() {
		t.Fatal("host silent right after a Pong")
	}
	h.run(999) // now 1000 ms: 999 ms since the Pong
	if h.b.HostSilent() {
		t.Fatal("host silent after 999 ms")
	}
	h.run(1)
	if !h.b.HostSilent() {
		t.Fatal("host not silent after 1 s without a frame")
	}
	h.b.HandleBytes([]byte{1, 2, 3, 0}) // garbage does not count as the host
	h.run(1)
	if !h.b.HostSilent() {
		t.Fatal("garbage woke the host up")
	}
}

func TestBridgeLightsAcked(t *testing.T) {
	h := newHarness(t)
	l := &protocol.Lights{Seats: 12}
	l.Seat[0] = protocol.SeatLight{G: 255, Brightness: 255}
	seq := h.send(l)
	seq2 := h.send(&protocol.SelfTestSetLED{Seat: 2, R: 9})
	h.run(1)
	acks := h.take(protocol.TypeAck)
	if len(acks) != 2 || acks[0].msg.(*protocol.Ack).Seq != seq || acks[1].msg.(*protocol.Ack).Seq != seq2 {
		t.Fatalf("acks = %+v, want seqs %d, %d", acks, seq, seq2)
	}
	f := h.b.LightFrame()
	if !bytes.Equal(f[:3], []byte{255, 0, 0}) || !bytes.Equal(f[6:9], []byte{0, 9, 0}) {
		t.Errorf("frame starts % x", f[:12])
	}
}

// TestBridgeRetransmit: an unacked KeyEvent is resent every
// RetransmitMicros with the same seq and counter; an ack stops it; while the
// host is silent resending pauses, and the host's next frame resumes it.
func TestBridgeRetransmit(t *testing.T) {
	h := newHarness(t)
	h.send(&protocol.HostHello{Protocol: 1, Seats: 12})
	h.chain.Press(3, int(protocol.KeyUp))
	// The host keeps talking (Pings every 200 ms) but does not ack.
	for range 3 {
		h.send(&protocol.Ping{})
		h.run(200)
	}
	sent := h.take(protocol.TypeKeyEvent)
	if len(sent) < 5 {
		t.Fatalf("KeyEvent sent %d times in 600 ms without an ack, want ≥ 5", len(sent))
	}
	first := sent[0]
	for i, r := range sent {
		if r.seq != first.seq || *r.msg.(*protocol.KeyEvent) != *first.msg.(*protocol.KeyEvent) {
			t.Errorf("transmission %d = seq %d %+v, want a copy of seq %d %+v", i, r.seq, r.msg, first.seq, first.msg)
		}
		if i > 0 && r.at-sent[i-1].at != core.RetransmitMicros {
			t.Errorf("transmission %d after %d µs, want %d", i, r.at-sent[i-1].at, core.RetransmitMicros)
		}
	}
	h.send(&protocol.Ack{Seq: first.seq})
	h.run(500)
	if n := len(h.take(protocol.TypeKeyEvent)); n != 0 {
		t.Errorf("%d retransmissions after the ack", n)
	}

	// Host goes silent: a new press is sent once, then held.
	h.run(1000)
	if !h.b.HostSilent() {
		t.Fatal("host should be silent")
	}
	h.chain.Release(3, int(protocol.KeyUp))
	h.run(2000)
	held := h.take(protocol.TypeKeyEvent)
	if len(held) != 1 {
		t.Fatalf("KeyEvent sent %d times while the host was silent, want 1", len(held))
	}
	h.send(&protocol.Ping{})
	h.run(2)
	again := h.take(protocol.TypeKeyEvent)
	if len(again) != 1 || again[0].seq != held[0].seq || *again[0].msg.(*protocol.KeyEvent) != *held[0].msg.(*protocol.KeyEvent) {
		t.Fatalf("after the host came back: %+v, want one copy of %+v", again, held[0])
	}
}

// TestBridgeSeqNeverReusedWhileInFlight: frames keep coming (pings, pongs)
// while a KeyEvent waits for its ack; none of them takes its seq.
func TestBridgeSeqNeverReusedWhileInFlight(t *testing.T) {
	h := newHarness(t)
	h.chain.Press(1, 0)
	h.run(10)
	evs := h.take(protocol.TypeKeyEvent)
	if len(evs) != 1 {
		t.Fatalf("KeyEvents = %+v", evs)
	}
	seq := evs[0].seq
	for range 300 {
		h.send(&protocol.Ping{})
		h.run(1)
	}
	for _, r := range h.got {
		if r.seq == seq && r.msg.Type() != protocol.TypeKeyEvent {
			t.Fatalf("%v took the in-flight KeyEvent's seq %d", r.msg.Type(), seq)
		}
	}
}

// TestBridgeWindowAndOverflow: 100 keys debounce in the same scan; the queue
// takes QueueLen of them and drops and counts the rest. With no acks,
// MaxInFlight events go out; once the host acks, the queued ones follow in
// order.
func TestBridgeWindowAndOverflow(t *testing.T) {
	h := newHarness(t)
	const presses = 100
	n := 0
	for seat := 1; seat <= 12 && n < presses; seat++ {
		for k := 0; k < protocol.NumSeatKeys && n < presses; k++ {
			h.chain.Press(seat, k)
			n++
		}
	}
	h.run(10)
	first := keyEvents(h.take(protocol.TypeKeyEvent))
	if len(first) != core.MaxInFlight {
		t.Fatalf("%d KeyEvents sent without acks, want MaxInFlight %d", len(first), core.MaxInFlight)
	}
	wantDropped := uint32(presses - core.QueueLen)
	if s := h.b.Stats(); s.QueueOverflows != wantDropped {
		t.Errorf("QueueOverflows = %d, want %d", s.QueueOverflows, wantDropped)
	}
	// The host comes online and acks everything: the rest follow.
	h.autoAck = true
	h.send(&protocol.HostHello{Protocol: 1, Seats: 12})
	h.run(500)
	all := append(first, keyEvents(h.take(protocol.TypeKeyEvent))...)
	seen := map[protocol.KeyEvent]bool{}
	var unique []protocol.KeyEvent
	for _, e := range all {
		if !seen[e] {
			seen[e] = true
			unique = append(unique, e)
		}
	}
	if len(unique) != core.QueueLen {
		t.Fatalf("%d distinct KeyEvents delivered, want %d", len(unique), core.QueueLen)
	}
	for i, e := range unique {
		if int(e.Seat) != 1+i/protocol.NumSeatKeys || int(e.Key) != i%protocol.NumSeatKeys {
			t.Fatalf("event %d = %+v, out of order", i, e)
		}
	}
}

func TestBridgeStats(t *testing.T) {
	h := newHarness(t)
	bad := protocol.Encode(&protocol.Ping{Nonce: 1}, 0)
	bad[2] ^= 0xFF
	h.b.HandleBytes(bad)                                     // CRC error
	h.b.HandleBytes(append(bytes.Repeat([]byte{7}, 300), 0)) // overrun
	h.b.HandleBytes([]byte{0x05, 0x11, 0x00})                // bad COBS
	h.run(1234)
	h.send(&protocol.StatsRequest{})
	h.run(1)
	stats := h.take(protocol.TypeStats)
	// The last Tick before the request was at 1233 ms.
	want := protocol.Stats{CRCErrors: 1, Overruns: 1, Malformed: 1, UptimeMillis: 1233}
	if len(stats) != 1 || *stats[0].msg.(*protocol.Stats) != want {
		t.Fatalf("Stats = %+v, want %+v", *stats[0].msg.(*protocol.Stats), want)
	}
}

func TestBridgeSelfTestDumpKeys(t *testing.T) {
	h := newHarness(t)
	h.chain.Press(1, 0)
	h.chain.Press(12, 23) // no key on bit 23, but the contact shows
	h.run(1)
	h.send(&protocol.SelfTestDumpKeys{})
	h.run(1)
	keys := h.take(protocol.TypeSelfTestKeys)
	if len(keys) != 1 {
		t.Fatalf("SelfTestKeys = %+v", keys)
	}
	k := keys[0].msg.(*protocol.SelfTestKeys)
	want := protocol.SelfTestKeys{BitsPerSeat: 24, Seats: 12}
	want.Bits[0] = 1
	want.Bits[11] = 1 << 23
	if *k != want {
		t.Errorf("SelfTestKeys = %+v, want %+v", *k, want)
	}
}

func TestBridgePedal(t *testing.T) {
	h := newHarness(t)
	h.pedal.High = false // pressed
	h.run(10)
	evs := keyEvents(h.take(protocol.TypeKeyEvent))
	if len(evs) != 1 || evs[0].Seat != 0 || evs[0].Key != protocol.KeyPedal || evs[0].Edge != protocol.EdgeDown {
		t.Fatalf("pedal = %+v", evs)
	}
}

func TestBridgeIgnoresUnexpectedFrames(t *testing.T) {
	h := newHarness(t)
	h.send(&protocol.KeyEvent{Seat: 1, Key: protocol.Key1, Edge: protocol.EdgeDown, Counter: 1})
	h.send(&protocol.Hello{Protocol: 1, Seats: 6, KeysPerSeat: 1})
	h.send(&protocol.Stats{})
	h.run(1)
	for _, r := range h.got {
		if r.msg.Type() != protocol.TypePing {
			t.Errorf("bridge answered with %v", r.msg.Type())
		}
	}
}

func TestBridgeConfigErrors(t *testing.T) {
	if _, err := core.NewBridge(core.Config{}, nil); err == nil {
		t.Error("NewBridge accepts a nil chain")
	}
	_, err := core.NewBridge(core.Config{Scan: core.ScanConfig{Seats: 30}}, coretest.NewChain(6, 16, true))
	var ce *core.ConfigError
	if !errors.As(err, &ce) || ce.Field != "Scan.Seats" {
		t.Errorf("error = %v, want a ConfigError on Scan.Seats", err)
	}
}

func TestBridgeNoAllocations(t *testing.T) {
	h := newHarness(t)
	h.send(&protocol.HostHello{Protocol: 1, Seats: 12})
	h.run(10)
	var in []byte
	in = protocol.AppendFrame(in, &protocol.Ping{Nonce: 1}, 1)
	in = protocol.AppendFrame(in, &protocol.Lights{Seats: 12}, 2)
	in = protocol.AppendFrame(in, &protocol.Ack{Seq: 3}, 3)
	in = protocol.AppendFrame(in, &protocol.StatsRequest{}, 4)
	in = protocol.AppendFrame(in, &protocol.SelfTestDumpKeys{}, 5)
	in = append(in, 1, 2, 3, 0) // and some garbage
	now := h.now
	pressed := false
	allocs := testing.AllocsPerRun(200, func() {
		pressed = !pressed
		h.chain.Set(5, 5, pressed) // a key event now and then
		h.b.HandleBytes(in)
		now += 3000
		h.b.Tick(now)
		h.b.LightFrame()
	})
	if allocs != 0 {
		t.Errorf("HandleBytes+Tick: %v allocations per run, want 0", allocs)
	}
}

// FuzzBridgeNeverPanics guards the bridge against any bytes from the host:
// it never panics and everything it sends back decodes as valid frames.
func FuzzBridgeNeverPanics(f *testing.F) {
	f.Add(protocol.Encode(&protocol.HostHello{Protocol: 1, Seats: 12}, 0))
	f.Add(protocol.Encode(&protocol.Lights{Seats: 18}, 1))
	f.Add(append(protocol.Encode(&protocol.SelfTestSetLED{Seat: 18, R: 1}, 2), protocol.Encode(&protocol.SelfTestDumpKeys{}, 3)...))
	f.Add(append(protocol.Encode(&protocol.StatsRequest{}, 4), protocol.Encode(&protocol.Ack{Seq: 0}, 5)...))
	f.Add([]byte{0, 0, 1, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		h := newHarness(t)
		h.chain.Press(2, 3)
		for i := 0; len(data) > 0; i++ {
			n := min(len(data), 1+i%17)
			h.b.HandleBytes(data[:n])
			data = data[n:]
			h.run(3) // Fatal on any bad frame from the bridge
		}
		h.run(10)
		h.b.LightFrame()
	})
}
