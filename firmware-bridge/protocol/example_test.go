package protocol_test

import (
	"fmt"

	"wolftable/firmware-bridge/protocol"
)

func Example() {
	// The bridge reports seat 7 pressing OK.
	wire := protocol.Encode(&protocol.KeyEvent{
		Seat: 7, Key: protocol.KeyOK, Edge: protocol.EdgeDown, Counter: 1, Micros: 5000,
	}, 0)
	fmt.Printf("% x\n", wire)

	// The host reads it from the serial port, in whatever pieces arrive.
	var d protocol.Decoder
	for p := wire; len(p) > 0; {
		n, f, err := d.Feed(p)
		p = p[n:]
		if err != nil || f.Type == 0 {
			continue
		}
		m, _ := f.Message()
		if ke, ok := m.(*protocol.KeyEvent); ok {
			fmt.Printf("seq %d: seat %d %v %v, press %d\n", f.Seq, ke.Seat, ke.Key, ke.Edge, ke.Counter)
			// The host acks it by seq: protocol.Encode(&protocol.Ack{Seq: f.Seq}, hostSeq)
		}
	}
	// Output:
	// 03 01 03 04 07 0a 01 02 01 01 05 13 88 8b 31 00
	// seq 0: seat 7 OK down, press 1
}

func ExampleDecoder_Feed() {
	// Line noise, then a frame: the Decoder drops the noise and resynchronises
	// at the 0x00.
	stream := append([]byte{0x13, 0x37, 0x00}, protocol.Encode(&protocol.Ping{Nonce: 42}, 5)...)
	var d protocol.Decoder
	for p := stream; len(p) > 0; {
		n, f, err := d.Feed(p)
		p = p[n:]
		switch {
		case err != nil:
			fmt.Println("dropped:", err)
		case f.Type != 0:
			fmt.Println("frame:", f.Type, "seq", f.Seq)
		}
	}
	// Output:
	// dropped: protocol: invalid COBS
	// frame: Ping seq 5
}
