package engine

// The roles of the remaining seed-000 boards (rules.md part B, issue 6):
// 攝夢人, 噩夢之影, 惡靈騎士, 血月使徒, 獵魔人, 蝕時狼妃, 定序王子, 狼巫,
// 純白之女, 石像鬼, 守墓人. Their night deaths resolve in endNight.

// nightBlocked: a seat cannot use a night skill now — feared tonight
// (噩夢之影), locked (蝕時狼妃, from the lock to the end of the next day), or
// a good role on the night after 血月使徒 exploded
// (bloodmoon.seal_after_explode).
func (g *Game) nightBlocked(s int) bool {
	if g.ns.fear == s || g.lockedNow(s) {
		return true
	}
	return g.sealNight == g.night && g.role(s).Camp() != CampWolf
}

// lockedNow: 蝕時狼妃's lock holds from the night it is made to the end of
// the next day (std: the locked player cannot use a skill and cannot vote
// the next day).
func (g *Game) lockedNow(s int) bool { return s != 0 && g.locked == s && g.night == g.lockNight }

// dreamweaverStep: each night the dreamweaver must pick another player as
// sleepwalker (夢遊者); time running out → the system picks one at random
// (not last night's, which would kill it).
func (g *Game) dreamweaverStep(s *step) {
	g.pickStep(s, "攝夢人", func(seat, t int) error {
		if !g.living(t) || t == seat {
			return errf(ErrBadTarget, "攝夢人 cannot pick seat %d", t)
		}
		return nil
	}, func(dw, target int) {
		if g.nightBlocked(dw) {
			return
		}
		if target == 0 {
			var pool []int
			for x := 1; x <= g.n; x++ {
				if g.living(x) && x != dw && x != g.lastDream {
					pool = append(pool, x)
				}
			}
			if len(pool) == 0 {
				return
			}
			target = pool[g.draw(0, len(pool)-1)]
			g.cue(dw, "cue.dream.random", dw, target)
		}
		g.ns.dream = target
		g.record(Record{Type: RecAction, Kind: ActionDream, By: dw, Target: target, When: g.when()})
	})
}

// nightmareStep: fears one other player, never the same two nights running.
func (g *Game) nightmareStep(s *step) {
	g.pickStep(s, "噩夢之影", func(seat, t int) error {
		if !g.living(t) || t == seat {
			return errf(ErrBadTarget, "噩夢之影 cannot fear seat %d", t)
		}
		if t == g.lastFear {
			return errf(ErrRule, "噩夢之影 cannot fear seat %d two nights running", t)
		}
		return nil
	}, func(actor, target int) {
		g.ns.fear = target
		if target > 0 {
			g.record(Record{Type: RecAction, Kind: ActionFear, By: actor, Target: target, When: g.when()})
		}
	})
}

// eclipseStep: 蝕時狼妃 locks one player; only the first lock takes effect.
func (g *Game) eclipseStep(s *step) {
	g.pickStep(s, "蝕時狼妃", func(seat, t int) error {
		if g.lockUsed {
			return errf(ErrRule, "蝕時狼妃's lock takes effect once per game and is used")
		}
		if !g.living(t) || t == seat {
			return errf(ErrBadTarget, "蝕時狼妃 cannot lock seat %d", t)
		}
		return nil
	}, func(actor, target int) {
		if target > 0 {
			g.lockUsed, g.locked, g.lockNight = true, target, g.night
			g.record(Record{Type: RecAction, Kind: ActionLock, By: actor, Target: target, When: g.when()})
		}
	})
}

// hunterStep (獵魔人): from night 2 hunts another player.
func (g *Game) demonHunterStep(s *step) {
	g.say("night.demonhunter.ask")
	g.pickStep(s, "獵魔人", func(seat, t int) error {
		if !g.living(t) || t == seat {
			return errf(ErrBadTarget, "獵魔人 cannot hunt seat %d", t)
		}
		return nil
	}, func(actor, target int) {
		if target > 0 {
			g.ns.hunt, g.ns.hunter = target, actor
			g.record(Record{Type: RecAction, Kind: ActionHunt, By: actor, Target: target, When: g.when()})
		}
	})
}

// exactCheckStep: 狼巫, 純白之女 and 石像鬼 learn a player's exact role.
func (g *Game) exactCheckStep(s *step, k StepKind) {
	g.pickStep(s, "the checker", func(seat, t int) error {
		if !g.living(t) || t == seat {
			return errf(ErrBadTarget, "cannot check seat %d", t)
		}
		switch k {
		case StepWolfWitch:
			if g.role(t).IsWolf() {
				return errf(ErrRule, "狼巫 checks only players outside the wolf camp")
			}
		case StepGargoyle:
			if g.gargoyleChecked[t] {
				return errf(ErrRule, "石像鬼 never checks the same player twice")
			}
		}
		return nil
	}, func(by, target int) {
		if target == 0 {
			return
		}
		r := g.role(target)
		g.cue(by, "cue.exact."+string(r), by, target)
		g.record(Record{Type: RecCheck, By: by, Target: target, Result: r.Name()})
		switch k {
		case StepGargoyle:
			if g.gargoyleChecked == nil {
				g.gargoyleChecked = map[int]bool{}
			}
			g.gargoyleChecked[target] = true
		case StepWolfWitch:
			if g.night >= 2 && r == PureWhite {
				g.ns.checkKills = append(g.ns.checkKills, target)
			}
		case StepPureWhite:
			if g.night >= 2 && r.IsWolf() {
				g.ns.checkKills = append(g.ns.checkKills, target)
			}
		}
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
			return errf(ErrBadTarget, "seat %d is out", t)
		}
		target = t
		return nil
	}
	s.reset = func() { target = -1 }
	s.done = func() bool { return target >= 0 || !alone }
	s.commit = func() {
		if alone && target > 0 {
			g.ns.kill = target
			g.record(Record{Type: RecAction, Kind: ActionKill, By: s.actors[0], Target: target, When: g.when()})
		}
	}
}

// gravekeeperStep: learns whether yesterday's exiled player was 好人 or 狼人
// (a check record, like every piece of night information a player gets).
func (g *Game) gravekeeperStep(s *step, live bool) {
	g.say("night.gravekeeper.result")
	if !live {
		return
	}
	gk := s.actors[0]
	switch x := g.exiledYesterday; {
	case x == 0 || g.nightBlocked(gk):
		g.cue(gk, "cue.gravekeeper.none", gk)
	case g.role(x).IsWolf():
		g.cue(gk, "cue.gravekeeper.wolf", gk, x)
		g.record(Record{Type: RecCheck, By: gk, Target: x, Result: string(WinWolves)})
	default:
		g.cue(gk, "cue.gravekeeper.good", gk, x)
		g.record(Record{Type: RecCheck, By: gk, Target: x, Result: string(WinGood)})
	}
}

// immuneAtNight: the sleepwalker is immune to all night harm; 惡靈騎士
// cannot die at night.
func (g *Game) immuneAtNight(s int) bool { return s == g.ns.dream || g.role(s).row().NightProof }

// resolveRoles2 resolves the new roles' night deaths after the knife and
// the poison: hunt, check-kills, reflection, dream deaths.
func (g *Game) resolveRoles2() {
	if t := g.ns.hunt; t > 0 && g.ns.hunter > 0 {
		if g.role(t).IsWolf() {
			if !g.immuneAtNight(t) {
				g.nightDeath(t, CauseHunt)
			}
		} else if !g.immuneAtNight(g.ns.hunter) {
			g.nightDeath(g.ns.hunter, CauseHunt) // hunting a good player: the demon hunter dies (std)
		}
	}
	for _, t := range g.ns.checkKills {
		if (g.living(t) || g.seats[t].dying) && !g.immuneAtNight(t) {
			g.nightDeath(t, CauseCheck)
		}
	}
	if g.ns.reflect > 0 {
		g.nightDeath(g.ns.reflect, CauseReflect)
	}
	if d := g.ns.dream; d > 0 {
		dw := g.holders(Dreamweaver)
		linked := len(dw) > 0 && g.seats[dw[0]].dying
		if d == g.lastDream || linked {
			g.nightDeath(d, CauseDream)
		}
	}
}
