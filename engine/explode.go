package engine

// SelfDestruct (A11): a wolf may explode during the election speeches, 退水
// and the exile-day speeches — never during votes, never at night (不可拍刀).
// Hands raised at once: the lowest seat explodes; the judge confirms in a
// short window. The knight's duel (rules.md B 騎士) uses the same guarded key
// during the exile-day speeches.

// explodeConfirmSeconds is how long the judge waits for other hands.
const explodeConfirmSeconds = 3

func canExplode(r Role) bool { return r.row().Explodes }

func (g *Game) boom(seat int) error {
	if g.over {
		return errf(ErrGameOver, "the game is over")
	}
	s := g.cur
	if s == nil {
		return errf(ErrNotNow, "no explosion window now")
	}
	if !g.present(seat) {
		return errf(ErrNotActor, "seat %d is out", seat)
	}
	r := g.role(seat)
	if s.name == WaitPrince {
		if r == Prince && g.lockedNow(seat) {
			return errf(ErrRule, "定序王子 is locked (蝕時狼妃) and cannot reveal today")
		}
		if r != Prince || !contains(s.actors, seat) {
			return errf(ErrNotActor, "only 定序王子 may reveal now")
		}
		s.reveal(seat)
		return nil
	}
	if s.name == WaitExplode {
		if !canExplode(r) {
			return errf(ErrRule, "seat %d cannot explode", seat)
		}
		if !contains(s.actors, seat) {
			s.actors = append(s.actors, seat)
		}
		return nil
	}
	if s.window == NoWindow {
		return errf(ErrNotNow, "explosions are allowed only in the election speeches, 退水 and the exile-day speeches")
	}
	if r == Knight {
		if g.lockedNow(seat) {
			return errf(ErrRule, "the knight is locked (蝕時狼妃) and cannot duel today")
		}
		if s.window != WindowExile || s.name != WaitSpeech {
			return errf(ErrNotNow, "the knight duels only during the exile-day speeches")
		}
		if g.knightUsed {
			return errf(ErrRule, "the knight has already duelled")
		}
		g.startDuel(seat, s)
		return nil
	}
	if !r.IsWolf() {
		return errf(ErrRule, "seat %d is not a wolf and cannot explode", seat)
	}
	if !canExplode(r) {
		return errf(ErrRule, "%s cannot explode", r.Name())
	}
	g.startExplode(seat, s)
	return nil
}

func (g *Game) startExplode(seat int, interrupted *step) {
	window := interrupted.window
	g.finish(interrupted)
	st := &step{name: WaitExplode, window: window, actors: []int{seat}, seat: seat}
	g.wait(st)
	resolve := func() {
		g.finish(st)
		low := st.actors[0]
		for _, a := range st.actors {
			if a < low {
				low = a
			}
		}
		g.explode(low, window)
	}
	st.pedal = resolve
	g.timer(st, explodeConfirmSeconds, resolve)
}

func (g *Game) explode(s int, window Window) {
	g.interrupt()
	// 警上環節自爆吞毒: poisoned last night, exploding in the election: announced
	// only as exploded; a white wolf king poisoned last night has no skill.
	poisoned := g.seats[s].dying && g.causedBy(s, CausePoison)
	if g.seats[s].dying {
		g.seats[s].causes = nil
	}
	g.say("explode.announce", s)
	if g.role(s) == BloodMoon {
		g.revealBloodMoon(s)
		if g.opt.BloodMoonSeal {
			g.sealNight = g.night + 1 // std: good roles' night skills fail the following night
		}
	}
	g.dies(s, CauseExplode, true)
	if g.over {
		return
	}
	g.exploded = append(g.exploded, s)
	var t []func()
	if s == g.sheriff {
		if g.opt.ExplodeKeepsBadge {
			t = append(t, func() { g.badgeStep(s) })
		} else {
			g.loseBadge()
		}
	}
	if g.role(s) == WhiteWolfKing && !poisoned {
		t = append(t, func() { g.takeStep(s) })
	}
	switch window {
	case WindowElection:
		if !g.el.resumed && g.opt.DoubleExplode {
			g.el.resumed = true // the election resumes next day at 退水
		} else {
			g.loseBadge() // 雙爆吞警徽
		}
	case WindowWithdraw:
		g.loseBadge() // 退水環節自爆警徽流失
	}
	if window != WindowExile {
		t = append(t, g.nightResults)
	}
	g.next(append(t, g.nightfall)...)
}

func (g *Game) causedBy(s int, c Cause) bool {
	for _, x := range g.seats[s].causes {
		if x == c {
			return true
		}
	}
	return false
}

// takeStep: the white wolf king takes one player with him (no last words).
func (g *Game) takeStep(w int) {
	st := &step{name: WaitTake, seat: w, actors: []int{w}, outOK: true}
	g.wait(st)
	g.say("explode.take.ask", w)
	target := g.pointOrWave(st, "白狼王 points at the player he takes", "seat %d cannot be taken", nil)
	st.after = func() {
		g.finish(st)
		target := *target
		if target == 0 {
			return
		}
		g.say("explode.take", w, target)
		g.dies(target, CauseTaken, false)
		if g.over {
			return
		}
		b := &batch{entries: []lwEntry{{seat: target}}}
		g.next(g.deathTasks(b)...)
	}
	st.pedal = func() { g.finish(st) }
	g.timer(st, g.opt.ChoiceSeconds, func() { g.finish(st) })
}

// startDuel: the knight reveals during an exile-day speech and names a
// player. A wolf dies (no last words) and night falls at once; a good player
// → the knight dies (no last words: project decision) and the interrupted
// speaker starts again — unless that was the knight himself: then the next
// living speaker goes on (a dead seat is never given a speech).
func (g *Game) startDuel(k int, interrupted *step) {
	speaker, again := interrupted.seat, interrupted.rerun
	rerun := func() {
		if g.present(speaker) {
			again()
		}
	}
	g.finish(interrupted)
	st := &step{name: WaitDuel, seat: k, actors: []int{k}}
	g.wait(st)
	g.say("duel.ask", k)
	chosen := g.pointOrWave(st, "the knight points at the player he duels", "seat %d cannot be duelled", nil)
	cancel := func() {
		g.finish(st)
		g.next(rerun)
	}
	st.after = func() {
		target := *chosen
		if target == 0 {
			cancel()
			return
		}
		g.finish(st)
		g.knightUsed = true
		g.say("duel.announce", k, target)
		g.record(Record{Type: RecAction, Kind: ActionDuel, By: k, Target: target, When: g.when()})
		if g.role(target).IsWolf() {
			g.interrupt()
			g.say("duel.wolf", target)
			g.dies(target, CauseDuel, true)
			if g.over {
				return
			}
			var t []func()
			if g.sheriff == target {
				t = append(t, func() { g.badgeStep(target) })
			}
			g.next(append(t, g.nightfall)...)
			return
		}
		g.say("duel.good", k)
		g.dies(k, CauseDuel, true)
		if g.over {
			return
		}
		var t []func()
		if g.sheriff == k {
			t = append(t, func() { g.badgeStep(k) })
		}
		g.next(append(t, rerun)...)
	}
	st.pedal = cancel
	g.timer(st, g.opt.ChoiceSeconds, cancel)
}
