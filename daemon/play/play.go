// Package play is the contract between the table's runtime (package daemon)
// and a scripted player of the table that lives outside it: the random
// players and judge of `sim --bots` (package bots), or any other program
// that plays a table on the game's own timeline.
//
// A Player never calls the runtime. When the game enters a new step the
// runtime asks it for its moves — inputs, each due a fixed game time after
// the step began — and gives each one through the same path as the table's
// keys (the journal, then the engine) when it falls due, in time order with
// the engine's timers, as long as the game is still at that step. With a
// Player the runtime keeps the game's own timeline: a move or timer is
// handled at the instant it was due, whatever the machine's load, and a
// resumed game continues the journal's timeline, so the same player plays
// the same game uninterrupted or resumed after a kill.
package play

import (
	"time"

	"wolftable/engine"
)

// Move is inputs a Player gives together.
type Move struct {
	// After is how long after the step began the move is due, in game
	// time (the runtime scales it by its speed).
	After  time.Duration
	Inputs []engine.Input
	// Source is what the journal records the inputs as coming from.
	Source string
	// Rank orders moves due at the same instant: the engine's timers (0)
	// first, then lower ranks.
	Rank int
}

// Player plans its moves step by step.
type Player interface {
	// Moves returns the moves for step seq of game g, g standing as the
	// step began. sent counts, per source, the inputs of this step already
	// given (journaled before a power cut): the moves must not repeat
	// them. Moves must depend only on g, seq and sent, so a resumed game
	// plays on exactly as it would have.
	Moves(g *engine.Game, seq int, sent map[string]int) []Move
}
