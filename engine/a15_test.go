package engine_test

import (
	"errors"
	"fmt"
	"testing"

	"wolftable/boards"
	"wolftable/engine"
)

// The A15 harness (rules.md A15: nothing public at night may depend on a
// hidden fact). An A15 test plays games that differ in one hidden fact (a
// role alive or dead, used up, blocked, acting or not) and requires the
// same public trace. A key the engine refuses changes nothing, so a game
// whose keys were all refused traces like the game of a dead role and the
// comparison proves nothing: every input a game gives must be accepted,
// unless the test declares it refused, with the reason it expects and why.

// key is one input of an A15 game and what the test expects of it.
type key struct {
	in      engine.Input
	refused engine.Reason // "": the engine must accept it
	why     string        // why the test expects the refusal
	missing string        // (a15End's answer) keys never given: the step that never came
}

// accept: inputs the engine must accept.
func accept(ins ...engine.Input) []key {
	out := make([]key, len(ins))
	for i, in := range ins {
		out[i] = key{in: in}
	}
	return out
}

// refuse: inputs the engine must each refuse with reason (why: the test's
// account of it, shown when it is not refused).
func refuse(reason engine.Reason, why string, ins ...engine.Input) []key {
	out := make([]key, len(ins))
	for i, in := range ins {
		out[i] = key{in: in, refused: reason, why: why}
	}
	return out
}

// keysFn gives the inputs of a step when it opens.
type keysFn func(p engine.Prompt) []key

// A key the game never gives proves as little as a refused one: the
// harness asks every key function with a15Begin before each game (a
// function with state resets it) and with a15End after it, when stepKeys
// answers with the keys it was to give and never did (their step never
// came), and the harness fails the test on any.
const (
	a15Begin engine.StepName = "a15-begin"
	a15End   engine.StepName = "a15-end"
)

// stepKeys gives ks(p) at every prompt match accepts; at a15End it
// reports step as missing if no such prompt came in the game.
func stepKeys(step string, match func(p engine.Prompt) bool, ks func(p engine.Prompt) []key) keysFn {
	return givenKeys(step, false, match, ks)
}

// firstKeys is stepKeys at the first prompt match accepts only.
func firstKeys(step string, match func(p engine.Prompt) bool, ks func(p engine.Prompt) []key) keysFn {
	return givenKeys(step, true, match, ks)
}

func givenKeys(step string, once bool, match func(p engine.Prompt) bool, ks func(p engine.Prompt) []key) keysFn {
	given := false
	return func(p engine.Prompt) []key {
		switch p.Step {
		case a15Begin:
			given = false
			return nil
		case a15End:
			if given {
				return nil
			}
			return []key{{missing: step}}
		}
		if (once && given) || !match(p) {
			return nil
		}
		given = true
		return ks(p)
	}
}

// nightKeys gives ks in the night step kind on night n.
func nightKeys(n int, kind engine.StepKind, ks []key) keysFn {
	return stepKeys(fmt.Sprintf("night %d %s", n, kind),
		func(p engine.Prompt) bool {
			return p.Step == engine.WaitNight && p.Night == n && p.StepKind == kind
		},
		func(engine.Prompt) []key { return ks })
}

// voteKeys gives ks(p) in day n's vote of kind.
func voteKeys(n int, kind engine.VoteKind, ks func(p engine.Prompt) []key) keysFn {
	return stepKeys(fmt.Sprintf("day %d %s vote", n, kind),
		func(p engine.Prompt) bool { return p.Step == engine.WaitVote && p.Day == n && p.VoteKind == kind }, ks)
}

// both gives the keys of every f, in order.
func both(fs ...keysFn) keysFn {
	return func(p engine.Prompt) []key {
		var out []key
		for _, f := range fs {
			if f != nil {
				out = append(out, f(p)...)
			}
		}
		return out
	}
}

// a15Game is one game of an A15 comparison.
type a15Game struct {
	board string
	deal  []engine.Role
	setup func(b *engine.Board) // the board's options, when the test sets any
	keys  keysFn                // each new step's inputs, given when it opens
	// The trace runs from the start of night from (0: from the game's
	// start) to the end of night to (day to's phase record), with times
	// from its start.
	from, to int
}

// trace plays the game, with an idle judge (the pedal where it advances,
// else the earliest timer runs out), and returns its public trace: every
// line said, light and timer, with its time. It fails the test on any
// refusal the test did not declare, on a declared refusal that did not
// happen or had another reason, and when the game ends before night to
// does.
func (a a15Game) trace(t *testing.T) []string {
	t.Helper()
	b, err := boards.Get(a.board)
	if err != nil {
		t.Fatal(err)
	}
	if a.setup != nil {
		a.setup(b)
	}
	g, err := engine.New(engine.Config{Board: b, Deal: a.deal, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := &a15Run{a: a, t: t, g: g, timers: map[engine.TimerID]int{}, tracing: a.from == 0}
	if a.keys != nil {
		a.keys(engine.Prompt{Step: a15Begin})
	}
	effs, err := g.Start()
	if err != nil {
		t.Fatal(err)
	}
	r.observe(effs)
	seq := -1
	for i := 0; i < 100000; i++ {
		p := g.Awaiting()
		if r.done {
			r.finish()
			return r.trace
		}
		if p.Over {
			t.Fatalf("%s: the game ended (%s) before night %d did", a.board, where(p), a.to)
		}
		if s := g.StepSeq(); s != seq {
			seq = s
			if a.keys != nil {
				for _, k := range a.keys(p) {
					r.give(p, k)
				}
			}
			continue
		}
		if g.PedalAdvances() {
			r.must(p, engine.Pedal(engine.PedalShort))
			continue
		}
		r.expire(p)
	}
	t.Fatalf("%s: the game did not reach the end of night %d", a.board, a.to)
	return nil
}

// a15Run is one A15 game being played: the clock, its timers and the
// trace of the nights asked for.
type a15Run struct {
	a             a15Game
	t             *testing.T
	g             *engine.Game
	now, start    int
	timers        map[engine.TimerID]int
	trace         []string
	tracing, done bool
}

// observe traces the public effects of the nights asked for.
func (r *a15Run) observe(effs []engine.Effect) {
	for _, e := range effs {
		if r.done {
			return
		}
		switch e.Kind {
		case engine.EffRecord:
			if e.Record.Type != engine.RecPhase {
				break
			}
			if e.Record.When == fmt.Sprintf("night-%d", r.a.from) {
				r.tracing, r.start = true, r.now
			}
			r.done = e.Record.When == fmt.Sprintf("day-%d", r.a.to)
		case engine.EffTimerStart:
			r.timers[e.Timer] = r.now + e.Seconds
			r.log("%d timer %d", r.now-r.start, e.Seconds)
		case engine.EffTimerCancel:
			delete(r.timers, e.Timer)
		case engine.EffSay:
			r.log("%d say %s %v", r.now-r.start, e.Line, e.Args)
		case engine.EffLight:
			r.log("%d light %d %v %v", r.now-r.start, e.Seat, e.Light, e.Pulse)
		}
	}
}

func (r *a15Run) log(format string, args ...any) {
	if r.tracing {
		r.trace = append(r.trace, fmt.Sprintf(format, args...))
	}
}

// must applies an input of the idle judge or the clock: never refused.
func (r *a15Run) must(p engine.Prompt, in engine.Input) {
	r.t.Helper()
	effs, err := r.g.Apply(in)
	if err != nil {
		r.t.Fatalf("%s, %s: %s refused: %v", r.a.board, where(p), show(in), err)
	}
	r.observe(effs)
}

// give applies a key of the test: accepted, or refused with the reason
// the test declared.
func (r *a15Run) give(p engine.Prompt, k key) {
	r.t.Helper()
	effs, err := r.g.Apply(k.in)
	var ee *engine.Error
	switch {
	case err == nil && k.refused == "":
		r.observe(effs)
	case err == nil:
		r.t.Fatalf("%s, %s: %s was accepted; the test expects it refused (%s: %s)", r.a.board, where(p), show(k.in), k.refused, k.why)
	case k.refused == "":
		r.t.Fatalf("%s, %s: %s refused: %v\n(an A15 game's keys must be accepted: a refused key changes nothing, and the comparison would prove nothing; declare a refusal the test means with refuse)", r.a.board, where(p), show(k.in), err)
	case !errors.As(err, &ee) || ee.Reason != k.refused:
		r.t.Fatalf("%s, %s: %s refused with %v; the test expects %s (%s)", r.a.board, where(p), show(k.in), err, k.refused, k.why)
	}
}

// expire runs the clock to the next timer and expires it.
func (r *a15Run) expire(p engine.Prompt) {
	r.t.Helper()
	var best engine.TimerID
	at := -1
	for id, x := range r.timers {
		if at < 0 || x < at || (x == at && id < best) {
			best, at = id, x
		}
	}
	if at < 0 {
		r.t.Fatalf("%s: stuck at %s", r.a.board, where(p))
	}
	r.now = at
	delete(r.timers, best)
	r.must(p, engine.TimerExpired(best))
}

// finish checks the traced nights had public events and every key of
// the test was given.
func (r *a15Run) finish() {
	r.t.Helper()
	if len(r.trace) == 0 {
		r.t.Fatalf("%s: nights %d to %d have no public event", r.a.board, r.a.from, r.a.to)
	}
	if r.a.keys == nil {
		return
	}
	for _, k := range r.a.keys(engine.Prompt{Step: a15End}) {
		if k.missing != "" {
			r.t.Fatalf("%s: the test's keys for %s were never given: that step never came before the end of night %d", r.a.board, k.missing, r.a.to)
		}
	}
}

// show names an input for a failure: "seat 7 target 9", "seat 7 up", "judge dq 4".
func show(in engine.Input) string {
	switch in.Kind {
	case engine.InSeat:
		if in.Action == engine.ActTarget {
			return fmt.Sprintf("seat %d target %d", in.Seat, in.Target)
		}
		return fmt.Sprintf("seat %d %s", in.Seat, in.Action)
	case engine.InJudge:
		return fmt.Sprintf("judge %v seat %d", in.Judge, in.Seat)
	}
	return fmt.Sprintf("%+v", in)
}

// where names a prompt for a failure.
func where(p engine.Prompt) string {
	if p.Day > 0 {
		return fmt.Sprintf("day %d %s %s", p.Day, p.Step, p.Kind())
	}
	return fmt.Sprintf("night %d %s %s", p.Night, p.Step, p.Kind())
}

// sameTrace fails unless two public traces (lines, lights and timers with
// their times, as the A15 tests of each role build them) are the same, and
// names the first entry where they part.
func sameTrace(t *testing.T, name string, a, b []string) {
	t.Helper()
	if len(a) < 5 {
		t.Fatalf("%s: a trace of %d entries: nothing to compare", name, len(a))
	}
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			t.Fatalf("%s: the public traces differ at entry %d (A15):\n  a: %s\n  b: %s", name, i+1, x, y)
		}
	}
}

// seatOf is the seat of the nth (from 0) r in deal.
func seatOf(deal []engine.Role, r engine.Role, nth int) int {
	for i, x := range deal {
		if x == r {
			if nth == 0 {
				return i + 1
			}
			nth--
		}
	}
	return 0
}

// swapSeats is deal with seats a and b's cards swapped.
func swapSeats(deal []engine.Role, a, b int) []engine.Role {
	d := append([]engine.Role(nil), deal...)
	d[a-1], d[b-1] = d[b-1], d[a-1]
	return d
}
