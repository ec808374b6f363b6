package engine

// 獵人 (rules.md B): shoots when out (RoleInfo.ShotOn); at night the judge
// shows him whether he could shoot tonight (status gesture).

func hunterHooks() roleHooks { return roleHooks{step: hunterStatus} }

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

// hunterCauses: the deaths after which 獵人 (and the lucky one's gun) may
// shoot under hunter.shoot_causes; shot is the card's own list.
func (g *Game) hunterCauses(s int, gun bool, shot []Cause) []Cause {
	if (gun || g.role(s) == Hunter) && g.opt.HunterShootCauses == "any_but_poison_grief" {
		return shotCausesAny()
	}
	return shot
}

// hunterShows: seat s shot by day; a 獵人's card is public now.
func (g *Game) hunterShows(s int) {
	if g.role(s) == Hunter {
		g.rs.hunter.shown = append(g.rs.hunter.shown, s)
	}
}
