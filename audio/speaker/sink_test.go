package speaker

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"sync"
	"time"

	"wolftable/audio/alsafile"
	"wolftable/audio/pack"
)

// The test's sound card. ALSA is configured (by a file the test writes; the
// machine's own configuration is never read) with a default PCM of type file
// over null: the null plugin swallows the samples without any clock, and the
// file plugin copies them, as oto hands them over (32-bit float, interleaved),
// into a FIFO. alsaSink reads the FIFO at exactly the rate of a real device,
// so the FIFO's back-pressure paces oto as a sound card would.
//
// The FIFO is shrunk to one page (512 frames of stereo float: 32 ms at
// 16 kHz), and the file plugin holds back one device buffer before it writes
// (alsa-lib pcm_file.c keeps buffer_bytes in its wbuf), just as a card plays
// a sample one buffer after it was written. So a sample oto hands to ALSA
// (snd_pcm_writei) reaches the sink only after the sink has read at least one
// device buffer more: the time the sink had read sinkLag frames less than
// the sample is an upper bound on when it was handed to ALSA ("alsa-bound").
// oto writes silence between lines, always ahead of the sink, so the FIFO is
// full when a line's first sample enters it: it waits a whole page more, and
// the time the sink had read sinkLag + pipeFrames frames less is when it was
// handed over ("alsa"). The tests report both, and the sink time itself
// ("sound": Say → sound out of the test's card, FIFO page included).

// alsaConfig is the whole ALSA configuration for the tests.
func alsaConfig(fifo string) string {
	return alsafile.Config(fifo, "the wolftable/audio/speaker tests")
}

const (
	pipeBytes = 4096

	// sinkLag is one device buffer (DefaultDeviceBuffer at pack.SampleRate,
	// which oto asks ALSA for and the null plugin grants), in frames.
	sinkLag = pack.SampleRate * int64(DefaultDeviceBuffer/time.Millisecond) / 1000
	// pipeFrames is the FIFO's page in stereo float frames.
	pipeFrames = pipeBytes / 8
)

type alsaSink struct {
	f          *os.File
	frameBytes int
	channels   int
	rate       int

	mu      sync.Mutex
	paused  bool
	capture bool
	frames  []float32 // interleaved samples since start()
	armed   bool
	hit     chan sinkHit
	total   int64      // frames consumed
	times   []sinkTime // when the sink had consumed how much, recent first-in order
}

// sinkHit is the first non-silent frame after arm: its index in the stream
// and when the sink read it.
type sinkHit struct {
	frame int64
	at    time.Time
}

type sinkTime struct {
	frames int64 // consumed by then
	at     time.Time
}

// newALSASink makes the FIFO and starts consuming it at rate frames a second.
// O_RDWR: the open does not wait for a writer, and the read end never sees
// EOF while oto has not opened the device yet.
func newALSASink(fifo string, rate, channels int) (*alsaSink, error) {
	f, err := alsafile.OpenFIFO(fifo, pipeBytes)
	if err != nil {
		return nil, err
	}
	s := &alsaSink{f: f, frameBytes: 4 * channels, channels: channels, rate: rate, hit: make(chan sinkHit, 1)}
	go s.run()
	return s, nil
}

// run reads the FIFO as a device plays: by the wall clock, in about 1 ms
// steps. If the sink falls more than 10 ms (a period) behind, because this
// process was not scheduled or the writer lagged, the clock is re-based
// rather than gulping the backlog: a burst would make oto's device loop take
// periods back to back faster than any card does.
func (s *alsaSink) run() {
	bytesPerSec := float64(s.rate * s.frameBytes)
	buf := make([]byte, 64<<10)
	var pending []byte // bytes of a partial frame
	start := time.Now()
	var consumed int64
	for {
		time.Sleep(time.Millisecond)
		s.mu.Lock()
		paused := s.paused
		s.mu.Unlock()
		if paused {
			return
		}
		due := int64(time.Since(start).Seconds() * bytesPerSec)
		need := due - consumed
		if need > int64(bytesPerSec/100) {
			start = time.Now().Add(-time.Duration(float64(consumed) / bytesPerSec * float64(time.Second)))
			need = 0
		}
		for need > 0 {
			n, err := s.f.Read(buf[:min(int64(len(buf)), need)])
			if err != nil {
				if !errors.Is(err, os.ErrClosed) {
					fmt.Fprintln(os.Stderr, "alsaSink:", err)
				}
				return
			}
			consumed += int64(n)
			need -= int64(n)
			pending = append(pending, buf[:n]...)
			whole := len(pending) / s.frameBytes * s.frameBytes
			s.take(pending[:whole], time.Now())
			pending = append(pending[:0], pending[whole:]...)
		}
	}
}

func (s *alsaSink) take(b []byte, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(b) / 4
	first := s.total
	s.total += int64(n / s.channels)
	if len(s.times) == cap(s.times) && len(s.times) > 0 {
		// Keep the last few seconds.
		s.times = append(s.times[:0], s.times[len(s.times)/2:]...)
	}
	if s.times == nil {
		s.times = make([]sinkTime, 0, 8192)
	}
	s.times = append(s.times, sinkTime{s.total, now})
	if !s.capture && !s.armed {
		return
	}
	for i := 0; i < n; i++ {
		v := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		if s.armed && v != 0 {
			s.armed = false
			s.hit <- sinkHit{frame: first + int64(i/s.channels), at: now}
		}
		if s.capture {
			s.frames = append(s.frames, v)
		}
	}
}

// timeAt is when the sink had consumed frame f (read it), as far as the
// recorded history goes.
func (s *alsaSink) timeAt(f int64) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := sort.Search(len(s.times), func(i int) bool { return s.times[i].frames > f })
	if i == len(s.times) {
		return time.Time{}
	}
	return s.times[i].at
}

// start begins capturing (dropping anything captured before).
func (s *alsaSink) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.capture = true
	s.frames = s.frames[:0]
}

// stop ends capturing and returns the samples, interleaved.
func (s *alsaSink) stop() []float32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.capture = false
	out := s.frames
	s.frames = nil
	return out
}

// captured is a copy of what has been captured so far.
func (s *alsaSink) captured() []float32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]float32(nil), s.frames...)
}

// arm makes the sink report, on s.hit, when the next non-silent sample
// arrives.
func (s *alsaSink) arm() {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.hit:
	default:
	}
	s.armed = true
}

// pause stops the sink for good, as if the card hung.
func (s *alsaSink) pause() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.paused = true
}

// consumed is how many frames the sink has read in all.
func (s *alsaSink) consumed() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// writeALSAConfig writes the configuration and points ALSA (and HOME, so no
// ~/.asoundrc is read) at it.
func writeALSAConfig(dir, config string) error { return alsafile.Use(dir, config) }
