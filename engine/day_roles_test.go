package engine_test

import (
	"fmt"
	"testing"

	"wolftable/boards"
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

// a15Trace plays board with deal under the fixed pace, giving each new step
// the inputs of act (errors ignored: a refused key changes nothing), and
// returns the public trace — every line said, light and timer, with its
// time — until night `until` ends (A15: nothing public may depend on a
// hidden fact at night).
func a15Trace(t *testing.T, board string, deal []engine.Role, until int, act func(p engine.Prompt) []engine.Input) []string {
	t.Helper()
	b, err := boards.Get(board)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.New(engine.Config{Board: b, Deal: deal, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	now, timers := 0, map[engine.TimerID]int{}
	var trace []string
	done := false
	observe := func(effs []engine.Effect) {
		for _, e := range effs {
			if done {
				return
			}
			switch e.Kind {
			case engine.EffRecord:
				done = e.Record.Type == engine.RecPhase && e.Record.When == fmt.Sprintf("day-%d", until)
			case engine.EffTimerStart:
				timers[e.Timer] = now + e.Seconds
				trace = append(trace, fmt.Sprintf("%d timer %d", now, e.Seconds))
			case engine.EffTimerCancel:
				delete(timers, e.Timer)
			case engine.EffSay:
				trace = append(trace, fmt.Sprintf("%d say %s %v", now, e.Line, e.Args))
			case engine.EffLight:
				trace = append(trace, fmt.Sprintf("%d light %d %v %v", now, e.Seat, e.Light, e.Pulse))
			}
		}
	}
	effs, err := g.Start()
	if err != nil {
		t.Fatal(err)
	}
	observe(effs)
	seq := 0
	for i := 0; i < 100000; i++ {
		p := g.Awaiting()
		if p.Over || p.Day == until {
			return trace
		}
		if s := g.StepSeq(); s != seq {
			seq = s
			for _, in := range act(p) {
				if effs, err := g.Apply(in); err == nil {
					observe(effs)
				}
			}
			continue
		}
		if g.PedalAdvances() {
			effs, _ := g.Apply(engine.Pedal(engine.PedalShort))
			observe(effs)
			continue
		}
		var best engine.TimerID
		at := -1
		for id, x := range timers {
			if at < 0 || x < at || (x == at && id < best) {
				best, at = id, x
			}
		}
		if at < 0 {
			t.Fatalf("stuck at %+v", p)
		}
		now = at
		delete(timers, best)
		effs, err := g.Apply(engine.TimerExpired(best))
		if err != nil {
			t.Fatal(err)
		}
		observe(effs)
	}
	t.Fatal("the game did not reach the day")
	return nil
}

// quiet are the keys of a night where nobody dies: an empty knife, the
// witch waving, nobody running for sheriff; on day 1 every voter exiles x.
func quiet(x int, more func(p engine.Prompt) []engine.Input) func(p engine.Prompt) []engine.Input {
	return func(p engine.Prompt) []engine.Input {
		var out []engine.Input
		switch {
		case p.Step == engine.WaitNight && p.Kind == string(engine.StepWolves):
			for _, a := range p.Actors {
				out = append(out, engine.SeatTarget(a, 0))
			}
		case p.Step == engine.WaitNight && p.Kind == string(engine.StepWitch):
			for _, a := range p.Actors {
				out = append(out, engine.SeatGesture(a, engine.ActWave))
			}
		case p.Step == engine.WaitVote && p.Kind == engine.VoteExile:
			for _, a := range p.Actors {
				out = append(out, engine.SeatTarget(a, x))
			}
		}
		if more != nil {
			out = append(out, more(p)...)
		}
		return out
	}
}

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

func swapSeats(deal []engine.Role, a, b int) []engine.Role {
	d := append([]engine.Role(nil), deal...)
	d[a-1], d[b-1] = d[b-1], d[a-1]
	return d
}

// nightKeys gives seat the keys in the night step kind on night n.
func nightKeys(n int, kind engine.StepKind, seat int, ins ...engine.Input) func(p engine.Prompt) []engine.Input {
	return func(p engine.Prompt) []engine.Input {
		if p.Step == engine.WaitNight && p.Night == n && p.Kind == string(kind) {
			return ins
		}
		return nil
	}
}

func both(fs ...func(p engine.Prompt) []engine.Input) func(p engine.Prompt) []engine.Input {
	return func(p engine.Prompt) []engine.Input {
		var out []engine.Input
		for _, f := range fs {
			out = append(out, f(p)...)
		}
		return out
	}
}

// TestSilenceElderA15: night 2 with the elder alive (he silences a seat) and
// dead (exiled on day 1) has the same step lengths, lines and lights.
func TestSilenceElderA15(t *testing.T) {
	b, _ := boards.Get("silence-elder-003")
	deal := engine.Deal(b, 7)
	elder, v := seatOf(deal, engine.SilenceElder, 0), seatOf(deal, engine.Villager, 0)
	v2 := seatOf(deal, engine.Villager, 1)
	dead := a15Trace(t, b.ID, deal, 2, quiet(elder, nil))
	alive := a15Trace(t, b.ID, swapSeats(deal, elder, v), 2, quiet(elder, nightKeys(2, engine.StepSilenceElder, v, engine.SeatTarget(v, v2))))
	sameTrace(t, "禁言長老 dead vs alive", dead, alive)
}

// TestStalkerA15: night 2 with the stalker eligible and killing, dead, and
// ineligible (he voted for the exiled seat) gives the same public trace.
func TestStalkerA15(t *testing.T) {
	b, _ := boards.Get("silence-elder-003")
	deal := engine.Deal(b, 7)
	st, v := seatOf(deal, engine.Stalker, 0), seatOf(deal, engine.Villager, 0)
	v2, v3 := seatOf(deal, engine.Villager, 1), seatOf(deal, engine.Villager, 2)
	// seat v votes v2 while everyone else exiles st's seat: the stalker, when
	// he sits at v, may kill v2 on night 2
	vVotes := func(p engine.Prompt) []engine.Input {
		if p.Step == engine.WaitVote && p.Kind == engine.VoteExile {
			return []engine.Input{engine.SeatTarget(v, v2)}
		}
		return nil
	}
	stab := nightKeys(2, engine.StepStalker, v, engine.SeatGesture(v, engine.ActUp))
	dead := a15Trace(t, b.ID, deal, 2, quiet(st, vVotes))
	kills := a15Trace(t, b.ID, swapSeats(deal, st, v), 2, quiet(st, both(vVotes, stab)))
	sameTrace(t, "潛行者 dead vs killing", dead, kills)
	// he voted for the exiled seat: not eligible, his key refused
	dead = a15Trace(t, b.ID, deal, 2, quiet(st, nil))
	ineligible := a15Trace(t, b.ID, swapSeats(deal, st, v), 2, quiet(st, stab))
	sameTrace(t, "潛行者 dead vs ineligible", dead, ineligible)
	// night 1: never eligible
	n1 := a15Trace(t, b.ID, deal, 1, quiet(st, nightKeys(1, engine.StepStalker, st, engine.SeatGesture(st, engine.ActUp))))
	n1dead := a15Trace(t, b.ID, swapSeats(deal, st, v3), 1, quiet(st, nil))
	sameTrace(t, "潛行者 night 1", n1, n1dead)
}

// TestButterflyA15: the butterfly alive and hugging, dead, and used up
// (two hugs on nights 1 and 2) gives the same public trace through night 3.
func TestButterflyA15(t *testing.T) {
	b, _ := boards.Get("butterfly-003")
	deal := engine.Deal(b, 7)
	bf, v := seatOf(deal, engine.Butterfly, 0), seatOf(deal, engine.Villager, 0)
	v2, v3 := seatOf(deal, engine.Villager, 1), seatOf(deal, engine.Villager, 2)
	// night 2's dead butterfly vs a live one hugging a villager
	dead := a15Trace(t, b.ID, deal, 2, quiet(bf, nil))
	alive := a15Trace(t, b.ID, swapSeats(deal, bf, v), 2, quiet(bf, nightKeys(2, engine.StepButterfly, v, engine.SeatTarget(v, v2))))
	sameTrace(t, "花蝴蝶 dead vs alive", dead, alive)
	// through night 3: hugs on nights 1 and 2, then used up, vs no hug at all;
	// the day-2 exile (a vote the bots never give) is the quiet one of seat v3
	hugs := both(nightKeys(1, engine.StepButterfly, bf, engine.SeatTarget(bf, v2)),
		nightKeys(2, engine.StepButterfly, bf, engine.SeatTarget(bf, v3)),
		nightKeys(3, engine.StepButterfly, bf, engine.SeatTarget(bf, v2)))
	usedUp := a15Trace(t, b.ID, deal, 3, quiet(v, hugs))
	none := a15Trace(t, b.ID, deal, 3, quiet(v, nil))
	sameTrace(t, "花蝴蝶 used up vs waving", usedUp, none)
}

// TestButterflyBlockedA15: a hugged seer and a hugged stalker (blocked) give
// the same public night as a hug on a villager.
func TestButterflyBlockedA15(t *testing.T) {
	b, _ := boards.Get("butterfly-003")
	deal := engine.Deal(b, 7)
	bf, seer := seatOf(deal, engine.Butterfly, 0), seatOf(deal, engine.Seer, 0)
	st, v := seatOf(deal, engine.Stalker, 0), seatOf(deal, engine.Villager, 0)
	v2, w := seatOf(deal, engine.Villager, 1), seatOf(deal, engine.Werewolf, 0)
	// everyone exiles v on day 1 but the stalker, who votes v2: eligible on night 2
	votes := func(p engine.Prompt) []engine.Input {
		if p.Step == engine.WaitVote && p.Kind == engine.VoteExile {
			return []engine.Input{engine.SeatTarget(st, v2)}
		}
		return nil
	}
	keys := both(votes,
		nightKeys(2, engine.StepSeer, seer, engine.SeatTarget(seer, w)),
		nightKeys(2, engine.StepStalker, st, engine.SeatGesture(st, engine.ActUp)))
	hug := func(x int) func(p engine.Prompt) []engine.Input {
		return both(keys, nightKeys(2, engine.StepButterfly, bf, engine.SeatTarget(bf, x)))
	}
	free := a15Trace(t, b.ID, deal, 2, quiet(v, hug(v2)))
	sameTrace(t, "hugged seer vs hugged villager", free, a15Trace(t, b.ID, deal, 2, quiet(v, hug(seer))))
	sameTrace(t, "hugged stalker vs hugged villager", free, a15Trace(t, b.ID, deal, 2, quiet(v, hug(st))))
}
