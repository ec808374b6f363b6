package daemon

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"wolftable/bots"
	"wolftable/daemon/daemontest"
	"wolftable/daemon/play"
	"wolftable/engine"
)

// loggingPlayer is a player of the table that is not the bots: it plays
// the bots' moves under its own source name, and logs the daemon's calls.
type loggingPlayer struct {
	inner play.Player
	seqs  []int
}

func (p *loggingPlayer) Moves(g *engine.Game, seq int, sent map[string]int) []play.Move {
	p.seqs = append(p.seqs, seq)
	moves := p.inner.Moves(g, seq, sent)
	for i := range moves {
		moves[i].Source = "other-" + moves[i].Source
	}
	return moves
}

// TestAnyPlayerPlaysTheTable: the runtime knows players only through
// play.Player: a player of another package plays a whole game, asked once
// per step in step order, its inputs journaled under its own sources.
func TestAnyPlayerPlaysTheTable(t *testing.T) {
	clock := daemontest.NewFakeClock(time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC))
	g := newGame(t, "wolfking-guard", 4)
	j := &memJournal{}
	p := &loggingPlayer{inner: &bots.TablePlayer{Seed: 4}}
	d, err := New(Config{Game: g, Table: newTable(12), Clock: clock, Journal: j, Player: p})
	if err != nil {
		t.Fatal(err)
	}
	if err := runToEnd(t, d, clock); err != nil {
		t.Fatal(err)
	}
	if over, _ := g.Over(); !over {
		t.Fatal("the game did not end")
	}
	if len(p.seqs) < 10 {
		t.Fatalf("asked for %d steps", len(p.seqs))
	}
	for i := 1; i < len(p.seqs); i++ {
		if p.seqs[i] <= p.seqs[i-1] {
			t.Fatalf("steps asked out of order: %v", p.seqs)
		}
	}
	sources := map[string]int{}
	for _, r := range j.recs {
		sources[r.Source]++
	}
	if sources["other-bot"] == 0 || sources["other-bot-judge"] == 0 || sources[bots.SourceBot] != 0 {
		t.Fatalf("journaled sources: %v", sources)
	}
}

// TestRuntimeDoesNotImportBots: the bots are a player of the table from
// outside the runtime.
func TestRuntimeDoesNotImportBots(t *testing.T) {
	names, _ := filepath.Glob("*.go")
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), n, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == "wolftable/bots" {
				t.Errorf("%s imports %s", n, p)
			}
		}
	}
}
