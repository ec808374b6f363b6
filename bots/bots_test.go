package bots_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"

	"wolftable/boards"
	"wolftable/bots"
	"wolftable/engine"
)

// allBoards is every embedded board.
func allBoards(t *testing.T) []*engine.Board {
	t.Helper()
	all, err := boards.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 12 {
		t.Fatalf("boards.All: %d boards, want seed 000's twelve at least", len(all))
	}
	return all
}

// deal makes a game of board id, dealt and seeded by seed.
func deal(t *testing.T, id string, seed uint64) *engine.Game {
	t.Helper()
	b, err := boards.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	seats, bottom := engine.DealCards(b, seed)
	g, err := engine.New(engine.Config{Board: b, Deal: seats, Bottom: bottom, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// trace is a game's accepted inputs and their effects, as JSON lines.
type trace struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func newTrace() *trace {
	tr := &trace{}
	tr.enc = json.NewEncoder(&tr.buf)
	return tr
}

func (tr *trace) add(in engine.Input, effs []engine.Effect) {
	tr.enc.Encode(in)
	for _, e := range effs {
		tr.enc.Encode(e)
	}
}

// TestBotGameEndsWithAWinner: on every board, bot games end with a side
// won (好人, 狼人 or a third camp): never stuck, never voided by MaxDays,
// and over the seeds both the good side and the wolves win.
func TestBotGameEndsWithAWinner(t *testing.T) {
	won := map[engine.Winner]int{}
	for _, b := range allBoards(t) {
		for seed := uint64(1); seed <= 4; seed++ {
			g := deal(t, b.ID, seed)
			d := bots.New(g, seed)
			if err := d.Start(); err != nil {
				t.Fatalf("%s seed %d: Start: %v", b.ID, seed, err)
			}
			if err := d.Play(); err != nil {
				t.Errorf("%s seed %d: Play: %v", b.ID, seed, err)
				continue
			}
			over, w := g.Over()
			switch {
			case !over:
				t.Errorf("%s seed %d: Play returned with the game not over", b.ID, seed)
			case w != engine.WinGood && w != engine.WinWolves && w != engine.WinThird:
				t.Errorf("%s seed %d: the game ended %q, want a side's win", b.ID, seed, w)
			}
			won[w]++
		}
	}
	if won[engine.WinGood] == 0 || won[engine.WinWolves] == 0 {
		t.Errorf("results over every board and seed: %v, want wins of both sides", won)
	}
}

// play runs a bot game of board id (game seed 7) with the players' seed
// botSeed and returns its trace.
func play(t *testing.T, id string, botSeed uint64) []byte {
	t.Helper()
	g := deal(t, id, 7)
	d := bots.New(g, botSeed)
	tr := newTrace()
	d.OnApply = tr.add
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	if err := d.Play(); err != nil {
		t.Fatalf("%s bot seed %d: %v", id, botSeed, err)
	}
	return tr.buf.Bytes()
}

// TestSameSeedSameGame: the same game (board, deal, engine seed) played
// by bots of the same seed is the same game, input for input and effect
// for effect; bots of another seed play another game (so the seed is what
// decides, not chance or nothing at all).
func TestSameSeedSameGame(t *testing.T) {
	for _, id := range []string{"seer-witch-hunter-idiot", "wolfking-guard", "thief-cupid-001", "black-market-003"} {
		a, b := play(t, id, 42), play(t, id, 42)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two games of bot seed 42 differ", id)
		}
		if c := play(t, id, 43); bytes.Equal(a, c) {
			t.Errorf("%s: bot seeds 42 and 43 played the same game", id)
		}
	}
}

// TestTablePlayerResumes: the table player's moves for a step depend only
// on its seed, the step's number and the game: a player made afresh (the
// table after a power cut) plans what the one that played every step
// plans, and the moves already given (sent) are not planned again.
func TestTablePlayerResumes(t *testing.T) {
	g := deal(t, "wolfking-guard", 3)
	long := &bots.TablePlayer{Seed: 11}
	judge := bots.New(g, 0) // for its timers and the pedal only
	if err := judge.Start(); err != nil {
		t.Fatal(err)
	}
	steps, acted := 0, -1
	for i := 0; i < 100000; i++ {
		if over, _ := g.Over(); over {
			break
		}
		if seq := g.StepSeq(); seq != acted {
			acted = seq
			steps++
			moves := long.Moves(g, seq, map[string]int{})
			fresh := (&bots.TablePlayer{Seed: 11}).Moves(g, seq, map[string]int{})
			if !reflect.DeepEqual(moves, fresh) {
				t.Fatalf("step %d: the playing player plans %+v, a fresh one %+v", seq, moves, fresh)
			}
			for _, m := range moves {
				if m.Source != bots.SourceBot {
					continue
				}
				if len(m.Inputs) > 1 {
					rest := long.Moves(g, seq, map[string]int{bots.SourceBot: 1})
					if len(rest) == 0 || !slices.Equal(rest[0].Inputs, m.Inputs[1:]) {
						t.Fatalf("step %d: with one input sent, the player plans %+v, want the rest of %v", seq, rest, m.Inputs)
					}
				}
				for _, in := range m.Inputs {
					judge.Apply(in) // random players' inputs may be refused
				}
			}
			continue
		}
		if err := judge.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d steps", steps)
	if over, _ := g.Over(); !over || steps < 10 {
		t.Fatalf("the table player's game: over %v after %d steps", over, steps)
	}
}

// TestBotRefusalsAreRules: random players try inputs a rule refuses (a
// used potion, a seat not on the ballot: they know no role's rules, by
// design, and Driver.Refused counts them), but never an input of a seat
// the step does not ask (apart from 自爆, which any seat may try in its
// window), and no refusal is ErrNotActor, ErrBadInput, ErrGameOver,
// ErrPaused or ErrUnknownTimer. A refused input changes nothing: the
// accepted inputs alone replay the same game, effect for effect.
func TestBotRefusalsAreRules(t *testing.T) {
	refused := 0
	for _, b := range allBoards(t) {
		for seed := uint64(1); seed <= 3; seed++ {
			g := deal(t, b.ID, seed)
			d := bots.New(g, seed)
			tr := newTrace()
			var accepted []engine.Input
			d.OnApply = func(in engine.Input, effs []engine.Effect) {
				accepted = append(accepted, in)
				tr.add(in, effs)
			}
			if err := d.Start(); err != nil {
				t.Fatal(err)
			}
			acted := -1
			for i := 0; ; i++ {
				if over, _ := g.Over(); over || i > 1_000_000 {
					break
				}
				seq := g.StepSeq()
				if seq == acted {
					if err := d.Advance(); err != nil {
						t.Fatalf("%s seed %d: the judge's move: %v", b.ID, seed, err)
					}
					continue
				}
				acted = seq
				p := g.Awaiting()
				for _, in := range slices.Clone(d.Choices(p)) {
					if in.Action != engine.ActBoom && in.Seat != p.Seat && !slices.Contains(p.Actors, in.Seat) {
						t.Errorf("%s seed %d: %s/%s asks seats %v (seat %d); a bot gave %+v", b.ID, seed, p.Step, p.Kind(), p.Actors, p.Seat, in)
					}
					err := d.Apply(in)
					if err == nil {
						continue
					}
					refused++
					var e *engine.Error
					if !errors.As(err, &e) {
						t.Fatalf("%s seed %d: %+v refused with %v, not an *engine.Error", b.ID, seed, in, err)
					}
					switch e.Code {
					case engine.ErrNotNow, engine.ErrBadTarget, engine.ErrRule:
					default:
						t.Errorf("%s seed %d: %s/%s: a bot's %+v refused with code %d (%v): a bot must not make it", b.ID, seed, p.Step, p.Kind(), in, e.Code, err)
					}
				}
			}
			// the accepted inputs alone, into the same game dealt again
			g2 := deal(t, b.ID, seed)
			tr2 := newTrace()
			effs, err := g2.Start()
			if err != nil || len(accepted) == 0 || accepted[0] != (engine.Input{}) {
				t.Fatalf("%s seed %d: replay's Start: %v (first accepted %+v)", b.ID, seed, err, accepted)
			}
			tr2.add(engine.Input{}, effs)
			for _, in := range accepted[1:] {
				effs, err := g2.Apply(in)
				if err != nil {
					t.Fatalf("%s seed %d: replay: %+v accepted in the game, refused in its replay: %v", b.ID, seed, in, err)
				}
				tr2.add(in, effs)
			}
			if !bytes.Equal(tr.buf.Bytes(), tr2.buf.Bytes()) {
				t.Errorf("%s seed %d: the accepted inputs alone play another game: a refused input changed something", b.ID, seed)
			}
		}
	}
	// Random players try illegal inputs by design today. When they choose
	// among the engine's own choices (issue 30 item 2), none may be refused:
	// then this test requires refused == 0 instead.
	if refused == 0 {
		t.Error("no bot input was refused: the checks of refusals above saw nothing")
	}
}

// TestLegalBotsRefuseNothing: players that choose only among the engine's
// Choices (Driver.Legal) play every board to its end, and the engine
// refuses none of their inputs — the choices are exactly what the steps
// accept (the engine's TestChoicesAccepted checks the other way round).
func TestLegalBotsRefuseNothing(t *testing.T) {
	inputs := 0
	for _, b := range allBoards(t) {
		for seed := uint64(1); seed <= 3; seed++ {
			g := deal(t, b.ID, seed)
			d := bots.New(g, seed)
			d.Legal = true
			d.BeforeApply = func(in engine.Input) {
				if in.Kind == engine.InSeat {
					inputs++
				}
			}
			if err := d.Start(); err != nil {
				t.Fatal(err)
			}
			if err := d.Play(); err != nil {
				t.Fatalf("%s seed %d: %v", b.ID, seed, err)
			}
			if over, _ := g.Over(); !over {
				t.Fatalf("%s seed %d: the game did not end", b.ID, seed)
			}
			if d.Refused != 0 {
				t.Errorf("%s seed %d: %d inputs of legal players refused", b.ID, seed, d.Refused)
			}
		}
	}
	if inputs < 1000 {
		t.Fatalf("only %d seat inputs in all the games: the legal players chose too little", inputs)
	}
	t.Logf("%d seat inputs, none refused", inputs)
}
