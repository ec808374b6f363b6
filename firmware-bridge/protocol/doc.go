// Package protocol is the wire protocol between the seat-panel bridge (an
// RP2040 running firmware-bridge) and the host (the Raspberry Pi daemon),
// spoken over USB CDC. This comment is its specification.
//
// The package imports only encoding/binary and strconv from the standard
// library, so it builds with TinyGo for the bridge as well as with Go for the
// host.
//
// # Frames
//
// A frame is a payload and its CRC, COBS-encoded, followed by one zero byte:
//
//	frame   = COBS(payload ‖ crc) 0x00
//	payload = version(1) type(1) seq(1) body(0…MaxBodyLen)
//	crc     = CRC-16/CCITT-FALSE of payload, big-endian (2)
//
// CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, input and
// output not reflected, final XOR 0x0000; the CRC of the ASCII bytes
// "123456789" is 0x29B1.
//
// COBS (Consistent Overhead Byte Stuffing, Cheshire and Baker 1999) removes
// every zero byte, so 0x00 only ever ends a frame. Encoded frames of this
// version are at most MaxWireLen bytes with the delimiter; a receiver
// buffers at most MaxFrameLen bytes between delimiters and drops longer runs.
// Empty frames (two 0x00 in a row) are skipped: a sender may send 0x00 at any
// time, for instance one on opening the port so that the first frame is not
// glued to line noise.
//
// seq numbers each sender's frames 0, 1, 2, … wrapping at 256. A retransmitted
// KeyEvent keeps the seq it was first sent with; the bridge does not give a
// new frame the seq of an unacknowledged KeyEvent.
//
// A receiver accepts a frame only if, in this order: it is at most
// MaxFrameLen bytes, its COBS is valid, its payload holds header and CRC, the
// CRC matches, version is one it speaks, type is known, and the body has
// exactly the type's length in that version with every field in range. Anything else is
// dropped and counted; the receiver never answers a bad frame, so random
// bytes that happen to pass the CRC are still rejected by the range checks.
//
// # Version rules
//
// Every frame carries its version in its first byte. Any change to a type
// code, a body layout, a range or an exchange rule is a new version, and a
// version never changes once released. Version 1 was amended twice after
// its release (CapChainFault, below, and the pacing of the bridge's output
// by the host's Pongs, under Exchanges); that was a mistake not to repeat:
// version 2 was the next change, and any change after it is version 3.
//
// A receiver drops frames of a version it does not speak after the CRC
// check and records the foreign version byte (DecoderStats.ForeignVersion)
// so the host can tell the operator which side to update. Hello and
// HostHello repeat their frame's version in their bodies and must agree
// with it.
//
// Version 2 differs from version 1 in two things only:
//
//   - Stats has a twenty-first byte, resetReason: why the bridge last
//     started (ResetReason). A receiver shows a value it does not know as
//     unknown.
//   - A receiver ignores the Hello's caps bits it does not know (version 1
//     receivers drop such a Hello), so that a capability can be added
//     without a new version: a sender sets a new bit only where an older
//     receiver may safely ignore it.
//
// This package, and so the bridge and the host built from this module,
// reads both versions. A session's version is the HostHello's: the host
// sends a version 1 HostHello and then a version 2 one, together; a bridge
// that speaks only version 1 answers the first and drops the second
// (counting one foreign frame), a bridge that speaks version 2 answers
// each in its own version and writes every later frame in version 2. A
// host writes its other frames in version 1, which every bridge reads.
// Version 1 hosts send only the version 1 HostHello and get a version 1
// session, exactly as before.
//
// # Messages
//
// Multi-byte integers are big-endian. "seats" is MinSeats…MaxSeats (6…18);
// seat n is 1…MaxSeats; seat 0 is the judge's pedal. Reserved bits are zero.
//
//	type  name              dir          body
//	0x01  Hello             bridge→host  major(1) minor(1) patch(1) protocol(1)
//	                                     seats(1) keysPerSeat(1) caps(1)         7 bytes
//	0x02  HostHello         host→bridge  protocol(1) seats(1) len(1) software(len)
//	                                                                  3+len bytes
//	0x03  KeyEvent          bridge→host  seat(1) key(1) edge(1) counter(2) micros(4)
//	                                                                     9 bytes
//	0x04  Lights            host→bridge  seats(1) then per seat 1…seats:
//	                                     r(1) g(1) b(1) flags(1) brightness(1)
//	                                                               1+5·seats bytes
//	0x05  Ack               both         seq(1)                          1 byte
//	0x06  Ping              both         nonce(4)                        4 bytes
//	0x07  Pong              both         nonce(4), the Ping's            4 bytes
//	0x08  StatsRequest      host→bridge  (empty)                         0 bytes
//	0x09  Stats             bridge→host  crcErrors(4) malformed(4) overruns(4)
//	                                     queueOverflows(4) uptimeMillis(4)
//	                                     [resetReason(1): version 2]
//	                                                        20 bytes (21 in 2)
//	0x0A  SelfTestSetLED    host→bridge  seat(1) r(1) g(1) b(1)          4 bytes
//	0x0B  SelfTestDumpKeys  host→bridge  (empty)                         0 bytes
//	0x0C  SelfTestKeys      bridge→host  bitsPerSeat(1) seats(1) then per seat
//	                                     ⌈bitsPerSeat/8⌉ bytes, least significant
//	                                     byte first            2+seats·⌈b/8⌉ bytes
//
// Field ranges:
//
//   - Hello: protocol = the frame's version; keysPerSeat 1…17 (a host checks
//     it against the keys its tables' panels have); caps bit 0 = private indicator
//     LEDs (CapPrivateLED), bit 1 = pedal on the bridge (CapPedal), bit 2 =
//     the key chain reads broken (CapChainFault): at boot or at the latest
//     scan, the bit shifted in past the last register read high (nothing
//     drives Q7) or some seat read every contact closed (a register without
//     power). The bridge reports no key of a scan like that; SelfTestKeys
//     shows the raw bits. Bit 2 was added to version 1 after its release
//     rather than making a version 2: it is set only on a broken chain, so a
//     healthy bridge talks to older hosts as before, and an older host drops
//     the Hello of a broken one (counted as malformed), which it reports as a
//     bridge that does not answer rather than as keys pressed. In version 1
//     the other caps bits are zero; in version 2 a receiver ignores the bits
//     it does not know.
//   - HostHello: protocol = the frame's version; len ≤ MaxSoftwareLen (32);
//     software is printable ASCII (0x20…0x7E).
//   - KeyEvent: seat 0…18; key 0…16 for seats 1…18 (KeyPedal, 17, for seat 0
//     and only for it); edge 0 = up (released), 1 = down (pressed). counter
//     numbers the presses of that seat's key since boot, from 1, wrapping; the
//     up edge repeats its press's counter. micros is the bridge clock at the
//     edge, wrapping.
//   - Lights: flags bit 0 = pulse (the number light breathes; its colour
//     holds), bit 1 = the seat's private indicator is on. brightness 0…255
//     scales r, g and b.
//   - Stats (version 2): resetReason 0 = unknown, 1 = power-on (or a
//     brown-out), 2 = the firmware's watchdog (its loop stalled), 3 = the RUN
//     pin (a reset button), 4 = a software reset (after flashing, a reboot
//     it asked for); any other value is shown as unknown.
//   - SelfTestSetLED: seat 1…18; the colour is raw (no brightness) and holds
//     until the next Lights.
//   - SelfTestKeys: bitsPerSeat 16…24; bit i of seat n's bytes is set when the
//     contact on bit i of that seat's shift registers is closed, before
//     debouncing; bits at and above bitsPerSeat are zero.
//
// Key codes: 0…9 are the digit keys, then OK 10, CLR 11, UP 12, DOWN 13,
// WAVE 14, HAND 15, BOOM 16, PEDAL 17 (see Key).
//
// # Exchanges
//
// The host opens a session with HostHello; the bridge answers Hello. Each side
// sends a Ping every 250 ms and answers the other's with a Pong; a host that
// misses heartbeats reopens the port. The host answers every Ping, in the
// order it reads them: the firmware paces its output by those Pongs (it
// never writes more than a window ahead of the last Ping answered), and
// under load sends more Pings than the heartbeat's, one at least every
// 48 bytes it writes. A bridge with a backlog for the port may leave a Ping
// of the host's unanswered; its other frames show it is alive. The bridge sends each KeyEvent until the
// host acks its seq (the host dedupes by seat, key, edge and counter). The
// host sends Lights whenever the lights change; the bridge acks it by seq and
// holds it until the next one, never changing a colour on its own. The host
// need not resend a lost Lights: the next one replaces it. StatsRequest is
// answered by Stats, SelfTestDumpKeys by SelfTestKeys; SelfTestSetLED is acked.
// Either side ignores message types it does not expect.
//
// A host sends at most HostPaceBytes (64) bytes in any HostPaceMicros
// (2 ms). That is not a rule of the protocol but a limit of the bridge's
// hardware: TinyGo's USB CDC receive buffer holds 128 bytes and drops what
// does not fit (USB gives it no flow control), and the firmware drains it
// about every millisecond, a little less often while it writes the LEDs. A
// host that sends faster loses bytes now and then, which the bridge counts
// (Stats) and the protocol repairs as it does line noise.
//
// # Using the package
//
// AppendFrame and Encode write version 1 frames, AppendFrameVersion and
// EncodeVersion those of another; a Decoder reads frames of either version
// from a byte stream, and Frame.Message, ParseMessage (version 1) or
// ParseMessageVersion turn a checked body into a typed message. The Decoder
// and AppendFrame do not allocate.
package protocol
