package engine_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"wolftable/bots"
	"wolftable/engine"
)

// choiceGame plays one game whose seats choose only among the engine's
// Choices, and checks what Choices promises at every state it is asked.
type choiceGame struct {
	t       *testing.T
	board   string
	seed    uint64
	g       *engine.Game
	d       *bots.Driver
	rng     *rand.Rand
	hist    []engine.Input // the accepted inputs (Start's first)
	trace   bytes.Buffer
	offered int // choices offered
	tried   int // choices replayed into a fresh game and applied there
	refused int // inputs not offered, refused
}

func newChoiceGame(t *testing.T, board string, seed uint64) *choiceGame {
	c := &choiceGame{t: t, board: board, seed: seed, g: newGame(t, board, seed), rng: rand.New(rand.NewPCG(seed, 77))}
	c.d = bots.New(c.g, seed)
	c.d.OnApply = func(in engine.Input, effs []engine.Effect) {
		c.hist = append(c.hist, in)
		b, _ := json.Marshal(effs)
		c.trace.Write(b)
	}
	return c
}

// firsts are the first inputs of the choices: what a seat may key now.
func firsts(cs []engine.Choice) map[engine.Input]bool {
	out := map[engine.Input]bool{}
	for _, c := range cs {
		if len(c.Press) > 0 {
			out[engine.SeatGesture(c.Seat, c.Press[0])] = true
			continue
		}
		for _, t := range c.Targets {
			out[engine.SeatTarget(c.Seat, t)] = true
		}
	}
	return out
}

// replayed deals the game again and gives it the accepted inputs so far.
func (c *choiceGame) replayed() *engine.Game {
	g := newGame(c.t, c.board, c.seed)
	if _, err := g.Start(); err != nil {
		c.t.Fatal(err)
	}
	for _, in := range c.hist[1:] {
		if _, err := g.Apply(in); err != nil {
			c.t.Fatalf("%s seed %d: replay refused %+v: %v", c.board, c.seed, in, err)
		}
	}
	return g
}

// check: every choice offered is accepted (each replayed into a fresh game
// when replay is set), and sampled inputs that are not offered are refused.
func (c *choiceGame) check(cs []engine.Choice, replay bool) bool {
	p := c.g.Awaiting()
	for _, ch := range cs {
		c.offered++
		if !replay {
			continue
		}
		t := 0
		if len(ch.Targets) > 0 {
			t = ch.Targets[c.rng.IntN(len(ch.Targets))]
		}
		g := c.replayed()
		for _, in := range ch.Inputs(t) {
			if _, err := g.Apply(in); err != nil {
				c.t.Errorf("%s seed %d: %s/%s: choice %+v (target %d) offered, but %+v refused: %v", c.board, c.seed, p.Step, p.Kind(), ch, t, in, err)
				return false
			}
		}
		c.tried++
	}
	offered := firsts(cs)
	// every input of the step's seats, and a few of any seat
	var ins []engine.Input
	for _, seat := range append(slices.Clone(p.Actors), p.Seat) {
		if seat == 0 {
			continue
		}
		for _, a := range []engine.Action{engine.ActUp, engine.ActDown, engine.ActWave, engine.ActHand} {
			ins = append(ins, engine.SeatGesture(seat, a))
		}
		for t := 0; t <= c.g.Players(); t++ {
			ins = append(ins, engine.SeatTarget(seat, t))
		}
	}
	acts := []engine.Action{engine.ActTarget, engine.ActUp, engine.ActDown, engine.ActWave, engine.ActHand}
	for i := 0; i < 6; i++ {
		seat := 1 + c.rng.IntN(c.g.Players())
		in := engine.SeatGesture(seat, acts[c.rng.IntN(len(acts))])
		if in.Action == engine.ActTarget {
			in = engine.SeatTarget(seat, c.rng.IntN(c.g.Players()+1))
		}
		ins = append(ins, in)
	}
	for _, in := range ins {
		if offered[in] {
			continue
		}
		if _, err := c.g.Apply(in); err == nil {
			c.t.Errorf("%s seed %d: %s/%s: %+v accepted, but not offered (choices %+v)", c.board, c.seed, p.Step, p.Kind(), in, cs)
			return false
		}
		c.refused++
	}
	return true
}

// play runs the game: in each state a random choice of a seat that has not
// chosen in this step yet, else the judge's move.
func (c *choiceGame) play(replayEvery int) {
	if err := c.d.Start(); err != nil {
		c.t.Fatal(err)
	}
	seq, chose := -1, map[int]bool{}
	for i := 0; i < 1_000_000; i++ {
		if over, _ := c.g.Over(); over {
			return
		}
		if c.g.Night() > 30 {
			if err := c.d.Apply(engine.Judge(engine.JudgeVoid, 0, 0)); err != nil {
				c.t.Fatal(err)
			}
			return
		}
		if s := c.g.StepSeq(); s != seq {
			seq, chose = s, map[int]bool{}
		}
		cs := c.g.Choices()
		if !c.check(cs, replayEvery > 0 && c.rng.IntN(replayEvery) == 0) {
			return
		}
		cs = slices.DeleteFunc(cs, func(ch engine.Choice) bool { return chose[ch.Seat] })
		if len(cs) > 0 && c.rng.IntN(10) > 0 {
			ch := cs[c.rng.IntN(len(cs))]
			t := 0
			if len(ch.Targets) > 0 {
				t = ch.Targets[c.rng.IntN(len(ch.Targets))]
			}
			ins := ch.Inputs(t)
			if len(ins) > 1 && c.rng.IntN(2) == 0 {
				ins = ins[:1] // half a choice (the witch's thumb down): the seat chooses again
			} else {
				chose[ch.Seat] = true
			}
			for _, in := range ins {
				if err := c.d.Apply(in); err != nil {
					c.t.Errorf("%s seed %d: choice %+v: %+v refused: %v", c.board, c.seed, ch, in, err)
					return
				}
			}
			continue
		}
		if err := c.d.Advance(); err != nil {
			c.t.Fatalf("%s seed %d: %v", c.board, c.seed, err)
		}
	}
	c.t.Fatalf("%s seed %d: the game did not end", c.board, c.seed)
}

// TestChoicesAccepted: on every playable board, games whose seats choose
// only among Game.Choices end; every choice offered is accepted (sampled
// states replayed into a fresh game, every choice of the state applied
// there), sampled inputs not offered are refused, and asking for the
// choices changes nothing (the accepted inputs alone, into the game dealt
// again, play the same game effect for effect).
func TestChoicesAccepted(t *testing.T) {
	offered, tried, refused := 0, 0, 0
	for _, board := range playable {
		for seed := uint64(1); seed <= 2; seed++ {
			c := newChoiceGame(t, board, seed)
			c.play(int(30 * seed))
			offered, tried, refused = offered+c.offered, tried+c.tried, refused+c.refused
			if t.Failed() {
				return
			}
			// the accepted inputs alone, without Choices asked
			g := newGame(t, board, seed)
			var again bytes.Buffer
			effs, _ := g.Start()
			b, _ := json.Marshal(effs)
			again.Write(b)
			for _, in := range c.hist[1:] {
				effs, err := g.Apply(in)
				if err != nil {
					t.Fatalf("%s seed %d: replay refused %+v: %v", board, seed, in, err)
				}
				b, _ := json.Marshal(effs)
				again.Write(b)
			}
			if !bytes.Equal(again.Bytes(), c.trace.Bytes()) {
				t.Fatalf("%s seed %d: the game played with Choices asked differs from its replay: Choices changed something", board, seed)
			}
		}
	}
	t.Logf("%d choices offered, %d applied in a replay, %d inputs not offered refused", offered, tried, refused)
	if tried < 1000 || refused < 1000 {
		t.Fatalf("too little checked: %d choices applied, %d refusals", tried, refused)
	}
}
