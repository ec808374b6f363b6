package engine

// 預言家 (rules.md B): checks one other player each night and learns 好人
// or 狼人 (RoleInfo.Seen); the checked role may answer (its checked hook).

type seerState struct {
	check int // tonight's check
}

func seerHooks() roleHooks {
	return roleHooks{
		nightfall: func(g *Game) { g.rs.seer.check = 0 },
		step:      seerStep,
		closed:    seerResult,
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
	return false
}

// seerResult: after "他的身份為", the judge's gesture and its record.
func seerResult(g *Game, s *step, live bool) {
	if !live || g.rs.seer.check == 0 {
		return
	}
	seer, t := s.actors[0], g.rs.seer.check
	res, line := WinGood, "cue.seer.good"
	if g.role(t).row().Seen() == WinWolves {
		res, line = WinWolves, "cue.seer.wolf"
	}
	g.cue(seer, line, seer, t)
	g.record(Record{Type: RecCheck, By: seer, Target: t, Result: string(res)})
	if h := g.self(t).checked; h != nil {
		h(g, seer, t)
	}
}
