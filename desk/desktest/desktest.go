// Package desktest makes finished, signed game journals for the desk's
// tests: random legal games played by the bots, journaled as a table
// journals them.
package desktest

import (
	"crypto/ed25519"
	"fmt"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/bots"
	"wolftable/engine"
	"wolftable/journal"
)

// Play plays a random legal game on board with seed, journals it in dir
// (which must exist) and closes the journal with its result, signed with
// key (nil: unsigned). penaltySeat > 0 gives that seat a 1.5-point
// penalty from the console before the start. It returns the journal's path.
func Play(t testing.TB, dir, board string, seed uint64, key ed25519.PrivateKey, penaltySeat int) string {
	t.Helper()
	return PlayDrawn(t, dir, board, seed, key, penaltySeat, nil)
}

// PlayDrawn is Play with the seat draw draw in the journal's header (nil:
// none).
func PlayDrawn(t testing.TB, dir, board string, seed uint64, key ed25519.PrivateKey, penaltySeat int, draw []journal.Drawn) string {
	t.Helper()
	b, err := boards.Get(board)
	if err != nil {
		t.Fatal(err)
	}
	deal, bottom := engine.DealCards(b, seed)
	mk := func() *engine.Game {
		g, err := engine.New(engine.Config{Board: b, Deal: deal, Bottom: bottom, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	base := time.Date(2026, 12, 5, 14, 0, 0, 0, time.FixedZone("CST", 8*3600)).Add(time.Duration(seed%1000) * time.Hour)
	h := journal.HeaderForCards(b, deal, bottom, seed, b.Players, base, "desktest")
	h.GameID = fmt.Sprintf("t%d", seed)
	if draw != nil {
		h = h.WithDraw(draw, false)
	}
	w, err := journal.Create(dir, h)
	if err != nil {
		t.Fatal(err)
	}
	g, rt := mk(), mk()
	d := bots.New(g, seed)
	n := 0
	wall := func() time.Time {
		n++
		return base.Add(time.Duration(d.Now)*time.Second + time.Duration(n)*time.Millisecond)
	}
	var failed error
	apply := func(in engine.Input, source string) {
		if _, err := w.Apply(rt, wall(), source, in); err != nil && failed == nil {
			if _, ok := err.(*engine.Error); !ok {
				failed = err
			}
		}
	}
	if _, err := w.Start(rt, wall(), "pedal"); err != nil {
		t.Fatal(err)
	}
	d.BeforeApply = func(in engine.Input) { apply(in, journal.SourceOf(in)) }
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	if penaltySeat > 0 {
		if err := d.Apply(engine.Judge(engine.JudgePenalty, penaltySeat, 1.5)); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Play(); err != nil {
		t.Fatalf("%s seed %d: %v", board, seed, err)
	}
	if failed != nil {
		t.Fatal(failed)
	}
	_, won := g.Over()
	if _, err := w.End(wall(), "daemon", string(won), key); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.Path()
}
