package engine

// 魅魔 (rules-more.md D2, D0.3, G29, H3, H21): a wolf card. Night 1 she raises
// her hand in the wolves' step, then wakes alone and keys a non-wolf seat
// (a wolf-camp seat is refused: she has just seen the pack); on timeout the
// engine picks a random living non-wolf. The judge taps her lover and both
// open their eyes in the 魅魔情侶 step. T2 = {魅魔, her lover} is a third
// camp at once; the lovers' rules (grief, lovers.no_mutual_vote) are
// 丘比特's (role_cupid.go). Later nights she keeps waking with the wolves
// (succubus.later_nights=with_wolves; her agreement counts for the kill, so
// she can force 空刀, H21), or sleeps (asleep).

type succubusState struct {
	pick int    // her key tonight
	pair [2]int // her pair ({0, 0} = none yet)
}

func succubusHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			step:   succubusStep,
			closed: succubusClosed,
			actors: func(g *Game, k StepKind) ([]int, bool) { return pairSeats(g.rs.succubus.pair), k == StepSuccubusLovers },
			asleep: func(g *Game, s int) bool {
				return g.opt.SuccubusLaterNights == "asleep" && g.night > 1 && g.role(s) == Succubus
			},
		},
		day: dayHooks{
			ballot: loversBallot,
		},
		death: deathHooks{
			died: loversDied,
		},
	}
}

func succubusStep(g *Game, s *step, k StepKind, _ bool) bool {
	if k == StepSuccubusLovers {
		return true // open and close only
	}
	g.pickStep(s, "魅魔", func(seat, t int) error {
		if g.nightBlocked(seat) {
			return refuse(ErrRule, Error{Reason: ReasonBlocked, Role: Succubus}, "魅魔's pick is blocked tonight")
		}
		if !g.living(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
		}
		if t == seat {
			return refuse(ErrBadTarget, Error{Reason: ReasonSelf, Role: Succubus}, "魅魔 cannot pick herself")
		}
		if g.role(t).IsWolf() {
			return refuse(ErrBadTarget, Error{Reason: ReasonWolfLover, Target: t}, "魅魔 picks a good player, not the wolf at seat %d", t)
		}
		return nil
	}, func(_, t int) { g.rs.succubus.pick = t })
	return false
}

// succubusClosed: the pair is made (a random living non-wolf when she keyed
// nobody). The engine draws on every board night whatever happened, so the
// random stream does not depend on her (A15).
func succubusClosed(g *Game, s *step, live bool) {
	if s.night != StepSuccubus {
		return
	}
	st := &g.rs.succubus
	r := g.draw(0, 1<<30)
	if !live || st.pair[0] != 0 {
		return
	}
	me := s.actors[0]
	if st.pick == 0 {
		var good []int
		for x := 1; x <= g.n; x++ {
			if g.living(x) && !g.role(x).IsWolf() {
				good = append(good, x)
			}
		}
		if len(good) == 0 {
			return
		}
		st.pick = good[r%len(good)]
		g.cue(me, "cue.succubus.random", me, st.pick)
	}
	st.pair = [2]int{me, st.pick}
	g.link(me, st.pair)
	g.cs.third = append(g.cs.third, []int{me, st.pick})
}
