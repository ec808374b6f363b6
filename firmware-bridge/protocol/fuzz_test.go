package protocol

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzDecoderNeverPanics guards the Decoder against any bytes: it never
// panics, always makes progress, counts every fault it returns, and every
// frame it delivers is exactly the encoding of a valid message — random bytes
// are never mistaken for something the encoder would not have written.
func FuzzDecoderNeverPanics(f *testing.F) {
	for _, tt := range messageTests {
		f.Add(Encode(tt.msg, 9))
	}
	f.Add(append(bytes.Repeat([]byte{0x42}, MaxFrameLen+3), keyEventFrame(1)...))
	f.Add(append(flip(keyEventFrame(2), 4, 0x80), keyEventFrame(3)...))
	f.Add(rawFrame(h("020300070a0100010000000a"), 0))
	f.Add(rawFrame(h("030300070a0100010000000a"), 0)) // an unknown version
	for _, tt := range versionTests {
		f.Add(EncodeVersion(tt.msg, 4, tt.version))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var d Decoder
		var frames, faults uint32
		for pos := 0; pos < len(data); {
			n, fr, err := d.Feed(data[pos:])
			if n <= 0 || pos+n > len(data) {
				t.Fatalf("Feed consumed %d of %d bytes", n, len(data)-pos)
			}
			pos += n
			switch {
			case err != nil:
				faults++
				var be *BodyError
				var fault Fault
				if !errors.As(err, &be) && !errors.As(err, &fault) {
					t.Fatalf("error %v (%T) is neither Fault nor *BodyError", err, err)
				}
				if fr.Type != 0 {
					t.Fatalf("Feed returned a frame with an error")
				}
			case fr.Type != 0:
				frames++
				m, err := fr.Message()
				if err != nil {
					t.Fatalf("delivered frame does not parse: %v", err)
				}
				if err := ValidateVersion(m, fr.Version); err != nil {
					t.Fatalf("delivered message is invalid in version %d: %v", fr.Version, err)
				}
				// The frame is everything since the 0x00 before its delimiter.
				wire := data[bytes.LastIndexByte(data[:pos-1], 0)+1 : pos]
				if enc := EncodeVersion(m, fr.Seq, fr.Version); !bytes.Equal(enc, wire) {
					t.Fatalf("delivered %x, which encodes as %x", wire, enc)
				}
			}
		}
		s := d.Stats()
		if s.Frames != frames || s.CRCErrors+s.Overruns+s.Malformed+s.ForeignFrames != faults {
			t.Fatalf("stats %+v; Feed returned %d frames and %d faults", s, frames, faults)
		}
	})
}

// FuzzMessageParse guards body parsing: ParseMessage never panics, it
// accepts exactly the bodies the Decoder's allocation-free check accepts,
// what it accepts is valid, and a body it accepts re-encodes to the same
// bytes (each message has one encoding).
func FuzzMessageParse(f *testing.F) {
	for _, tt := range messageTests {
		f.Add(byte(tt.msg.Type()), tt.body)
	}
	f.Add(byte(TypeKeyEvent), h("13"+"0a0100010000000a"))
	f.Add(byte(TypeHostHello), h("010c05")) // length past the end
	f.Add(byte(0x7f), []byte(nil))
	f.Fuzz(func(t *testing.T, ty byte, body []byte) {
		m, err := ParseMessage(Type(ty), body)
		if checkErr := checkBody(Type(ty), body); (checkErr == nil) != (err == nil) {
			t.Fatalf("ParseMessage error %v, checkBody error %v", err, checkErr)
		}
		if err != nil {
			if m != nil {
				t.Fatalf("ParseMessage returned %+v with error %v", m, err)
			}
			return
		}
		if m.Type() != Type(ty) {
			t.Fatalf("ParseMessage(%v) returned a %v", Type(ty), m.Type())
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("parsed message is invalid: %v", err)
		}
		if re := m.AppendBody(nil); !bytes.Equal(re, body) {
			t.Fatalf("body %x re-encodes as %x", body, re)
		}
	})
}

// FuzzMessageParseVersion is FuzzMessageParse in every version, unknown
// ones included: ParseMessageVersion never panics, accepts exactly the
// bodies the Decoder's check accepts in that version, what it accepts is
// valid in that version, and re-encodes to the same bytes.
func FuzzMessageParseVersion(f *testing.F) {
	for _, tt := range messageTests {
		f.Add(byte(ProtocolVersion), byte(tt.msg.Type()), tt.body)
		f.Add(byte(Version2), byte(tt.msg.Type()), AppendBodyVersion(nil, tt.msg, Version2))
	}
	for _, tt := range versionTests {
		f.Add(tt.version, byte(tt.msg.Type()), AppendBodyVersion(nil, tt.msg, tt.version))
	}
	f.Add(byte(3), byte(TypeStats), make([]byte, 22))
	f.Add(byte(0), byte(TypePing), make([]byte, 4))
	f.Fuzz(func(t *testing.T, version, ty byte, body []byte) {
		m, err := ParseMessageVersion(version, Type(ty), body)
		if !KnownVersion(version) {
			if err != FaultVersion || m != nil {
				t.Fatalf("version %d: %v, %v; want FaultVersion", version, m, err)
			}
			return
		}
		if checkErr := checkBodyVersion(version, Type(ty), body); (checkErr == nil) != (err == nil) {
			t.Fatalf("version %d: ParseMessageVersion error %v, checkBody error %v", version, err, checkErr)
		}
		if err != nil {
			if m != nil {
				t.Fatalf("ParseMessageVersion returned %+v with error %v", m, err)
			}
			return
		}
		if m.Type() != Type(ty) {
			t.Fatalf("ParseMessageVersion(%v) returned a %v", Type(ty), m.Type())
		}
		if err := ValidateVersion(m, version); err != nil {
			t.Fatalf("parsed message is invalid in version %d: %v", version, err)
		}
		if re := AppendBodyVersion(nil, m, version); !bytes.Equal(re, body) {
			t.Fatalf("version %d: body %x re-encodes as %x", version, body, re)
		}
	})
}
