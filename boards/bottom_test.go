package boards_test

import (
	"os"
	"slices"
	"testing"

	"wolftable/boards"
	"wolftable/engine"
)

// TestBottomCards: a board may have more cards than seats (testdata's
// bottom-cards board: 12 seats, 14 cards); the deal gives every seat a
// card and leaves two at the bottom, together the board's cards, and the
// engine plays the seats.
func TestBottomCards(t *testing.T) {
	src, err := os.ReadFile("testdata/bottom-cards.board")
	if err != nil {
		t.Fatal(err)
	}
	b, err := boards.Parse("testdata/bottom-cards.board", src)
	if err != nil {
		t.Fatal(err)
	}
	if b.Players != 12 || len(b.Roles) != 14 || b.Bottom() != 2 {
		t.Fatalf("players %d, cards %d, bottom %d", b.Players, len(b.Roles), b.Bottom())
	}
	for seed := uint64(1); seed <= 20; seed++ {
		seats, bottom := engine.DealCards(b, seed)
		if len(seats) != 12 || len(bottom) != 2 {
			t.Fatalf("seed %d: %d seats, %d bottom cards", seed, len(seats), len(bottom))
		}
		all := append(append([]engine.Role(nil), seats...), bottom...)
		want := append([]engine.Role(nil), b.Roles...)
		slices.Sort(all)
		slices.Sort(want)
		if !slices.Equal(all, want) {
			t.Fatalf("seed %d: deal %v + %v is not the board's cards", seed, seats, bottom)
		}
		if !slices.Equal(engine.Deal(b, seed), seats) {
			t.Fatalf("seed %d: Deal differs from DealCards' seats", seed)
		}
		g, err := engine.New(engine.Config{Board: b, Deal: seats, Bottom: bottom, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if g.Players() != 12 || !slices.Equal(g.Bottom(), bottom) {
			t.Fatalf("seed %d: game has %d seats, bottom %v", seed, g.Players(), g.Bottom())
		}
		if _, err := g.Start(); err != nil {
			t.Fatal(err)
		}
		if _, err := engine.New(engine.Config{Board: b, Deal: seats, Seed: seed}); !engine.IsCode(err, engine.ErrBadInput) {
			t.Fatalf("seed %d: a deal without its bottom cards: %v", seed, err)
		}
	}
}
