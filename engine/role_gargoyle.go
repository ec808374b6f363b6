package engine

// 石像鬼 (rules.md B): never meets the wolves; checks a player's exact role
// each night, never the same player twice; kills only when every other wolf
// is out.

type gargoyleState struct {
	checked map[int]bool
}

func gargoyleHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			step: func(g *Game, s *step, k StepKind, live bool) bool {
				if k == StepGargoyleKill {
					g.gargoyleKillStep(s, live)
				} else {
					g.gargoyleCheckStep(s)
				}
				return false
			},
		},
	}
}

func (g *Game) gargoyleCheckStep(s *step) {
	gs := &g.rs.gargoyle
	g.exactCheckStep(s, func(_, t int) error {
		if gs.checked[t] {
			return refuse(ErrRule, Error{Reason: ReasonCheckedBefore, Role: Gargoyle}, "石像鬼 never checks the same player twice")
		}
		return nil
	}, func(_, target int, _ Role) {
		if gs.checked == nil {
			gs.checked = map[int]bool{}
		}
		gs.checked[target] = true
	})
}

// gargoyleAlone: every other wolf-camp player is out.
func (g *Game) gargoyleAlone(garg int) bool {
	for x := 1; x <= g.n; x++ {
		if x != garg && g.living(x) && g.role(x).IsWolf() {
			return false
		}
	}
	return true
}

// gargoyleKillStep: "石像鬼請睜眼，您今晚的帶刀狀態是…": it kills only alone.
func (g *Game) gargoyleKillStep(s *step, live bool) {
	g.say("night.gargoylekill.status")
	alone := live && g.gargoyleAlone(s.actors[0])
	if live {
		line := "cue.gargoyle.cannot"
		if alone {
			line = "cue.gargoyle.can"
		}
		g.cue(s.actors[0], line, s.actors[0])
	}
	// seed 000 石像鬼守墓人 （三）3）: "您今晚的帶刀狀態是（法官給手勢後），確認是他嗎？請
	// 選擇今晚要擊殺的目標" — said every night, alone or not, alive or not (A15)
	g.say("night.gargoylekill.ask")
	target := -1
	s.act = func(seat int, a Action, t int) error {
		if !alone {
			return errf(ErrRule, "石像鬼 kills only when every other wolf is out")
		}
		if a != ActTarget {
			return errf(ErrNotNow, "石像鬼 points at a seat (0 = none)")
		}
		if t != 0 && !g.living(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
		}
		target = t
		return nil
	}
	s.reset = func() { target = -1 }
	s.keys = []Key{{Target: TargetSeat}, {Word: "空刀", Target: TargetZero}}
	s.done = func() bool { return target >= 0 || !alone }
	s.commit = func() {
		if alone && target > 0 {
			g.ns.kill = target
			g.record(Record{Type: RecAction, Kind: string(ActionKill), By: s.actors[0], Target: target, When: g.when()})
		}
	}
}
