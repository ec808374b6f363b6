package pack

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// ErrUnsupported is wrapped by decode errors for well-formed files in a format
// the table does not play (8-bit or float WAV, more than two channels, ...).
var ErrUnsupported = errors.New("pack: unsupported audio format")

// ErrMalformed is wrapped by decode errors for damaged or truncated files.
var ErrMalformed = errors.New("pack: malformed audio file")

// MaxClipDuration bounds one clip; judge lines are seconds long, and the bound
// keeps a damaged header from asking for gigabytes.
const MaxClipDuration = 2 * time.Minute

// Rates accepted in clip files.
const (
	MinSourceRate = 8000
	MaxSourceRate = 192000
)

// Audio is decoded sound as found in a clip file, before mixing and
// resampling: interleaved signed 16-bit samples.
type Audio struct {
	Rate     int     // samples per second per channel
	Channels int     // 1 or 2
	Samples  []int16 // interleaved; len is a multiple of Channels
}

// Frames is the number of sample frames (one sample per channel).
func (a Audio) Frames() int {
	if a.Channels <= 0 {
		return 0
	}
	return len(a.Samples) / a.Channels
}

// Duration is the length of the audio.
func (a Audio) Duration() time.Duration {
	if a.Rate <= 0 {
		return 0
	}
	return time.Duration(a.Frames()) * time.Second / time.Duration(a.Rate)
}

// Mono mixes the channels down to one by averaging them.
func (a Audio) Mono() []int16 {
	if a.Channels == 1 {
		return a.Samples
	}
	out := make([]int16, a.Frames())
	for i := range out {
		var sum int
		for c := 0; c < a.Channels; c++ {
			sum += int(a.Samples[i*a.Channels+c])
		}
		out[i] = int16(sum / a.Channels)
	}
	return out
}

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

// WAV format tags (the first field of the fmt chunk).
const (
	wavePCM        = 0x0001
	waveFloat      = 0x0003
	waveALaw       = 0x0006
	waveMuLaw      = 0x0007
	waveExtensible = 0xFFFE
)

// riffUnknownSize is what streaming writers put in a size field they could
// not seek back to fill in; the chunk then runs to the end of the file.
const riffUnknownSize = 0xFFFFFFFF

// DecodeWAV reads a whole RIFF/WAVE file. It accepts exactly 16-bit integer
// PCM with one or two channels; anything else is an error wrapping
// ErrUnsupported (well-formed, wrong format) or ErrMalformed (damaged). It
// never panics and never allocates more than the file's own data needs.
func DecodeWAV(b []byte) (Audio, error) {
	if len(b) < 12 {
		return Audio{}, malformed("wav: %d bytes is too short for a RIFF header", len(b))
	}
	if string(b[0:4]) != "RIFF" {
		if string(b[0:4]) == "RIFX" || string(b[0:4]) == "RF64" {
			return Audio{}, unsupported("wav: %s files (need little-endian RIFF)", b[0:4])
		}
		return Audio{}, malformed("wav: no RIFF header")
	}
	if string(b[8:12]) != "WAVE" {
		return Audio{}, malformed("wav: RIFF file is %q, not WAVE", b[8:12])
	}
	// The RIFF size is often wrong in the wild (0, or stale after an edit),
	// so it is ignored: the chunks are walked to the end of the file.
	var (
		fmtChunk  []byte
		data      []byte
		haveData  bool
		truncated bool
	)
chunks:
	for off := 12; off < len(b); {
		if len(b)-off < 8 {
			// A few stray bytes after the last chunk: ignore them.
			break
		}
		id := string(b[off : off+4])
		size := uint64(binary.LittleEndian.Uint32(b[off+4 : off+8]))
		body := off + 8
		end := uint64(body) + size
		if end > uint64(len(b)) {
			switch {
			case id == "data" && size == riffUnknownSize:
				// Written by a streaming tool: the data runs to the end.
			case id == "data":
				truncated = true
			case fmtChunk != nil && haveData:
				break chunks // junk after the audio; it does not matter
			default:
				return Audio{}, malformed("wav: %q chunk runs past the end of the file", id)
			}
			end = uint64(len(b))
		}
		switch id {
		case "fmt ":
			if fmtChunk != nil {
				return Audio{}, malformed("wav: two fmt chunks")
			}
			fmtChunk = b[body:end]
		case "data":
			if haveData {
				return Audio{}, malformed("wav: two data chunks")
			}
			haveData = true
			data = b[body:end]
		}
		off = int(end)
		if size%2 == 1 { // chunks are word-aligned
			off++
		}
	}
	if fmtChunk == nil {
		return Audio{}, malformed("wav: no fmt chunk")
	}
	if !haveData {
		return Audio{}, malformed("wav: no data chunk")
	}
	a, err := parseWAVFormat(fmtChunk)
	if err != nil {
		return Audio{}, err
	}
	if truncated {
		return Audio{}, malformed("wav: data chunk is cut short (file truncated?)")
	}
	frameBytes := 2 * a.Channels
	if len(data)%frameBytes != 0 {
		return Audio{}, malformed("wav: data is %d bytes, not a whole number of %d-byte frames", len(data), frameBytes)
	}
	frames := len(data) / frameBytes
	if frames == 0 {
		return Audio{}, malformed("wav: no samples")
	}
	if time.Duration(frames) > MaxClipDuration/time.Second*time.Duration(a.Rate) {
		return Audio{}, unsupported("wav: longer than %v", MaxClipDuration)
	}
	a.Samples = make([]int16, len(data)/2)
	for i := range a.Samples {
		a.Samples[i] = int16(binary.LittleEndian.Uint16(data[2*i:]))
	}
	return a, nil
}

// parseWAVFormat checks a fmt chunk and returns the Audio it describes,
// without samples.
func parseWAVFormat(f []byte) (Audio, error) {
	if len(f) < 16 {
		return Audio{}, malformed("wav: fmt chunk is %d bytes, need 16", len(f))
	}
	tag := binary.LittleEndian.Uint16(f[0:2])
	channels := int(binary.LittleEndian.Uint16(f[2:4]))
	rate := int(binary.LittleEndian.Uint32(f[4:8]))
	blockAlign := int(binary.LittleEndian.Uint16(f[12:14]))
	bits := int(binary.LittleEndian.Uint16(f[14:16]))
	if tag == waveExtensible {
		// cbSize(2) validBits(2) channelMask(4) subFormat GUID(16); the GUID
		// starts with the plain format tag.
		if len(f) < 40 {
			return Audio{}, malformed("wav: extensible fmt chunk is %d bytes, need 40", len(f))
		}
		tag = binary.LittleEndian.Uint16(f[24:26])
		if valid := int(binary.LittleEndian.Uint16(f[18:20])); valid != 0 && valid != bits && bits == 16 {
			return Audio{}, unsupported("wav: %d valid bits in 16-bit containers", valid)
		}
	}
	switch tag {
	case wavePCM:
	case waveFloat:
		return Audio{}, unsupported("wav: floating-point samples (need 16-bit integer PCM)")
	case waveALaw, waveMuLaw:
		return Audio{}, unsupported("wav: A-law/µ-law telephone encoding (need 16-bit integer PCM)")
	default:
		return Audio{}, unsupported("wav: compressed or non-PCM data, format tag %#04x (need 16-bit integer PCM)", tag)
	}
	if bits != 16 {
		return Audio{}, unsupported("wav: %d-bit samples (need 16-bit)", bits)
	}
	if channels < 1 || channels > 2 {
		return Audio{}, unsupported("wav: %d channels (need mono or stereo)", channels)
	}
	if rate < MinSourceRate || rate > MaxSourceRate {
		return Audio{}, unsupported("wav: sample rate %d Hz (need %d to %d)", rate, MinSourceRate, MaxSourceRate)
	}
	if blockAlign != 2*channels {
		return Audio{}, malformed("wav: block align %d, want %d for %d channels of 16 bits", blockAlign, 2*channels, channels)
	}
	return Audio{Rate: rate, Channels: channels}, nil
}

// EncodeWAV writes a as a canonical 16-bit PCM WAV file. Tests and the voice
// tools use it; DecodeWAV(EncodeWAV(a)) gives a back.
func EncodeWAV(a Audio) []byte {
	data := 2 * len(a.Samples)
	b := make([]byte, 44+data)
	copy(b[0:], "RIFF")
	binary.LittleEndian.PutUint32(b[4:], uint32(36+data))
	copy(b[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(b[16:], 16)
	binary.LittleEndian.PutUint16(b[20:], wavePCM)
	binary.LittleEndian.PutUint16(b[22:], uint16(a.Channels))
	binary.LittleEndian.PutUint32(b[24:], uint32(a.Rate))
	binary.LittleEndian.PutUint32(b[28:], uint32(a.Rate*a.Channels*2))
	binary.LittleEndian.PutUint16(b[32:], uint16(a.Channels*2))
	binary.LittleEndian.PutUint16(b[34:], 16)
	copy(b[36:], "data")
	binary.LittleEndian.PutUint32(b[40:], uint32(data))
	for i, s := range a.Samples {
		binary.LittleEndian.PutUint16(b[44+2*i:], uint16(s))
	}
	return b
}
