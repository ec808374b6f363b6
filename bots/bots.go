// Package bots plays random legal games: every seat makes random choices
// among the inputs its current step takes, and the judge presses the pedal
// or lets timers run out. It drives the engine for `sim --bots`, the
// determinism test, the engine's fuzzing and BenchmarkRandomGame.
package bots

import (
	"errors"
	"math/rand/v2"

	"wolftable/engine"
)

// Driver plays one game with a fake clock (seconds).
type Driver struct {
	G   *engine.Game
	rng *rand.Rand
	Now int // game seconds
	// MaxDays voids the game (流局) if it has not ended by then: a guard
	// against endless games of random players.
	MaxDays int
	// BeforeApply, when set, sees every input before the engine does.
	BeforeApply func(in engine.Input)
	// OnApply, when set, sees every accepted input and its effects.
	OnApply func(in engine.Input, effs []engine.Effect)
	timers  map[engine.TimerID]int
	// Refused counts inputs the engine refused (random players try illegal things).
	Refused int
	// Legal: the players choose only among the engine's Choices (legal.go),
	// and none of their inputs is refused; without it they try illegal
	// things on purpose (the refusal tests and the golden record use them).
	Legal   bool
	legal   []engine.Choice
	acted   int // the step the players last chose in
	scratch []int
	ins     []engine.Input
}

// New makes a driver for a dealt game; seed drives the players' choices.
func New(g *engine.Game, seed uint64) *Driver {
	return &Driver{G: g, rng: rand.New(rand.NewPCG(seed, seed^0x5bd1e995)), MaxDays: 30,
		timers: map[engine.TimerID]int{}}
}

// Reseed makes the players' next choices depend only on the driver's seed
// and stream (the daemon reseeds per step, so a resumed game makes the same
// choices as the game before the power cut).
func (d *Driver) Reseed(seed, stream uint64) {
	d.rng = rand.New(rand.NewPCG(seed, stream^0x5bd1e995))
}

// Start starts the game.
func (d *Driver) Start() error {
	effs, err := d.G.Start()
	if err != nil {
		return err
	}
	d.observe(engine.Input{}, effs)
	return nil
}

func (d *Driver) observe(in engine.Input, effs []engine.Effect) {
	for _, e := range effs {
		switch e.Kind {
		case engine.EffTimerStart:
			d.timers[e.Timer] = d.Now + e.Seconds
		case engine.EffTimerCancel:
			delete(d.timers, e.Timer)
		}
	}
	if d.OnApply != nil {
		d.OnApply(in, effs)
	}
}

// Apply feeds an input and tracks timers.
func (d *Driver) Apply(in engine.Input) error {
	if d.BeforeApply != nil {
		d.BeforeApply(in)
	}
	effs, err := d.G.Apply(in)
	if err != nil {
		return err
	}
	if in.Kind == engine.InTimer {
		delete(d.timers, in.Timer)
	}
	d.observe(in, effs)
	return nil
}

// ErrStuck means the game waits for something no bot can give.
var ErrStuck = errors.New("bots: the game is stuck")

// Advance does what an idle judge does: the pedal where it advances, else
// the earliest timer runs out.
func (d *Driver) Advance() error {
	if d.G.PedalAdvances() {
		return d.Apply(engine.Pedal(engine.PedalShort))
	}
	if len(d.timers) == 0 {
		return ErrStuck
	}
	var best engine.TimerID
	at := -1
	for id, t := range d.timers {
		if at < 0 || t < at || (t == at && id < best) {
			best, at = id, t
		}
	}
	d.Now = at
	return d.Apply(engine.TimerExpired(best))
}

// Play runs the game to its end.
func (d *Driver) Play() error {
	for i := 0; i < 1_000_000; i++ {
		if over, _ := d.G.Over(); over {
			return nil
		}
		if d.G.Night() > d.MaxDays {
			return d.Apply(engine.Judge(engine.JudgeVoid, 0, 0))
		}
		if err := d.Tick(); err != nil {
			return err
		}
	}
	return ErrStuck
}

// Tick makes one move: the current step's actors choose (once per step
// each, at random), or the judge advances.
func (d *Driver) Tick() error {
	if seq := d.G.StepSeq(); seq != d.acted {
		d.acted = seq
		if d.Legal {
			d.legalTick()
			return nil
		}
		for _, in := range d.Choices(d.G.Awaiting()) {
			if err := d.Apply(in); err != nil {
				d.Refused++
			}
		}
		return nil
	}
	return d.Advance()
}

func (d *Driver) living() []int {
	out := d.scratch[:0]
	for s := 1; s <= d.G.Players(); s++ {
		if d.G.Living(s) {
			out = append(out, s)
		}
	}
	d.scratch = out
	return out
}

func (d *Driver) present() []int {
	out := d.scratch[:0]
	for s := 1; s <= d.G.Players(); s++ {
		if !d.G.Out(s) {
			out = append(out, s)
		}
	}
	d.scratch = out
	return out
}

func (d *Driver) pick(a []int) int {
	if len(a) == 0 {
		return 0
	}
	return a[d.rng.IntN(len(a))]
}

func (d *Driver) chance(pct int) bool { return d.rng.IntN(100) < pct }

// Choices are the inputs random players give in the current step. They
// are mostly legal; the engine refuses the rest. The slice is reused by the
// next call.
//
// Its per-step switch names step kinds (engine/layout_test.go's
// namedOutside keeps its entries) on purpose, and these players stay the
// default (Legal false): the golden record (engine/golden_test.go,
// testdata/golden-games.txt) hashes every input these players try,
// refused ones included, and the draws they make for them. With the legal
// players (legal.go, which read only Choices) as the default, 2880 of the
// 2880 golden games changed (issue 30, measured with Legal set in New and
// go test -run TestGolden ./engine/). A new role needs no case here: its
// step falls to the default (a seat at random), and the engine refuses
// what the step does not take.
func (d *Driver) Choices(p engine.Prompt) []engine.Input {
	out := d.ins[:0]
	defer func() { d.ins = out[:0] }()
	t := engine.SeatTarget
	gest := engine.SeatGesture
	switch p.Step {
	case engine.WaitNight:
		switch p.StepKind {
		case engine.StepWolves:
			target := d.pick(d.living())
			if d.chance(10) {
				target = 0
			}
			for _, a := range p.Actors {
				if d.chance(10) {
					out = append(out, t(a, d.pick(d.living())))
				} else {
					out = append(out, t(a, target))
				}
			}
		case engine.StepWitch:
			if len(p.Actors) > 0 {
				w := p.Actors[0]
				switch d.rng.IntN(4) {
				case 0:
					out = append(out, gest(w, engine.ActUp))
				case 1:
					out = append(out, gest(w, engine.ActDown), t(w, d.pick(d.living())))
				default:
					out = append(out, gest(w, engine.ActWave))
				}
			}
		case engine.StepThief:
			// 1 or 2; a wolf-camp card at the bottom must be kept
			if len(p.Actors) > 0 {
				k := 1 + d.rng.IntN(2)
				for i, c := range d.G.Bottom() {
					if c.IsWolf() {
						k = i + 1
					}
				}
				out = append(out, t(p.Actors[0], k))
			}
		case engine.StepStalker:
			// 潛行者: kill (up) when he may, or spare; refused when he may not
			for _, a := range p.Actors {
				if d.chance(50) {
					out = append(out, gest(a, engine.ActUp))
				} else {
					out = append(out, gest(a, engine.ActWave))
				}
			}
		case engine.StepMerchant:
			// 黑市商人: the lucky seat, then the gift (1 glasses, 2 poison, 3 gun)
			for _, a := range p.Actors {
				out = append(out, t(a, d.pick(d.living())), t(a, 1+d.rng.IntN(3)))
			}
		case engine.StepWildChild, engine.StepHalfBlood:
			// the model is another player: one draw, as in the default
			for _, a := range p.Actors {
				var others []int
				for _, x := range d.living() {
					if x != a {
						others = append(others, x)
					}
				}
				out = append(out, t(a, d.pick(others)))
			}
		case engine.StepCupid:
			// two different seats (himself allowed), or none; a fumbled
			// second key on the same seat first (refused, H3)
			if len(p.Actors) > 0 {
				c, l := p.Actors[0], d.living()
				if d.chance(10) || len(l) < 2 {
					if len(l) > 0 {
						out = append(out, t(c, l[0]), t(c, l[0]))
					}
					out = append(out, gest(c, engine.ActWave))
				} else {
					a := d.pick(l)
					b := d.pick(l)
					for b == a {
						b = d.pick(l)
					}
					out = append(out, t(c, a), t(c, a), t(c, b))
				}
			}
		case engine.StepLovers, engine.StepSuccubusLovers:
			// open and close only
		default:
			for _, a := range p.Actors {
				out = append(out, t(a, d.pick(d.living())))
			}
		}
	case engine.WaitSignup:
		for _, a := range p.Actors {
			if d.chance(40) {
				out = append(out, gest(a, engine.ActHand))
			}
		}
	case engine.WaitWithdraw:
		for _, a := range p.Actors {
			if d.chance(15) {
				out = append(out, gest(a, engine.ActHand))
			}
		}
	case engine.WaitVote:
		for _, a := range p.Actors {
			if d.chance(85) {
				out = append(out, t(a, d.pick(d.present())))
			}
		}
	case engine.WaitSkill, engine.WaitTake:
		if d.chance(60) {
			out = append(out, t(p.Seat, d.pick(d.present())))
		} else {
			out = append(out, gest(p.Seat, engine.ActWave))
		}
	case engine.WaitBadge:
		if d.chance(80) {
			out = append(out, t(p.Seat, d.pick(d.present())))
		} else {
			out = append(out, gest(p.Seat, engine.ActDown))
		}
	case engine.WaitOrder:
		out = append(out, gest(p.Seat, []engine.Action{engine.ActUp, engine.ActDown}[d.rng.IntN(2)]))
	case engine.WaitGuide:
		if d.chance(70) {
			out = append(out, t(p.Seat, d.pick(d.present())))
		}
	case engine.WaitDuel:
		out = append(out, t(p.Seat, d.pick(d.present())))
	case engine.WaitPrince:
		for _, a := range p.Actors {
			if d.chance(30) {
				out = append(out, gest(a, engine.ActBoom))
			}
		}
	case engine.WaitSpeech, engine.WaitExplode:
		if p.Window != "" && d.chance(4) {
			out = append(out, gest(d.pick(d.present()), engine.ActBoom))
		}
	}
	// explode.windows=any_but_vote opens the sheriff's order and 歸票 too
	// (never on the seed-000 boards' defaults: no extra draw there)
	if (p.Step == engine.WaitOrder || p.Step == engine.WaitGuide) && p.Window != "" && d.chance(4) {
		out = append([]engine.Input{gest(d.pick(d.present()), engine.ActBoom)}, out...)
	}
	// idiot.interject: a revealed idiot may cut into a speech (a random
	// seat tries; only under the option: no extra draw otherwise)
	if p.Step == engine.WaitSpeech && d.G.Board().Options.IdiotInterject && d.chance(10) {
		out = append(out, gest(d.pick(d.present()), engine.ActBoom))
	}
	return out
}
