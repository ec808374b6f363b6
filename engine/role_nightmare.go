package engine

import "fmt"

// 噩夢之影 (rules.md B): fears one other player each night, never the same
// two nights running: the feared player's night skill is blocked; a feared
// wolf means no kill; feared and killed tonight, no shot. It meets the
// wolves from night 2 (RoleInfo.WolvesFrom).

type nightmareState struct {
	tonight, last int
}

func nightmareHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) { g.rs.nightmare.tonight = 0 },
			step:      nightmareStep,
			blocked:   func(g *Game, s int) bool { return g.rs.nightmare.tonight == s },
			dazed:     func(g *Game, s int) bool { return g.rs.nightmare.tonight == s },
			noKill: func(g *Game) bool {
				f := g.rs.nightmare.tonight
				return f > 0 && g.role(f) == Werewolf
			},
			dawn: func(g *Game) { g.rs.nightmare.last = g.rs.nightmare.tonight },
		},
		death: deathHooks{
			// by day the fear is over: an exiled hunter may shoot
			noShot: func(g *Game, s int) bool {
				return g.day == g.night && g.rs.nightmare.tonight == s && g.seats[s].when == fmt.Sprintf("night-%d", g.night)
			},
		},
	}
}

func nightmareStep(g *Game, s *step, _ StepKind, _ bool) bool {
	g.pickStep(s, "噩夢之影", func(seat, t int) error {
		if !g.living(t) || t == seat {
			return refuse(ErrBadTarget, Error{Reason: ReasonCannotTarget, Role: Nightmare, Target: t}, "噩夢之影 cannot fear seat %d", t)
		}
		if t == g.rs.nightmare.last {
			return refuse(ErrRule, Error{Reason: ReasonTwiceRunning, Role: Nightmare, Target: t}, "噩夢之影 cannot fear seat %d two nights running", t)
		}
		return nil
	}, func(actor, target int) {
		g.rs.nightmare.tonight = target
		if target > 0 {
			g.record(Record{Type: RecAction, Kind: string(ActionFear), By: actor, Target: target, When: g.when()})
		}
	})
	return false
}
