package engine

// 守衛 (rules.md B): guards any player, self included, or none; never the
// same player two nights running. 同守同救: guarded and saved, the victim dies.

type guardState struct {
	tonight, last int
}

func guardHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) { g.rs.guard.tonight = 0 },
			step:      guardStep,
			guarded:   func(g *Game, s int) bool { return g.rs.guard.tonight == s },
			dawn:      func(g *Game) { g.rs.guard.last = g.rs.guard.tonight },
		},
	}
}

func guardStep(g *Game, s *step, _ StepKind, _ bool) bool {
	target, chosen := 0, false
	s.act = func(seat int, a Action, t int) error {
		switch a {
		case ActWave:
			target, chosen = 0, true
			return nil
		case ActTarget:
		default:
			return errf(ErrNotNow, "the guard points at a seat (0 or wave = none)")
		}
		if t != 0 && g.nightBlocked(seat) {
			return refuse(ErrRule, Error{Reason: ReasonBlocked, Role: Guard}, "the guard's skill is blocked tonight (feared, locked or sealed)")
		}
		if t != 0 && !g.living(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
		}
		if t != 0 && t == g.rs.guard.last {
			return refuse(ErrRule, Error{Reason: ReasonTwiceRunning, Role: Guard, Target: t}, "the guard cannot guard seat %d two nights running", t)
		}
		target, chosen = t, true
		return nil
	}
	s.reset = func() { target, chosen = 0, false }
	s.keys = []Key{{Target: TargetSeat}, {Word: "不用", Target: TargetZero}, {Word: "不用", Press: []Action{ActWave}}} // 0: the key 0
	s.done = func() bool { return chosen }
	s.commit = func() {
		g.rs.guard.tonight = target
		g.record(Record{Type: RecAction, Kind: string(ActionGuard), By: s.actors[0], Target: target, When: g.when()})
	}
	return false
}
