package serial

import (
	"bytes"
	"sync"
	"testing"
	"time"

	bugst "go.bug.st/serial"

	"wolftable/firmware-bridge/protocol"
)

// recordingPort is a serial port that records each Write: its bytes, and
// when it began.
type recordingPort struct {
	bugst.Port // the methods the writer does not call
	mu         sync.Mutex
	writes     []pacedWrite
	data       []byte
}

func (p *recordingPort) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.writes = append(p.writes, pacedWrite{time.Now(), len(b)})
	p.data = append(p.data, b...)
	return len(b), nil
}

func (p *recordingPort) written() ([]pacedWrite, []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]pacedWrite(nil), p.writes...), bytes.Clone(p.data)
}

// TestPacerSessionStart (M5): a session's start burst of more than 300
// bytes (the HostHellos, full Lights of 18 seats, a Ping, a StatsRequest,
// acks), queued at once, leaves the driver's writer in pieces never more
// than HostPaceBytes in any HostPaceMicros, whole and in order. (Sleeping
// longer on a loaded machine only spaces them more.)
func TestPacerSessionStart(t *testing.T) {
	var burst [][]byte
	burst = append(burst, []byte{0})
	burst = append(burst, protocol.Encode(&protocol.HostHello{Protocol: protocol.ProtocolVersion, Seats: 18, Software: "wolftable 1.0"}, 0))
	burst = append(burst, protocol.EncodeVersion(&protocol.HostHello{Protocol: protocol.Version2, Seats: 18, Software: "wolftable 1.0"}, 1, protocol.Version2))
	lights := &protocol.Lights{Seats: 18}
	for i := range lights.Seat[:18] {
		lights.Seat[i] = protocol.SeatLight{R: 255, G: byte(i), Brightness: 200}
	}
	for seq := uint8(2); seq < 5; seq++ {
		burst = append(burst, protocol.Encode(lights, seq))
	}
	burst = append(burst, protocol.Encode(&protocol.Ping{Nonce: 1}, 5), protocol.Encode(&protocol.StatsRequest{}, 6))
	for seq := uint8(7); seq < 12; seq++ {
		burst = append(burst, protocol.Encode(&protocol.Ack{Seq: seq}, seq))
	}
	port := &recordingPort{}
	c := &conn{port: port, tx: make(chan []byte, 64), txErr: make(chan error, 1), done: make(chan struct{}), writerDone: make(chan struct{})}
	go c.write()
	defer func() { close(c.done); <-c.writerDone }()
	var want []byte
	for _, b := range burst {
		if !c.raw(b) {
			t.Fatal("the write queue refused the burst")
		}
		want = append(want, b...)
	}
	if len(want) < 300 {
		t.Fatalf("the burst is %d bytes", len(want))
	}
	var writes []pacedWrite
	var got []byte
	for deadline := time.Now().Add(30 * time.Second); len(got) < len(want); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d bytes written", len(got), len(want))
		}
		writes, got = port.written()
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the port got other bytes than were sent")
	}
	for i, wr := range writes {
		in := 0
		for _, earlier := range writes[:i+1] {
			if wr.at.Sub(earlier.at) < paceWindow {
				in += earlier.n
			}
		}
		if in > protocol.HostPaceBytes {
			t.Fatalf("write %d: %d bytes within %v, more than the bridge's receive buffer is sure to take", i, in, paceWindow)
		}
	}
	t.Logf("%d bytes in %d writes over %v", len(got), len(writes), writes[len(writes)-1].at.Sub(writes[0].at))
}
