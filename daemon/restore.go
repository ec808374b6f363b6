package daemon

import (
	"time"

	"wolftable/engine"
	"wolftable/hw"
)

// Recorded is a journaled input with the wall time it was applied.
type Recorded struct {
	In     engine.Input
	At     time.Time
	Source string
}

// Restored is where a replayed game stands: what the lights showed, which
// timers were running with how much game time left, whether the judge had
// paused.
type Restored struct {
	Lights  []hw.SeatLight
	Timers  []RestoredTimer
	Paused  bool
	LastAt  time.Time // the time of the last journaled input
	Inputs  int
	Refused int // inputs the engine refused when they were first applied, and again now
}

// RestoredTimer is a running timer of the replayed game.
type RestoredTimer struct {
	ID        engine.TimerID
	Remaining time.Duration // game time
	Seconds   int
}

type replayTimer struct {
	started   time.Time
	seconds   int
	remaining time.Duration
	paused    bool
}

// Replay rebuilds a game from its journal: g is the freshly dealt game,
// start the journal's start time, speed the daemon's timer speed. The
// engine is deterministic, so an input it refused live is refused again;
// those are counted, not errors.
func Replay(g *engine.Game, start time.Time, speed float64, recs []Recorded) (*Restored, error) {
	if speed <= 0 {
		speed = 1
	}
	r := &Restored{Lights: make([]hw.SeatLight, g.Players()), LastAt: start}
	timers := map[engine.TimerID]*replayTimer{}
	var order []engine.TimerID
	now := start
	take := func(effs []engine.Effect) {
		for _, e := range effs {
			switch e.Kind {
			case engine.EffLight:
				if e.Seat >= 1 && e.Seat <= len(r.Lights) {
					r.Lights[e.Seat-1] = hw.SeatLight{Color: color(e.Light), Pulse: e.Pulse}
				}
			case engine.EffTimerStart:
				timers[e.Timer] = &replayTimer{started: now, seconds: e.Seconds, remaining: time.Duration(e.Seconds) * time.Second, paused: r.Paused}
				order = append(order, e.Timer)
			case engine.EffTimerCancel:
				delete(timers, e.Timer)
			case engine.EffPause:
				r.Paused = true
				for _, t := range timers {
					if !t.paused {
						t.remaining -= time.Duration(float64(now.Sub(t.started)) * speed)
						t.paused = true
					}
				}
			case engine.EffResume:
				r.Paused = false
				for _, t := range timers {
					if t.paused {
						t.paused = false
						t.started = now.Add(-time.Duration(float64(time.Duration(t.seconds)*time.Second-t.remaining) / speed))
						t.remaining = time.Duration(t.seconds) * time.Second
					}
				}
			}
		}
	}
	effs, err := g.Start()
	if err != nil {
		return nil, err
	}
	take(effs)
	for _, rec := range recs {
		now = rec.At
		r.LastAt = rec.At
		r.Inputs++
		if rec.In.Kind == engine.InTimer {
			delete(timers, rec.In.Timer)
		}
		effs, err := g.Apply(rec.In)
		if err != nil {
			r.Refused++
			continue
		}
		take(effs)
	}
	for _, id := range order {
		t, ok := timers[id]
		if !ok {
			continue
		}
		rem := t.remaining
		if !t.paused {
			rem = time.Duration(t.seconds)*time.Second - time.Duration(float64(r.LastAt.Sub(t.started))*speed)
		}
		if rem < 0 {
			rem = 0
		}
		r.Timers = append(r.Timers, RestoredTimer{ID: id, Remaining: rem, Seconds: t.seconds})
	}
	return r, nil
}

// restore picks up a replayed game: lights back on, timers re-armed with
// their remaining time, and the current line said again (the interrupted
// step restarts with its line).
func (d *Daemon) restore(r *Restored) {
	copy(d.lights, r.Lights)
	d.dirty = true
	d.paused = r.Paused
	for _, t := range r.Timers {
		d.arm(t.ID, t.Remaining, t.Seconds)
	}
	if !r.Paused {
		if err := d.apply(engine.Judge(engine.JudgeRepeat, 0, 0), "resume"); err != nil {
			d.log.Debug("nothing to repeat on resume", "err", err)
		}
	}
}
