package engine

// 野孩子 (rules-more.md D2, D0.3): on night 1 the child must pick another
// player as its model (榜樣); a timeout picks a random other living seat.
// While the model lives the child is good and 民, and checks see 好人. Once
// the model is dead (wildchild.trigger: any death, or exile only) the child
// turns at the next nightfall — a model dead at night N turns it at the
// nightfall of day N+1, a model exiled on day D that evening — and plays
// 狼人 from then: it wakes with the wolves, checks see 狼人, and the win is
// checked at once (the child leaving 民 can complete 屠民). A model who is
// the last wolf and is exiled ends the game for good at once (the ordinary
// win check): the child, still good, wins with them.

type wildChildState struct {
	model []int // model[child seat]: its model (0 = none yet)
}

func wildChildHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			step:      wildChildStep,
			nightfall: wildChildTurn,
		},
	}
}

// wildChildStep: the child points at another living seat (seed 004 5、
// "野孩子睁眼后选择任意一名玩家，向法官示意后成为自己的榜样").
func wildChildStep(g *Game, s *step, _ StepKind, _ bool) bool {
	g.modelStep(s, WildChild, func(child, model int) {
		st := &g.rs.wildchild
		if st.model == nil {
			st.model = make([]int, g.n+1)
		}
		st.model[child] = model
	}, false, g.opt.WildChildSelf)
	return false
}

// modelStep is the pick of 野孩子 and 混血兒: another living seat, or on
// timeout a random one (firstSeat: the lowest other living seat); itself
// only when self allows it. set stores the pick; the judge is cued and the
// pick recorded.
func (g *Game) modelStep(s *step, r Role, set func(by, model int), firstSeat, self bool) {
	g.pickStep(s, r.Name(), func(seat, t int) error {
		if t == seat && !self {
			return refuse(ErrBadTarget, Error{Reason: ReasonSelf, Role: r}, "%s picks another player", r.Name())
		}
		if !g.living(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonCannotTarget, Role: r, Target: t}, "%s cannot pick seat %d", r.Name(), t)
		}
		return nil
	}, func(by, target int) {
		if target == 0 {
			var pool []int
			for x := 1; x <= g.n; x++ {
				if g.living(x) && x != by {
					pool = append(pool, x)
				}
			}
			if len(pool) == 0 {
				return
			}
			if firstSeat {
				target = pool[0]
			} else {
				target = pool[g.draw(0, len(pool)-1)]
			}
			g.cue(by, "cue.model.random", by, target)
		}
		set(by, target)
		g.record(Record{Type: RecAction, Kind: string(ActionModel), By: by, Target: target, When: g.when()})
	})
}

// wildChildTurn: at nightfall, every living child whose model is out turns.
func wildChildTurn(g *Game) {
	st := &g.rs.wildchild
	for c := 1; c < len(st.model); c++ {
		m := st.model[c]
		if m == 0 || g.role(c) != WildChild || !g.living(c) || g.living(m) {
			continue
		}
		if g.opt.WildChildTrigger == "exile_only" && !g.causedBy(m, CauseExile) {
			continue
		}
		g.setRole(c, Werewolf)
		g.cue(c, "cue.wildchild.turned", c, m)
		if w := g.winCheck(); w != "" {
			g.end(w)
			return
		}
	}
}

// ModelOf returns the model a 野孩子 or 混血兒 seat picked (0 = none, or
// not such a seat), for the judge's god view.
func (g *Game) ModelOf(s int) int {
	for _, m := range [][]int{g.rs.wildchild.model, g.rs.halfblood.model} {
		if s >= 1 && s < len(m) && m[s] > 0 {
			return m[s]
		}
	}
	return 0
}
