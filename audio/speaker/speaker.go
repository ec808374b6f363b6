//go:build cgo

package speaker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/ebitengine/oto/v3"

	"wolftable/audio/pack"
	"wolftable/audio/player"
)

// Defaults; see the package documentation.
const (
	DefaultDeviceBuffer = 20 * time.Millisecond
	DefaultReadAhead    = 40 * time.Millisecond
	DefaultReadyTimeout = 5 * time.Second
	DefaultStallAfter   = 500 * time.Millisecond

	// checkEvery is how often the device's health is looked at.
	checkEvery = 250 * time.Millisecond
	// chunk is the most the queue hands out per read.
	chunk = 5 * time.Millisecond
)

type config struct {
	channels     int
	deviceBuffer time.Duration
	readAhead    time.Duration
	readyTimeout time.Duration
	stallAfter   time.Duration
	log          *slog.Logger
	queueOpts    []player.Option
	noFloor      bool // tests: keep a read-ahead shorter than the period asked for
}

// Option configures Open.
type Option func(*config)

// WithChannels sets the output channels, 1 or 2 (default 2, which every
// device and ALSA's plug layer accept).
func WithChannels(n int) Option { return func(c *config) { c.channels = n } }

// WithDeviceBuffer sets ALSA's buffer (two periods). Smaller is quicker to
// start a line; too small underruns on a busy Pi. Default 20 ms.
func WithDeviceBuffer(d time.Duration) Option { return func(c *config) { c.deviceBuffer = d } }

// WithReadAhead sets how much oto's player pulls ahead of the device.
// Default 40 ms (see the package documentation). oto's device loop takes one period (half the device buffer)
// at a time from the player and pads whatever is missing with silence, so the
// read-ahead must exceed a period or every line has holes: Open raises it to
// at least one period plus one queue chunk (5 ms).
func WithReadAhead(d time.Duration) Option { return func(c *config) { c.readAhead = d } }

// WithReadyTimeout bounds how long Open waits for the device to open
// (ALSA's blocking open can hang on a busy device). Past it, Open returns and
// the device is attached if and when it comes up. Default 5 s.
func WithReadyTimeout(d time.Duration) Option { return func(c *config) { c.readyTimeout = d } }

// WithStallAfter sets how long the device may not pull before the queue is
// driven in real time without it. Default 500 ms.
func WithStallAfter(d time.Duration) Option { return func(c *config) { c.stallAfter = d } }

// WithLogger sets the logger; default slog.Default().
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.log = l } }

// WithQueueOptions passes options to the speaker's player.Queue (fade,
// line-start callback). Channels and latency are the speaker's to set.
func WithQueueOptions(opts ...player.Option) Option {
	return func(c *config) { c.queueOpts = append(c.queueOpts, opts...) }
}

// ErrFormat is returned by Open when the process's oto context was created
// with another format or device buffer.
var ErrFormat = errors.New("speaker: the sound device is already open with another format")

// The process's one oto context.
var device struct {
	sync.Mutex
	ctx      *oto.Context
	ready    chan struct{}
	err      error // from oto.NewContext
	channels int
	buffer   time.Duration
	created  bool
}

func openDevice(channels int, buffer time.Duration) (*oto.Context, chan struct{}, error) {
	device.Lock()
	defer device.Unlock()
	if device.created {
		if channels != device.channels || buffer != device.buffer {
			return nil, nil, fmt.Errorf("%w (%d channels, %v buffer; asked %d, %v)", ErrFormat, device.channels, device.buffer, channels, buffer)
		}
		return device.ctx, device.ready, device.err
	}
	device.created, device.channels, device.buffer = true, channels, buffer
	quietALSA()
	device.ctx, device.ready, device.err = oto.NewContext(&oto.NewContextOptions{
		SampleRate:   pack.SampleRate,
		ChannelCount: channels,
		Format:       oto.FormatSignedInt16LE,
		BufferSize:   buffer,
	})
	return device.ctx, device.ready, device.err
}

// Speaker says the judge's lines out loud.
type Speaker struct {
	q      *player.Queue
	log    *slog.Logger
	cfg    config
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu         sync.Mutex
	player     *oto.Player
	err        error // first device error; nil while it plays
	closed     bool
	readAhead  time.Duration // current; raised if the device's period needs it
	overPeriod int           // see fitReadAhead

	hungLogged bool
}

// Open starts playing clips' lines on the default sound device. It returns an
// error only for a format clash with an earlier Open (ErrFormat); a missing or
// failing device is logged, reported by Err, and the Speaker carries on
// silently in real time.
func Open(clips player.Clips, opts ...Option) (*Speaker, error) {
	cfg := config{
		channels:     DefaultChannels,
		deviceBuffer: DefaultDeviceBuffer,
		readAhead:    DefaultReadAhead,
		readyTimeout: DefaultReadyTimeout,
		stallAfter:   DefaultStallAfter,
		log:          slog.Default(),
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.deviceBuffer <= 0 {
		cfg.deviceBuffer = DefaultDeviceBuffer
	}
	if !cfg.noFloor {
		cfg.readAhead = max(cfg.readAhead, cfg.deviceBuffer/2+chunk)
	}
	if cfg.channels != 1 && cfg.channels != 2 {
		return nil, fmt.Errorf("speaker: %d channels (want 1 or 2)", cfg.channels)
	}
	octx, ready, err := openDevice(cfg.channels, cfg.deviceBuffer)
	if errors.Is(err, ErrFormat) {
		return nil, err
	}

	qopts := slices.Concat(cfg.queueOpts, []player.Option{
		player.WithChannels(cfg.channels),
		player.WithChunk(chunk),
		player.WithLatency(cfg.readAhead + chunk + cfg.deviceBuffer),
	})
	ctx, cancel := context.WithCancel(context.Background())
	s := &Speaker{q: player.NewQueue(clips, qopts...), log: cfg.log, cfg: cfg, cancel: cancel, readAhead: cfg.readAhead}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		player.Drive(ctx, s.q, cfg.stallAfter, s.stalled)
	}()
	if err != nil {
		s.fail(err)
		return s, nil
	}

	select {
	case <-ready:
		s.attach(octx)
	case <-time.After(cfg.readyTimeout):
		s.log.Warn("speaker: sound device not ready yet; lines go on silently until it is",
			"waited", cfg.readyTimeout)
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.watch(ctx, octx, ready)
	}()
	return s, nil
}

// attach starts the oto player once the device is ready, unless it failed.
func (s *Speaker) attach(octx *oto.Context) {
	if err := octx.Err(); err != nil {
		s.fail(err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.player != nil {
		return
	}
	f := s.q.Format()
	p := octx.NewPlayer(s.q)
	p.SetBufferSize(f.Frames(s.readAhead) * f.FrameBytes())
	p.Play()
	s.player = p
	s.log.Info("speaker: playing on the sound device",
		"rate", f.SampleRate, "channels", f.Channels,
		"device_buffer", s.cfg.deviceBuffer, "read_ahead", s.readAhead)
}

// watch attaches a device that came up late, reports one that fails, and
// keeps the read-ahead above the device's real period.
func (s *Speaker) watch(ctx context.Context, octx *oto.Context, ready chan struct{}) {
	select {
	case <-ready:
		s.attach(octx)
	case <-ctx.Done():
		return
	}
	t := time.NewTicker(checkEvery)
	defer t.Stop()
	var (
		period periodMeter
		prev   = time.Now()
	)
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			s.fitReadAhead(period.measure(s.q.Pulls(), now.Sub(prev)))
			prev = now
		}
		err := octx.Err()
		if err == nil {
			s.mu.Lock()
			if s.player != nil {
				err = s.player.Err()
			}
			s.mu.Unlock()
		}
		if err != nil {
			s.fail(err)
			return
		}
	}
}

// periodMeter tells the device loop's period from how often it refills:
// once per period, whatever ALSA granted (a dmix or PipeWire device may
// impose 21 ms periods where 10 ms were asked for).
type periodMeter struct {
	pulls   int64
	started bool
}

// measure returns the period over the last interval d, or 0 if it cannot
// tell (too few refills: no device, or Drive in charge).
func (m *periodMeter) measure(pulls int64, d time.Duration) time.Duration {
	n := pulls - m.pulls
	m.pulls = pulls
	if !m.started {
		m.started = true
		return 0
	}
	if n < 5 {
		return 0
	}
	return d / time.Duration(n)
}

// fitReadAhead raises the read-ahead when the device's period is too long for
// it (oto pads a short period with silence: holes in the voice). Two measures
// in a row must agree, so one late wake-up does not cost latency for good.
func (s *Speaker) fitReadAhead(period time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if period <= 0 || s.player == nil || period+chunk <= s.readAhead {
		s.overPeriod = 0
		return
	}
	s.overPeriod++
	if s.overPeriod < 2 {
		return
	}
	s.overPeriod = 0
	old := s.readAhead
	s.readAhead = (period + max(period/2, 10*time.Millisecond) + chunk).Round(time.Millisecond)
	f := s.q.Format()
	s.player.SetBufferSize(f.Frames(s.readAhead) * f.FrameBytes())
	s.q.SetLatency(s.readAhead + chunk + max(s.cfg.deviceBuffer, 2*period))
	s.log.Info("speaker: the sound device's period is longer than asked; read-ahead raised",
		"period", period.Round(100*time.Microsecond), "read_ahead", s.readAhead, "was", old)
}

// fail records and logs the first device error.
func (s *Speaker) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	s.err = err
	if s.player != nil {
		s.player.Pause()
	}
	s.log.Error("speaker: sound device failed; lines go on silently and the console shows them", "err", err)
}

// stalled logs the device going quiet while attached and healthy: a hung
// device. No device at all, or one that failed or is still opening, has been
// logged already; those stalls and every recovery go to debug.
func (s *Speaker) stalled(stalled bool, quiet time.Duration) {
	s.mu.Lock()
	hung := stalled && s.player != nil && s.err == nil && !s.hungLogged
	if hung {
		s.hungLogged = true
	}
	s.mu.Unlock()
	switch {
	case hung:
		s.log.Warn("speaker: the sound device stopped playing; lines go on silently", "quiet", quiet.Round(time.Millisecond))
	case stalled:
		s.log.Debug("speaker: nothing is playing the voice; lines go on silently", "quiet", quiet.Round(time.Millisecond))
	default:
		s.log.Debug("speaker: the sound device is playing again")
	}
}

// Err reports the device's failure, or nil while it plays (or is still
// opening).
func (s *Speaker) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Playing reports whether the device is attached and has not failed.
func (s *Speaker) Playing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.player != nil && s.err == nil
}

// Say queues a sentence of clip ids and returns at once; see player.Queue.Say.
func (s *Speaker) Say(seq []string) error { return s.q.Say(seq) }

// Wait blocks until everything said has been played or ctx is done.
func (s *Speaker) Wait(ctx context.Context) error { return s.q.Wait(ctx) }

// Interrupt cuts the current line with a short fade and drops the queue.
func (s *Speaker) Interrupt() { s.q.Interrupt() }

// SetVolume sets the voice's volume, 0 to 1.
func (s *Speaker) SetVolume(v float64) { s.q.SetVolume(v) }

// Volume is the volume last set.
func (s *Speaker) Volume() float64 { return s.q.Volume() }

// ReadAhead is the read-ahead in use: as configured, or raised to fit the
// device's period.
func (s *Speaker) ReadAhead() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readAhead
}

// Close stops the speaker: the queue is dropped and closed, Wait returns, and
// the device's player is paused. The process's oto context stays, for a later
// Open.
func (s *Speaker) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	p := s.player
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	s.q.Close()
	if p != nil {
		p.Pause()
	}
	return nil
}
