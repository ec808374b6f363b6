package console

import (
	"sort"
	"time"

	"wolftable/engine"
)

// timerSet mirrors the daemon's running timers from its events, to show
// them counting down: game seconds run speed times faster than the clock;
// a pause freezes every timer with what it has left (as daemon.pause does).
type timerSet struct {
	m      map[engine.TimerID]*runningTimer
	paused bool
}

type runningTimer struct {
	seconds   int
	deadline  time.Time     // on the daemon's clock, while running
	remaining time.Duration // game time, while paused
}

// TimerView is a running timer: Remaining game seconds at the state's Now;
// the page counts down at Rate game seconds per second unless Paused.
type TimerView struct {
	ID        int     `json:"id"`
	Seconds   int     `json:"seconds"`
	Remaining float64 `json:"remaining"`
	Paused    bool    `json:"paused"`
}

func (ts *timerSet) reset() { *ts = timerSet{} }

func (ts *timerSet) start(id engine.TimerID, seconds int, at time.Time, speed float64) {
	if ts.m == nil {
		ts.m = map[engine.TimerID]*runningTimer{}
	}
	d := time.Duration(seconds) * time.Second
	t := &runningTimer{seconds: seconds, remaining: d}
	if !ts.paused {
		t.deadline = at.Add(time.Duration(float64(d) / speed))
	}
	ts.m[id] = t
}

func (ts *timerSet) stop(id engine.TimerID) { delete(ts.m, id) }

func (ts *timerSet) pause(at time.Time, speed float64) {
	if ts.paused {
		return
	}
	ts.paused = true
	for _, t := range ts.m {
		t.remaining = time.Duration(float64(t.deadline.Sub(at)) * speed)
	}
}

func (ts *timerSet) resume(at time.Time, speed float64) {
	if !ts.paused {
		return
	}
	ts.paused = false
	for _, t := range ts.m {
		rem := max(t.remaining, 0)
		t.deadline = at.Add(time.Duration(float64(rem) / speed))
	}
}

func (ts *timerSet) view(now time.Time, speed float64) []TimerView {
	out := make([]TimerView, 0, len(ts.m))
	for id, t := range ts.m {
		rem := t.remaining
		if !ts.paused {
			rem = time.Duration(float64(t.deadline.Sub(now)) * speed)
		}
		out = append(out, TimerView{ID: int(id), Seconds: t.seconds, Remaining: max(rem, 0).Seconds(), Paused: ts.paused})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// main is the timer that ends last: the step's window (a speech's end, not
// its 30-second warning).
func mainTimer(v []TimerView) *TimerView {
	var best *TimerView
	for i := range v {
		if best == nil || v[i].Remaining > best.Remaining {
			best = &v[i]
		}
	}
	return best
}
