package engine

// 蝕時狼妃 (rules.md B): locks one player; only the first lock takes effect.
// The lock holds from the night it is made to the end of the next day: the
// locked player cannot use a skill and cannot vote (std).

type eclipseQueenState struct {
	used   bool
	locked int // the locked seat
	night  int // the night of the lock
}

func eclipseQueenHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			step:    eclipseStep,
			blocked: lockedNow,
		},
		day: dayHooks{
			silenced: lockedNow,
		},
	}
}

func lockedNow(g *Game, s int) bool {
	e := &g.rs.eclipsequeen
	return s != 0 && e.locked == s && g.night == e.night
}

func eclipseStep(g *Game, s *step, _ StepKind, _ bool) bool {
	e := &g.rs.eclipsequeen
	g.pickStep(s, "蝕時狼妃", func(seat, t int) error {
		if e.used {
			return refuse(ErrRule, Error{Reason: ReasonSkillUsed, Role: EclipseQueen}, "蝕時狼妃's lock takes effect once per game and is used")
		}
		if !g.living(t) || t == seat {
			return refuse(ErrBadTarget, Error{Reason: ReasonCannotTarget, Role: EclipseQueen, Target: t}, "蝕時狼妃 cannot lock seat %d", t)
		}
		return nil
	}, func(actor, target int) {
		if target > 0 {
			e.used, e.locked, e.night = true, target, g.night
			g.record(Record{Type: RecAction, Kind: string(ActionLock), By: actor, Target: target, When: g.when()})
		}
	})
	return false
}
