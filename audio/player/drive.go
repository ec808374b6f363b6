package player

import (
	"context"
	"time"
)

// driveTick bounds how late Drive notices a stall or the end of a line.
const driveTick = 20 * time.Millisecond

// Drive keeps q moving in real time whenever no sink has read it for
// stallAfter: no sound device, a device that failed or hung. The lines then
// "play" silently, Wait returns when they would have ended, and the game goes
// on while the console shows the text. When a sink reads again Drive steps
// back.
//
// onStall, if not nil, is called from Drive's goroutine each time the sink
// goes quiet (stalled true, with how long it has been quiet) and each time it
// reads again (stalled false); the caller decides what to log.
//
// Drive returns when ctx is done. Run one per Queue.
func Drive(ctx context.Context, q *Queue, stallAfter time.Duration, onStall func(stalled bool, quiet time.Duration)) {
	stallAfter = max(stallAfter, time.Millisecond)
	tick := time.NewTicker(min(stallAfter/4+1, driveTick))
	defer tick.Stop()
	stalled := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		q.mu.Lock()
		now := q.now()
		quiet := now.Sub(q.lastSinkRead)
		if quiet >= stallAfter {
			// Catch up from the last advance, keeping the fraction of a
			// frame for next time.
			frames := q.format.Frames(now.Sub(q.lastAdvance))
			q.advance(frames, q.lastAdvance.Add(q.format.Duration(int64(frames))))
		}
		q.mu.Unlock()

		if s := quiet >= stallAfter; s != stalled {
			stalled = s
			if onStall != nil {
				onStall(stalled, quiet)
			}
		}
	}
}
