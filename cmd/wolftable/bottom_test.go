package main

import (
	"io"
	"os"
	"slices"
	"testing"

	"wolftable/boards"
	"wolftable/console"
	"wolftable/engine"
	"wolftable/journal"
)

// TestBottomCardsJournaled: a game the judge sets up on a board with bottom
// cards (the console's path) and a game the daemon deals itself both
// journal their bottom cards, and the journal replays.
func TestBottomCardsJournaled(t *testing.T) {
	const path = "../../boards/testdata/bottom-cards.board"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := boards.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	get := func(id string) (*engine.Board, error) {
		if id == b.ID {
			c := *b
			return &c, nil
		}
		return boards.Get(id)
	}
	deal, bottom := engine.DealCards(b, 11)
	spec := console.GameSpec{Board: b, Deal: deal, Bottom: bottom, Seed: 11}
	g, err := engine.New(spec.Config())
	if err != nil {
		t.Fatal(err)
	}
	fromConsole, err := gameFromConsole(t.TempDir(), console.NewGame{Spec: spec, Game: g}, 12)
	if err != nil {
		t.Fatal(err)
	}
	dealt, err := newOrResumed(t.TempDir(), false, b, 11, deal, bottom, 12, 1, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, tg := range map[string]*tableGame{"console": fromConsole, "daemon": dealt} {
		if !slices.Equal(tg.bottom, bottom) || !slices.Equal(tg.game.Bottom(), bottom) {
			t.Fatalf("%s: table game bottom %v, game %v, want %v", name, tg.bottom, tg.game.Bottom(), bottom)
		}
		p := tg.writer.Path()
		if err := tg.writer.Close(); err != nil {
			t.Fatal(err)
		}
		j, err := journal.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		if j.Header.Format != 3 || !slices.Equal(j.Header.Bottom, bottom) {
			t.Fatalf("%s: journal header format %d, bottom %v", name, j.Header.Format, j.Header.Bottom)
		}
		rg, _, err := journal.Replay(j, get)
		if err != nil || !slices.Equal(rg.Bottom(), bottom) {
			t.Fatalf("%s: replay: %v", name, err)
		}
	}
}
