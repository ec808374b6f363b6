package core_test

import (
	"testing"

	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/core/coretest"
	"wolftable/firmware-bridge/protocol"
)

// usbBuffer is TinyGo's USB CDC transmit buffer: 512 bytes. A Write that
// does not fit spins (TinyGo 0.41 and later) or overwrites (0.33).
const usbBuffer = 512

// fakeUSB is the USB cable with a host on the far end, as the firmware's
// main loop sees it through core.Port. The host answers Pings, acks
// KeyEvents and pings every 250 ms, but reads only as much as readPerMS
// allows (0: it has stopped reading).
type fakeUSB struct {
	t         *testing.T
	rx        []byte // host → bridge, not yet read by the firmware
	tx        []byte // bridge → host, in the USB buffer
	dtr       bool
	maxWrite  int // a Write takes at most this much (0: all)
	readPerMS int // bytes the host reads per ms; -1: all

	writes, blocked, rxReads int
	maxPerWrite              int

	host    protocol.Decoder
	hostSeq uint8
	events  []protocol.KeyEvent // KeyEvents received (each once: deduped)
	seen    map[protocol.KeyEvent]bool
	hellos  int
	nonce   uint32
}

func newFakeUSB(t *testing.T) *fakeUSB {
	return &fakeUSB{t: t, dtr: true, readPerMS: -1, seen: map[protocol.KeyEvent]bool{}}
}

func (u *fakeUSB) Buffered() int { return len(u.rx) }
func (u *fakeUSB) DTR() bool     { return u.dtr }

func (u *fakeUSB) ReadByte() (byte, error) {
	if len(u.rx) == 0 {
		return 0, protocol.FaultShort // any error
	}
	c := u.rx[0]
	u.rx = u.rx[1:]
	u.rxReads++
	return c, nil
}

func (u *fakeUSB) Write(p []byte) (int, error) {
	u.writes++
	u.maxPerWrite = max(u.maxPerWrite, len(p))
	if !u.dtr {
		u.t.Errorf("Write of %d bytes with the port closed", len(p))
	}
	if len(u.tx)+len(p) > usbBuffer {
		u.blocked++ // on the Pico this Write would spin, or overwrite
		return 0, nil
	}
	if u.maxWrite > 0 && len(p) > u.maxWrite {
		p = p[:u.maxWrite]
	}
	u.tx = append(u.tx, p...)
	return len(p), nil
}

func (u *fakeUSB) send(m protocol.Message) {
	u.rx = protocol.AppendFrame(u.rx, m, u.hostSeq)
	u.hostSeq++
}

// ms is one millisecond of the host: it reads what it may and answers.
func (u *fakeUSB) ms(now uint64) {
	if now%250_000 == 0 && u.dtr {
		u.nonce++
		u.send(&protocol.Ping{Nonce: u.nonce})
	}
	n := len(u.tx)
	if u.readPerMS >= 0 {
		n = min(n, u.readPerMS)
	}
	p := u.tx[:n]
	u.tx = u.tx[n:]
	for len(p) > 0 {
		k, f, err := u.host.Feed(p)
		p = p[k:]
		if err != nil {
			u.t.Fatalf("host: a bad frame from the bridge: %v", err)
		}
		if f.Type == 0 {
			continue
		}
		m, _ := f.Message()
		switch m := m.(type) {
		case *protocol.Ping:
			u.send(&protocol.Pong{Nonce: m.Nonce})
		case *protocol.KeyEvent:
			u.send(&protocol.Ack{Seq: f.Seq})
			if !u.seen[*m] {
				u.seen[*m] = true
				u.events = append(u.events, *m)
			}
		case *protocol.Hello:
			u.hellos++
		}
	}
}

// usbRig is a bridge on a fake board, polled every ms, on a fakeUSB.
type usbRig struct {
	chain *coretest.Chain
	b     *core.Bridge
	usb   *fakeUSB
	now   uint64
}

func newUSBRig(t *testing.T) *usbRig {
	chain := coretest.NewChain(12, 24, true)
	b, err := core.NewBridge(core.Config{Scan: scanConfig(chain)}, chain)
	if err != nil {
		t.Fatal(err)
	}
	r := &usbRig{chain: chain, b: b, usb: newFakeUSB(t)}
	r.usb.send(&protocol.HostHello{Protocol: protocol.ProtocolVersion, Seats: 12, Software: "test"})
	return r
}

func (r *usbRig) run(ms int) {
	for range ms {
		r.b.Poll(r.usb, r.now)
		r.usb.ms(r.now)
		r.now += 1000
	}
}

// press presses and releases seat's key k: two events.
func (r *usbRig) press(seat int, k protocol.Key) {
	r.chain.Press(seat, int(k))
	r.run(10)
	r.chain.Release(seat, int(k))
	r.run(10)
}

// check: the firmware never wrote more than the USB buffer had room for,
// nor more than TxPerPoll at once, and the host got want events in order.
func (r *usbRig) check(t *testing.T, want int) {
	t.Helper()
	if r.usb.blocked != 0 {
		t.Errorf("%d Writes did not fit the %d-byte USB buffer (they would block the scan loop)", r.usb.blocked, usbBuffer)
	}
	if r.usb.maxPerWrite > core.TxPerPoll {
		t.Errorf("a Write of %d bytes, more than TxPerPoll", r.usb.maxPerWrite)
	}
	if len(r.usb.events) != want {
		t.Fatalf("host got %d events, want %d", len(r.usb.events), want)
	}
	counters := map[[2]uint8]uint16{}
	for i, e := range r.usb.events {
		k := [2]uint8{e.Seat, uint8(e.Key)}
		if e.Edge == protocol.EdgeDown {
			if e.Counter != counters[k]+1 {
				t.Fatalf("event %d %+v: counter out of order", i, e)
			}
			counters[k] = e.Counter
		} else if e.Counter != counters[k] {
			t.Fatalf("event %d %+v: release of another press", i, e)
		}
	}
}

// TestPollHostStopsReading: the host keeps the port open and keeps sending
// Pings, but stops reading for 5 s while players press 25 keys (50 events).
// The scan loop goes on, never writes more than the USB buffer holds, keeps
// the events in its queue, and delivers every one in order once the host
// reads again.
func TestPollHostStopsReading(t *testing.T) {
	r := newUSBRig(t)
	r.run(1000)
	if r.usb.hellos != 1 {
		t.Fatalf("%d Hellos", r.usb.hellos)
	}
	r.usb.readPerMS = 0
	for i := range 25 {
		r.press(1+i%12, protocol.Key(i%10))
	}
	r.run(5000 - 25*20)
	if len(r.usb.tx) > usbBuffer {
		t.Fatalf("%d bytes in the USB buffer", len(r.usb.tx))
	}
	stalled := len(r.usb.events)
	r.usb.readPerMS = -1
	r.run(10_000)
	r.check(t, 50)
	if stalled >= 50 {
		t.Errorf("every event arrived while the host was not reading")
	}
	if st := r.b.Stats(); st.QueueOverflows != 0 {
		t.Errorf("QueueOverflows = %d", st.QueueOverflows)
	}
}

// TestPollQueueOverflowCounted: with the host not reading, presses beyond
// the queue are dropped and counted; the rest arrive.
func TestPollQueueOverflowCounted(t *testing.T) {
	r := newUSBRig(t)
	r.run(1000)
	r.usb.readPerMS = 0
	for i := range 60 { // 120 events
		r.press(1+i%12, protocol.Key(i%17))
	}
	r.usb.readPerMS = -1
	r.run(20_000)
	st := r.b.Stats()
	if got := len(r.usb.events) + int(st.QueueOverflows); got != 120 {
		t.Errorf("%d events delivered + %d counted as overflows = %d, want 120", len(r.usb.events), st.QueueOverflows, got)
	}
	if st.QueueOverflows == 0 {
		t.Errorf("no overflow counted")
	}
	if r.usb.blocked != 0 {
		t.Errorf("%d Writes did not fit", r.usb.blocked)
	}
}

// TestPollSlowReader: a host that reads 4 bytes a millisecond gets every
// event, and the buffer never overflows.
func TestPollSlowReader(t *testing.T) {
	r := newUSBRig(t)
	r.usb.readPerMS = 4
	for i := range 30 {
		r.press(1+i%12, protocol.KeyOK)
	}
	r.run(10_000)
	r.check(t, 60)
}

// TestPollShortWrites: a port that takes 5 bytes per Write: frames still
// arrive whole (the host's decoder fails the test on a bad one).
func TestPollShortWrites(t *testing.T) {
	r := newUSBRig(t)
	r.usb.maxWrite = 5
	for i := range 20 {
		r.press(1+i%12, protocol.Key(i%17))
	}
	r.run(5000)
	r.check(t, 40)
	if r.usb.hellos != 1 {
		t.Errorf("%d Hellos", r.usb.hellos)
	}
}

// TestPollPortClosed: with DTR low Poll writes nothing (fakeUSB fails on a
// Write), key events wait; after the port opens and the host says hello,
// they arrive. Reopening the port under load loses nothing either.
func TestPollPortClosed(t *testing.T) {
	r := newUSBRig(t)
	r.usb.dtr = false
	r.usb.rx = nil
	for i := range 10 {
		r.press(1+i, protocol.KeyHand)
	}
	r.run(500)
	if r.usb.writes != 0 {
		t.Fatalf("%d writes to a closed port", r.usb.writes)
	}
	r.usb.dtr = true
	r.usb.send(&protocol.HostHello{Protocol: protocol.ProtocolVersion, Seats: 12})
	r.run(3000)
	r.check(t, 20)
	// under load: close and reopen with presses in flight
	for i := range 10 {
		r.chain.Press(1+i, int(protocol.KeyOK))
		r.run(7)
		if i == 4 {
			r.usb.dtr = false
			r.usb.tx = nil // the host dropped what it had not read
			r.usb.host.Reset()
			r.run(300)
			r.usb.dtr = true
			r.usb.send(&protocol.HostHello{Protocol: protocol.ProtocolVersion, Seats: 12})
		}
		r.chain.Release(1+i, int(protocol.KeyOK))
		r.run(7)
	}
	r.run(5000)
	r.check(t, 40)
}

// TestPollDrainsReceiveCapped: Poll takes at most RxPerPoll bytes a turn.
func TestPollDrainsReceiveCapped(t *testing.T) {
	r := newUSBRig(t)
	r.usb.rx = make([]byte, 3*core.RxPerPoll)
	r.b.Poll(r.usb, 0)
	if r.usb.rxReads != core.RxPerPoll {
		t.Errorf("one Poll read %d bytes, want %d", r.usb.rxReads, core.RxPerPoll)
	}
	r.b.Poll(r.usb, 1000)
	r.b.Poll(r.usb, 2000)
	if len(r.usb.rx) != 0 {
		t.Errorf("%d bytes left after three Polls", len(r.usb.rx))
	}
}

// TestPollFullRateLights is the self-test's link soak on Poll: the host
// sends three Lights a millisecond and a Ping every 250 ms and reads
// promptly; every Lights is acked, every Ping answered within 100 ms, and
// nothing overflows.
func TestPollFullRateLights(t *testing.T) {
	r := newUSBRig(t)
	r.run(100)
	l := &protocol.Lights{Seats: 12}
	for i := range l.Seat[:12] {
		l.Seat[i] = protocol.SeatLight{R: 200, G: uint8(i), Brightness: 255}
	}
	sent := map[uint8]bool{}
	acked := 0
	pingAt := map[uint32]uint64{}
	worst := uint64(0)
	var dec protocol.Decoder
	for range 3000 {
		for range 3 {
			sent[r.usb.hostSeq] = true
			r.usb.send(l)
		}
		if r.now%250_000 == 0 {
			pingAt[r.usb.nonce+1] = r.now
		}
		r.b.Poll(r.usb, r.now)
		// the host's read, with the acks and pongs counted before fakeUSB
		// answers what it reads
		for p := r.usb.tx; len(p) > 0; {
			n, f, err := dec.Feed(p)
			p = p[n:]
			if err != nil || f.Type == 0 {
				continue
			}
			m, _ := f.Message()
			switch m := m.(type) {
			case *protocol.Ack:
				if sent[m.Seq] {
					delete(sent, m.Seq)
					acked++
				}
			case *protocol.Pong:
				if at, ok := pingAt[m.Nonce]; ok {
					worst = max(worst, r.now-at)
					delete(pingAt, m.Nonce)
				}
			}
		}
		r.usb.ms(r.now)
		r.now += 1000
	}
	r.run(50)
	if acked < 9000-3 {
		t.Errorf("%d of 9000 Lights acked", acked)
	}
	if len(pingAt) > 1 || worst > 100_000 {
		t.Errorf("%d Pings unanswered, slowest Pong %d µs", len(pingAt), worst)
	}
	if st := r.b.Stats(); st.QueueOverflows != 0 {
		t.Errorf("QueueOverflows = %d", st.QueueOverflows)
	}
	if r.usb.blocked != 0 {
		t.Errorf("%d Writes did not fit", r.usb.blocked)
	}
}
