package selftest

import (
	"sync"
	"testing"
	"time"

	bugst "go.bug.st/serial"

	"wolftable/firmware-bridge/protocol"
)

// ringBridge is a bridge behind a port, as far as its USB receive ring
// goes: what the host writes waits in the ring until the firmware reads
// it, one frame every 2 ms, and answers it (an Ack for Lights, a Pong for a
// Ping). It records the most bytes that were ever waiting.
type ringBridge struct {
	mu       sync.Mutex
	dec      protocol.Decoder
	waiting  []ringFrame
	bytes    int // in the ring: written, not yet read by the firmware
	most     int
	out      []byte // the firmware's answers, for Read
	seq      uint8
	closed   bool
	stop     chan struct{}
	stopOnce sync.Once
}

type ringFrame struct {
	n     int
	reply protocol.Message
}

func newRingBridge() *ringBridge {
	b := &ringBridge{stop: make(chan struct{})}
	go func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-tick.C:
			}
			b.mu.Lock()
			if len(b.waiting) > 0 {
				f := b.waiting[0]
				b.waiting = b.waiting[1:]
				b.bytes -= f.n
				if f.reply != nil {
					b.out = append(b.out, protocol.Encode(f.reply, b.seq)...)
					b.seq++
				}
			}
			b.mu.Unlock()
		}
	}()
	return b
}

func (b *ringBridge) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f := ringFrame{n: len(p)}
	for q := p; len(q) > 0; {
		n, fr, err := b.dec.Feed(q)
		q = q[n:]
		if err != nil || fr.Type == 0 {
			continue
		}
		m, err := fr.Message()
		if err != nil {
			continue
		}
		switch m := m.(type) {
		case *protocol.Lights:
			f.reply = &protocol.Ack{Seq: fr.Seq}
		case *protocol.Ping:
			f.reply = &protocol.Pong{Nonce: m.Nonce}
		}
	}
	b.waiting = append(b.waiting, f)
	b.bytes += f.n
	b.most = max(b.most, b.bytes)
	return len(p), nil
}

func (b *ringBridge) Read(p []byte) (int, error) {
	for range 10 {
		b.mu.Lock()
		if b.closed {
			b.mu.Unlock()
			return 0, bugst.PortError{}
		}
		if len(b.out) > 0 {
			n := copy(p, b.out)
			b.out = b.out[n:]
			b.mu.Unlock()
			return n, nil
		}
		b.mu.Unlock()
		time.Sleep(2 * time.Millisecond)
	}
	return 0, nil
}

func (b *ringBridge) Close() error {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.stopOnce.Do(func() { close(b.stop) })
	return nil
}

func (b *ringBridge) SetMode(*bugst.Mode) error { return nil }
func (b *ringBridge) Drain() error              { return nil }
func (b *ringBridge) ResetInputBuffer() error   { return nil }
func (b *ringBridge) ResetOutputBuffer() error  { return nil }
func (b *ringBridge) SetDTR(bool) error         { return nil }
func (b *ringBridge) SetRTS(bool) error         { return nil }
func (b *ringBridge) GetModemStatusBits() (*bugst.ModemStatusBits, error) {
	return &bugst.ModemStatusBits{}, nil
}
func (b *ringBridge) SetReadTimeout(time.Duration) error { return nil }
func (b *ringBridge) Break(time.Duration) error          { return nil }

// TestSoakFitsTheBridgeRing: the raw link's light soak never has more
// bytes waiting at the bridge than its 128-byte USB receive ring holds
// (TinyGo 0.39 drops the rest), for the smallest, the usual and the
// largest table, and still keeps frames going. Before, it kept 4 frames in
// flight whatever their size: 272 bytes for 12 seats, 392 for 18.
func TestSoakFitsTheBridgeRing(t *testing.T) {
	for _, seats := range []int{6, 12, 18} {
		b := newRingBridge()
		l := &rawLink{port: b, path: "ring", rx: make(chan rawChunk, 256), done: make(chan struct{}), rd: make(chan struct{}), lag: noLag{}}
		go l.read()
		var res rawResult
		err := l.soak(&res, seats, 300*time.Millisecond)
		l.close()
		if err != nil {
			t.Fatalf("%d seats: %v", seats, err)
		}
		b.mu.Lock()
		most := b.most
		b.mu.Unlock()
		if most > bridgeRxRing {
			t.Errorf("%d seats: %d bytes waited at the bridge, its ring holds %d", seats, most, bridgeRxRing)
		}
		if res.acked < 20 || res.acked != res.sent {
			t.Errorf("%d seats: %d light frames sent, %d acked in 300 ms: want them going, all acked", seats, res.sent, res.acked)
		}
		t.Logf("%d seats: %d frames, at most %d bytes waiting", seats, res.acked, most)
	}
}
