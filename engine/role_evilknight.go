package engine

// 惡靈騎士 (rules.md B): cannot die at night (RoleInfo.NightProof) and cannot
// explode; once per game, the seer who checks him or the witch who poisons
// him dies that night (反傷) — the seer instead of the witch when both hit
// him the same night.

type evilKnightState struct {
	used    bool
	reflect int  // tonight's reflection: the seer or the witch
	byWitch bool // … the witch, so far tonight
}

func evilKnightHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) { g.rs.evilknight.reflect, g.rs.evilknight.byWitch = 0, false },
			reached: func(g *Game, by, _ int, c Cause) {
				e := &g.rs.evilknight
				switch {
				case c == CauseCheck && (!e.used || e.byWitch):
					e.used, e.reflect, e.byWitch = true, by, false // the seer's check
				case c == CausePoison && !e.used:
					// the poison: if the seer checks him later tonight, only the seer dies
					e.used, e.reflect, e.byWitch = true, by, true
				}
			},
			resolve: func(g *Game) {
				if r := g.rs.evilknight.reflect; r > 0 {
					g.nightDeath(r, CauseReflect)
				}
			},
		},
	}
}
