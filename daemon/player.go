package daemon

import (
	"time"

	"wolftable/daemon/play"
	"wolftable/engine"
)

// players schedules the moves of a scripted player of the table
// (Config.Player, package play): when the game enters a new step it asks
// the player for the step's moves, and runDue gives each one when it falls
// due, in time order with the engine's timers, through apply — the path of
// the table's keys.
type players struct {
	d     *Daemon
	p     play.Player
	seq   int
	moves []*move
	stop  []Stopper
}

// move is a scheduled play.Move of step step; sent of its inputs are given.
type move struct {
	at   time.Time
	step int
	play.Move
	sent int
}

func (ps *players) clear() {
	for _, s := range ps.stop {
		s.Stop()
	}
	ps.stop, ps.moves = ps.stop[:0], ps.moves[:0]
}

// schedule plans the player's moves when the game has moved to a new step.
// It runs on the daemon's goroutine.
func (ps *players) schedule() {
	seq := ps.d.g.StepSeq()
	if seq == ps.seq || seq == 0 {
		return
	}
	ps.plan(ps.d.g, seq, nil)
}

// plan schedules the moves of step seq, the game g standing as it began;
// sent counts the inputs of the step given already, per source (a resume).
func (ps *players) plan(g *engine.Game, seq int, sent map[string]int) {
	ps.clear()
	ps.seq = seq
	d := ps.d
	for _, m := range ps.p.Moves(g, seq, sent) {
		if len(m.Inputs) == 0 {
			continue
		}
		mv := &move{at: d.stepAt.Add(d.scaled(m.After)), step: seq, Move: m}
		ps.moves = append(ps.moves, mv)
		ps.stop = append(ps.stop, d.after(mv.at))
	}
}

// play gives a due move, while the game is still at its step.
func (ps *players) play(m *move) {
	for i, x := range ps.moves {
		if x == m {
			ps.moves = append(ps.moves[:i], ps.moves[i+1:]...)
			break
		}
	}
	d := ps.d
	for ; m.sent < len(m.Inputs) && d.g.StepSeq() == m.step; m.sent++ {
		d.apply(m.Inputs[m.sent], m.Source)
	}
}
