package engine

// 狼人 (rules.md B): the wolves' step, where every role that wakes with the
// wolves (RoleInfo.WolvesFrom) points, and the shared kill.

func werewolfHooks() roleHooks { return roleHooks{step: wolvesStep} }

// wolvesStep: every wolf points; the kill happens only when all of them
// agree before time runs out, else 空刀.
func wolvesStep(g *Game, s *step, _ StepKind, _ bool) bool {
	g.say("night.wolves.ask")
	point := map[int]int{}
	s.act = func(seat int, a Action, t int) error {
		if a != ActTarget {
			return errf(ErrNotNow, "the wolves point at a seat (0 = empty knife)")
		}
		if g.noKill() {
			return errf(ErrRule, "a wolf is feared tonight: the wolves cannot kill (噩夢之影)")
		}
		if t != 0 && !g.living(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
		}
		if t != 0 && g.role(t).row().NoKnife {
			// 狼美人, 惡魔 ("恶魔无法自刀"): the pack cannot pick the seat
			return refuse(ErrRule, Error{Reason: ReasonCannotTarget, Role: Werewolf, Target: t}, "%s cannot be knifed by the pack", g.role(t).Name())
		}
		point[seat] = t
		return nil
	}
	s.reset = func() { point = map[int]int{} }
	s.agreed = func() (int, bool) {
		target := -1
		for _, a := range s.actors {
			if !g.living(a) && !contains(g.exploded, a) {
				continue // DQ'd
			}
			t, ok := point[a]
			if !ok || (target >= 0 && t != target) {
				return 0, false
			}
			target = t
		}
		return target, target >= 0
	}
	s.done = func() bool { _, ok := s.agreed(); return ok }
	s.commit = func() {
		if t, ok := s.agreed(); ok {
			g.ns.kill = t
			g.record(Record{Type: RecAction, Kind: ActionKill, Target: t, When: g.when()})
		} else {
			g.record(Record{Type: RecAction, Kind: ActionKill, Target: 0, When: g.when()})
		}
	}
	return false
}

// noKill: a board role forbids the wolves' kill tonight.
func (g *Game) noKill() bool {
	for i := range g.hooks {
		if h := g.hooks[i].noKill; h != nil && h(g) {
			return true
		}
	}
	return false
}
