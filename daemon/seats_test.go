package daemon

import (
	"strings"
	"testing"
)

// TestNewRefusesOtherSeats: a game whose board has another seat count
// than the table is refused before it starts, in the judge's words.
func TestNewRefusesOtherSeats(t *testing.T) {
	g := newGame(t, "seer-witch-hunter-idiot", 1)
	_, err := New(Config{Game: g, Table: newTable(9)})
	if err == nil || !strings.Contains(err.Error(), "桌子有 9 個座位，板子 預女獵愚（seer-witch-hunter-idiot）是 12 人局") {
		t.Fatalf("a 12-player board on 9 seats: %v", err)
	}
}
