package protocol

import "encoding/binary"

// AppendFrame appends the version 1 frame carrying m, numbered seq, to
// dst: COBS(version type seq body CRC16) 0x00. It allocates only if dst
// lacks room (MaxWireLen bytes always suffice).
//
// AppendFrame does not check m's ranges: a message that fails m.Validate
// encodes to a frame every Decoder drops as malformed. Validate messages
// whose fields come from outside the program before sending them.
func AppendFrame(dst []byte, m Message, seq uint8) []byte {
	return AppendFrameVersion(dst, m, seq, ProtocolVersion)
}

// AppendFrameVersion is AppendFrame in another version: the frame's
// version byte and m's body as that version has it (ValidateVersion checks
// m against it).
func AppendFrameVersion(dst []byte, m Message, seq, version uint8) []byte {
	start := len(dst)
	// The payload goes one byte to the right of where its COBS encoding
	// starts, so that it can be encoded in place: no buffer on the stack,
	// whose slice TinyGo's escape analysis might move to the heap.
	dst = append(dst, 0, version, byte(m.Type()), seq)
	dst = AppendBodyVersion(dst, m, version)
	dst = binary.BigEndian.AppendUint16(dst, CRC16(dst[start+1:]))
	if len(dst)-start-1 < 254 {
		// COBS with one group per zero byte: each zero becomes the distance
		// to the next one (or to the end), the byte before the payload the
		// distance to the first.
		code := start
		for i := start + 1; i < len(dst); i++ {
			if dst[i] == 0 {
				dst[code] = byte(i - code)
				code = i
			}
		}
		dst[code] = byte(len(dst) - code)
		return append(dst, 0)
	}
	payload := append([]byte(nil), dst[start+1:]...) // unreachable for this package's messages
	dst = appendCOBS(dst[:start], payload)
	return append(dst, 0)
}

// Encode returns the version 1 frame carrying m, numbered seq. See
// AppendFrame.
func Encode(m Message, seq uint8) []byte {
	return AppendFrame(make([]byte, 0, MaxWireLen), m, seq)
}

// EncodeVersion returns the frame of version carrying m, numbered seq. See
// AppendFrameVersion.
func EncodeVersion(m Message, seq, version uint8) []byte {
	return AppendFrameVersion(make([]byte, 0, MaxWireLen), m, seq, version)
}
