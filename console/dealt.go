package console

import (
	"context"
	"sync"
	"time"

	"wolftable/engine"
)

// A dealt game waiting for its start: serve deals each game and waits for
// the judge's pedal. The console shows that game (its board and deal) and
// its 「下一步（短按）」 starts it, the same as the pedal: POST
// /api/judge/pedal {"press":"short"} calls the start function serve gave.
// The next Attach (the game started, from the pedal, the console or a new
// game the judge set up) ends the wait. A dealt game is not running: the
// studio still records and activates while it waits.

type dealtGame struct {
	spec  GameSpec
	at    time.Time
	start func(context.Context) error
}

type dealtSlot struct {
	mu sync.Mutex
	g  *dealtGame
}

func (d *dealtSlot) get() *dealtGame {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.g
}

func (d *dealtSlot) set(g *dealtGame) {
	d.mu.Lock()
	d.g = g
	d.mu.Unlock()
}

// Dealt shows the judge a game dealt and waiting for the pedal; start
// starts it as a short pedal press would (it returns once the game runs).
// Nil start, or a spec without a board, clears the wait.
func (s *Server) Dealt(spec GameSpec, start func(context.Context) error) {
	if spec.Board == nil || start == nil {
		s.dealt.set(nil)
	} else {
		s.dealt.set(&dealtGame{spec: spec.clone(), at: s.now(), start: start})
	}
	s.mu.Lock()
	s.version++
	s.mu.Unlock()
	s.hub.notify()
}

// startDealt starts the dealt game, if one waits: ok is false when none
// does (the pedal goes to the running game).
func (s *Server) startDealt(ctx context.Context, in engine.Input) (ok bool, err error) {
	if in.Kind != engine.InPedal || in.Pedal != engine.PedalShort {
		return false, nil
	}
	d := s.dealt.get()
	if d == nil {
		return false, nil
	}
	if err := d.start(ctx); err != nil {
		return true, err
	}
	s.settle(ctx)
	return true, nil
}

// dealtInfo is the waiting game as the judge's state shows it.
func (s *Server) dealtInfo() *GameInfo {
	d := s.dealt.get()
	if d == nil {
		return nil
	}
	return gameInfo(&d.spec, d.at)
}
