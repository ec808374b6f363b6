package engine_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"wolftable/bots"
	"wolftable/engine"
)

// TestRefusedInputsChangeNothing: random players try many illegal inputs,
// all refused. Replaying only the accepted inputs on a fresh game must give
// the same effects byte for byte — so a refused input changed no state, not
// even the engine's random generator.
func TestRefusedInputsChangeNothing(t *testing.T) {
	for _, board := range playable {
		for seed := uint64(1); seed <= 30; seed++ {
			g := newGame(t, board, seed)
			d := bots.New(g, seed)
			var accepted []engine.Input
			var a bytes.Buffer
			enc := json.NewEncoder(&a)
			d.OnApply = func(in engine.Input, effs []engine.Effect) {
				if in.Kind != 0 || in.Seat != 0 || in.Timer != 0 {
					accepted = append(accepted, in)
				}
				enc.Encode(effs)
			}
			if err := d.Start(); err != nil {
				t.Fatal(err)
			}
			if err := d.Play(); err != nil {
				t.Fatal(err)
			}
			if d.Refused == 0 {
				t.Fatalf("%s seed %d: the players tried nothing illegal; the test proves nothing", board, seed)
			}
			g2 := newGame(t, board, seed)
			var b bytes.Buffer
			enc2 := json.NewEncoder(&b)
			effs, _ := g2.Start()
			enc2.Encode(effs)
			for _, in := range accepted {
				effs, err := g2.Apply(in)
				if err != nil {
					t.Fatalf("%s seed %d: replay of %+v refused: %v", board, seed, in, err)
				}
				enc2.Encode(effs)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatalf("%s seed %d: refused inputs changed the game", board, seed)
			}
		}
	}
}

// step advances the game with timers/pedal until the prompt matches.
func advanceTo(t *testing.T, g *engine.Game, d *bots.Driver, step, kind string) engine.Prompt {
	t.Helper()
	for i := 0; i < 10000; i++ {
		p := g.Awaiting()
		if string(p.Step) == step && (kind == "" || p.Kind() == kind) {
			return p
		}
		if p.Over {
			t.Fatalf("game over before %s %s", step, kind)
		}
		if err := d.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("never reached %s %s", step, kind)
	return engine.Prompt{}
}

func TestTypedErrors(t *testing.T) {
	// seats: 1 2 wolves, 3 seer, 4 witch, 5 hunter, 6 idiot, 7 8 wolves, 9-12 villagers
	deal := []engine.Role{"werewolf", "werewolf", "seer", "witch", "hunter", "idiot", "werewolf", "werewolf", "villager", "villager", "villager", "villager"}
	b := newGame(t, "seer-witch-hunter-idiot", 1).Board()
	g, err := engine.New(engine.Config{Board: b, Deal: deal, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Apply(engine.Pedal(engine.PedalShort)); !engine.IsCode(err, engine.ErrNotNow) {
		t.Fatalf("before start: %v", err)
	}
	d := bots.New(g, 1)
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	p := advanceTo(t, g, d, "night", "wolves")
	cases := []struct {
		name string
		in   engine.Input
		code engine.ErrorCode
	}{
		{"villager points in the wolves' step", engine.SeatTarget(9, 3), engine.ErrNotActor},
		{"seat out of range", engine.SeatTarget(13, 3), engine.ErrBadInput},
		{"target out of range", engine.SeatTarget(1, 13), engine.ErrBadTarget},
		{"pedal at night", engine.Pedal(engine.PedalShort), engine.ErrNotNow},
		{"explode at night", engine.SeatGesture(1, engine.ActBoom), engine.ErrNotNow},
		{"unknown timer", engine.TimerExpired(9999), engine.ErrUnknownTimer},
		{"undo with no input", engine.Judge(engine.JudgeUndo, 0, 0), engine.ErrNotNow},
		{"bad penalty", engine.Judge(engine.JudgePenalty, 3, 0.3), engine.ErrBadInput},
		{"bad clock", engine.Clock(25, 0), engine.ErrBadInput},
		{"wolf waves", engine.SeatGesture(1, engine.ActWave), engine.ErrNotNow},
	}
	for _, c := range cases {
		effs, err := g.Apply(c.in)
		if !engine.IsCode(err, c.code) || effs != nil {
			t.Errorf("%s: got %v (%d effects), want code %d", c.name, err, len(effs), c.code)
		}
		if q := g.Awaiting(); q.Step != p.Step || q.Kind() != p.Kind() {
			t.Errorf("%s: the step changed to %s %s", c.name, q.Step, q.Kind())
		}
	}
	// undo: a wolf's point is taken back
	if _, err := g.Apply(engine.SeatTarget(1, 9)); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Apply(engine.Judge(engine.JudgeUndo, 0, 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Apply(engine.Judge(engine.JudgeUndo, 0, 0)); !engine.IsCode(err, engine.ErrNotNow) {
		t.Fatalf("second undo: %v", err)
	}
	// the seer may not check herself or a non-seat
	advanceTo(t, g, d, "night", "seer")
	if _, err := g.Apply(engine.SeatTarget(3, 3)); !engine.IsCode(err, engine.ErrBadTarget) {
		t.Fatalf("seer checks herself: %v", err)
	}
	// pause refuses timers until resume
	if _, err := g.Apply(engine.Pedal(engine.PedalDouble)); err != nil {
		t.Fatal(err)
	}
	if err := d.Advance(); !engine.IsCode(err, engine.ErrPaused) {
		t.Fatalf("timer while paused: %v", err)
	}
	if _, err := g.Apply(engine.Judge(engine.JudgeResume, 0, 0)); err != nil {
		t.Fatal(err)
	}
	// void ends the game; nothing but penalties and repeat after that
	if _, err := g.Apply(engine.Judge(engine.JudgeVoid, 0, 0)); err != nil {
		t.Fatal(err)
	}
	if over, w := g.Over(); !over || w != "流局" {
		t.Fatalf("void: %v %q", over, w)
	}
	if _, err := g.Apply(engine.SeatTarget(3, 1)); !engine.IsCode(err, engine.ErrGameOver) {
		t.Fatalf("after the end: %v", err)
	}
	if _, err := g.Apply(engine.Judge(engine.JudgePenalty, 3, 0.5)); err != nil {
		t.Fatalf("penalty after the end: %v", err)
	}
}

func TestNewRefusesBadDeals(t *testing.T) {
	b := newGame(t, "seer-witch-hunter-idiot", 1).Board()
	if _, err := engine.New(engine.Config{Board: b, Deal: b.Roles[:11]}); !engine.IsCode(err, engine.ErrBadInput) {
		t.Fatalf("short deal: %v", err)
	}
	bad := append([]engine.Role(nil), b.Roles...)
	bad[0] = engine.Guard
	if _, err := engine.New(engine.Config{Board: b, Deal: bad}); !engine.IsCode(err, engine.ErrBadInput) {
		t.Fatalf("wrong composition: %v", err)
	}
}
