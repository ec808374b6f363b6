package pack

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/hajimehoshi/go-mp3"
)

// DecodeMP3 decodes a whole MP3 file with go-mp3, which always yields 16-bit
// stereo. Errors wrap ErrMalformed, or ErrUnsupported for MPEG-2 and 2.5
// files (sample rates below 32000 Hz): go-mp3 decodes some of those into loud
// garbage without an error (hajimehoshi/go-mp3#39), and a garbled judge is
// worse than a missing clip. A panic inside the third-party decoder on hostile
// input is turned into an error: clip files come from outside the process.
const minMP3Rate = 32000 // MPEG-1 Layer III

func DecodeMP3(b []byte) (a Audio, err error) {
	defer func() {
		if r := recover(); r != nil {
			a, err = Audio{}, malformed("mp3: decoder failed: %v", r)
		}
	}()
	d, err := mp3.NewDecoder(bytes.NewReader(b))
	if err != nil {
		return Audio{}, malformed("mp3: %v", err)
	}
	rate := d.SampleRate()
	if rate < minMP3Rate {
		return Audio{}, unsupported("mp3: MPEG-2 file at %d Hz, which the decoder gets wrong (encode at 44100 or 48000 Hz, or use WAV)", rate)
	}
	limit := int64(MaxClipDuration/time.Second) * int64(rate) * 4
	if n := d.Length(); n > limit {
		return Audio{}, unsupported("mp3: longer than %v", MaxClipDuration)
	}
	// Decode straight into the samples, a chunk at a time: no growing
	// byte buffer and no second copy (a whole pack is minutes of audio).
	samples := make([]int16, 0, max(d.Length(), 0)/2)
	chunk := make([]byte, 16<<10)
	var total int64
	for {
		n, err := io.ReadFull(d, chunk)
		n -= n % 4 // whole stereo frames
		for i := 0; i < n; i += 2 {
			samples = append(samples, int16(binary.LittleEndian.Uint16(chunk[i:])))
		}
		total += int64(n)
		if total > limit {
			return Audio{}, unsupported("mp3: longer than %v", MaxClipDuration)
		}
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return Audio{}, malformed("mp3: %v", err)
		}
	}
	if len(samples) == 0 {
		return Audio{}, malformed("mp3: no samples")
	}
	a = Audio{Rate: rate, Channels: 2, Samples: samples}
	return a, nil
}

// DecodeFile decodes a clip file by its extension (.wav or .mp3, any case).
func DecodeFile(name string, b []byte) (Audio, error) {
	_, ext, ok := splitClipName(name)
	if !ok {
		return Audio{}, fmt.Errorf("%w: %s: not a .wav or .mp3 file", ErrUnsupported, name)
	}
	if ext == ".mp3" {
		return DecodeMP3(b)
	}
	return DecodeWAV(b)
}
