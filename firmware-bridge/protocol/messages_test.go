package protocol

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

func lights12() *Lights {
	l := &Lights{Seats: 12}
	for i := range 12 {
		l.Seat[i] = SeatLight{R: byte(i * 20), G: 255 - byte(i*20), B: byte(i), Brightness: 200}
	}
	l.Seat[3].Flags = LightPulse
	l.Seat[6].Flags = LightPulse | LightPrivate
	return l
}

// messageTests are one valid example of every message type, with its body.
var messageTests = []struct {
	name string
	msg  Message
	body []byte
}{
	{"Hello", &Hello{Firmware: Version{1, 2, 3}, Protocol: 1, Seats: 12, KeysPerSeat: 17, Caps: CapPrivateLED | CapPedal},
		h("01020301" + "0c1103")},
	{"HostHello", &HostHello{Protocol: 1, Seats: 12, Software: "wolftable 0.1.0"},
		append(h("010c0f"), "wolftable 0.1.0"...)},
	{"HostHello empty software", &HostHello{Protocol: 1, Seats: 18}, h("011200")},
	{"KeyEvent", &KeyEvent{Seat: 7, Key: KeyOK, Edge: EdgeDown, Counter: 1, Micros: 0x01020304},
		h("070a01" + "0001" + "01020304")},
	{"KeyEvent pedal", &KeyEvent{Seat: 0, Key: KeyPedal, Edge: EdgeUp, Counter: 0xFFFF, Micros: 0xFFFFFFFF},
		h("001100" + "ffff" + "ffffffff")},
	{"Lights 6", &Lights{Seats: 6, Seat: [MaxSeats]SeatLight{{R: 1, G: 2, B: 3, Flags: LightPulse, Brightness: 4}}},
		cat(h("06"), h("0102030104"), make([]byte, 25))},
	{"Lights 12", lights12(), lights12().AppendBody(nil)},
	{"Ack", &Ack{Seq: 200}, h("c8")},
	{"Ping", &Ping{Nonce: 0xDEADBEEF}, h("deadbeef")},
	{"Pong", &Pong{Nonce: 7}, h("00000007")},
	{"StatsRequest", &StatsRequest{}, nil},
	{"Stats", &Stats{CRCErrors: 1, Malformed: 2, Overruns: 3, QueueOverflows: 4, UptimeMillis: 5},
		h("00000001" + "00000002" + "00000003" + "00000004" + "00000005")},
	{"SelfTestSetLED", &SelfTestSetLED{Seat: 18, R: 255, G: 0, B: 9}, h("12ff0009")},
	{"SelfTestDumpKeys", &SelfTestDumpKeys{}, nil},
	{"SelfTestKeys 16", &SelfTestKeys{BitsPerSeat: 16, Seats: 6, Bits: [MaxSeats]uint32{0x8001, 0, 0, 0, 0, 0xFFFF}},
		h("1006" + "0180" + "0000" + "0000" + "0000" + "0000" + "ffff")},
	{"SelfTestKeys 20", &SelfTestKeys{BitsPerSeat: 20, Seats: 6, Bits: [MaxSeats]uint32{0xF0001}},
		h("1406" + "01000f" + "000000" + "000000" + "000000" + "000000" + "000000")},
}

// versionTests are messages whose body is particular to a version, with
// their body in it.
var versionTests = []struct {
	name    string
	version uint8
	msg     Message
	body    []byte
}{
	{"Stats 2", Version2, &Stats{CRCErrors: 1, Malformed: 2, Overruns: 3, QueueOverflows: 4, UptimeMillis: 5, ResetReason: ResetWatchdog},
		h("00000001" + "00000002" + "00000003" + "00000004" + "00000005" + "02")},
	{"Stats 2 unknown reason", Version2, &Stats{UptimeMillis: 1, ResetReason: 200},
		h("00000000" + "00000000" + "00000000" + "00000000" + "00000001" + "c8")},
	{"Stats 1 drops the reason", ProtocolVersion, &Stats{UptimeMillis: 1},
		h("00000000" + "00000000" + "00000000" + "00000000" + "00000001")},
	{"Hello 2", Version2, &Hello{Firmware: Version{0, 3, 0}, Protocol: 2, Seats: 12, KeysPerSeat: 17, Caps: CapPedal | CapChainFault},
		h("00030002" + "0c1106")},
	{"Hello 2 unknown caps", Version2, &Hello{Firmware: Version{0, 3, 0}, Protocol: 2, Seats: 6, KeysPerSeat: 16, Caps: 0xF9},
		h("00030002" + "0610f9")},
	{"HostHello 2", Version2, &HostHello{Protocol: 2, Seats: 10, Software: "wolftable"},
		append(h("020a09"), "wolftable"...)},
}

// TestVersionBodies: the bodies that differ between versions encode and
// parse as their version says, and a version's message is refused in the
// other.
func TestVersionBodies(t *testing.T) {
	for _, tt := range versionTests {
		t.Run(tt.name, func(t *testing.T) {
			if err := ValidateVersion(tt.msg, tt.version); err != nil {
				t.Fatalf("ValidateVersion = %v", err)
			}
			if body := AppendBodyVersion(nil, tt.msg, tt.version); !bytes.Equal(body, tt.body) {
				t.Fatalf("AppendBodyVersion = %x, want %x", body, tt.body)
			}
			m, err := ParseMessageVersion(tt.version, tt.msg.Type(), tt.body)
			if err != nil {
				t.Fatalf("ParseMessageVersion: %v", err)
			}
			if !reflect.DeepEqual(m, tt.msg) {
				t.Errorf("parsed %+v, want %+v", m, tt.msg)
			}
			other := uint8(Version2)
			if tt.version == Version2 {
				other = ProtocolVersion
			}
			if _, err := ParseMessageVersion(other, tt.msg.Type(), tt.body); err == nil {
				t.Errorf("the body parses in version %d too", other)
			}
		})
	}
	if _, err := ParseMessageVersion(3, TypePing, h("00000001")); err != FaultVersion {
		t.Errorf("version 3: %v, want FaultVersion", err)
	}
	if ResetReason(9).String() != "unknown" || ResetWatchdog.String() != "watchdog" {
		t.Errorf("ResetReason names: %v %v", ResetReason(9), ResetWatchdog)
	}
}

func TestMessageRoundtrip(t *testing.T) {
	for _, tt := range messageTests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.msg.Validate(); err != nil {
				t.Fatalf("Validate() = %v", err)
			}
			body := tt.msg.AppendBody(nil)
			if !bytes.Equal(body, tt.body) {
				t.Fatalf("AppendBody = %x, want %x", body, tt.body)
			}
			got, err := ParseMessage(tt.msg.Type(), body)
			if err != nil {
				t.Fatalf("ParseMessage: %v", err)
			}
			if !reflect.DeepEqual(got, tt.msg) {
				t.Fatalf("ParseMessage = %+v, want %+v", got, tt.msg)
			}

			// The same through a whole frame.
			frame := Encode(tt.msg, 42)
			if len(frame) > MaxWireLen {
				t.Errorf("frame is %d bytes, more than MaxWireLen %d", len(frame), MaxWireLen)
			}
			if i := bytes.IndexByte(frame, 0); i != len(frame)-1 {
				t.Fatalf("frame %x: first zero at %d, want only the last byte", frame, i)
			}
			var d Decoder
			n, f, err := d.Feed(frame)
			if n != len(frame) || err != nil || f.Type != tt.msg.Type() || f.Seq != 42 {
				t.Fatalf("Feed = %d, %+v, %v", n, f, err)
			}
			got, err = f.Message()
			if err != nil || !reflect.DeepEqual(got, tt.msg) {
				t.Fatalf("Frame.Message = %+v, %v; want %+v", got, err, tt.msg)
			}
		})
	}
}

func TestEveryTypeHasATest(t *testing.T) {
	seen := map[Type]bool{}
	for _, tt := range messageTests {
		seen[tt.msg.Type()] = true
	}
	for ty := Type(0); ty < 255; ty++ {
		if ty.Valid() != (newMessage(ty) != nil) {
			t.Errorf("%v: Valid() = %v but newMessage disagrees", ty, ty.Valid())
		}
		if ty.Valid() && !seen[ty] {
			t.Errorf("%v has no round-trip test", ty)
		}
		if m := newMessage(ty); m != nil && m.Type() != ty {
			t.Errorf("newMessage(%v).Type() = %v", ty, m.Type())
		}
	}
}

func TestMessageRejects(t *testing.T) {
	valid := func(ty Type) []byte {
		for _, tt := range messageTests {
			if tt.msg.Type() == ty {
				return bytes.Clone(tt.body)
			}
		}
		panic("no example")
	}
	with := func(b []byte, i int, v byte) []byte { b = bytes.Clone(b); b[i] = v; return b }
	for _, tt := range []struct {
		name  string
		ty    Type
		body  []byte
		field string
	}{
		{"Hello short", TypeHello, valid(TypeHello)[:6], "length"},
		{"Hello long", TypeHello, append(valid(TypeHello), 0), "length"},
		{"Hello protocol 2", TypeHello, with(valid(TypeHello), 3, 2), "protocol"},
		{"Hello 5 seats", TypeHello, with(valid(TypeHello), 4, 5), "seats"},
		{"Hello 19 seats", TypeHello, with(valid(TypeHello), 4, 19), "seats"},
		{"Hello 0 keys", TypeHello, with(valid(TypeHello), 5, 0), "keys per seat"},
		{"Hello 18 keys", TypeHello, with(valid(TypeHello), 5, 18), "keys per seat"},
		{"Hello reserved caps", TypeHello, with(valid(TypeHello), 6, 8), "capabilities"},
		{"HostHello empty", TypeHostHello, nil, "length"},
		{"HostHello length mismatch", TypeHostHello, with(valid(TypeHostHello), 2, 3), "length"},
		{"HostHello protocol 0", TypeHostHello, with(valid(TypeHostHello), 0, 0), "protocol"},
		{"HostHello 4 seats", TypeHostHello, with(valid(TypeHostHello), 1, 4), "seats"},
		{"HostHello control byte", TypeHostHello, with(valid(TypeHostHello), 4, '\n'), "software byte"},
		{"HostHello DEL", TypeHostHello, with(valid(TypeHostHello), 4, 0x7F), "software byte"},
		{"HostHello too long", TypeHostHello, append([]byte{1, 12, 33}, bytes.Repeat([]byte("x"), 33)...), "software length"},
		{"KeyEvent short", TypeKeyEvent, valid(TypeKeyEvent)[:8], "length"},
		{"KeyEvent seat 19", TypeKeyEvent, with(valid(TypeKeyEvent), 0, 19), "seat"},
		{"KeyEvent key 18", TypeKeyEvent, with(valid(TypeKeyEvent), 1, 18), "key"},
		{"KeyEvent pedal on a seat", TypeKeyEvent, with(valid(TypeKeyEvent), 1, byte(KeyPedal)), "key"},
		{"KeyEvent seat 0 not pedal", TypeKeyEvent, with(valid(TypeKeyEvent), 0, 0), "key"},
		{"KeyEvent edge 2", TypeKeyEvent, with(valid(TypeKeyEvent), 2, 2), "edge"},
		{"Lights empty", TypeLights, nil, "length"},
		{"Lights count mismatch", TypeLights, with(lights12().AppendBody(nil), 0, 11), "length"},
		{"Lights 5 seats", TypeLights, append([]byte{5}, make([]byte, 25)...), "seats"},
		{"Lights 19 seats", TypeLights, append([]byte{19}, make([]byte, 95)...), "seats"},
		{"Lights reserved flag", TypeLights, with(lights12().AppendBody(nil), 1+5*2+3, 4), "flags"},
		{"Ack empty", TypeAck, nil, "length"},
		{"Ping short", TypePing, h("000000"), "length"},
		{"Pong long", TypePong, h("0000000000"), "length"},
		{"StatsRequest not empty", TypeStatsRequest, h("00"), "length"},
		{"Stats short", TypeStats, make([]byte, 19), "length"},
		{"SelfTestSetLED seat 0", TypeSelfTestSetLED, h("00010203"), "seat"},
		{"SelfTestSetLED seat 19", TypeSelfTestSetLED, h("13010203"), "seat"},
		{"SelfTestDumpKeys not empty", TypeSelfTestDumpKeys, h("00"), "length"},
		{"SelfTestKeys 15 bits", TypeSelfTestKeys, append(h("0f06"), make([]byte, 12)...), "bits per seat"},
		{"SelfTestKeys 25 bits", TypeSelfTestKeys, append(h("1906"), make([]byte, 24)...), "bits per seat"},
		{"SelfTestKeys 5 seats", TypeSelfTestKeys, append(h("1005"), make([]byte, 10)...), "seats"},
		{"SelfTestKeys short", TypeSelfTestKeys, append(h("1006"), make([]byte, 11)...), "length"},
		{"SelfTestKeys bit 20 set", TypeSelfTestKeys, cat(h("1406"), h("000010"), make([]byte, 15)), "bits"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseMessage(tt.ty, tt.body)
			var be *BodyError
			if !errors.As(err, &be) || be.Field != tt.field || be.Type != tt.ty {
				t.Fatalf("ParseMessage(%v, %x) = %v, %v; want a BodyError on %q", tt.ty, tt.body, m, err, tt.field)
			}
			if err := checkBody(tt.ty, tt.body); err == nil {
				t.Errorf("checkBody accepts what ParseMessage rejects")
			}
			// UnmarshalBody leaves the message zero.
			m = newMessage(tt.ty)
			_ = m.UnmarshalBody(tt.body)
			if !reflect.DeepEqual(m, newMessage(tt.ty)) {
				t.Errorf("UnmarshalBody left %+v after an error", m)
			}
		})
	}
}

func TestParseMessageUnknownType(t *testing.T) {
	for _, ty := range []Type{0, 0x0D, 0x80, 0xFF} {
		if _, err := ParseMessage(ty, nil); err != FaultType {
			t.Errorf("ParseMessage(%v) error = %v, want FaultType", ty, err)
		}
	}
}

func TestKeyNames(t *testing.T) {
	want := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
		"OK", "CLR", "UP", "DOWN", "WAVE", "HAND", "BOOM", "PEDAL"}
	if len(want) != NumKeys {
		t.Fatalf("NumKeys = %d, want %d", NumKeys, len(want))
	}
	for i, name := range want {
		if got := Key(i).String(); got != name {
			t.Errorf("Key(%d).String() = %q, want %q", i, got, name)
		}
		if k, ok := ParseKey(name); !ok || k != Key(i) {
			t.Errorf("ParseKey(%q) = %v, %v", name, k, ok)
		}
	}
	if KeyOK != 10 || KeyBoom != 16 || KeyPedal != 17 || NumSeatKeys != 17 {
		t.Errorf("key codes moved: OK %d BOOM %d PEDAL %d", KeyOK, KeyBoom, KeyPedal)
	}
	if got := Key(18).String(); got != "Key(18)" {
		t.Errorf("Key(18).String() = %q", got)
	}
	if _, ok := ParseKey("ok"); ok {
		t.Errorf(`ParseKey("ok") succeeded; names are case-sensitive`)
	}
}

func TestErrorText(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{FaultCRC, "protocol: CRC mismatch"},
		{FaultOverrun, "protocol: frame longer than MaxFrameLen"},
		{Fault(99), "protocol: Fault(99)"},
		{&BodyError{Type: TypeKeyEvent, Field: "seat", Value: 25}, "protocol: KeyEvent body: seat 25 out of range"},
		{&BodyError{Type: TypeLights, Field: "length", Value: 7}, "protocol: Lights body: bad length 7"},
		{&BodyError{Type: Type(0x55), Field: "length", Value: 0}, "protocol: Type(85) body: bad length 0"},
	} {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestAppendBodyBoundsLengths(t *testing.T) {
	long := &HostHello{Protocol: 1, Seats: 12, Software: string(bytes.Repeat([]byte("x"), 100))}
	if err := long.Validate(); err == nil {
		t.Errorf("Validate accepts a %d-byte software string", len(long.Software))
	}
	if n := len(long.AppendBody(nil)); n != 3+MaxSoftwareLen {
		t.Errorf("HostHello body = %d bytes, want %d", n, 3+MaxSoftwareLen)
	}
	wide := &Lights{Seats: 200}
	if n := len(wide.AppendBody(nil)); n != MaxBodyLen {
		t.Errorf("Lights body = %d bytes, want MaxBodyLen %d", n, MaxBodyLen)
	}
	keys := &SelfTestKeys{BitsPerSeat: 200, Seats: 200}
	if n := len(keys.AppendBody(nil)); n > MaxBodyLen {
		t.Errorf("SelfTestKeys body = %d bytes, more than MaxBodyLen", n)
	}
}
