package protocol

import "encoding/binary"

// Frame is an intact, valid frame delivered by a Decoder.
type Frame struct {
	Version uint8  // the protocol version it was sent in, ProtocolVersion…LatestVersion
	Type    Type   // never 0: the zero Frame means "no frame"
	Seq     uint8  // the sender's frame number
	Body    []byte // the body, already checked against Type's layout in Version; it aliases the Decoder's buffer and is valid until the next Feed or Reset
}

// Message returns the frame's message as a new *Hello, *KeyEvent, … For a
// frame from a Decoder the error is always nil.
func (f Frame) Message() (Message, error) { return ParseMessageVersion(f.Version, f.Type, f.Body) }

// DecoderStats are a Decoder's counters. They wrap.
type DecoderStats struct {
	Frames    uint32 // valid frames delivered
	CRCErrors uint32 // FaultCRC
	Overruns  uint32 // FaultOverrun
	Malformed uint32 // FaultCOBS, FaultShort, FaultType and *BodyError

	// ForeignFrames counts intact frames of a version the Decoder does not
	// know (FaultVersion: not ProtocolVersion…LatestVersion);
	// ForeignVersion is the version byte of the last one, so the host can
	// say which version the bridge speaks. Zero if none.
	ForeignFrames  uint32
	ForeignVersion uint8
}

// Decoder cuts a byte stream into frames and checks them. It never panics,
// whatever the bytes; it holds at most MaxFrameLen bytes; after garbage it
// resynchronises at the next 0x00. The zero Decoder is ready to use. A
// Decoder is not safe for concurrent use.
//
// A Decoder starts in step with the stream: bytes before the first 0x00 are
// taken as a frame. Senders may send extra 0x00 bytes at any time (empty
// frames are skipped silently), for instance one on opening the port.
type Decoder struct {
	buf      [MaxFrameLen]byte
	n        int  // bytes in buf
	dropping bool // after an overrun: skip to the next 0x00
	stats    DecoderStats
	scratch  bodyScratch
}

// Feed consumes p up to and including the next 0x00 that ends a frame, and
// returns how many bytes it consumed and what that frame was:
//
//   - a valid frame: the Frame and nil;
//   - an invalid one: the zero Frame and a Fault or a *BodyError;
//   - p ran out first: n == len(p), the zero Frame and nil.
//
// Feed also returns FaultOverrun as soon as a frame grows past MaxFrameLen.
// Call it in a loop until p is consumed:
//
//	for len(p) > 0 {
//		n, f, err := d.Feed(p)
//		p = p[n:]
//		if err == nil && f.Type != 0 {
//			handle(f)
//		}
//	}
func (d *Decoder) Feed(p []byte) (n int, f Frame, err error) {
	for i, c := range p {
		if c != 0 {
			if d.dropping {
				continue
			}
			if d.n == len(d.buf) {
				d.n = 0
				d.dropping = true
				d.stats.Overruns++
				return i + 1, Frame{}, FaultOverrun
			}
			d.buf[d.n] = c
			d.n++
			continue
		}
		if d.dropping {
			d.dropping = false
			continue
		}
		if d.n == 0 {
			continue
		}
		f, err = d.check(d.buf[:d.n])
		d.n = 0
		return i + 1, f, err
	}
	return len(p), Frame{}, nil
}

// check decodes and checks one frame, in place.
func (d *Decoder) check(enc []byte) (Frame, error) {
	payload, ok := decodeCOBS(enc[:0], enc)
	if !ok {
		d.stats.Malformed++
		return Frame{}, FaultCOBS
	}
	if len(payload) < headerLen+crcLen {
		d.stats.Malformed++
		return Frame{}, FaultShort
	}
	end := len(payload) - crcLen
	if CRC16(payload[:end]) != binary.BigEndian.Uint16(payload[end:]) {
		d.stats.CRCErrors++
		return Frame{}, FaultCRC
	}
	version := payload[0]
	if !KnownVersion(version) {
		d.stats.ForeignFrames++
		d.stats.ForeignVersion = version
		return Frame{}, FaultVersion
	}
	t, body := Type(payload[1]), payload[headerLen:end]
	if err := d.scratch.checkBody(version, t, body); err != nil {
		d.stats.Malformed++
		return Frame{}, err
	}
	d.stats.Frames++
	return Frame{Version: version, Type: t, Seq: payload[2], Body: body}, nil
}

// Reset drops a partly received frame, as after reopening the port. The
// counters are kept.
func (d *Decoder) Reset() {
	d.n = 0
	d.dropping = false
}

// Stats returns the Decoder's counters.
func (d *Decoder) Stats() DecoderStats { return d.stats }
