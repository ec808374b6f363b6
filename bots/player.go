package bots

import (
	"time"

	"wolftable/daemon/play"
	"wolftable/engine"
)

// The sources the bots' inputs are journaled with.
const (
	SourceBot      = "bot"       // a random player's choice
	SourceBotJudge = "bot-judge" // the random judge's pedal
)

// TablePlayer is every seat a random player, and the judge pressing the
// pedal (sim --bots), as a player of the table (play.Player): it plays the
// same game for the same seed, uninterrupted or resumed after a kill,
// because the choices of a step depend only on the seed, the step's number
// and the game as the step began.
type TablePlayer struct {
	Seed  uint64
	Think time.Duration // how long the players take to choose (game time; 0 = 1.5 s)
	Pedal time.Duration // how long after that the judge presses the pedal (0 = 4 s)
	drv   *Driver
}

// Moves plans step seq: the players' choices after Think, the judge's pedal
// Pedal later where the step takes one.
func (p *TablePlayer) Moves(g *engine.Game, seq int, sent map[string]int) []play.Move {
	think, pedal := p.Think, p.Pedal
	if think <= 0 {
		think = 1500 * time.Millisecond
	}
	if pedal <= 0 {
		pedal = 4 * time.Second
	}
	if p.drv == nil {
		p.drv = New(g, p.Seed)
	}
	p.drv.G = g
	p.drv.Reseed(p.Seed, uint64(seq))
	choices := p.drv.Choices(g.Awaiting())
	var out []play.Move
	if n := sent[SourceBot]; n < len(choices) {
		out = append(out, play.Move{After: think, Inputs: append([]engine.Input(nil), choices[n:]...), Source: SourceBot, Rank: 1})
	}
	if g.Awaiting().Pedal && sent[SourceBotJudge] == 0 {
		out = append(out, play.Move{After: think + pedal, Inputs: []engine.Input{engine.Pedal(engine.PedalShort)}, Source: SourceBotJudge, Rank: 2})
	}
	return out
}
