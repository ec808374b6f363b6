package protocol

import "testing"

// TestFramePathAllocs: encoding a frame into a buffer with room, and
// decoding and parsing one into a message the caller holds, allocate
// nothing, for every message type the bridge sends or receives.
func TestFramePathAllocs(t *testing.T) {
	msgs := []Message{
		&Hello{Protocol: 1, Seats: 12, KeysPerSeat: 17, Caps: CapPedal | CapChainFault},
		&HostHello{Protocol: 1, Seats: 12, Software: "wolftable 1.0"},
		&KeyEvent{Seat: 7, Key: KeyOK, Edge: EdgeDown, Counter: 3, Micros: 1 << 30},
		lights12(),
		&Ack{Seq: 9}, &Ping{Nonce: 0x01000200}, &Pong{Nonce: 5},
		&StatsRequest{}, &Stats{CRCErrors: 1, UptimeMillis: 256},
		&SelfTestSetLED{Seat: 3, R: 255}, &SelfTestDumpKeys{},
		&SelfTestKeys{BitsPerSeat: 24, Seats: 18, Bits: [MaxSeats]uint32{0, 1 << 23, 0xFFFFFF}},
	}
	buf := make([]byte, 0, 2*MaxWireLen)
	var d Decoder
	into := map[Type]Message{}
	for _, m := range msgs {
		into[m.Type()] = newMessage(m.Type())
	}
	for _, m := range msgs {
		target := into[m.Type()]
		var frame []byte
		if n := testing.AllocsPerRun(100, func() {
			frame = AppendFrame(buf[:0], m, 7)
		}); n != 0 {
			t.Errorf("AppendFrame(%v): %.1f allocations", m.Type(), n)
		}
		if n := testing.AllocsPerRun(100, func() {
			_, f, err := d.Feed(frame)
			if err != nil || f.Type != m.Type() {
				t.Fatalf("%v: decoded %v, %v", m.Type(), f.Type, err)
			}
			if m.Type() == TypeHostHello {
				return // its Software is a string: parsing it allocates, and the bridge never does
			}
			if err := target.UnmarshalBody(f.Body); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("decoding %v: %.1f allocations", m.Type(), n)
		}
	}
}
