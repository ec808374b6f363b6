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

	// For the judge's clock (Config.Wall) and a scripted player
	// (Config.Player): when the game started and its current step began,
	// the game as that step began, and the inputs of that step already
	// journaled, counted per source. Zero: LastAt, the game as it stands,
	// none.
	Start    time.Time
	StepAt   time.Time
	StepGame *engine.Game
	Sent     map[string]int
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

// TimedEffect is an effect of a replayed game with the wall time of the
// input that caused it.
type TimedEffect struct {
	Effect engine.Effect
	At     time.Time
	In     *engine.Input // set: not an effect but the accepted input that caused the effects after it
}

// Replay rebuilds a game from recorded inputs: g is the freshly dealt game,
// start the time it started, speed the daemon's timer speed. The engine is
// deterministic, so an input it refused live is refused again; those are
// counted, not errors.
func Replay(g *engine.Game, start time.Time, speed float64, recs []Recorded) (*Restored, error) {
	var timed []TimedEffect
	effs, err := g.Start()
	if err != nil {
		return nil, err
	}
	for _, e := range effs {
		timed = append(timed, TimedEffect{Effect: e, At: start})
	}
	refused := 0
	for _, rec := range recs {
		effs, err := g.Apply(rec.In)
		if err != nil {
			refused++
			continue
		}
		in := rec.In
		timed = append(timed, TimedEffect{At: rec.At, In: &in})
		for _, e := range effs {
			timed = append(timed, TimedEffect{Effect: e, At: rec.At})
		}
	}
	last := start
	if len(recs) > 0 {
		last = recs[len(recs)-1].At
	}
	r := FromEffects(g.Players(), timed, last, speed)
	r.Inputs, r.Refused, r.Start = len(recs), refused, start
	return r, nil
}

// FromEffects works out where a replayed game stands from its effects:
// the lights, the running timers with their remaining game time as of
// lastAt (the last journaled input), and whether the judge had paused.
func FromEffects(players int, effs []TimedEffect, lastAt time.Time, speed float64) *Restored {
	if speed <= 0 {
		speed = 1
	}
	r := &Restored{Lights: make([]hw.SeatLight, players), LastAt: lastAt}
	timers := map[engine.TimerID]*replayTimer{}
	var order []engine.TimerID
	for _, te := range effs {
		now, e := te.At, te.Effect
		if te.In != nil {
			if te.In.Kind == engine.InTimer {
				delete(timers, te.In.Timer) // it fired
			}
			continue
		}
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
	return r
}

// restore picks up a replayed game: lights back on, timers re-armed with
// their remaining time, and the current line said again (the interrupted
// step restarts with its line).
//
// With a scripted player the game continues on its own timeline from the
// last journaled input (the time the process was down does not count), so
// timers and moves fall due in the order they would have without the kill.
func (d *Daemon) restore(r *Restored) {
	if d.players != nil {
		d.offset = d.clock.Now().Sub(r.LastAt)
		d.at = r.LastAt
	}
	d.started, d.stepSeq, d.stepAt = r.Start, d.g.StepSeq(), r.StepAt
	if d.started.IsZero() {
		d.started = r.LastAt
	}
	if d.stepAt.IsZero() {
		d.stepAt = r.LastAt
	}
	copy(d.lights, r.Lights)
	d.dirty = true
	d.paused = r.Paused
	for _, t := range r.Timers {
		d.arm(t.ID, t.Remaining, t.Seconds)
	}
	if d.players != nil {
		g := r.StepGame
		if g == nil || g.StepSeq() != d.stepSeq {
			g = d.g
		}
		d.players.plan(g, d.stepSeq, r.Sent)
	}
	if !r.Paused {
		if err := d.apply(engine.Judge(engine.JudgeRepeat, 0, 0), "resume"); err != nil {
			d.log.Debug("nothing to repeat on resume", "err", err)
		}
	}
	d.at = time.Time{}
}
