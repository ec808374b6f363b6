package voice

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"wolftable/audio/alsafile"
	"wolftable/audio/pack"
	"wolftable/audio/speaker"
)

// The tests' sound card, as in audio/speaker's tests: ALSA is configured by a
// file the test writes (the machine's configuration is never read) with a
// default PCM of type file over null, which copies what oto writes (32-bit
// float, interleaved stereo) into a FIFO; the sink reads the FIFO at the rate
// of a real card, so its back-pressure paces oto as a device would.

// childEnv makes TestMain run a scenario (helper_test.go) instead of the
// tests: the oto context is per process, so a missing device needs its own.
const childEnv = "WOLFTABLE_VOICE_CHILD"

// sink is this process's sound card.
var sink *alsaSink

func TestMain(m *testing.M) {
	if h := os.Getenv(childEnv); h != "" {
		os.Exit(runChild(h))
	}
	dir, err := os.MkdirTemp("", "wolftable-voice-alsa-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fifo := filepath.Join(dir, "sink.fifo")
	if err = writeALSAConfig(dir, alsaConfig(fifo)); err == nil {
		sink, err = newALSASink(fifo)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// A loaded machine may not run the sink for a while: the tests are about
	// the device path, not player.Drive standing in for a stalled device.
	testSpeakerOpts = []speaker.Option{speaker.WithStallAfter(10 * time.Second)}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func alsaConfig(fifo string) string { return alsafile.Config(fifo, "the wolftable/audio/voice tests") }

// writeALSAConfig points ALSA (and HOME, so no ~/.asoundrc is read) at a
// configuration of the test's own.
func writeALSAConfig(dir, config string) error { return alsafile.Use(dir, config) }

const (
	pipeBytes  = 4096
	sinkRate   = pack.SampleRate
	frameBytes = 8 // stereo float32
)

type alsaSink struct {
	f *os.File

	mu      sync.Mutex
	capture bool
	samples []int16 // left channel since start, as the 16-bit values oto got
	bad     error   // a sample that is not a 16-bit value, or channels that differ
}

func newALSASink(fifo string) (*alsaSink, error) {
	f, err := alsafile.OpenFIFO(fifo, pipeBytes)
	if err != nil {
		return nil, err
	}
	s := &alsaSink{f: f}
	go s.run()
	return s, nil
}

// run reads the FIFO by the wall clock, in about 1 ms steps; when it falls
// more than 10 ms behind (this process was not scheduled) it takes 10 ms and
// re-bases the clock rather than gulping the backlog, as a card does not
// play faster to catch up.
func (s *alsaSink) run() {
	const bytesPerSec = sinkRate * frameBytes
	buf := make([]byte, 64<<10)
	var pending []byte
	start := time.Now()
	var consumed int64
	for {
		time.Sleep(time.Millisecond)
		need := int64(time.Since(start).Seconds()*bytesPerSec) - consumed
		if need > bytesPerSec/100 {
			// Behind by more than a period: take one and re-base.
			need = bytesPerSec / 100 / frameBytes * frameBytes
			start = time.Now().Add(-time.Duration(float64(consumed+need) / bytesPerSec * float64(time.Second)))
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
			whole := len(pending) / frameBytes * frameBytes
			s.take(pending[:whole])
			pending = append(pending[:0], pending[whole:]...)
		}
	}
}

func (s *alsaSink) take(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.capture {
		return
	}
	for i := 0; i+frameBytes <= len(b); i += frameBytes {
		l := math.Float32frombits(binary.LittleEndian.Uint32(b[i:]))
		r := math.Float32frombits(binary.LittleEndian.Uint32(b[i+4:]))
		v := float64(l) * 32768 // oto scales by 1/32768, exactly
		if s.bad == nil && (l != r || v != math.Trunc(v) || v >= 32768 || v < -32768) {
			s.bad = fmt.Errorf("frame %d: %v/%v is not a 16-bit sample on both channels: the signal was altered", len(s.samples), l, r)
		}
		s.samples = append(s.samples, int16(v))
	}
}

// start drops what was captured and captures from now on.
func (s *alsaSink) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.capture, s.samples, s.bad = true, nil, nil
}

// captured is a copy of what has been captured so far.
func (s *alsaSink) captured() ([]int16, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int16(nil), s.samples...), s.bad
}

// stop ends capturing.
func (s *alsaSink) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.capture, s.samples = false, nil
}
