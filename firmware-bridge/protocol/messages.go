package protocol

import "encoding/binary"

// Message is one message type's body. The concrete types are the pointer
// types *Hello, *HostHello, *KeyEvent, *Lights, *Ack, *Ping, *Pong,
// *StatsRequest, *Stats, *SelfTestSetLED, *SelfTestDumpKeys and
// *SelfTestKeys.
type Message interface {
	// Type returns the message's type byte.
	Type() Type
	// AppendBody appends the body's wire bytes to dst. It does not check
	// ranges (see Validate); it does bound every length, so the body is never
	// longer than MaxBodyLen.
	AppendBody(dst []byte) []byte
	// UnmarshalBody replaces the message with the one body encodes. It
	// returns a *BodyError, and leaves the message zero, unless body has
	// exactly the type's length and every field is in range.
	UnmarshalBody(body []byte) error
	// Validate returns the *BodyError UnmarshalBody would return for the
	// message's own encoding, or nil.
	Validate() error
}

// Compile-time checks that every message type implements Message.
var (
	_ Message = (*Hello)(nil)
	_ Message = (*HostHello)(nil)
	_ Message = (*KeyEvent)(nil)
	_ Message = (*Lights)(nil)
	_ Message = (*Ack)(nil)
	_ Message = (*Ping)(nil)
	_ Message = (*Pong)(nil)
	_ Message = (*StatsRequest)(nil)
	_ Message = (*Stats)(nil)
	_ Message = (*SelfTestSetLED)(nil)
	_ Message = (*SelfTestDumpKeys)(nil)
	_ Message = (*SelfTestKeys)(nil)
)

func checkSeats(t Type, n uint8) error {
	if n < MinSeats || n > MaxSeats {
		return rangeError(t, "seats", int(n))
	}
	return nil
}

// Hello is the bridge's answer to HostHello: what it is and what it has.
type Hello struct {
	Firmware    Version
	Protocol    uint8        // the version of the frame that carries it: that of the HostHello it answers
	Seats       uint8        // seats on the bridge, MinSeats…MaxSeats
	KeysPerSeat uint8        // keys wired on each seat panel, 1…NumSeatKeys
	Caps        Capabilities // optional hardware; from version 2 a receiver ignores bits it does not know
}

const helloLen = 7

func (*Hello) Type() Type { return TypeHello }

func (m *Hello) AppendBody(dst []byte) []byte {
	return append(dst, m.Firmware.Major, m.Firmware.Minor, m.Firmware.Patch,
		m.Protocol, m.Seats, m.KeysPerSeat, byte(m.Caps))
}

func (m *Hello) UnmarshalBody(b []byte) error { return m.unmarshalBodyVersion(b, ProtocolVersion) }
func (m *Hello) Validate() error              { return m.validateVersion(ProtocolVersion) }

func (m *Hello) appendBodyVersion(dst []byte, _ uint8) []byte { return m.AppendBody(dst) }

func (m *Hello) unmarshalBodyVersion(b []byte, version uint8) error {
	*m = Hello{}
	if err := checkLen(TypeHello, b, helloLen); err != nil {
		return err
	}
	v := Hello{
		Firmware:    Version{b[0], b[1], b[2]},
		Protocol:    b[3],
		Seats:       b[4],
		KeysPerSeat: b[5],
		Caps:        Capabilities(b[6]),
	}
	if err := v.validateVersion(version); err != nil {
		return err
	}
	*m = v
	return nil
}

func (m *Hello) validateVersion(version uint8) error {
	switch {
	case m.Protocol != version:
		return rangeError(TypeHello, "protocol", int(m.Protocol))
	case m.KeysPerSeat < 1 || int(m.KeysPerSeat) > NumSeatKeys:
		return rangeError(TypeHello, "keys per seat", int(m.KeysPerSeat))
	case version == ProtocolVersion && m.Caps&^capAll != 0:
		return rangeError(TypeHello, "capabilities", int(m.Caps))
	}
	return checkSeats(TypeHello, m.Seats)
}

// HostHello opens a session: the host says who it is and how many seats it
// expects. The bridge answers with Hello.
type HostHello struct {
	Protocol uint8  // the version of the frame that carries it: the session's
	Seats    uint8  // seats the host's configuration expects, MinSeats…MaxSeats
	Software string // host software and version, printable ASCII, at most MaxSoftwareLen bytes
}

func (*HostHello) Type() Type { return TypeHostHello }

func (m *HostHello) AppendBody(dst []byte) []byte {
	s := m.Software
	if len(s) > MaxSoftwareLen {
		s = s[:MaxSoftwareLen]
	}
	dst = append(dst, m.Protocol, m.Seats, byte(len(s)))
	return append(dst, s...)
}

func (m *HostHello) UnmarshalBody(b []byte) error { return m.unmarshalBodyVersion(b, ProtocolVersion) }
func (m *HostHello) Validate() error              { return m.validateVersion(ProtocolVersion) }

func (m *HostHello) appendBodyVersion(dst []byte, _ uint8) []byte { return m.AppendBody(dst) }

func (m *HostHello) unmarshalBodyVersion(b []byte, version uint8) error {
	*m = HostHello{}
	if len(b) < 3 || len(b) != 3+int(b[2]) {
		return bodyLenError(TypeHostHello, len(b))
	}
	if err := checkSoftware(b[3:]); err != nil {
		return err
	}
	v := HostHello{Protocol: b[0], Seats: b[1]}
	if err := v.validateVersion(version); err != nil {
		return err
	}
	v.Software = string(b[3:])
	*m = v
	return nil
}

func checkSoftware(s []byte) error {
	if len(s) > MaxSoftwareLen {
		return rangeError(TypeHostHello, "software length", len(s))
	}
	for _, c := range s {
		if c < 0x20 || c > 0x7E {
			return rangeError(TypeHostHello, "software byte", int(c))
		}
	}
	return nil
}

func (m *HostHello) validateVersion(version uint8) error {
	if m.Protocol != version {
		return rangeError(TypeHostHello, "protocol", int(m.Protocol))
	}
	if err := checkSeats(TypeHostHello, m.Seats); err != nil {
		return err
	}
	if len(m.Software) > MaxSoftwareLen {
		return rangeError(TypeHostHello, "software length", len(m.Software))
	}
	for i := 0; i < len(m.Software); i++ {
		if c := m.Software[i]; c < 0x20 || c > 0x7E {
			return rangeError(TypeHostHello, "software byte", int(c))
		}
	}
	return nil
}

// KeyEvent is one debounced edge of one key. The bridge numbers the presses
// of each (seat, key) pair: the down edge of a press and its up edge carry the
// same Counter, and a retransmitted event carries the counter it was first
// sent with, so the host drops an event whose (Seat, Key, Edge, Counter) it
// has already seen.
type KeyEvent struct {
	Seat    uint8  // 1…MaxSeats; 0 for the pedal
	Key     Key    // a seat key, or KeyPedal when Seat is 0
	Edge    Edge   // EdgeDown or EdgeUp
	Counter uint16 // presses of this key since boot, wrapping; the first press is 1
	Micros  uint32 // bridge clock at the edge, in µs, wrapping
}

const keyEventLen = 9

func (*KeyEvent) Type() Type { return TypeKeyEvent }

func (m *KeyEvent) AppendBody(dst []byte) []byte {
	dst = append(dst, m.Seat, byte(m.Key), byte(m.Edge))
	dst = binary.BigEndian.AppendUint16(dst, m.Counter)
	return binary.BigEndian.AppendUint32(dst, m.Micros)
}

func (m *KeyEvent) UnmarshalBody(b []byte) error {
	*m = KeyEvent{}
	if err := checkLen(TypeKeyEvent, b, keyEventLen); err != nil {
		return err
	}
	v := KeyEvent{
		Seat:    b[0],
		Key:     Key(b[1]),
		Edge:    Edge(b[2]),
		Counter: binary.BigEndian.Uint16(b[3:]),
		Micros:  binary.BigEndian.Uint32(b[5:]),
	}
	if err := v.Validate(); err != nil {
		return err
	}
	*m = v
	return nil
}

func (m *KeyEvent) Validate() error {
	switch {
	case m.Seat > MaxSeats:
		return rangeError(TypeKeyEvent, "seat", int(m.Seat))
	case m.Seat == 0 && m.Key != KeyPedal, m.Seat != 0 && int(m.Key) >= NumSeatKeys:
		return rangeError(TypeKeyEvent, "key", int(m.Key))
	case m.Edge != EdgeUp && m.Edge != EdgeDown:
		return rangeError(TypeKeyEvent, "edge", int(m.Edge))
	}
	return nil
}

// SeatLight is one seat's number light.
type SeatLight struct {
	R, G, B    uint8      // colour at full brightness
	Flags      LightFlags // pulse, private indicator
	Brightness uint8      // 0 (off) … 255 (full), scales R, G and B
}

// Lights is the full state of every seat's light. Each one replaces the
// last, so a lost Lights is repaired by the next; the bridge acks it and
// holds it until the next, whatever happens to the host.
type Lights struct {
	Seats uint8               // seats described, MinSeats…MaxSeats
	Seat  [MaxSeats]SeatLight // Seat[n-1] is seat n; entries from Seats on are not sent
}

func (*Lights) Type() Type { return TypeLights }

func (m *Lights) AppendBody(dst []byte) []byte {
	n := min(int(m.Seats), MaxSeats)
	dst = append(dst, byte(n))
	for _, s := range m.Seat[:n] {
		dst = append(dst, s.R, s.G, s.B, byte(s.Flags), s.Brightness)
	}
	return dst
}

func (m *Lights) UnmarshalBody(b []byte) error {
	*m = Lights{}
	if len(b) < 1 || len(b) != 1+5*int(b[0]) {
		return bodyLenError(TypeLights, len(b))
	}
	if err := checkSeats(TypeLights, b[0]); err != nil {
		return err
	}
	v := Lights{Seats: b[0]}
	for i := range int(v.Seats) {
		p := b[1+5*i:]
		v.Seat[i] = SeatLight{R: p[0], G: p[1], B: p[2], Flags: LightFlags(p[3]), Brightness: p[4]}
	}
	if err := v.Validate(); err != nil {
		return err
	}
	*m = v
	return nil
}

func (m *Lights) Validate() error {
	if err := checkSeats(TypeLights, m.Seats); err != nil {
		return err
	}
	for _, s := range m.Seat[:m.Seats] {
		if s.Flags&^lightAll != 0 {
			return rangeError(TypeLights, "flags", int(s.Flags))
		}
	}
	return nil
}

// Ack acknowledges the frame numbered Seq: the host acks KeyEvents, the
// bridge acks Lights and SelfTestSetLED.
type Ack struct {
	Seq uint8
}

func (*Ack) Type() Type                     { return TypeAck }
func (m *Ack) AppendBody(dst []byte) []byte { return append(dst, m.Seq) }
func (m *Ack) Validate() error              { return nil }

func (m *Ack) UnmarshalBody(b []byte) error {
	*m = Ack{}
	if err := checkLen(TypeAck, b, 1); err != nil {
		return err
	}
	m.Seq = b[0]
	return nil
}

// Ping is the heartbeat: each side sends one every 250 ms and answers the
// other's with a Pong carrying the same Nonce.
type Ping struct {
	Nonce uint32
}

func (*Ping) Type() Type                     { return TypePing }
func (m *Ping) AppendBody(dst []byte) []byte { return binary.BigEndian.AppendUint32(dst, m.Nonce) }
func (m *Ping) UnmarshalBody(b []byte) error { return unmarshalNonce(TypePing, b, &m.Nonce) }
func (m *Ping) Validate() error              { return nil }

// Pong answers a Ping, echoing its Nonce.
type Pong struct {
	Nonce uint32
}

func (*Pong) Type() Type                     { return TypePong }
func (m *Pong) AppendBody(dst []byte) []byte { return binary.BigEndian.AppendUint32(dst, m.Nonce) }
func (m *Pong) UnmarshalBody(b []byte) error { return unmarshalNonce(TypePong, b, &m.Nonce) }
func (m *Pong) Validate() error              { return nil }

func unmarshalNonce(t Type, b []byte, nonce *uint32) error {
	*nonce = 0
	if err := checkLen(t, b, 4); err != nil {
		return err
	}
	*nonce = binary.BigEndian.Uint32(b)
	return nil
}

// StatsRequest asks the bridge for a Stats. Its body is empty.
type StatsRequest struct{}

func (*StatsRequest) Type() Type                   { return TypeStatsRequest }
func (*StatsRequest) AppendBody(dst []byte) []byte { return dst }
func (*StatsRequest) Validate() error              { return nil }
func (*StatsRequest) UnmarshalBody(b []byte) error { return checkLen(TypeStatsRequest, b, 0) }

// Stats are the bridge's counters since boot. They wrap.
type Stats struct {
	CRCErrors      uint32 // frames from the host dropped for a bad CRC
	Malformed      uint32 // frames from the host dropped for bad COBS, length, version, type or body
	Overruns       uint32 // runs from the host longer than MaxFrameLen
	QueueOverflows uint32 // key events or replies dropped because a queue was full
	UptimeMillis   uint32 // time since boot, ms

	// ResetReason is why the bridge last started: version 2 only (a
	// version 1 Stats neither carries nor reads it: ResetUnknown).
	ResetReason ResetReason
}

func (*Stats) Type() Type                    { return TypeStats }
func (m *Stats) Validate() error             { return nil }
func (m *Stats) validateVersion(uint8) error { return nil } // any reset reason: a receiver shows one it does not know as unknown

// AppendBody appends the version 1 body, without the reset reason.
func (m *Stats) AppendBody(dst []byte) []byte { return m.appendBodyVersion(dst, ProtocolVersion) }

// UnmarshalBody reads a version 1 body.
func (m *Stats) UnmarshalBody(b []byte) error { return m.unmarshalBodyVersion(b, ProtocolVersion) }

func (m *Stats) appendBodyVersion(dst []byte, version uint8) []byte {
	dst = binary.BigEndian.AppendUint32(dst, m.CRCErrors)
	dst = binary.BigEndian.AppendUint32(dst, m.Malformed)
	dst = binary.BigEndian.AppendUint32(dst, m.Overruns)
	dst = binary.BigEndian.AppendUint32(dst, m.QueueOverflows)
	dst = binary.BigEndian.AppendUint32(dst, m.UptimeMillis)
	if version >= Version2 {
		dst = append(dst, byte(m.ResetReason))
	}
	return dst
}

func (m *Stats) unmarshalBodyVersion(b []byte, version uint8) error {
	*m = Stats{}
	if err := checkLen(TypeStats, b, statsBodyLen(version)); err != nil {
		return err
	}
	*m = Stats{
		CRCErrors:      binary.BigEndian.Uint32(b[0:]),
		Malformed:      binary.BigEndian.Uint32(b[4:]),
		Overruns:       binary.BigEndian.Uint32(b[8:]),
		QueueOverflows: binary.BigEndian.Uint32(b[12:]),
		UptimeMillis:   binary.BigEndian.Uint32(b[16:]),
	}
	if version >= Version2 {
		m.ResetReason = ResetReason(b[20])
	}
	return nil
}

// SelfTestSetLED lights one seat's number light with a raw colour (no
// brightness, no pulse) until the next Lights. The technician's self-test
// uses it to check each LED and the chain order.
type SelfTestSetLED struct {
	Seat    uint8 // 1…MaxSeats
	R, G, B uint8
}

func (*SelfTestSetLED) Type() Type { return TypeSelfTestSetLED }

func (m *SelfTestSetLED) AppendBody(dst []byte) []byte {
	return append(dst, m.Seat, m.R, m.G, m.B)
}

func (m *SelfTestSetLED) UnmarshalBody(b []byte) error {
	*m = SelfTestSetLED{}
	if err := checkLen(TypeSelfTestSetLED, b, 4); err != nil {
		return err
	}
	v := SelfTestSetLED{Seat: b[0], R: b[1], G: b[2], B: b[3]}
	if err := v.Validate(); err != nil {
		return err
	}
	*m = v
	return nil
}

func (m *SelfTestSetLED) Validate() error {
	if m.Seat < 1 || m.Seat > MaxSeats {
		return rangeError(TypeSelfTestSetLED, "seat", int(m.Seat))
	}
	return nil
}

// SelfTestDumpKeys asks the bridge for a SelfTestKeys. Its body is empty.
type SelfTestDumpKeys struct{}

func (*SelfTestDumpKeys) Type() Type                   { return TypeSelfTestDumpKeys }
func (*SelfTestDumpKeys) AppendBody(dst []byte) []byte { return dst }
func (*SelfTestDumpKeys) Validate() error              { return nil }
func (*SelfTestDumpKeys) UnmarshalBody(b []byte) error { return checkLen(TypeSelfTestDumpKeys, b, 0) }

// SelfTestKeys is the raw state of every seat's shift-register bits at the
// last scan, before debouncing and before the key map: bit i of Bits[n-1] is
// set when the contact on bit i of seat n's panel is closed.
type SelfTestKeys struct {
	BitsPerSeat uint8            // MinBitsPerSeat…MaxBitsPerSeat
	Seats       uint8            // MinSeats…MaxSeats
	Bits        [MaxSeats]uint32 // Bits[n-1] is seat n; only the low BitsPerSeat bits may be set
}

func (*SelfTestKeys) Type() Type { return TypeSelfTestKeys }

func (m *SelfTestKeys) bytesPerSeat() int { return (int(m.BitsPerSeat) + 7) / 8 }

func (m *SelfTestKeys) AppendBody(dst []byte) []byte {
	bps := min(m.BitsPerSeat, MaxBitsPerSeat)
	n := min(int(m.Seats), MaxSeats)
	dst = append(dst, bps, byte(n))
	w := (int(bps) + 7) / 8
	for _, bits := range m.Bits[:n] {
		for j := range w {
			dst = append(dst, byte(bits>>(8*j)))
		}
	}
	return dst
}

func (m *SelfTestKeys) UnmarshalBody(b []byte) error {
	*m = SelfTestKeys{}
	if len(b) < 2 {
		return bodyLenError(TypeSelfTestKeys, len(b))
	}
	v := SelfTestKeys{BitsPerSeat: b[0], Seats: b[1]}
	if v.BitsPerSeat < MinBitsPerSeat || v.BitsPerSeat > MaxBitsPerSeat {
		return rangeError(TypeSelfTestKeys, "bits per seat", int(v.BitsPerSeat))
	}
	if err := checkSeats(TypeSelfTestKeys, v.Seats); err != nil {
		return err
	}
	w := v.bytesPerSeat()
	if len(b) != 2+w*int(v.Seats) {
		return bodyLenError(TypeSelfTestKeys, len(b))
	}
	for i := range int(v.Seats) {
		var bits uint32
		for j, c := range b[2+w*i : 2+w*(i+1)] {
			bits |= uint32(c) << (8 * j)
		}
		v.Bits[i] = bits
	}
	if err := v.Validate(); err != nil {
		return err
	}
	*m = v
	return nil
}

func (m *SelfTestKeys) Validate() error {
	if m.BitsPerSeat < MinBitsPerSeat || m.BitsPerSeat > MaxBitsPerSeat {
		return rangeError(TypeSelfTestKeys, "bits per seat", int(m.BitsPerSeat))
	}
	if err := checkSeats(TypeSelfTestKeys, m.Seats); err != nil {
		return err
	}
	for _, bits := range m.Bits[:m.Seats] {
		if bits>>m.BitsPerSeat != 0 {
			return rangeError(TypeSelfTestKeys, "bits", int(bits))
		}
	}
	return nil
}

// newMessage returns a new zero message of type t, or nil.
func newMessage(t Type) Message {
	switch t {
	case TypeHello:
		return new(Hello)
	case TypeHostHello:
		return new(HostHello)
	case TypeKeyEvent:
		return new(KeyEvent)
	case TypeLights:
		return new(Lights)
	case TypeAck:
		return new(Ack)
	case TypePing:
		return new(Ping)
	case TypePong:
		return new(Pong)
	case TypeStatsRequest:
		return new(StatsRequest)
	case TypeStats:
		return new(Stats)
	case TypeSelfTestSetLED:
		return new(SelfTestSetLED)
	case TypeSelfTestDumpKeys:
		return new(SelfTestDumpKeys)
	case TypeSelfTestKeys:
		return new(SelfTestKeys)
	}
	return nil
}

// ParseMessage returns the message of type t that body encodes in
// version 1: a new *Hello, *KeyEvent, … It returns FaultType for an
// unknown type and a *BodyError for a body that does not fit the type.
func ParseMessage(t Type, body []byte) (Message, error) {
	return ParseMessageVersion(ProtocolVersion, t, body)
}

// bodyScratch holds the messages a Decoder parses bodies into to check
// them: in the Decoder, not on the stack, so that no message's address
// escapes under TinyGo's escape analysis either.
type bodyScratch struct {
	hello  Hello
	host   HostHello
	event  KeyEvent
	lights Lights
	led    SelfTestSetLED
	keys   SelfTestKeys
}

// checkBody is ParseMessageVersion without the allocation: the Decoder's
// check that an intact frame's body fits its type in its version.
func (sc *bodyScratch) checkBody(version uint8, t Type, body []byte) error {
	switch t {
	case TypeHello:
		return sc.hello.unmarshalBodyVersion(body, version)
	case TypeHostHello:
		// Checked without building the string.
		if len(body) < 3 || len(body) != 3+int(body[2]) {
			return bodyLenError(TypeHostHello, len(body))
		}
		if err := checkSoftware(body[3:]); err != nil {
			return err
		}
		sc.host = HostHello{Protocol: body[0], Seats: body[1]}
		return sc.host.validateVersion(version)
	case TypeKeyEvent:
		return sc.event.UnmarshalBody(body)
	case TypeLights:
		return sc.lights.UnmarshalBody(body)
	case TypeAck:
		return checkLen(t, body, 1)
	case TypePing, TypePong:
		return checkLen(t, body, 4)
	case TypeStatsRequest, TypeSelfTestDumpKeys:
		return checkLen(t, body, 0)
	case TypeStats:
		return checkLen(t, body, statsBodyLen(version))
	case TypeSelfTestSetLED:
		return sc.led.UnmarshalBody(body)
	case TypeSelfTestKeys:
		return sc.keys.UnmarshalBody(body)
	}
	return FaultType
}
