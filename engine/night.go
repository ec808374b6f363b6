package engine

import "fmt"

// Night: every step of the board's night order runs, for living, dead and
// absent roles alike, with the same lines and a plausible length (A3, A15;
// seed 002 裁判準則 3: 夜晚不得跳過任何有功能角色流程). Lights never change.

func (g *Game) beginNight() {
	g.night++
	g.ns = nightState{poisoned: map[int]bool{}}
	for i := range g.hooks {
		if h := g.hooks[i].night.nightfall; h != nil {
			h(g)
		}
	}
	if g.over {
		return // a nightfall hook ended the game (a wild child that turned)
	}
	g.record(Record{Type: RecPhase, When: fmt.Sprintf("night-%d", g.night)})
	for _, st := range g.b.StepsFor(g.night) {
		st := st
		g.then(func() {
			if g.stepLeftOut(st.Kind) {
				return
			}
			g.nightStep(st)
		})
	}
	if g.night == 1 && g.opt.Sheriff {
		g.then(g.signup)
	}
	g.then(g.endNight)
}

// nightActors are the seats that act in a night step.
func (g *Game) nightActors(k StepKind) []int {
	var out []int
	kr, _ := k.Role() // once: a search of the role table
	if k != StepWolves {
		if _, h := k.stepHooks(); h.night.actors != nil { // 情侶, 幸運兒: a status, not a card
			if seats, ok := h.night.actors(g, k); ok {
				for _, s := range seats {
					if g.living(s) {
						out = append(out, s)
					}
				}
				return out
			}
		}
	}
	for s := 1; s <= g.n; s++ {
		if !g.living(s) {
			continue
		}
		r := g.role(s)
		if (k == StepWolves && (r.row().WakesWithWolves(g.night) || g.wakesInWolfStep(s)) && !g.asleepWithWolves(s)) || (k != StepWolves && kr == r) {
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
	s := &step{name: WaitNight, night: k, actors: actors, lines: st}
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

	si, h := k.stepHooks()
	if h.night.step != nil && !st.OpenOnly {
		acted = h.night.step(g, s, k, live)
	} else {
		acted = true // open and close only
	}
	if live && s.act != nil && !si.Unblocked && g.nightBlocked(actors[0]) {
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
	si, h := k.stepHooks()
	if si.Confirm && !st.OpenOnly {
		g.say("night.confirm")
	}
	if s.commit != nil && live {
		s.commit()
	}
	if si.Result && !st.OpenOnly {
		g.say("night.seer.result") // 他的身份為 (the seer's cue follows; an exact check's commit cued it)
	}
	if h.night.closed != nil {
		h.night.closed(g, s, live)
	}
	g.say("night." + string(k) + ".close")
	g.finish(s)
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
	s.keys = []Key{{Target: TargetSeat}}
	s.done = func() bool { return target > 0 }
	s.commit = func() { commit(s.actors[0], target) }
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
	s.keys = []Key{{Word: "上警", Press: []Action{ActHand}}}
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
			g.record(Record{Type: RecAction, Kind: string(ActionSignup), By: x, When: g.when()})
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
// poison, then the roles' own night deaths in nightDeathOrder), each
// death checking the win (A12).
func (g *Game) endNight() {
	g.exploded = nil
	g.pending = nil
	k := g.ns.kill
	if k > 0 && g.living(k) && !g.immuneAtNight(k) {
		if g.hitTakenOver(k, CauseWolf) {
			// 村長/長老: two lives
		} else if g.guardedTonight(k) == g.ns.saved { // neither, or 同守同救
			g.nightDeath(k, CauseWolf)
		}
	}
	if p := g.ns.poison; p > 0 && (g.living(p) || g.seats[p].dying) && !g.immuneAtNight(p) && !g.role(p).row().PoisonOK && !g.hitTakenOver(p, CausePoison) {
		g.nightDeath(p, CausePoison)
	}
	for _, r := range nightDeathOrder() {
		if h := g.hooksOf(r); h != nil && h.night.resolve != nil {
			h.night.resolve(g)
		}
	}
	for i := range g.hooks {
		if h := g.hooks[i].night.dawn; h != nil {
			h(g)
		}
	}
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
	g.onDeath(s, c)
	if g.pendingResult == "" {
		g.pendingResult = g.winCheck()
	}
}

// exactCheckStep: a checker learns a player's exact role (狼巫, 純白之女,
// 石像鬼). may refuses a target; after runs once the role was cued and
// recorded.
func (g *Game) exactCheckStep(s *step, may func(seat, t int) error, after func(by, target int, r Role)) {
	g.pickStep(s, "the checker", func(seat, t int) error {
		if !g.living(t) || t == seat {
			return refuse(ErrBadTarget, Error{Reason: ReasonCannotTarget, Target: t}, "cannot check seat %d", t)
		}
		if may != nil {
			return may(seat, t)
		}
		return nil
	}, func(by, target int) {
		if target == 0 {
			return
		}
		r := g.role(target)
		g.cue(by, "cue.exact."+string(r), by, target)
		g.record(Record{Type: RecCheck, By: by, Target: target, Result: r.Name()})
		if after != nil {
			after(by, target, r)
		}
	})
}
