package opus

// This file is the package's only cgo: a binding to libopus's decoder
// (Debian's libopus-dev; libopus0 at run time).

/*
#cgo pkg-config: opus
#include <stdlib.h>
#include <opus/opus.h>

// opus_decoder_ctl is variadic, which cgo cannot call.
static int wolftable_opus_set_gain(OpusDecoder *st, int gain) {
	return opus_decoder_ctl(st, OPUS_SET_GAIN(gain));
}
*/
import "C"

import (
	"fmt"
	"math"
	"unsafe"
)

// maxFrameSamples is the longest Opus packet, 120 ms at 48 kHz, in samples
// per channel: what one call to opus_decode may return.
const maxFrameSamples = 5760

// libError is an error code from libopus, told by opus_strerror. It leaves
// the package wrapped: "opus: malformed file: packet 3: libopus: corrupted
// stream".
type libError int

func (e libError) Error() string {
	return "libopus: " + C.GoString(C.opus_strerror(C.int(e)))
}

// decoder is one libopus decoder at 48 kHz. It is not safe for concurrent
// use; close must be called once it is no longer needed (it frees C memory).
type decoder struct {
	st       *C.OpusDecoder
	channels int
}

// newDecoder makes a 48 kHz decoder for 1 or 2 channels. gain is the
// OpusHead output gain, in 1/256 dB (Q7.8); 0 leaves the level alone.
func newDecoder(channels, gain int) (*decoder, error) {
	if channels != 1 && channels != 2 {
		return nil, fmt.Errorf("opus: decoder for %d channels (1 or 2)", channels)
	}
	var code C.int
	st := C.opus_decoder_create(C.opus_int32(SampleRate), C.int(channels), &code)
	if code != C.OPUS_OK || st == nil {
		if st != nil {
			C.opus_decoder_destroy(st)
		}
		if code == C.OPUS_OK {
			code = C.OPUS_ALLOC_FAIL
		}
		return nil, libError(code)
	}
	if gain != 0 {
		if code := C.wolftable_opus_set_gain(st, C.int(gain)); code != C.OPUS_OK {
			C.opus_decoder_destroy(st)
			return nil, libError(code)
		}
	}
	return &decoder{st: st, channels: channels}, nil
}

// decode decodes one packet into pcm, interleaved, and returns the number of
// samples per channel it wrote. pcm must hold maxFrameSamples*channels
// samples. An empty packet is an error (libopus would conceal a lost packet
// instead, making up 120 ms of sound).
func (d *decoder) decode(packet []byte, pcm []int16) (int, error) {
	if d.st == nil {
		return 0, fmt.Errorf("opus: decoder used after close")
	}
	if len(packet) == 0 {
		return 0, libError(C.OPUS_INVALID_PACKET)
	}
	if len(packet) > math.MaxInt32 {
		return 0, libError(C.OPUS_BAD_ARG)
	}
	if len(pcm) < maxFrameSamples*d.channels {
		return 0, libError(C.OPUS_BUFFER_TOO_SMALL)
	}
	// Go memory passed for the call only, holding no Go pointers: allowed by
	// the cgo pointer rules.
	n := C.opus_decode(d.st,
		(*C.uchar)(unsafe.Pointer(&packet[0])), C.opus_int32(len(packet)),
		(*C.opus_int16)(unsafe.Pointer(&pcm[0])), C.int(maxFrameSamples), 0)
	if n < 0 {
		return 0, libError(n)
	}
	return int(n), nil
}

// close frees the decoder. It may be called more than once.
func (d *decoder) close() {
	if d.st != nil {
		C.opus_decoder_destroy(d.st)
		d.st = nil
	}
}
