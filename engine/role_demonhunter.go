package engine

// 獵魔人 (rules.md B): from night 2 hunts another player: a wolf dies, and a
// good player costs the demon hunter his life (std). The witch's poison does
// not kill him (RoleInfo.PoisonOK).

type demonHunterState struct {
	target, hunter int // tonight's hunt
}

func demonHunterHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) { g.rs.demonhunter = demonHunterState{} },
			step:      demonHunterStep,
			resolve:   huntDeaths,
		},
	}
}

func demonHunterStep(g *Game, s *step, _ StepKind, _ bool) bool {
	g.say("night.demonhunter.ask")
	g.pickStep(s, "獵魔人", func(seat, t int) error {
		if !g.living(t) || t == seat {
			return refuse(ErrBadTarget, Error{Reason: ReasonCannotTarget, Role: DemonHunter, Target: t}, "獵魔人 cannot hunt seat %d", t)
		}
		return nil
	}, func(actor, target int) {
		if target > 0 {
			g.rs.demonhunter = demonHunterState{target: target, hunter: actor}
			g.record(Record{Type: RecAction, Kind: string(ActionHunt), By: actor, Target: target, When: g.when()})
		}
	})
	return false
}

func huntDeaths(g *Game) {
	t, h := g.rs.demonhunter.target, g.rs.demonhunter.hunter
	if t == 0 || h == 0 {
		return
	}
	if g.role(t).IsWolf() {
		if !g.immuneAtNight(t) {
			g.nightDeath(t, CauseHunt)
		}
	} else if !g.immuneAtNight(h) {
		g.nightDeath(h, CauseHunt) // hunting a good player: the demon hunter dies (std)
	}
}
