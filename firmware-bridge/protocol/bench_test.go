package protocol

import "testing"

func BenchmarkEncodeKeyEvent(b *testing.B) {
	ke := &KeyEvent{Seat: 7, Key: KeyOK, Edge: EdgeDown, Counter: 1, Micros: 123456}
	buf := make([]byte, 0, MaxWireLen)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = AppendFrame(buf[:0], ke, uint8(i))
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkDecodeKeyEvent(b *testing.B) {
	frame := Encode(&KeyEvent{Seat: 7, Key: KeyOK, Edge: EdgeDown, Counter: 1, Micros: 123456}, 3)
	var d Decoder
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		_, f, err := d.Feed(frame)
		if err != nil || f.Type != TypeKeyEvent {
			b.Fatal(err)
		}
		var ke KeyEvent
		if err := ke.UnmarshalBody(f.Body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeLights12(b *testing.B) {
	l := lights12()
	buf := make([]byte, 0, MaxWireLen)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = AppendFrame(buf[:0], l, uint8(i))
	}
	b.SetBytes(int64(len(buf)))
}
