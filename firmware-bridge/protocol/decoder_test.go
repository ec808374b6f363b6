package protocol

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"
)

// rawFrame builds a frame from a payload without checking it, appending the
// CRC (crcDelta is added to it, to spoil it) and the delimiter.
func rawFrame(payload []byte, crcDelta uint16) []byte {
	p := binary.BigEndian.AppendUint16(bytes.Clone(payload), CRC16(payload)+crcDelta)
	return append(appendCOBS(nil, p), 0)
}

func keyEventFrame(i int) []byte {
	return Encode(keyEventN(i), uint8(i))
}

// keyEventN is the i-th of a series of distinct valid key events.
func keyEventN(i int) *KeyEvent {
	return &KeyEvent{
		Seat:    uint8(1 + i%MaxSeats),
		Key:     Key(i % NumSeatKeys),
		Edge:    Edge(i % 2),
		Counter: uint16(i),
		Micros:  uint32(i),
	}
}

func TestDecoderFaults(t *testing.T) {
	good := keyEventFrame(1)
	for _, tt := range []struct {
		name  string
		in    []byte
		fault Fault  // or
		field string // a BodyError on this field
	}{
		{"overrun", append(bytes.Repeat([]byte{0x55}, MaxFrameLen+1), 0), FaultOverrun, ""},
		{"overrun by far", append(bytes.Repeat([]byte{0x55}, 5000), 0), FaultOverrun, ""},
		{"bad COBS", h("051100"), FaultCOBS, ""},
		{"short", rawFrame(h("01"), 0), FaultShort, ""},
		{"empty payload", h("0100"), FaultShort, ""},
		{"CRC", rawFrame(h("010300070a0100010000000a"), 1), FaultCRC, ""},
		{"CRC of a real frame, one bit flipped", flip(good, 3, 0x10), FaultCRC, ""},
		{"version 3", rawFrame(h("030300070a0100010000000a"), 0), FaultVersion, ""},
		{"version 0", rawFrame(h("000300070a0100010000000a"), 0), FaultVersion, ""},
		{"type 0", rawFrame(h("010000"), 0), FaultType, ""},
		{"type 0x7f", rawFrame(h("017f00"), 0), FaultType, ""},
		{"body length", rawFrame(h("010300070a01000100"), 0), 0, "length"},
		{"seat 19", rawFrame(h("01030013"+"0a0100010000000a"), 0), 0, "seat"},
		{"key 40", rawFrame(h("0103000728"+"0100010000000a"), 0), 0, "key"},
		{"edge 7", rawFrame(h("010300070a07"+"00010000000a"), 0), 0, "edge"},
		{"Lights 40 seats", rawFrame(append(h("01040028"), make([]byte, 200)...), 0), 0, "seats"},
		{"Stats of version 2 in version 1", rawFrame(h("010900"+"0000000100000002000000030000000400000005"+"02"), 0), 0, "length"},
		{"Stats of version 1 in version 2", rawFrame(h("020900"+"0000000100000002000000030000000400000005"), 0), 0, "length"},
		{"Hello saying version 2 in a version 1 frame", rawFrame(h("010100"+"01020302"+"0c1103"), 0), 0, "protocol"},
		{"HostHello saying version 1 in a version 2 frame", rawFrame(h("020200"+"010c00"), 0), 0, "protocol"},
		{"unknown caps in version 1", rawFrame(h("010100"+"01020301"+"0c1188"), 0), 0, "capabilities"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var d Decoder
			in := append(bytes.Clone(tt.in), good...)
			var errs []error
			var frames []Frame
			for p := in; len(p) > 0; {
				n, f, err := d.Feed(p)
				if n == 0 {
					t.Fatal("Feed consumed nothing")
				}
				p = p[n:]
				if err != nil {
					errs = append(errs, err)
				} else if f.Type != 0 {
					frames = append(frames, f)
				}
			}
			if len(errs) != 1 {
				t.Fatalf("errors = %v, want exactly one", errs)
			}
			if tt.field != "" {
				var be *BodyError
				if !errors.As(errs[0], &be) || be.Field != tt.field {
					t.Errorf("error = %v, want a BodyError on %q", errs[0], tt.field)
				}
			} else if errs[0] != tt.fault {
				t.Errorf("error = %v, want %v", errs[0], tt.fault)
			}
			if len(frames) != 1 || frames[0].Type != TypeKeyEvent || frames[0].Seq != 1 {
				t.Fatalf("frames after the fault = %+v, want the good KeyEvent", frames)
			}
			s := d.Stats()
			if s.Frames != 1 || s.CRCErrors+s.Overruns+s.Malformed+s.ForeignFrames != 1 {
				t.Errorf("stats = %+v", s)
			}
		})
	}
}

func flip(b []byte, i int, mask byte) []byte {
	b = bytes.Clone(b)
	b[i] ^= mask
	return b
}

// TestDecoderVersions: a Decoder takes frames of version 1 and 2, each
// checked against its version's layout, and says which version each came in.
func TestDecoderVersions(t *testing.T) {
	stats := &Stats{CRCErrors: 1, UptimeMillis: 9, ResetReason: ResetWatchdog}
	hello := &Hello{Firmware: Version{0, 3, 0}, Protocol: Version2, Seats: 12, KeysPerSeat: 17, Caps: CapPedal | 0x80}
	var stream []byte
	stream = AppendFrameVersion(stream, stats, 1, Version2)
	stream = AppendFrame(stream, stats, 2) // version 1: no reset reason
	stream = AppendFrameVersion(stream, hello, 3, Version2)
	var d Decoder
	var got []Frame
	var msgs []Message
	for p := stream; len(p) > 0; {
		n, f, err := d.Feed(p)
		p = p[n:]
		if err != nil {
			t.Fatalf("Feed: %v", err)
		}
		if f.Type != 0 {
			m, err := f.Message()
			if err != nil {
				t.Fatal(err)
			}
			got, msgs = append(got, f), append(msgs, m)
		}
	}
	if len(got) != 3 || got[0].Version != Version2 || got[1].Version != ProtocolVersion || got[2].Version != Version2 {
		t.Fatalf("frames %+v", got)
	}
	if m := msgs[0].(*Stats); *m != *stats || len(got[0].Body) != 21 {
		t.Errorf("version 2 Stats: %+v (%d bytes), want %+v in 21", m, len(got[0].Body), stats)
	}
	if m := msgs[1].(*Stats); m.ResetReason != ResetUnknown || m.UptimeMillis != 9 || len(got[1].Body) != 20 {
		t.Errorf("version 1 Stats: %+v (%d bytes), want no reset reason in 20", m, len(got[1].Body))
	}
	// From version 2 on, caps bits a receiver does not know are ignored.
	if m := msgs[2].(*Hello); *m != *hello {
		t.Errorf("version 2 Hello: %+v, want %+v", m, hello)
	}
	if err := ValidateVersion(hello, ProtocolVersion); err == nil {
		t.Error("a Hello with unknown caps bits passes version 1's check")
	}
}

func TestDecoderForeignVersion(t *testing.T) {
	var d Decoder
	d.Feed(rawFrame(h("070600"+"00000001"), 0))
	if s := d.Stats(); s.ForeignFrames != 1 || s.ForeignVersion != 7 {
		t.Errorf("stats = %+v, want one foreign frame of version 7", s)
	}
}

func TestDecoderStreaming(t *testing.T) {
	var stream []byte
	stream = append(stream, 0, 0, 0) // leading delimiters are skipped, not counted
	for i := range 50 {
		stream = append(stream, keyEventFrame(i)...)
		if i%7 == 0 {
			stream = append(stream, 0) // so are extra ones between frames
		}
	}
	for _, chunk := range []int{1, 2, 3, 13, 64, len(stream)} {
		var d Decoder
		var got []int
		for p := stream; len(p) > 0; {
			q := p[:min(chunk, len(p))]
			n, f, err := d.Feed(q)
			p = p[n:]
			if err != nil {
				t.Fatalf("chunk %d: %v", chunk, err)
			}
			if f.Type != 0 {
				var ke KeyEvent
				if err := ke.UnmarshalBody(f.Body); err != nil {
					t.Fatal(err)
				}
				got = append(got, int(ke.Counter))
			}
		}
		if len(got) != 50 {
			t.Fatalf("chunk %d: %d frames, want 50", chunk, len(got))
		}
		for i, c := range got {
			if c != i {
				t.Fatalf("chunk %d: frame %d has counter %d", chunk, i, c)
			}
		}
		if s := d.Stats(); s != (DecoderStats{Frames: 50}) {
			t.Errorf("chunk %d: stats = %+v", chunk, s)
		}
	}
}

func TestDecoderReset(t *testing.T) {
	var d Decoder
	f := keyEventFrame(3)
	d.Feed(f[:5])
	d.Reset()
	n, fr, err := d.Feed(f)
	if n != len(f) || err != nil || fr.Type != TypeKeyEvent {
		t.Errorf("after Reset: Feed = %d, %+v, %v", n, fr, err)
	}
}

// TestDecoderGarbageResync interleaves 1 MiB of garbage with real KeyEvent
// frames. Garbage is uniform random bytes, long runs without a zero
// (overruns), real frames with a byte changed, and real frames cut short.
// Each garbage run ends where the line goes quiet and the sender's next frame
// begins after a 0x00 (the sender's delimiter after its previous frame, or
// one it sends to resynchronise): every real frame must come out exactly once,
// in order, and nothing else.
func TestDecoderGarbageResync(t *testing.T) {
	rng := rand.New(rand.NewPCG(2024, 11))
	const garbageTotal = 1 << 20
	var stream []byte
	garbage, real := 0, 0
	for garbage < garbageTotal {
		start := len(stream)
		switch rng.IntN(4) {
		case 0: // uniform random bytes
			for range rng.IntN(2048) {
				stream = append(stream, byte(rng.UintN(256)))
			}
		case 1: // a long run without a zero
			for range MaxFrameLen + rng.IntN(1024) {
				stream = append(stream, byte(1+rng.UintN(255)))
			}
		case 2: // a real-looking frame with one byte changed (never to zero)
			f := keyEventFrame(100000 + rng.IntN(1000))
			f = f[:len(f)-1]
			i := rng.IntN(len(f))
			f[i] ^= byte(1 + rng.UintN(255))
			if f[i] == 0 {
				f[i] = 0xAA
			}
			stream = append(stream, f...)
		case 3: // a real frame cut short
			f := keyEventFrame(200000 + rng.IntN(1000))
			stream = append(stream, f[:rng.IntN(len(f)-1)]...)
		}
		garbage += len(stream) - start
		stream = append(stream, 0)
		stream = append(stream, keyEventFrame(real)...)
		real++
	}

	var d Decoder
	var got []KeyEvent
	faults := 0
	for p := stream; len(p) > 0; {
		q := p[:min(1+rng.IntN(512), len(p))]
		n, f, err := d.Feed(q)
		p = p[n:]
		switch {
		case err != nil:
			faults++
		case f.Type == TypeKeyEvent:
			var ke KeyEvent
			if err := ke.UnmarshalBody(f.Body); err != nil {
				t.Fatal(err)
			}
			got = append(got, ke)
		case f.Type != 0:
			t.Fatalf("phantom %v frame", f.Type)
		}
	}
	if len(got) != real {
		t.Fatalf("decoded %d KeyEvents, sent %d", len(got), real)
	}
	for i, ke := range got {
		if ke != *keyEventN(i) {
			t.Fatalf("frame %d = %+v, want %+v", i, ke, *keyEventN(i))
		}
	}
	s := d.Stats()
	t.Logf("%d garbage bytes, %d real frames, stats %+v", garbage, real, s)
	if s.Frames != uint32(real) || s.Overruns == 0 || s.CRCErrors == 0 || s.Malformed == 0 {
		t.Errorf("stats = %+v", s)
	}
	if int(s.CRCErrors+s.Overruns+s.Malformed+s.ForeignFrames) != faults {
		t.Errorf("stats count %d faults, Feed returned %d", s.CRCErrors+s.Overruns+s.Malformed+s.ForeignFrames, faults)
	}
}

func TestNoAllocations(t *testing.T) {
	buf := make([]byte, 0, MaxWireLen)
	ke := keyEventN(5)
	lights := lights12()
	frame := keyEventFrame(5)
	garbage := append(flip(frame, 2, 1), 1, 2, 3, 0)
	var d Decoder
	for _, tt := range []struct {
		name string
		f    func()
	}{
		{"AppendFrame KeyEvent", func() { buf = AppendFrame(buf[:0], ke, 1) }},
		{"AppendFrame Lights", func() { buf = AppendFrame(buf[:0], lights, 1) }},
		{"Decoder.Feed", func() {
			if _, f, err := d.Feed(frame); err != nil || f.Type != TypeKeyEvent {
				panic("decode failed")
			}
		}},
		{"Decoder.Feed garbage", func() {
			for p := garbage; len(p) > 0; {
				n, _, _ := d.Feed(p)
				p = p[n:]
			}
		}},
	} {
		if n := testing.AllocsPerRun(100, tt.f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", tt.name, n)
		}
	}
}
