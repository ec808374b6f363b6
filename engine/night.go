package engine

import "fmt"

// Night: every step of the board's night order runs, for living, dead and
// absent roles alike, with the same lines and a plausible length (A3, A15;
// seed 002 裁判準則 3: 夜晚不得跳過任何有功能角色流程). Lights never change.

func (g *Game) beginNight() {
	g.night++
	g.ns = nightState{poisoned: map[int]bool{}}
	if g.day > 0 && g.exiledDay != g.day {
		g.exiledYesterday = 0
	}
	g.record(Record{Type: RecPhase, When: fmt.Sprintf("night-%d", g.night)})
	for _, st := range g.b.StepsFor(g.night) {
		st := st
		g.then(func() { g.nightStep(st) })
	}
	if g.night == 1 && g.opt.Sheriff {
		g.then(g.signup)
	}
	g.then(g.endNight)
}

// nightActors are the seats that act in a night step.
func (g *Game) nightActors(k StepKind) []int {
	var out []int
	for s := 1; s <= g.n; s++ {
		if !g.living(s) {
			continue
		}
		r := g.role(s)
		if kr, _ := k.Role(); (k == StepWolves && r.row().WakesWithWolves(g.night)) || (k != StepWolves && kr == r) {
			out = append(out, s)
		}
	}
	return out
}

// nightStep runs one step. Its public output — the lines, their order and
// their times — is the same whoever holds the role, whether it lives and
// whatever it does (A3, A15): under night.pace=fixed the step lasts its
// whole window, the hurry line at its point and the confirmation at the
// end, always; under night.pace=plausible it closes when its actor has acted
// and a length drawn the same way for every step has passed (a dead or
// absent role's step at the drawn length), saying the hurry line if still
// open at its point and the confirmation always. The pedal does not shorten
// a night step: the judge's own timing would tell what the judge saw.
func (g *Game) nightStep(st Step) {
	k := st.Kind
	actors := g.nightActors(k)
	s := &step{name: WaitNight, kind: string(k), actors: actors, lines: st}
	live := len(actors) > 0
	if k == StepWolves {
		s.actors = append(s.actors, g.exploded...)
	}
	g.wait(s)
	if st.OpenOnly {
		g.say("night." + string(k) + ".wake")
	} else {
		g.say("night." + string(k) + ".open")
	}
	if st.Mark != "" && g.b.Has(st.Mark) {
		g.say("night.mark." + string(st.Mark))
	}
	plausible := g.opt.NightPace == PacePlausible
	drawn := st.Seconds
	if plausible {
		lo := (st.Seconds*g.opt.StepMinPercent + 99) / 100
		if lo < 1 {
			lo = 1
		}
		drawn = g.draw(lo, st.Seconds)
	}
	var acted, drawnDone bool
	closeStep := func() {
		if !s.closed {
			g.closeNightStep(s, st, live)
		}
	}
	tryClose := func() {
		// plausible pace only: a fixed step closes at its window's end
		if plausible && drawnDone && (acted || !live) {
			closeStep()
		}
	}
	s.after = func() {
		if s.done != nil {
			acted = s.done()
		}
		tryClose()
	}

	switch {
	case st.OpenOnly || k == StepIdiot || k == StepKnight || k == StepPrince:
		acted = true // open and close only
	case k == StepWolves:
		g.wolvesStep(s)
	case k == StepWitch:
		g.witchStep(s, live)
	case k == StepSeer:
		g.seerStep(s)
	case k == StepGuard:
		g.guardStep(s)
	case k == StepWolfBeauty:
		g.charmStep(s)
	case k == StepDreamweaver:
		g.dreamweaverStep(s)
	case k == StepNightmare:
		g.nightmareStep(s)
	case k == StepEclipseQueen:
		g.eclipseStep(s)
	case k == StepDemonHunter:
		g.demonHunterStep(s)
	case k == StepWolfWitch || k == StepPureWhite || k == StepGargoyle:
		g.exactCheckStep(s, k)
	case k == StepGargoyleKill:
		g.gargoyleKillStep(s, live)
	case k == StepGravekeeper:
		g.gravekeeperStep(s, live)
		acted = true
	case k == StepHunter:
		g.say("night.hunter.status")
		if live {
			h := actors[0]
			line := "cue.hunter.can"
			if !g.canShootTonight(h) {
				line = "cue.hunter.cannot"
			}
			g.cue(h, line, h)
		}
		acted = true
	case k == StepWhiteWolfKing:
		g.say("night.whitewolfking.status")
		if live {
			w := actors[0]
			line := "cue.whitewolfking.can"
			if g.ns.poisoned[w] || g.nightBlocked(w) {
				line = "cue.whitewolfking.cannot"
			}
			g.cue(w, line, w)
		}
		acted = true
	}
	if live && s.act != nil && k != StepWolves && k != StepGargoyleKill && g.nightBlocked(actors[0]) {
		g.cue(actors[0], "cue.blocked", actors[0]) // 技能被禁止: crossed forearms
	}
	if st.Hurry > 0 && st.Hurry < st.Seconds {
		// said whenever the step is still open at its point: never on what
		// the actor did (a closed step's timers are cancelled)
		g.timer(s, st.Hurry, func() { g.say("night." + string(k) + ".hurry") })
	}
	if k == StepWolves && len(g.exploded) > 0 && g.opt.ExplodeWolfSecs < st.Seconds {
		// the exploded wolf points the kill for 30 s, then leaves (A11)
		g.timer(s, g.opt.ExplodeWolfSecs, func() {
			var keep []int
			for _, a := range s.actors {
				if !contains(g.exploded, a) {
					keep = append(keep, a)
				}
			}
			s.actors = keep
			s.after()
		})
	}
	if plausible && drawn < st.Seconds {
		g.timer(s, drawn, func() {
			drawnDone = true
			tryClose()
		})
	}
	g.timer(s, st.Seconds, closeStep)
}

// closeNightStep says the confirmation (always, on the steps that have one)
// and the result lines, commits the step's choice to the night and closes
// eyes.
func (g *Game) closeNightStep(s *step, st Step, live bool) {
	k := st.Kind
	if _, si, _ := k.info(); si.Confirm && !st.OpenOnly {
		g.say("night.confirm")
	}
	if s.commit != nil && live {
		s.commit()
	}
	if (k == StepWolfWitch || k == StepPureWhite || k == StepGargoyle) && !st.OpenOnly {
		g.say("night.seer.result") // 他的身份為 (the commit cued the exact role)
	}
	if k == StepSeer {
		g.say("night.seer.result")
		if live && g.ns.check > 0 {
			seer, t := s.actors[0], g.ns.check
			res, line := WinGood, "cue.seer.good"
			if g.role(t).IsWolf() {
				res, line = WinWolves, "cue.seer.wolf"
			}
			g.cue(seer, line, seer, t)
			g.record(Record{Type: RecCheck, By: seer, Target: t, Result: string(res)})
			if g.role(t) == EvilKnight && (!g.reflectUsed || g.ns.reflectWitch) {
				// 反傷: the seer dies tonight — instead of the witch when both
				// hit him the same night
				g.reflectUsed, g.ns.reflect, g.ns.reflectWitch = true, seer, false
			}
		}
	}
	g.say("night." + string(k) + ".close")
	g.finish(s)
}

// wolvesStep: the shared kill (rules.md B 狼人). Every wolf points; the kill
// happens only when all of them agree before time runs out, else 空刀.
func (g *Game) wolvesStep(s *step) {
	g.say("night.wolves.ask")
	point := map[int]int{}
	s.act = func(seat int, a Action, t int) error {
		if a != ActTarget {
			return errf(ErrNotNow, "the wolves point at a seat (0 = empty knife)")
		}
		if f := g.ns.fear; f > 0 && g.role(f) == Werewolf {
			return errf(ErrRule, "a wolf is feared tonight: the wolves cannot kill (噩夢之影)")
		}
		if t != 0 && !g.living(t) {
			return errf(ErrBadTarget, "seat %d is out", t)
		}
		if t != 0 && g.role(t).row().NoKnife {
			return errf(ErrRule, "狼美人 cannot be knifed by her own side")
		}
		point[seat] = t
		return nil
	}
	s.reset = func() { point = map[int]int{} }
	s.agreed = func() (int, bool) {
		target := -1
		for _, a := range s.actors {
			if !g.living(a) && !contains(g.exploded, a) {
				continue // DQ'd
			}
			t, ok := point[a]
			if !ok || (target >= 0 && t != target) {
				return 0, false
			}
			target = t
		}
		return target, target >= 0
	}
	s.done = func() bool { _, ok := s.agreed(); return ok }
	s.commit = func() {
		if t, ok := s.agreed(); ok {
			g.ns.kill = t
			g.record(Record{Type: RecAction, Kind: ActionKill, Target: t, When: g.when()})
		} else {
			g.record(Record{Type: RecAction, Kind: ActionKill, Target: 0, When: g.when()})
		}
	}
}

// witchStep: told the victim while the antidote is unused (std), one potion a
// night, never saves herself by default (witch.self_save).
func (g *Game) witchStep(s *step, live bool) {
	g.say("night.witch.victim")
	witch := 0
	if live {
		witch = s.actors[0]
		switch {
		case g.nightBlocked(witch):
			// 噩夢之影: a feared witch gets no victim info (rules.md B)
		case g.antidoteUsed:
			g.cue(witch, "cue.witch.used", witch)
		case g.ns.kill > 0:
			g.cue(witch, "cue.witch.victim", witch, g.ns.kill)
		default:
			g.cue(witch, "cue.witch.none", witch)
		}
	}
	g.say("night.witch.ask")
	var save, armed, wave bool
	var poison int
	s.act = func(seat int, a Action, t int) error {
		if g.nightBlocked(seat) && a != ActWave {
			return errf(ErrRule, "the witch's skill is blocked tonight (feared, locked or sealed)")
		}
		if save || poison > 0 || wave {
			return errf(ErrRule, "the witch has already chosen tonight (one potion a night)")
		}
		switch a {
		case ActUp:
			if g.antidoteUsed {
				return errf(ErrRule, "the antidote is used")
			}
			if g.ns.kill == 0 {
				return errf(ErrRule, "nobody to save tonight")
			}
			if g.ns.kill == seat && !g.selfSaveAllowed() {
				return errf(ErrRule, "the witch cannot save herself (witch.self_save=%s)", g.opt.WitchSelfSave)
			}
			save = true
		case ActDown:
			if g.poisonUsed {
				return errf(ErrRule, "the poison is used")
			}
			armed = true
		case ActTarget:
			if t == 0 {
				wave = true
				return nil
			}
			if !armed {
				return errf(ErrNotNow, "thumb down first to poison")
			}
			if !g.living(t) {
				return errf(ErrBadTarget, "seat %d is out", t)
			}
			poison = t
		case ActWave:
			wave = true
		default:
			return errf(ErrNotNow, "the witch saves (up), poisons (down + seat) or waves")
		}
		return nil
	}
	s.reset = func() { save, armed, wave, poison = false, false, false, 0 }
	s.done = func() bool { return save || poison > 0 || wave }
	s.commit = func() {
		if save {
			g.antidoteUsed = true
			g.ns.saved = true
			g.record(Record{Type: RecAction, Kind: ActionSave, By: witch, Target: g.ns.kill, When: g.when()})
		}
		if poison > 0 {
			g.poisonUsed = true
			g.ns.poison = poison
			g.ns.poisoned[poison] = true
			if g.role(poison) == EvilKnight && !g.reflectUsed {
				// 反傷: the witch dies tonight; if the seer checks him later
				// tonight, only the seer dies (rules.md B 惡靈騎士)
				g.reflectUsed, g.ns.reflect, g.ns.reflectWitch = true, witch, true
			}
			g.record(Record{Type: RecAction, Kind: ActionPoison, By: witch, Target: poison, When: g.when()})
		}
	}
}

func (g *Game) selfSaveAllowed() bool {
	switch g.opt.WitchSelfSave {
	case "first_night":
		return g.night == 1
	case "no_guard":
		return !g.b.hasProtector()
	}
	return false
}

func (g *Game) seerStep(s *step) {
	g.pickStep(s, "the seer", func(seat, t int) error {
		if g.nightBlocked(seat) {
			return errf(ErrRule, "the seer's check is blocked tonight (feared, locked or sealed)")
		}
		if !g.living(t) {
			return errf(ErrBadTarget, "seat %d is out", t)
		}
		if t == seat {
			return errf(ErrBadTarget, "the seer cannot check herself")
		}
		return nil
	}, func(_, target int) { g.ns.check = target })
}

// pickStep is a step where the actor points at one seat (not 0): check
// refuses a target, commit writes the choice into the night (target 0 when
// the actor chose nothing).
func (g *Game) pickStep(s *step, who string, check func(seat, t int) error, commit func(actor, target int)) {
	target := 0
	s.act = func(seat int, a Action, t int) error {
		if a != ActTarget || t == 0 {
			return errf(ErrNotNow, "%s points at a seat", who)
		}
		if err := check(seat, t); err != nil {
			return err
		}
		target = t
		return nil
	}
	s.reset = func() { target = 0 }
	s.done = func() bool { return target > 0 }
	s.commit = func() { commit(s.actors[0], target) }
}

// guardStep: any player, self included, or none; never the same player two
// nights running (rules.md B 守衛).
func (g *Game) guardStep(s *step) {
	target, chosen := 0, false
	s.act = func(seat int, a Action, t int) error {
		switch a {
		case ActWave:
			target, chosen = 0, true
			return nil
		case ActTarget:
		default:
			return errf(ErrNotNow, "the guard points at a seat (0 or wave = none)")
		}
		if t != 0 && g.nightBlocked(seat) {
			return errf(ErrRule, "the guard's skill is blocked tonight (feared, locked or sealed)")
		}
		if t != 0 && !g.living(t) {
			return errf(ErrBadTarget, "seat %d is out", t)
		}
		if t != 0 && t == g.lastGuard {
			return errf(ErrRule, "the guard cannot guard seat %d two nights running", t)
		}
		target, chosen = t, true
		return nil
	}
	s.reset = func() { target, chosen = 0, false }
	s.done = func() bool { return chosen }
	s.commit = func() {
		g.ns.guard = target
		g.record(Record{Type: RecAction, Kind: ActionGuard, By: s.actors[0], Target: target, When: g.when()})
	}
}

// charmStep: 狼美人 charms one other player, not the same two nights running
// (seed 003).
func (g *Game) charmStep(s *step) {
	g.pickStep(s, "狼美人", func(seat, t int) error {
		if !g.living(t) {
			return errf(ErrBadTarget, "seat %d is out", t)
		}
		if t == seat {
			return errf(ErrBadTarget, "狼美人 cannot charm herself")
		}
		if t == g.lastCharm {
			return errf(ErrRule, "狼美人 cannot charm seat %d two nights running", t)
		}
		return nil
	}, func(actor, target int) {
		g.ns.charm = target
		g.record(Record{Type: RecAction, Kind: ActionCharm, By: actor, Target: target, When: g.when()})
	})
}

// canShootTonight: the hunter's night status: poisoned tonight → cannot.
// A poison that cannot hurt him (the sleepwalker) does not take the gun.
func (g *Game) canShootTonight(h int) bool {
	return !(g.ns.poisoned[h] && !g.immuneAtNight(h)) && !g.nightBlocked(h)
}

// signup: night 1, after the steps (A4): "上警玩家請舉手" 3-2-1, hands with eyes closed.
func (g *Game) signup() {
	s := &step{name: WaitSignup}
	for x := 1; x <= g.n; x++ {
		if g.living(x) {
			s.actors = append(s.actors, x)
		}
	}
	g.wait(s)
	g.say("signup.ask")
	hands := map[int]bool{}
	s.act = func(seat int, a Action, t int) error {
		if a != ActHand {
			return errf(ErrNotNow, "raise a hand (HAND) to run for sheriff")
		}
		hands[seat] = !hands[seat]
		return nil
	}
	s.reset = func() { hands = map[int]bool{} }
	done := func() {
		var c []int
		for x := 1; x <= g.n; x++ {
			if hands[x] {
				c = append(c, x)
			}
		}
		g.el = election{candidates: c, ran: map[int]bool{}, withdrawn: map[int]bool{}}
		for _, x := range c {
			g.el.ran[x] = true
			g.record(Record{Type: RecAction, Kind: ActionSignup, By: x, When: g.when()})
		}
		g.el.pending = len(c) > 0
		if len(c) == 0 {
			g.say("signup.none")
		} else {
			g.say("signup.list", c...)
		}
		g.finish(s)
	}
	g.timer(s, g.opt.SignupSeconds-3, func() { g.say("count.321") })
	g.timer(s, g.opt.SignupSeconds, done)
}

// endNight resolves the night's deaths (狼刀在先: the knife first, then the
// poison), checking the win after each (A12).
func (g *Game) endNight() {
	g.lastGuard = g.ns.guard
	g.lastCharm = g.ns.charm
	g.charmed = g.ns.charm
	g.exploded = nil
	g.pending = nil
	k := g.ns.kill
	if k > 0 && g.living(k) && !g.immuneAtNight(k) {
		guarded, saved := g.ns.guard == k, g.ns.saved
		if guarded == saved { // neither, or 同守同救
			g.nightDeath(k, CauseWolf)
		}
	}
	if p := g.ns.poison; p > 0 && (g.living(p) || g.seats[p].dying) && !g.immuneAtNight(p) && !g.role(p).row().PoisonOK {
		g.nightDeath(p, CausePoison)
	}
	g.resolveRoles2()
	g.lastDream = g.ns.dream
	g.lastFear = g.ns.fear
	g.beginDay()
}

func (g *Game) nightDeath(s int, c Cause) {
	if g.pendingResult != "" {
		return // the game ended at once with an earlier death of this night (A12)
	}
	st := &g.seats[s]
	if !st.dying {
		st.dying = true
		g.pending = append(g.pending, s)
	}
	st.causes = append(st.causes, c)
	st.when = fmt.Sprintf("night-%d", g.night)
	if g.pendingResult == "" {
		g.pendingResult = g.winCheck()
	}
}
