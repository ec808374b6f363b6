package protocol

import "strconv"

// The protocol's versions (doc.go, "Version rules").
const (
	// ProtocolVersion is version 1, the first: every bridge and every host
	// speaks it, and Encode and AppendFrame write it.
	ProtocolVersion = 1
	// Version2 adds the bridge's reset reason to Stats, and its receivers
	// ignore caps bits they do not know.
	Version2 = 2
	// LatestVersion is the newest version this package writes
	// (AppendFrameVersion) and reads: a Decoder accepts frames of
	// ProtocolVersion to LatestVersion.
	LatestVersion = Version2
)

// Limits of the wire format.
const (
	MinSeats = 6  // fewest seats a table has
	MaxSeats = 18 // most seats a table has

	MinBitsPerSeat = 16 // shift-register bits per seat panel: two 74HC165s…
	MaxBitsPerSeat = 24 // …to three

	MaxSoftwareLen = 32 // longest HostHello software string

	// MaxBodyLen is the longest body of any message (Lights for MaxSeats).
	MaxBodyLen = 1 + 5*MaxSeats

	// MaxPayloadLen is the longest payload plus CRC of any valid message.
	MaxPayloadLen = headerLen + MaxBodyLen + crcLen

	// MaxWireLen is the most bytes AppendFrame appends for a valid message:
	// the payload, one COBS overhead byte (payloads are shorter than 254
	// bytes) and the delimiter.
	MaxWireLen = MaxPayloadLen + 2

	// MaxFrameLen is the most encoded bytes a Decoder buffers between two
	// delimiters. A longer run is an overrun: the Decoder drops it and
	// resynchronises at the next 0x00.
	MaxFrameLen = 256

	// A host sends at most HostPaceBytes bytes in any HostPaceMicros µs,
	// so that the bridge's 128-byte USB receive buffer never overflows
	// (see doc.go).
	HostPaceBytes  = 64
	HostPaceMicros = 2000

	headerLen = 3 // version, type, seq
	crcLen    = 2
)

// Type is a message type: the second byte of every payload.
type Type uint8

// The message types. The arrow says who sends it.
const (
	TypeHello            Type = 0x01 // bridge → host, answers HostHello
	TypeHostHello        Type = 0x02 // host → bridge
	TypeKeyEvent         Type = 0x03 // bridge → host, acked by the host
	TypeLights           Type = 0x04 // host → bridge, acked by the bridge
	TypeAck              Type = 0x05 // both ways
	TypePing             Type = 0x06 // both ways: heartbeat
	TypePong             Type = 0x07 // both ways: answers Ping
	TypeStatsRequest     Type = 0x08 // host → bridge
	TypeStats            Type = 0x09 // bridge → host, answers StatsRequest
	TypeSelfTestSetLED   Type = 0x0A // host → bridge, acked by the bridge
	TypeSelfTestDumpKeys Type = 0x0B // host → bridge
	TypeSelfTestKeys     Type = 0x0C // bridge → host, answers SelfTestDumpKeys
)

var typeNames = [...]string{
	TypeHello:            "Hello",
	TypeHostHello:        "HostHello",
	TypeKeyEvent:         "KeyEvent",
	TypeLights:           "Lights",
	TypeAck:              "Ack",
	TypePing:             "Ping",
	TypePong:             "Pong",
	TypeStatsRequest:     "StatsRequest",
	TypeStats:            "Stats",
	TypeSelfTestSetLED:   "SelfTestSetLED",
	TypeSelfTestDumpKeys: "SelfTestDumpKeys",
	TypeSelfTestKeys:     "SelfTestKeys",
}

// Valid reports whether t is a message type of this protocol version.
func (t Type) Valid() bool { return int(t) < len(typeNames) && typeNames[t] != "" }

func (t Type) String() string {
	if t.Valid() {
		return typeNames[t]
	}
	return "Type(" + strconv.Itoa(int(t)) + ")"
}

// Key is a logical key of a seat panel, or the judge's pedal.
type Key uint8

// The keys. A seat panel has Key0…KeyBoom; KeyPedal is only ever reported
// for seat 0.
const (
	Key0     Key = iota // 0
	Key1                // 1
	Key2                // 2
	Key3                // 3
	Key4                // 4
	Key5                // 5
	Key6                // 6
	Key7                // 7
	Key8                // 8
	Key9                // 9
	KeyOK               // OK: confirm
	KeyCLR              // CLR: clear the entry
	KeyUp               // UP: thumb up (拇指向上)
	KeyDown             // DOWN: thumb down (拇指向下)
	KeyWave             // WAVE: wave, "no skill" (擺手/不使用技能)
	KeyHand             // HAND: raise hand (舉手: 上警, 退水 toggle)
	KeyBoom             // BOOM: self-destruct (自爆), guarded on the panel
	KeyPedal            // PEDAL: the judge's foot pedal (seat 0)

	NumKeys     = int(KeyPedal) + 1 // all key codes
	NumSeatKeys = int(KeyBoom) + 1  // keys a seat panel can have
)

var keyNames = [NumKeys]string{
	"0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
	"OK", "CLR", "UP", "DOWN", "WAVE", "HAND", "BOOM", "PEDAL",
}

// Valid reports whether k is a key code of this protocol version.
func (k Key) Valid() bool { return int(k) < NumKeys }

// String returns the key's name: "0"…"9", "OK", "CLR", "UP", "DOWN", "WAVE",
// "HAND", "BOOM" or "PEDAL".
func (k Key) String() string {
	if k.Valid() {
		return keyNames[k]
	}
	return "Key(" + strconv.Itoa(int(k)) + ")"
}

// ParseKey returns the key whose String is name.
func ParseKey(name string) (Key, bool) {
	for i, n := range keyNames {
		if n == name {
			return Key(i), true
		}
	}
	return 0, false
}

// Edge is the direction of a key's change.
type Edge uint8

// The edges.
const (
	EdgeUp   Edge = 0 // released
	EdgeDown Edge = 1 // pressed
)

func (e Edge) String() string {
	switch e {
	case EdgeUp:
		return "up"
	case EdgeDown:
		return "down"
	}
	return "Edge(" + strconv.Itoa(int(e)) + ")"
}

// Capabilities are the optional hardware a bridge reports in its Hello.
type Capabilities uint8

// The capability bits. In version 1 the other bits are zero; from version
// 2 a receiver ignores the bits it does not know. CapChainFault came after
// the first release of version 1: see doc.go.
const (
	CapPrivateLED Capabilities = 1 << 0 // each seat has a private indicator LED
	CapPedal      Capabilities = 1 << 1 // the judge's pedal is wired to the bridge
	CapChainFault Capabilities = 1 << 2 // not hardware but its state: the bridge's key chain reads broken (see doc.go)

	capAll = CapPrivateLED | CapPedal | CapChainFault
)

// ResetReason is why the bridge last started, as its Stats report it
// (version 2; a version 1 Stats has none: ResetUnknown). A receiver shows a
// value it does not know as unknown.
type ResetReason uint8

// The reset reasons.
const (
	ResetUnknown  ResetReason = 0 // not reported (version 1), or the bridge cannot tell
	ResetPowerOn  ResetReason = 1 // power came on (or browned out): the USB cable, the supply
	ResetWatchdog ResetReason = 2 // the firmware's watchdog: its main loop stalled
	ResetPin      ResetReason = 3 // the RUN pin: a reset button
	ResetSoftware ResetReason = 4 // a reset the software asked for: after flashing, a reboot
)

var resetNames = [...]string{"unknown", "power-on", "watchdog", "reset-pin", "software"}

// String returns "unknown", "power-on", "watchdog", "reset-pin" or
// "software"; a value this version does not know is "unknown" too.
func (r ResetReason) String() string {
	if int(r) < len(resetNames) {
		return resetNames[r]
	}
	return resetNames[ResetUnknown]
}

// LightFlags modify one seat's light.
type LightFlags uint8

// The light flags. The other bits are zero in this protocol version.
const (
	LightPulse   LightFlags = 1 << 0 // the number light breathes (brightness only; the colour holds)
	LightPrivate LightFlags = 1 << 1 // the seat's private indicator is on

	lightAll = LightPulse | LightPrivate
)

// Version is a firmware version.
type Version struct {
	Major, Minor, Patch uint8
}

func (v Version) String() string {
	return strconv.Itoa(int(v.Major)) + "." + strconv.Itoa(int(v.Minor)) + "." + strconv.Itoa(int(v.Patch))
}
