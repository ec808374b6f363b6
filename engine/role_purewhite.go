package engine

// 純白之女 and 狼巫 (rules.md B), a family: both learn a player's exact role.
// From night 2, 純白之女 checking a wolf removes it, and 狼巫 checking
// 純白之女 removes her (cause check). 狼巫 checks only outside the wolf camp.

type pureWhiteState struct {
	kills []int // tonight's checks that remove a player, in order
}

func pureWhiteHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) { g.rs.purewhite.kills = nil },
			step:      pureWhiteStep,
			resolve:   checkDeaths,
		},
	}
}

func wolfWitchHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			step: wolfWitchStep,
		},
	}
}

func pureWhiteStep(g *Game, s *step, _ StepKind, _ bool) bool {
	g.exactCheckStep(s, nil, func(_, target int, r Role) {
		if g.night >= 2 && r.IsWolf() {
			g.rs.purewhite.kills = append(g.rs.purewhite.kills, target)
		}
	})
	return false
}

func wolfWitchStep(g *Game, s *step, _ StepKind, _ bool) bool {
	g.exactCheckStep(s, func(_, t int) error {
		if g.role(t).IsWolf() {
			return errf(ErrRule, "狼巫 checks only players outside the wolf camp")
		}
		return nil
	}, func(_, target int, r Role) {
		if g.night >= 2 && r == PureWhite {
			g.rs.purewhite.kills = append(g.rs.purewhite.kills, target)
		}
	})
	return false
}

func checkDeaths(g *Game) {
	for _, t := range g.rs.purewhite.kills {
		if (g.living(t) || g.seats[t].dying) && !g.immuneAtNight(t) {
			g.nightDeath(t, CauseCheck)
		}
	}
}
