package engine

// 獵人 (rules.md B): shoots when out (RoleInfo.ShotOn); at night the judge
// shows him whether he could shoot tonight (status gesture).

func hunterHooks() roleHooks { return roleHooks{step: hunterStatus} }

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
