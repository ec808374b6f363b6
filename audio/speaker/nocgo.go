//go:build !cgo

package speaker

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"wolftable/audio/player"
)

// This file is the package without cgo: oto needs cgo for ALSA, so a build
// with CGO_ENABLED=0 (the HIL tests' arm64 cross build, scripts/hil) has no
// sound device. Open says so; the rest of the API is there so that the
// packages using it still build.

// Defaults, as in the cgo build.
const (
	DefaultDeviceBuffer = 20 * time.Millisecond
	DefaultReadAhead    = 40 * time.Millisecond
	DefaultReadyTimeout = 5 * time.Second
	DefaultStallAfter   = 500 * time.Millisecond
)

// ErrNoCgo is returned by Open in a build without cgo.
var ErrNoCgo = errors.New("speaker: built without cgo, so without ALSA: there is no sound device")

// ErrFormat is as in the cgo build; Open without cgo never returns it.
var ErrFormat = errors.New("speaker: the sound device is already open with another format")

type config struct{}

// Option configures Open.
type Option func(*config)

// WithChannels is as in the cgo build.
func WithChannels(int) Option { return func(*config) {} }

// WithDeviceBuffer is as in the cgo build.
func WithDeviceBuffer(time.Duration) Option { return func(*config) {} }

// WithReadAhead is as in the cgo build.
func WithReadAhead(time.Duration) Option { return func(*config) {} }

// WithReadyTimeout is as in the cgo build.
func WithReadyTimeout(time.Duration) Option { return func(*config) {} }

// WithStallAfter is as in the cgo build.
func WithStallAfter(time.Duration) Option { return func(*config) {} }

// WithLogger is as in the cgo build.
func WithLogger(*slog.Logger) Option { return func(*config) {} }

// WithQueueOptions is as in the cgo build.
func WithQueueOptions(...player.Option) Option { return func(*config) {} }

// Speaker is never returned without cgo.
type Speaker struct{}

// Open returns ErrNoCgo.
func Open(player.Clips, ...Option) (*Speaker, error) { return nil, ErrNoCgo }

// Err returns ErrNoCgo.
func (*Speaker) Err() error { return ErrNoCgo }

// Playing is false.
func (*Speaker) Playing() bool { return false }

// Say returns ErrNoCgo.
func (*Speaker) Say([]string) error { return ErrNoCgo }

// Wait returns ErrNoCgo.
func (*Speaker) Wait(context.Context) error { return ErrNoCgo }

// Interrupt does nothing.
func (*Speaker) Interrupt() {}

// SetVolume does nothing.
func (*Speaker) SetVolume(float64) {}

// Volume is 0.
func (*Speaker) Volume() float64 { return 0 }

// ReadAhead is 0.
func (*Speaker) ReadAhead() time.Duration { return 0 }

// Close does nothing.
func (*Speaker) Close() error { return nil }
