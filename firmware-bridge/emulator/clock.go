package emulator

import (
	"context"
	"errors"
	"time"
)

// ErrWallClock is Advance's error on an Emulator that runs on the wall
// clock.
var ErrWallClock = errors.New("emulator: Advance needs Config.ManualClock")

// now returns the emulator clock: the wall clock, or with
// Config.ManualClock the time Start was called plus what Advance has moved
// it on by.
func (e *Emulator) now() time.Time {
	if e.cfg.ManualClock {
		return e.epoch.Add(time.Duration(e.elapsed.Load()))
	}
	return time.Now()
}

// Now returns the emulator clock (see Config.ManualClock).
func (e *Emulator) Now() time.Time { return e.now() }

// Advance moves a manual clock (Config.ManualClock) on by d, rounded down
// to TickInterval: the main loop runs one turn per TickInterval, each at
// its own time, and returns once the last has run. Bytes from the host are
// handed to the firmware between turns, when they come. Not for OnKeySent,
// which runs inside a turn.
func (e *Emulator) Advance(d time.Duration) error {
	if !e.cfg.ManualClock {
		return ErrWallClock
	}
	for range d / TickInterval {
		done := make(chan struct{})
		select {
		case e.steps <- done:
		case <-e.loopDone:
			return ErrClosed
		}
		<-done
	}
	return nil
}

// step is one turn of the main loop on a manual clock.
func (e *Emulator) step(done chan struct{}) {
	e.elapsed.Add(int64(TickInterval))
	e.tick()
	close(done)
}

// sleep waits d on the emulator clock, or until ctx is done: on a manual
// clock it advances it.
func (e *Emulator) sleep(ctx context.Context, d time.Duration) error {
	if e.cfg.ManualClock {
		if err := ctx.Err(); err != nil {
			return err
		}
		return e.Advance(d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
