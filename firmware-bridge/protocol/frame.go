package protocol

import "encoding/binary"

// AppendFrame appends the frame carrying m, numbered seq, to dst:
// COBS(version type seq body CRC16) 0x00. It allocates only if dst lacks
// room (MaxWireLen bytes always suffice).
//
// AppendFrame does not check m's ranges: a message that fails m.Validate
// encodes to a frame every Decoder drops as malformed. Validate messages
// whose fields come from outside the program before sending them.
func AppendFrame(dst []byte, m Message, seq uint8) []byte {
	start := len(dst)
	// The payload goes one byte to the right of where its COBS encoding
	// starts, so that it can be encoded in place: no buffer on the stack,
	// whose slice TinyGo's escape analysis might move to the heap.
	dst = append(dst, 0, ProtocolVersion, byte(m.Type()), seq)
	dst = m.AppendBody(dst)
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

// Encode returns the frame carrying m, numbered seq. See AppendFrame.
func Encode(m Message, seq uint8) []byte {
	return AppendFrame(make([]byte, 0, MaxWireLen), m, seq)
}
