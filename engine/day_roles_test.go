package engine_test

import (
	"testing"

	"wolftable/bots"
	"wolftable/engine"
)

// TestDayBoardsRandom: random legal games on silence-elder-003 and
// butterfly-003 end, reach both results, and the new records appear.
func TestDayBoardsRandom(t *testing.T) {
	for _, board := range []string{"silence-elder-003", "butterfly-003"} {
		res := map[engine.Winner]int{}
		acts := map[string]int{}
		for seed := uint64(100); seed < 250; seed++ {
			g := newGame(t, board, seed)
			d := bots.New(g, seed)
			d.OnApply = func(in engine.Input, effs []engine.Effect) {
				for _, e := range effs {
					if e.Kind == engine.EffRecord {
						if e.Record.Type == engine.RecAction {
							acts[e.Record.Kind]++
						} else if e.Record.Type == engine.RecSilence || e.Record.Type == engine.RecDeath && e.Record.Cause == engine.CauseAssassinate {
							acts[string(e.Record.Type)]++
						}
					}
				}
			}
			if err := d.Start(); err != nil {
				t.Fatal(err)
			}
			if err := d.Play(); err != nil {
				t.Fatalf("%s seed %d: %v", board, seed, err)
			}
			_, w := g.Over()
			res[w]++
		}
		t.Logf("%s: %v %v", board, res, acts)
		if res[engine.WinGood] == 0 || res[engine.WinWolves] == 0 {
			t.Errorf("%s: %v", board, res)
		}
	}
}
