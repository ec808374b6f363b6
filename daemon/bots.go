package daemon

import (
	"time"

	"wolftable/bots"
	"wolftable/engine"
)

// botPlayers make every seat a random player and press the judge's pedal
// (sim --bots). Their inputs take the same path as the table's.
//
// They play the same game for the same seed, uninterrupted or resumed
// after a kill: the choices of a step depend only on the seed, the step's
// number and the game as the step began; they are due a fixed time after
// the step began (Think, then Pedal for the judge), on the daemon's
// timeline, and handled in time order with the engine's timers (runDue).
type botPlayers struct {
	d     *Daemon
	drv   *bots.Driver
	cfg   BotConfig
	seq   int
	moves []*botMove
	stop  []Stopper
}

// The sources the bots' inputs are journaled with.
const (
	SourceBot      = "bot"       // a random player's choice
	SourceBotJudge = "bot-judge" // the random judge's pedal
)

// botMove is the players' choices of a step, or the judge's pedal.
type botMove struct {
	at    time.Time
	step  int
	ins   []engine.Input // the players' choices; none: the judge's pedal
	sent  int            // how many of ins were given
	pedal bool
}

func (m *botMove) rank() int {
	if m.pedal {
		return 2
	}
	return 1
}

func newBots(d *Daemon, cfg BotConfig) *botPlayers {
	if cfg.Think <= 0 {
		cfg.Think = 1500 * time.Millisecond
	}
	if cfg.Pedal <= 0 {
		cfg.Pedal = 4 * time.Second
	}
	return &botPlayers{d: d, drv: bots.New(d.g, cfg.Seed), cfg: cfg}
}

func (b *botPlayers) clear() {
	for _, s := range b.stop {
		s.Stop()
	}
	b.stop, b.moves = b.stop[:0], b.moves[:0]
}

// schedule plans the players' choices and the judge's pedal when the game
// has moved to a new step. It runs on the daemon's goroutine.
func (b *botPlayers) schedule() {
	seq := b.d.g.StepSeq()
	if seq == b.seq || seq == 0 {
		return
	}
	b.plan(b.d.g, seq, 0, false)
}

// plan schedules the moves of step seq, the game g standing as it began;
// sent choices and the pedal (pedalSent) were given already (a resume).
func (b *botPlayers) plan(g *engine.Game, seq, sent int, pedalSent bool) {
	b.clear()
	b.seq = seq
	b.drv.G = g
	b.drv.Reseed(b.cfg.Seed, uint64(seq))
	choices := append([]engine.Input(nil), b.drv.Choices(g.Awaiting())...)
	pedal := g.Awaiting().Pedal
	b.drv.G = b.d.g
	d := b.d
	if sent < len(choices) {
		b.add(&botMove{at: d.stepAt.Add(d.scaled(b.cfg.Think)), step: seq, ins: choices, sent: sent})
	}
	if pedal && !pedalSent {
		b.add(&botMove{at: d.stepAt.Add(d.scaled(b.cfg.Think + b.cfg.Pedal)), step: seq, pedal: true})
	}
}

func (b *botPlayers) add(m *botMove) {
	b.moves = append(b.moves, m)
	b.stop = append(b.stop, b.d.after(m.at))
}

// play gives a due move, while the game is still at its step.
func (b *botPlayers) play(m *botMove) {
	for i, x := range b.moves {
		if x == m {
			b.moves = append(b.moves[:i], b.moves[i+1:]...)
			break
		}
	}
	d := b.d
	if m.pedal {
		if d.g.StepSeq() == m.step {
			d.apply(engine.Pedal(engine.PedalShort), SourceBotJudge)
		}
		return
	}
	for ; m.sent < len(m.ins) && d.g.StepSeq() == m.step; m.sent++ {
		d.apply(m.ins[m.sent], SourceBot)
	}
}
