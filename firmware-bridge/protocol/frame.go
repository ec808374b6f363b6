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
	dst = append(dst, ProtocolVersion, byte(m.Type()), seq)
	dst = m.AppendBody(dst)
	dst = binary.BigEndian.AppendUint16(dst, CRC16(dst[start:]))

	// COBS-encode the payload from a copy on the stack back over itself.
	var buf [MaxPayloadLen]byte
	payload := dst[start:]
	if len(payload) <= len(buf) {
		payload = buf[:copy(buf[:], payload)]
	} else {
		payload = append([]byte(nil), payload...) // unreachable for this package's messages
	}
	dst = appendCOBS(dst[:start], payload)
	return append(dst, 0)
}

// Encode returns the frame carrying m, numbered seq. See AppendFrame.
func Encode(m Message, seq uint8) []byte {
	return AppendFrame(make([]byte, 0, MaxWireLen), m, seq)
}
