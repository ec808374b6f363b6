package opus

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"wolftable/audio/pack"
)

// SampleRate is the rate of all decoded audio: Opus always decodes at 48 kHz.
const SampleRate = 48000

// Format is a container format, as told by Sniff.
type Format int

// Container formats.
const (
	Unknown Format = iota // neither of the below
	WebM                  // WebM or Matroska (EBML)
	Ogg                   // Ogg
)

func (f Format) String() string {
	switch f {
	case WebM:
		return "WebM"
	case Ogg:
		return "Ogg"
	default:
		return "unknown"
	}
}

// Magic numbers at the start of the containers.
var (
	magicEBML = []byte{0x1A, 0x45, 0xDF, 0xA3}
	magicOgg  = []byte("OggS")
)

// Sniff tells a file's container by its first four bytes: 1A 45 DF A3 (the
// EBML header's ID) is WebM/Matroska, "OggS" is Ogg. Anything else, and
// anything shorter, is Unknown. It does not look further: Decode says
// whether the file really is Opus in that container.
func Sniff(b []byte) Format {
	switch {
	case bytes.HasPrefix(b, magicEBML):
		return WebM
	case bytes.HasPrefix(b, magicOgg):
		return Ogg
	default:
		return Unknown
	}
}

// Errors wrapped by everything Decode returns: test them with errors.Is.
var (
	// ErrMalformed: a damaged, truncated or nonsensical file, or an Opus
	// packet libopus refused.
	ErrMalformed = errors.New("opus: malformed file")
	// ErrUnsupported: a well-formed file the table does not decode: another
	// container, another codec (Vorbis, ...), more than two channels, a
	// channel mapping other than the plain mono or stereo one, an encrypted
	// or compressed Matroska track.
	ErrUnsupported = errors.New("opus: unsupported file")
	// ErrTooLong: the audio is longer than the maxDuration given to Decode.
	ErrTooLong = errors.New("opus: recording too long")
)

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

// Decode decodes a whole WebM/Opus or Ogg/Opus file into 48 kHz 16-bit PCM,
// interleaved, with the file's channel count (1 or 2; more is
// ErrUnsupported, a non-Opus codec such as Vorbis is ErrUnsupported). The
// encoder's delay (pre-skip) is removed from the start, and an Ogg stream's
// padding (by its last granule position) or a Matroska block's
// DiscardPadding from the end, so the audio is as long as what was recorded.
//
// It stops with an error wrapping ErrTooLong as soon as the decoded audio
// would exceed maxDuration, never allocating more than maxDuration of samples
// (a 10-minute recording does not cost 10 minutes of memory); a maxDuration
// of zero or less refuses any audio. Other errors wrap ErrMalformed or
// ErrUnsupported. A truncated file gives the audio of its whole packets, or
// an error if there is none; a file without any audio is an error.
func Decode(b []byte, maxDuration time.Duration) (pack.Audio, error) {
	s := &session{maxFrames: framesIn(maxDuration), maxDuration: maxDuration}
	defer s.close()
	switch Sniff(b) {
	case WebM:
		if err := demuxWebM(b, s); err != nil {
			return pack.Audio{}, err
		}
	case Ogg:
		granule, err := (&oggDemuxer{}).demux(b, s)
		if err != nil {
			return pack.Audio{}, err
		}
		if err := s.trimTo(granule); err != nil {
			return pack.Audio{}, err
		}
	default:
		return pack.Audio{}, unsupported("not a WebM or Ogg file")
	}
	if s.excess > 0 {
		return pack.Audio{}, s.tooLong()
	}
	if len(s.out) == 0 {
		return pack.Audio{}, malformed("no audio")
	}
	return pack.Audio{Rate: SampleRate, Channels: s.channels, Samples: s.out}, nil
}

// framesIn is the number of 48 kHz frames in d, rounded down; 0 for d <= 0.
func framesIn(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64(d/time.Millisecond)*(SampleRate/1000) + int64(d%time.Millisecond)*(SampleRate/1000)/int64(time.Millisecond)
}

// track is what the demuxers learn of the Opus stream before its packets.
type track struct {
	channels int // 1 or 2
	preSkip  int // samples per channel to drop from the start, at 48 kHz
	gain     int // output gain in 1/256 dB (OpusHead's Q7.8)
}

// sink receives a demuxer's findings: the Opus track once, then its packets
// in order. discard is the number of samples per channel to drop from the
// end of the packet's audio (Matroska's DiscardPadding). p is only valid
// during the call. Returning an error stops the demuxer, which returns that
// error.
type sink interface {
	begin(t track) error
	packet(p []byte, discard int) error
}

// session decodes packets as a demuxer finds them, into a buffer of at most
// maxFrames frames.
type session struct {
	maxFrames   int64
	maxDuration time.Duration

	dec      *decoder
	channels int
	preSkip  int     // the stream's pre-skip, samples per channel
	skip     int     // pre-skip samples per channel still to drop
	pcm      []int16 // one packet's audio
	out      []int16 // the audio so far, at most maxFrames frames
	excess   int64   // frames decoded beyond maxFrames, not kept
	packets  int
}

func (s *session) begin(t track) error {
	if s.dec != nil {
		return malformed("a second Opus header")
	}
	d, err := newDecoder(t.channels, t.gain)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	s.dec, s.channels, s.preSkip, s.skip = d, t.channels, t.preSkip, t.preSkip
	s.pcm = make([]int16, maxFrameSamples*t.channels)
	return nil
}

func (s *session) packet(p []byte, discard int) error {
	if s.dec == nil {
		return malformed("audio before the Opus header")
	}
	s.packets++
	n, err := s.dec.decode(p, s.pcm)
	if err != nil {
		return fmt.Errorf("%w: packet %d: %w", ErrMalformed, s.packets, err)
	}
	if discard > 0 {
		n -= min(discard, n)
	}
	frames := s.pcm[:n*s.channels]
	if s.skip > 0 {
		k := min(s.skip, n)
		frames = frames[k*s.channels:]
		s.skip -= k
	}
	if len(frames) == 0 {
		return nil
	}
	if s.excess > 0 {
		// The last packet already went past maxDuration; only end trimming
		// (Ogg) could have made it fit, and more audio comes after it.
		return s.tooLong()
	}
	have := int64(len(s.out) / s.channels)
	add := int64(len(frames) / s.channels)
	if room := s.maxFrames - have; add > room {
		s.excess = add - room
		frames = frames[:room*int64(s.channels)]
	}
	s.grow(len(frames))
	s.out = append(s.out, frames...)
	return nil
}

// grow makes room for n more samples in out, doubling its capacity, but
// never beyond maxFrames.
func (s *session) grow(n int) {
	need := len(s.out) + n
	if need <= cap(s.out) {
		return
	}
	limit := s.maxFrames * int64(s.channels)
	c := int64(max(2*cap(s.out), SampleRate*s.channels, need))
	c = min(c, limit)
	out := make([]int16, len(s.out), c)
	copy(out, s.out)
	s.out = out
}

// trimTo applies Ogg end trimming: granule is the granule position (in 48
// kHz samples, pre-skip included) of the page the last packet ended on, or
// -1 for none. Samples decoded beyond it are padding.
func (s *session) trimTo(granule int64) error {
	if granule < 0 || s.dec == nil {
		return nil
	}
	// The audio kept ends at granule - preSkip.
	total := granule - int64(s.preSkip)
	have := int64(len(s.out)/s.channels) + s.excess
	if total < 0 {
		total = 0
	}
	if total >= have {
		return nil
	}
	if total > s.maxFrames {
		return s.tooLong()
	}
	s.out = s.out[:total*int64(s.channels)]
	s.excess = 0
	return nil
}

func (s *session) tooLong() error {
	return fmt.Errorf("%w: more than %v", ErrTooLong, s.maxDuration)
}

func (s *session) close() {
	if s.dec != nil {
		s.dec.close()
	}
}
