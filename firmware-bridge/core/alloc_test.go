package core_test

import (
	"testing"

	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/core/coretest"
	"wolftable/firmware-bridge/protocol"
)

// loopPort is a Port and a host that answer without allocating: the host
// acks every KeyEvent and answers every Ping, and a script of frames (Lights,
// Ping, StatsRequest, SelfTestDumpKeys) comes in turn.
type loopPort struct {
	in     [4096]byte
	inN    int
	host   protocol.Decoder
	ack    protocol.Ack
	pong   protocol.Pong
	ping   protocol.Ping
	script [][]byte
	next   int
	wrote  int
}

func (p *loopPort) Buffered() int { return p.inN }
func (p *loopPort) DTR() bool     { return true }

func (p *loopPort) ReadByte() (byte, error) {
	if p.inN == 0 {
		return 0, protocol.FaultShort
	}
	c := p.in[0]
	copy(p.in[:], p.in[1:p.inN])
	p.inN--
	return c, nil
}

func (p *loopPort) queue(b []byte) {
	p.inN += copy(p.in[p.inN:], b)
}

func (p *loopPort) Write(b []byte) (int, error) {
	p.wrote += len(b)
	for q := b; len(q) > 0; {
		n, f, err := p.host.Feed(q)
		q = q[n:]
		if err != nil {
			continue
		}
		switch f.Type {
		case protocol.TypeKeyEvent:
			p.ack.Seq = f.Seq
			var buf [protocol.MaxWireLen]byte
			p.queue(protocol.AppendFrame(buf[:0], &p.ack, 0))
		case protocol.TypePing:
			if p.ping.UnmarshalBody(f.Body) == nil {
				p.pong.Nonce = p.ping.Nonce
				var buf [protocol.MaxWireLen]byte
				p.queue(protocol.AppendFrame(buf[:0], &p.pong, 0))
			}
		}
	}
	return len(b), nil
}

// TestPollAllocs: a turn of the main loop allocates nothing, with keys
// changing, the host sending every kind of frame, and the bridge answering,
// sending events and pinging.
func TestPollAllocs(t *testing.T) {
	chain := coretest.NewChain(18, 24, true)
	pedal := &coretest.Pin{High: true}
	b, err := core.NewBridge(core.Config{
		Scan:        core.ScanConfig{Seats: 18, BitsPerSeat: 24, KeyMap: core.DefaultKeyMap(24), ActiveLow: true, Pedal: pedal, PedalActiveLow: true},
		PrivateLEDs: true,
	}, chain)
	if err != nil {
		t.Fatal(err)
	}
	l := &protocol.Lights{Seats: 18}
	for i := range l.Seat {
		l.Seat[i] = protocol.SeatLight{R: uint8(i), G: 200, B: 7, Flags: protocol.LightPulse | protocol.LightPrivate, Brightness: 128}
	}
	p := &loopPort{script: [][]byte{
		protocol.Encode(&protocol.HostHello{Protocol: 1, Seats: 18, Software: "alloc test"}, 0),
		protocol.Encode(l, 1),
		protocol.Encode(&protocol.Ping{Nonce: 77}, 2),
		protocol.Encode(&protocol.StatsRequest{}, 3),
		protocol.Encode(&protocol.SelfTestDumpKeys{}, 4),
		protocol.Encode(&protocol.SelfTestSetLED{Seat: 4, G: 9}, 5),
	}}
	now := uint64(0)
	turn := func() {
		if now%7000 == 0 {
			p.queue(p.script[p.next%len(p.script)])
			p.next++
		}
		ms := int(now / 1000)
		seat, key := 1+ms/40%18, ms/20%protocol.NumSeatKeys
		chain.Set(seat, key, ms%20 < 10) // a press every 20 ms
		pedal.High = ms%300 < 150
		b.Poll(p, now)
		b.LightFrame()
		now += 1000
	}
	for range 2000 { // warm up: the host says hello, the window opens
		turn()
	}
	if n := testing.AllocsPerRun(5000, turn); n != 0 {
		t.Errorf("Poll: %.2f allocations per turn", n)
	}
	if p.wrote == 0 {
		t.Fatal("nothing written")
	}
	if st := b.Stats(); st.QueueOverflows != 0 {
		t.Errorf("QueueOverflows = %d: the test's host falls behind", st.QueueOverflows)
	}
}

// TestTickAllocs: Tick and HandleBytes (the emulator's path) allocate
// nothing either.
func TestTickAllocs(t *testing.T) {
	chain := coretest.NewChain(12, 24, true)
	b, err := core.NewBridge(core.Config{Scan: scanConfig(chain)}, chain)
	if err != nil {
		t.Fatal(err)
	}
	ping := protocol.Encode(&protocol.Ping{Nonce: 1}, 0)
	now := uint64(0)
	var host protocol.Decoder
	var ack protocol.Ack
	var buf [protocol.MaxWireLen]byte
	turn := func() {
		ms := int(now / 1000)
		chain.Set(1+ms/40%12, ms/20%protocol.NumSeatKeys, ms%20 < 10)
		if ms%50 == 0 {
			b.HandleBytes(ping)
		}
		for q := b.Tick(now); len(q) > 0; {
			n, f, err := host.Feed(q)
			q = q[n:]
			if err == nil && f.Type == protocol.TypeKeyEvent {
				ack.Seq = f.Seq
				b.HandleBytes(protocol.AppendFrame(buf[:0], &ack, 0))
			}
		}
		now += 1000
	}
	if n := testing.AllocsPerRun(3000, turn); n != 0 {
		t.Errorf("Tick: %.2f allocations per turn", n)
	}
}
