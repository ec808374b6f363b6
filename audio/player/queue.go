package player

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"

	"wolftable/audio/pack"
)

// ErrClosed is returned by Say after Close.
var ErrClosed = errors.New("player: queue closed")

// MissingClipsError is returned by Say when a sentence names clips the pack
// does not have. Nothing of that sentence is queued: a line with a hole in it
// ("昨夜 … 玩家死亡") would tell the table something false.
type MissingClipsError struct {
	IDs []string
}

func (e *MissingClipsError) Error() string {
	return fmt.Sprintf("player: no clip for %s", strings.Join(e.IDs, ", "))
}

// Clips is where a Queue finds clips; *pack.Pack implements it.
type Clips interface {
	Clip(id string) (pack.Clip, bool)
}

var _ Clips = (*pack.Pack)(nil)

// Format is the stream a Queue produces: signed 16-bit little-endian samples.
type Format struct {
	SampleRate int // always pack.SampleRate
	Channels   int // 1 or 2
}

// FrameBytes is the size of one frame (one sample per channel).
func (f Format) FrameBytes() int { return 2 * f.Channels }

// Frames converts a duration to whole frames.
func (f Format) Frames(d time.Duration) int {
	return int(int64(d) * int64(f.SampleRate) / int64(time.Second))
}

// Duration converts frames to time.
func (f Format) Duration(frames int64) time.Duration {
	return time.Duration(frames * int64(time.Second) / int64(f.SampleRate))
}

// Option configures a Queue.
type Option func(*Queue)

// WithChannels sets the number of output channels, 1 or 2 (the default, which
// every ALSA device accepts).
func WithChannels(n int) Option {
	return func(q *Queue) {
		if n == 1 || n == 2 {
			q.format.Channels = n
		}
	}
}

// WithLatency tells the Queue how long the sink takes to play what it has
// read (its read-ahead plus the device buffer). Wait adds it after the last
// sample is handed out. Default 0.
func WithLatency(d time.Duration) Option {
	return func(q *Queue) {
		if d >= 0 {
			q.latency = int64(q.format.Frames(d))
		}
	}
}

// WithFade sets how long Interrupt fades out; default 10 ms.
func WithFade(d time.Duration) Option {
	return func(q *Queue) {
		if d >= 0 {
			q.fadeLen = q.format.Frames(d)
		}
	}
}

// WithChunk sets the most one Read hands out; default 5 ms. Smaller chunks
// keep the sink's read-ahead tight at the cost of more reads.
func WithChunk(d time.Duration) Option {
	return func(q *Queue) {
		if n := q.format.Frames(d); n > 0 {
			q.chunk = n
		}
	}
}

// WithLineStart registers f to be called with the time the first sample of
// each sentence is handed out. f runs with the Queue locked: it must be quick
// and must not call the Queue.
func WithLineStart(f func(clips []string, at time.Time)) Option {
	return func(q *Queue) { q.onStart = f }
}

// clip is one queued clip. first marks the start of a sentence and holds its
// clip ids for the line-start callback.
type clip struct {
	samples []int16
	first   []string
}

// Queue is the judge's voice as a stream; see the package documentation. It
// is safe for concurrent use: one sink reads while the game says, waits and
// interrupts.
type Queue struct {
	clips   Clips
	format  Format
	latency int64
	fadeLen int
	chunk   int
	onStart func([]string, time.Time)
	now     func() time.Time

	mu       sync.Mutex
	queue    []clip // queue[0] is playing
	off      int    // next sample of queue[0]
	fading   bool   // queue[0] is fading out after Interrupt
	fadeLeft int
	pos      int64     // frames handed out so far
	busyTill int64     // pos at which the last said sample will have played
	gain     float32   // current volume
	target   float32   // volume SetVolume asked for
	step     float32   // gain change per frame while ramping
	idle     chan bool // closed while nothing is queued or playing
	closed   bool

	lastSinkRead time.Time // last Read by a sink
	bursts       int64     // runs of Reads with no pause between (see Pulls)
	lastAdvance  time.Time // last Read, Drive advance, or Say on an idle queue
}

// NewQueue returns an idle Queue that plays clips from c.
func NewQueue(c Clips, opts ...Option) *Queue {
	q := &Queue{
		clips:  c,
		format: Format{SampleRate: pack.SampleRate, Channels: 2},
		gain:   1,
		target: 1,
		idle:   make(chan bool),
		now:    time.Now,
	}
	close(q.idle)
	q.fadeLen = q.format.Frames(10 * time.Millisecond)
	q.chunk = q.format.Frames(5 * time.Millisecond)
	for _, o := range opts {
		o(q)
	}
	t := q.now()
	q.lastSinkRead, q.lastAdvance = t, t
	return q
}

// Format is the stream's format.
func (q *Queue) Format() Format { return q.format }

// Say queues a sentence, a sequence of clip ids played back to back, and
// returns at once. If any clip is missing nothing is queued and the error is a
// *MissingClipsError. After Close it returns ErrClosed.
func (q *Queue) Say(seq []string) error {
	add := make([]clip, 0, len(seq))
	var missing []string
	for _, id := range seq {
		c, ok := q.clips.Clip(id)
		if !ok {
			missing = append(missing, id)
			continue
		}
		if c.Len() > 0 {
			add = append(add, clip{samples: c.Samples})
		}
	}
	if len(missing) > 0 {
		return &MissingClipsError{IDs: missing}
	}
	if len(add) == 0 {
		return nil
	}
	add[0].first = append([]string(nil), seq...)

	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return ErrClosed
	}
	if len(q.queue) == 0 && q.pos >= q.busyTill {
		q.idle = make(chan bool)
		// Nothing was playing: if Drive stands in for a sink, the line
		// starts now, not at its last step.
		q.lastAdvance = q.now()
	}
	q.queue = append(q.queue, add...)
	return nil
}

// Interrupt fades out the clip that is playing and drops every queued one.
// Sentences said after Interrupt play after the fade.
func (q *Queue) Interrupt() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.queue) == 0 {
		return
	}
	clear(q.queue[1:])
	q.queue = q.queue[:1]
	if q.off == 0 {
		// Not started yet: drop it whole.
		q.queue[0] = clip{}
		q.queue = q.queue[:0]
		q.settle()
		return
	}
	if !q.fading {
		q.fading = true
		q.fadeLeft = q.fadeLen
	}
	if q.fadeLeft == 0 {
		q.drop()
	}
}

// SetVolume sets the gain, 0 (silent) to 1 (as recorded), reached over 10 ms.
func (q *Queue) SetVolume(v float64) {
	if math.IsNaN(v) {
		return
	}
	v = min(max(v, 0), 1)
	q.mu.Lock()
	defer q.mu.Unlock()
	q.target = float32(v)
	q.step = float32(1) / float32(q.format.Frames(10*time.Millisecond))
}

// Volume is the gain SetVolume last asked for.
func (q *Queue) Volume() float64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return float64(q.target)
}

// Busy reports whether something said has not finished playing.
func (q *Queue) Busy() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.queue) > 0 || q.pos < q.busyTill
}

// Wait blocks until everything said has played (see WithLatency), the Queue
// is closed, or ctx is done, and returns ctx's error in the last case.
func (q *Queue) Wait(ctx context.Context) error {
	q.mu.Lock()
	idle := q.idle
	q.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close drops everything queued, wakes every Wait and makes Say fail. Read
// keeps yielding silence, so a sink may go on pulling.
func (q *Queue) Close() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.queue = nil
	q.fading = false
	q.busyTill = q.pos
	q.settle()
	return nil
}

// Read fills p with whole frames of the stream, at most one chunk, and never
// fails: when nothing is queued the frames are silent. It returns 0, nil only
// if p cannot hold a frame.
func (q *Queue) Read(p []byte) (int, error) {
	fb := q.format.FrameBytes()
	frames := min(len(p)/fb, q.chunk)
	if frames == 0 {
		return 0, nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	t := q.now()
	if t.Sub(q.lastSinkRead) >= burstGap {
		q.bursts++
	}
	q.lastSinkRead, q.lastAdvance = t, t
	q.render(p[:frames*fb], frames, t)
	return frames * fb, nil
}

// burstGap separates one pull of the sink from the next: reads closer than
// this belong to one refill.
const burstGap = 500 * time.Microsecond

// Pulls counts the sink's refills so far: runs of Reads with less than half a
// millisecond between them. A device loop refills once per period, so the
// count over a stretch of time gives its period, whatever ALSA granted.
func (q *Queue) Pulls() int64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.bursts
}

// SetLatency changes the latency Wait allows for (see WithLatency).
func (q *Queue) SetLatency(d time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if d >= 0 {
		q.latency = int64(q.format.Frames(d))
	}
}

// render produces frames into out (nil: discard them) and advances.
func (q *Queue) render(out []byte, frames int, t time.Time) {
	ch := q.format.Channels
	for i := 0; i < frames; i++ {
		var s int16
		if len(q.queue) > 0 {
			c := &q.queue[0]
			if q.off == 0 && c.first != nil && q.onStart != nil {
				q.onStart(c.first, t.Add(q.format.Duration(int64(i))))
			}
			s = c.samples[q.off]
			q.off++
			if q.fading {
				s = scale(s, float32(q.fadeLeft)/float32(q.fadeLen+1))
				q.fadeLeft--
			}
			q.busyTill = q.pos + 1 + q.latency
			if q.off == len(c.samples) || (q.fading && q.fadeLeft <= 0) {
				q.drop()
			}
		}
		if q.gain != q.target {
			q.ramp()
		}
		if q.gain != 1 {
			s = scale(s, q.gain)
		}
		if out != nil {
			lo, hi := byte(s), byte(uint16(s)>>8)
			for c := 0; c < ch; c++ {
				out[(i*ch+c)*2] = lo
				out[(i*ch+c)*2+1] = hi
			}
		}
		q.pos++
	}
	q.settle()
}

// drop ends the clip at the head of the queue.
func (q *Queue) drop() {
	q.queue[0] = clip{}
	q.queue = q.queue[1:]
	q.off = 0
	if q.fading {
		q.fading = false
		q.fadeLeft = 0
	}
}

// settle wakes Wait once nothing is left to play.
func (q *Queue) settle() {
	if len(q.queue) > 0 || q.pos < q.busyTill {
		return
	}
	select {
	case <-q.idle:
	default:
		close(q.idle)
	}
}

func (q *Queue) ramp() {
	if q.gain < q.target {
		q.gain = min(q.gain+q.step, q.target)
	} else {
		q.gain = max(q.gain-q.step, q.target)
	}
}

func scale(s int16, g float32) int16 {
	return int16(math.Round(float64(float32(s) * g)))
}

// advance moves the stream on by frames without producing sound: what a sink
// would have played.
func (q *Queue) advance(frames int, t time.Time) {
	for frames > 0 {
		n := min(frames, 1<<16)
		q.render(nil, n, t)
		frames -= n
	}
	q.lastAdvance = t
}

var _ io.Reader = (*Queue)(nil)
