package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"wolftable/console"
	"wolftable/daemon"
	"wolftable/engine"
	"wolftable/journal"
)

// gameHost is the console's view of the table (console.Table): it forwards
// the judge's inputs to the running daemon and asks the serve loop to start
// the games the judge sets up.
type gameHost struct {
	mu       sync.Mutex
	cur      *daemon.Daemon
	requests chan hostRequest
}

type hostRequest struct {
	ng    console.NewGame
	dealt bool       // start the dealt game, as the pedal does (ng is empty)
	done  chan error // the new game runs (nil) or could not start
}

var _ console.Table = (*gameHost)(nil)

func newGameHost() *gameHost { return &gameHost{requests: make(chan hostRequest)} }

func (h *gameHost) set(d *daemon.Daemon) {
	h.mu.Lock()
	h.cur = d
	h.mu.Unlock()
}

func (h *gameHost) current() *daemon.Daemon {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cur
}

// ErrNoGame is returned for an input while no game runs.
var ErrNoGame = errors.New("no game is running")

// Submit implements console.Table.
func (h *gameHost) Submit(ctx context.Context, in engine.Input, source string) error {
	d := h.current()
	if d == nil {
		return ErrNoGame
	}
	return d.Submit(ctx, in, source)
}

// StartGame implements console.Table: a running game is ended first (流局,
// journaled with the judge as its source), then the serve loop runs ng.
func (h *gameHost) StartGame(ctx context.Context, ng console.NewGame) error {
	if d := h.current(); d != nil {
		if err := d.Submit(ctx, engine.Judge(engine.JudgeVoid, 0, 0), "console:new-game"); err != nil && !errors.Is(err, daemon.ErrStopped) && !engine.IsCode(err, engine.ErrGameOver) {
			return err
		}
	}
	return h.ask(ctx, hostRequest{ng: ng, done: make(chan error, 1)})
}

// StartDealt starts the game serve dealt and waits the pedal for: the
// console's 下一步 while no game runs (console.Server.Dealt). It returns
// once the game runs.
func (h *gameHost) StartDealt(ctx context.Context) error {
	return h.ask(ctx, hostRequest{dealt: true, done: make(chan error, 1)})
}

// ask hands r to the serve loop and waits for its answer (or ctx).
func (h *gameHost) ask(ctx context.Context, r hostRequest) error {
	select {
	case h.requests <- r:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// gameFromConsole makes a tableGame of a game the judge set up, with its
// journal.
func gameFromConsole(dir string, ng console.NewGame, seats int) (*tableGame, error) {
	s := ng.Spec
	if seats != 0 && s.Board.Players != seats { // the console refuses it first; the table must not stop for it
		return nil, fmt.Errorf("這張桌子有 %d 個座位，%s 是 %d 人局：不能開局 / the table has %d seats, the board %d players", seats, s.Board.Name, s.Board.Players, seats, s.Board.Players)
	}
	tg := &tableGame{board: s.Board, deal: s.Deal, bottom: s.Bottom, seed: s.Seed, game: ng.Game}
	if dir != "" {
		h := journal.HeaderForCards(s.Board, s.Deal, s.Bottom, s.Seed, seats, time.Now(), version)
		w, err := journal.Create(dir, h.WithDraw(s.Draw, s.DrawManual)) // the seat draw, signed with the game
		if err != nil {
			return nil, err
		}
		tg.writer = w
	}
	return tg, nil
}
