package engine

// 獵人 (rules.md B): shoots when out (RoleInfo.ShotOn); at night the judge
// shows him whether he could shoot tonight (status gesture).

func hunterHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			leftOut: func(g *Game, _ StepKind) bool { return g.hunterStepLeftOut() },
			step:    hunterStatus,
		},
		death: deathHooks{
			// hunter.shoot_causes any_but_poison_grief: every death but poison and grief
			shotOn: func(g *Game, s int) ([]Cause, bool) {
				if g.role(s) == Hunter && g.opt.HunterShootCauses == "any_but_poison_grief" {
					return shotCausesAny(), true
				}
				return nil, false
			},
			died: hunterShows,
		},
	}
}

// hunterState: the hunters who shot, so showed their card
// (night.skip_dead_revealed_hunter).
type hunterState struct{ shown []int }

// hunterStepLeftOut: under night.skip_dead_revealed_hunter ([001] (9)
// "猎人在翻牌开***带人自证后，法官在黑夜则可以省略猎人睁眼的环节") the 獵人 step is
// left out once every 獵人 is out and has shot. Both facts are public, so
// leaving the step out tells nothing (A15 holds for what is hidden).
func (g *Game) hunterStepLeftOut() bool {
	if !g.opt.SkipRevealedHunter {
		return false
	}
	hunters := 0
	for s := 1; s <= g.n; s++ {
		if g.role(s) != Hunter {
			continue
		}
		if !g.seats[s].out || !contains(g.rs.hunter.shown, s) {
			return false
		}
		hunters++
	}
	return hunters > 0 // a buried 獵人 card is hidden: its step runs
}

func hunterStatus(g *Game, s *step, _ StepKind, live bool) bool {
	g.say("night.hunter.status")
	if live {
		h := s.actors[0]
		line := "cue.hunter.can"
		if !g.canShootTonight(h) {
			line = "cue.hunter.cannot"
		}
		g.cue(h, line, h)
	}
	return true
}

// canShootTonight: poisoned tonight, or dying of grief tonight → cannot. A poison that cannot hurt him
// (the sleepwalker) does not take the gun.
func (g *Game) canShootTonight(h int) bool {
	return !(g.ns.poisoned[h] && !g.immuneAtNight(h)) && !g.nightBlocked(h) && !g.griefTonight(h)
}

// hunterShows: a 獵人 shot somebody by day (the seat that died of his
// shot); his card is public now.
func hunterShows(g *Game, _ int, c Cause) {
	if s := g.shooter; c == CauseShot && s > 0 && g.role(s) == Hunter {
		g.rs.hunter.shown = append(g.rs.hunter.shown, s)
	}
}
