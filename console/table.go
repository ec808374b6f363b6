package console

import (
	"context"

	"wolftable/daemon"
	"wolftable/engine"
	"wolftable/journal"
)

// Table is what the console needs of the table runtime. The serve and sim
// commands implement it around a daemon; the console's tests implement it
// with a real daemon on a fake clock (rig_test.go).
type Table interface {
	// StartGame ends the running game, if any, and runs ng.Game on the
	// table: a daemon.New(daemon.Config{Game: ng.Game, OnEvent: ...}) whose
	// OnEvent calls ng.OnEvent (chained with the transcript or anything
	// else), journaled with ng.Spec. It returns once the new daemon runs.
	StartGame(ctx context.Context, ng NewGame) error
	// Submit is daemon.Submit on the running game: the input is journaled
	// with its source, then applied or refused (an *engine.Error).
	Submit(ctx context.Context, in engine.Input, source string) error
}

// GameSpec is a game as the judge set it up: what the journal needs to deal
// the same game again.
type GameSpec struct {
	Board  *engine.Board // with the judge's options applied
	Deal   []engine.Role // Deal[i] is the role of seat i+1
	Bottom []engine.Role // the bottom cards: the cards beyond the seats (Board.Bottom)
	Seed   uint64        // the engine's seed (and the random deal's)
	Manual bool          // the judge entered the deal by hand
	// Draw is the seat draw (Draw[i] sits at seat i+1), written into the
	// journal's header so it is signed with the game; none: no draw.
	Draw       []journal.Drawn
	DrawManual bool // the draw was taken as the players drew paper numbers
}

// Config is the engine configuration of the spec.
func (s GameSpec) Config() engine.Config {
	return engine.Config{Board: s.Board, Deal: s.Deal, Bottom: s.Bottom, Seed: s.Seed}
}

func (s GameSpec) clone() GameSpec {
	c := s
	c.Deal = append([]engine.Role(nil), s.Deal...)
	c.Bottom = append([]engine.Role(nil), s.Bottom...)
	c.Draw = append([]journal.Drawn(nil), s.Draw...)
	return c
}

// NewGame is a game the console asks the table to run: dealt, not started
// (the daemon's Run starts it).
type NewGame struct {
	Spec GameSpec
	Game *engine.Game
	// OnEvent must be chained into the new daemon's Config.OnEvent. It runs
	// on the daemon's goroutine and does not block.
	OnEvent func(daemon.Event)
}
