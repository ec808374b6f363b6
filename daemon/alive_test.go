package daemon

import (
	"context"
	"testing"
	"time"

	"wolftable/daemon/daemontest"
	"wolftable/engine"
)

// muteClock is a fake clock whose timers never wake the daemon: only what
// the daemon does by itself at its clock's time can apply them.
type muteClock struct{ *daemontest.FakeClock }

func (c muteClock) AfterFunc(d time.Duration, f func()) Stopper {
	return c.FakeClock.AfterFunc(d, func() {})
}

// TestAliveRunsWhatIsDue: Alive handles every timer due at the clock's now
// before it answers, so on a fake clock it is a barrier that tests can wait
// on whatever the machine's speed (the console's rig does). With Alive
// answering at once, the expiry below is never applied and the test fails.
func TestAliveRunsWhatIsDue(t *testing.T) {
	clock := daemontest.NewFakeClock(time.Date(2026, 11, 29, 20, 15, 0, 0, time.UTC))
	g := newGame(t, "seer-witch-hunter-idiot", 1)
	expired := make(chan engine.TimerID, 64)
	d, err := New(Config{Game: g, Table: newTable(12), Clock: muteClock{clock}, Journal: &memJournal{},
		OnEvent: func(e Event) {
			if e.Input != nil && e.Input.Kind == engine.InTimer {
				expired <- e.Input.Timer
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go d.Run(ctx)
	if err := d.Alive(ctx); err != nil {
		t.Fatal(err)
	}
	next, ok := clock.Next()
	if !ok {
		t.Fatal("the game armed no timer")
	}
	clock.Advance(next.Sub(clock.Now()))
	if err := d.Alive(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-expired:
	default:
		t.Fatal("Alive answered with a timer due and not applied")
	}
}
