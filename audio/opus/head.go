package opus

import (
	"bytes"
	"encoding/binary"
)

// OpusHead, the identification header (RFC 7845 section 5.1): the first
// packet of an Ogg Opus stream, and a Matroska A_OPUS track's CodecPrivate.
//
//	0  "OpusHead"
//	8  version: major in the high nibble, must be 0
//	9  channel count
//	10 pre-skip, u16 LE, samples at 48 kHz
//	12 input sample rate, u32 LE (informational)
//	16 output gain, s16 LE, Q7.8 dB
//	18 channel mapping family
//	19 (family != 0) stream count, coupled count, one mapping byte a channel
const opusHeadLen = 19

var magicOpusHead = []byte("OpusHead")

// parseOpusHead reads an OpusHead packet. Only what one libopus decoder
// (not its multistream one) plays is supported: mapping family 0, or family
// 1 with one or two channels carried as one stream in order.
func parseOpusHead(b []byte) (track, error) {
	if !bytes.HasPrefix(b, magicOpusHead) {
		return track{}, malformed("no OpusHead")
	}
	if len(b) < opusHeadLen {
		return track{}, malformed("OpusHead of %d bytes (at least %d)", len(b), opusHeadLen)
	}
	if v := b[8]; v>>4 != 0 {
		return track{}, unsupported("OpusHead version %d.%d", v>>4, v&15)
	}
	ch := int(b[9])
	t := track{
		channels: ch,
		preSkip:  int(binary.LittleEndian.Uint16(b[10:])),
		gain:     int(int16(binary.LittleEndian.Uint16(b[16:]))),
	}
	if ch == 0 {
		return track{}, malformed("OpusHead with 0 channels")
	}
	switch family := b[18]; family {
	case 0:
		if ch > 2 {
			return track{}, unsupported("%d channels (1 or 2)", ch)
		}
	case 1:
		if ch > 2 {
			return track{}, unsupported("%d channels (1 or 2)", ch)
		}
		if len(b) < opusHeadLen+2+ch {
			return track{}, malformed("OpusHead's channel mapping table is cut short")
		}
		streams, coupled, mapping := int(b[19]), int(b[20]), b[21:21+ch]
		if streams == 0 || coupled > streams {
			return track{}, malformed("OpusHead with %d streams, %d coupled", streams, coupled)
		}
		if streams != 1 || coupled != ch-1 {
			return track{}, unsupported("%d channels in %d streams, %d coupled", ch, streams, coupled)
		}
		for i, m := range mapping {
			if int(m) != i {
				return track{}, unsupported("channel mapping %v (only the plain order)", mapping)
			}
		}
	default:
		return track{}, unsupported("channel mapping family %d", family)
	}
	return t, nil
}
