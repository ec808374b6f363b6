package engine_test

import (
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

// a15Trace is the public trace of board with deal from the game's start to
// the end of night until, the keys of act given at each step (the A15
// harness, a15_test.go: any refusal act does not declare fails the test).
func a15Trace(t *testing.T, board string, deal []engine.Role, until int, act keysFn) []string {
	t.Helper()
	return a15Game{board: board, deal: deal, keys: act, to: until}.trace(t)
}

// quiet are the keys of a night where nobody dies: an empty knife, the
// witch waving, nobody running for sheriff; on day 1 every voter exiles x
// (x 0: a game traced through night 1 only, no vote).
func quiet(x int, more keysFn) keysFn {
	exile := keysFn(func(engine.Prompt) []key { return nil })
	if x > 0 {
		exile = voteKeys(1, engine.VoteExile, func(p engine.Prompt) []key {
			var out []key
			for _, a := range p.Actors {
				out = append(out, accept(engine.SeatTarget(a, x))...)
			}
			return out
		})
	}
	return func(p engine.Prompt) []key {
		var out []key
		switch {
		case p.Step == engine.WaitNight && p.StepKind == engine.StepWolves:
			for _, a := range p.Actors {
				out = append(out, accept(engine.SeatTarget(a, 0))...)
			}
		case p.Step == engine.WaitNight && p.StepKind == engine.StepWitch:
			for _, a := range p.Actors {
				out = append(out, accept(engine.SeatGesture(a, engine.ActWave))...)
			}
		}
		out = append(out, exile(p)...)
		if more != nil {
			out = append(out, more(p)...)
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
	alive := a15Trace(t, b.ID, swapSeats(deal, elder, v), 2, quiet(elder, nightKeys(2, engine.StepSilenceElder, accept(engine.SeatTarget(v, v2)))))
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
	vVotes := voteKeys(1, engine.VoteExile, func(engine.Prompt) []key { return accept(engine.SeatTarget(v, v2)) })
	stab := nightKeys(2, engine.StepStalker, accept(engine.SeatGesture(v, engine.ActUp)))
	dead := a15Trace(t, b.ID, deal, 2, quiet(st, vVotes))
	kills := a15Trace(t, b.ID, swapSeats(deal, st, v), 2, quiet(st, both(vVotes, stab)))
	sameTrace(t, "潛行者 dead vs killing", dead, kills)
	// he voted for the exiled seat: not eligible, his key refused
	dead = a15Trace(t, b.ID, deal, 2, quiet(st, nil))
	ineligible := a15Trace(t, b.ID, swapSeats(deal, st, v), 2, quiet(st, nightKeys(2, engine.StepStalker,
		refuse(engine.ReasonNotEligible, "he voted for the seat exiled on day 1", engine.SeatGesture(v, engine.ActUp)))))
	sameTrace(t, "潛行者 dead vs ineligible", dead, ineligible)
	// night 1: never eligible
	n1 := a15Trace(t, b.ID, deal, 1, quiet(0, nightKeys(1, engine.StepStalker,
		refuse(engine.ReasonNotEligible, "nobody has voted yet on night 1", engine.SeatGesture(st, engine.ActUp)))))
	n1dead := a15Trace(t, b.ID, swapSeats(deal, st, v3), 1, quiet(0, nil))
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
	alive := a15Trace(t, b.ID, swapSeats(deal, bf, v), 2, quiet(bf, nightKeys(2, engine.StepButterfly, accept(engine.SeatTarget(v, v2)))))
	sameTrace(t, "花蝴蝶 dead vs alive", dead, alive)
	// through night 3: hugs on nights 1 and 2, then used up (night 3's hug
	// refused), vs no hug at all; day 1 exiles v, day 2 nobody
	hugs := both(nightKeys(1, engine.StepButterfly, accept(engine.SeatTarget(bf, v2))),
		nightKeys(2, engine.StepButterfly, accept(engine.SeatTarget(bf, v3))),
		nightKeys(3, engine.StepButterfly, refuse(engine.ReasonSkillUsed, "two hugs a game, both given", engine.SeatTarget(bf, v2))))
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
	votes := voteKeys(1, engine.VoteExile, func(engine.Prompt) []key { return accept(engine.SeatTarget(st, v2)) })
	// the hugged seat's key is refused (blocked), the others' accepted
	hug := func(x int) keysFn {
		key := func(seat int, in engine.Input) []key {
			if seat == x {
				return refuse(engine.ReasonBlocked, "the butterfly hugged him tonight", in)
			}
			return accept(in)
		}
		return both(votes,
			nightKeys(2, engine.StepButterfly, accept(engine.SeatTarget(bf, x))),
			nightKeys(2, engine.StepSeer, key(seer, engine.SeatTarget(seer, w))),
			nightKeys(2, engine.StepStalker, key(st, engine.SeatGesture(st, engine.ActUp))))
	}
	free := a15Trace(t, b.ID, deal, 2, quiet(v, hug(v2)))
	sameTrace(t, "hugged seer vs hugged villager", free, a15Trace(t, b.ID, deal, 2, quiet(v, hug(seer))))
	sameTrace(t, "hugged stalker vs hugged villager", free, a15Trace(t, b.ID, deal, 2, quiet(v, hug(st))))
}
