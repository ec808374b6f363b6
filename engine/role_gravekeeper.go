package engine

// 守墓人 (rules.md B): each night learns whether yesterday's exiled player
// was 好人 or 狼人 (a check record, like every piece of night information a
// player gets).

type gravekeeperState struct {
	exiled int // yesterday's exiled player
	day    int // the day of that exile
}

func gravekeeperHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) {
				if g.day > 0 && g.rs.gravekeeper.day != g.day {
					g.rs.gravekeeper.exiled = 0
				}
			},
			step: gravekeeperStep,
		},
		day: dayHooks{
			exileSeen: func(g *Game, s int) { g.rs.gravekeeper.exiled, g.rs.gravekeeper.day = s, g.day },
		},
	}
}

func gravekeeperStep(g *Game, s *step, _ StepKind, live bool) bool {
	g.say("night.gravekeeper.result")
	if !live {
		return true
	}
	gk := s.actors[0]
	switch x := g.rs.gravekeeper.exiled; {
	case x == 0 || g.nightBlocked(gk):
		g.cue(gk, "cue.gravekeeper.none", gk)
	case g.role(x).row().Seen() == WinWolves:
		g.cue(gk, "cue.gravekeeper.wolf", gk, x)
		g.record(Record{Type: RecCheck, By: gk, Target: x, Result: string(WinWolves)})
	default:
		g.cue(gk, "cue.gravekeeper.good", gk, x)
		g.record(Record{Type: RecCheck, By: gk, Target: x, Result: string(WinGood)})
	}
	return true
}
