package protocol

// Consistent Overhead Byte Stuffing (Cheshire and Baker, "Consistent Overhead
// Byte Stuffing", IEEE/ACM Transactions on Networking, 1999).
//
// The source is cut at every zero byte into blocks. Each block is written as
// groups: a code byte c (1…255) followed by c-1 non-zero bytes. A group with
// c < 255 stands for its bytes and then a zero; a group with c = 255 stands
// for 254 bytes and no zero, so longer runs need no zero to split them. The
// zero implied after the last group is not part of the data. When the source
// ends in a full 254-byte group the empty group that would follow is left
// out; decoders accept it either way.
//
// Encoded data holds no zero byte, so 0x00 delimits frames. Overhead: one
// byte, plus one per 254 non-zero bytes in a row.

// appendCOBS appends the COBS encoding of src to dst, without a delimiter.
// src must not overlap the bytes appended to dst.
func appendCOBS(dst, src []byte) []byte {
	code := len(dst) // where the current group's code byte goes
	dst = append(dst, 0)
	run := 0 // non-zero bytes in the current group
	for i, c := range src {
		if c == 0 {
			dst[code] = byte(run + 1)
			code = len(dst)
			dst = append(dst, 0)
			run = 0
			continue
		}
		dst = append(dst, c)
		run++
		if run == 254 {
			dst[code] = 0xFF
			if i == len(src)-1 {
				return dst // elide the empty last group
			}
			code = len(dst)
			dst = append(dst, 0)
			run = 0
		}
	}
	dst[code] = byte(run + 1)
	return dst
}

// decodeCOBS appends the data COBS-encoded in src (without delimiter) to
// dst. It reports false if src is empty, holds a zero byte, or its last group
// runs past its end. dst may be src[:0]: decoding never writes ahead of what
// it has read.
func decodeCOBS(dst, src []byte) ([]byte, bool) {
	if len(src) == 0 {
		return dst, false
	}
	for i := 0; i < len(src); {
		code := int(src[i])
		end := i + code
		if code == 0 || end > len(src) {
			return dst, false
		}
		for _, c := range src[i+1 : end] {
			if c == 0 {
				return dst, false
			}
			dst = append(dst, c)
		}
		i = end
		if code < 0xFF && i < len(src) {
			dst = append(dst, 0)
		}
	}
	return dst, true
}
