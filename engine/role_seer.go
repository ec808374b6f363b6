package engine

// 預言家 (rules.md B): checks one other player each night and learns 好人
// or 狼人 (RoleInfo.Seen); the checked role may answer (its checked hook).

type seerState struct {
	check  int // tonight's check
	check2 int // tonight's second check (the lucky one's glasses, once)
}

func seerHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) { g.rs.seer.check, g.rs.seer.check2 = 0, 0 },
			step:      seerStep,
			closed:    seerResult,
		},
	}
}

func seerStep(g *Game, s *step, _ StepKind, _ bool) bool {
	g.pickStep(s, "the seer", func(seat, t int) error {
		if g.nightBlocked(seat) {
			return refuse(ErrRule, Error{Reason: ReasonBlocked, Role: Seer}, "the seer's check is blocked tonight (feared, locked or sealed)")
		}
		if !g.living(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
		}
		if t == seat {
			return refuse(ErrBadTarget, Error{Reason: ReasonSelf, Role: Seer}, "the seer cannot check herself")
		}
		return nil
	}, func(_, target int) { g.rs.seer.check = target })
	if len(s.actors) > 0 && g.spare(s.actors[0], StepSeer, false) {
		seerDouble(g, s)
	}
	return false
}

// seerDouble: a seer holding the lucky one's glasses may key a second seat
// tonight (two checks, once a game).
func seerDouble(g *Game, s *step) {
	one, second := s.act, 0
	first := 0
	s.act = func(seat int, a Action, t int) error {
		if first == 0 || t == first || a != ActTarget {
			err := one(seat, a, t)
			if err == nil {
				first = t
			}
			return err
		}
		if err := one(seat, a, t); err != nil {
			return err
		}
		second = t
		return nil
	}
	reset := s.reset
	s.reset = func() { reset(); first, second = 0, 0 }
	commit := s.commit
	s.commit = func() {
		if first > 0 && second > 0 {
			g.spare(s.actors[0], StepSeer, true)
			g.rs.seer.check, g.rs.seer.check2 = first, second
			return
		}
		commit()
	}
}

// seerResult: after "他的身份為", the judge's gesture and its record.
func seerResult(g *Game, s *step, live bool) {
	if !live || g.rs.seer.check == 0 {
		return
	}
	seer := s.actors[0]
	for _, t := range []int{g.rs.seer.check, g.rs.seer.check2} {
		if t > 0 {
			seerCheck(g, seer, t)
		}
	}
}

func seerCheck(g *Game, seer, t int) {
	res, line := WinGood, "cue.seer.good"
	if g.role(t).row().Seen() == WinWolves {
		res, line = WinWolves, "cue.seer.wolf"
	}
	g.cue(seer, line, seer, t)
	g.record(Record{Type: RecCheck, By: seer, Target: t, Result: string(res)})
	g.reachedBy(seer, t, CauseCheck)
}
