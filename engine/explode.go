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
		return refuse(ErrNotNow, Error{Reason: ReasonNoWindow, Seat: seat}, "no explosion window now")
	}
	if !g.present(seat) {
		return refuse(ErrNotActor, Error{Reason: ReasonSeatOut, Seat: seat}, "seat %d is out", seat)
	}
	r := g.role(seat)
	h := g.self(seat)
	if h.day.reveal != nil {
		if mine, err := h.day.reveal(g, seat, s); mine {
			return err
		}
	}
	if s.name == WaitPrince {
		return errf(ErrNotActor, "only 定序王子 may reveal now")
	}
	if s.name == WaitExplode {
		if !canExplode(r) {
			return refuse(ErrRule, Error{Reason: ReasonCannotExplode, Seat: seat}, "seat %d cannot explode", seat)
		}
		if !contains(s.actors, seat) {
			s.actors = append(s.actors, seat)
		}
		return nil
	}
	if s.window == NoWindow {
		return refuse(ErrNotNow, Error{Reason: ReasonNoWindow, Seat: seat}, "explosions are allowed only in the election speeches, 退水 and the exile-day speeches")
	}
	if h.day.boom != nil {
		return h.day.boom(g, seat, s)
	}
	if !r.IsWolf() {
		return refuse(ErrRule, Error{Reason: ReasonCannotExplode, Seat: seat}, "seat %d is not a wolf and cannot explode", seat)
	}
	if !canExplode(r) {
		return refuse(ErrRule, Error{Reason: ReasonCannotExplode, Seat: seat, Role: r}, "%s cannot explode", r.Name())
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
	// The same for a 白狼王 killed by 賭徒's bet (rules-more.md D1, [003]).
	poisoned := g.seats[s].dying && (g.causedBy(s, CausePoison) || g.causedBy(s, CauseGamble))
	if g.seats[s].dying {
		g.seats[s].causes = nil
	}
	g.say("explode.announce", s)
	h := g.self(s)
	if h.day.exploding != nil {
		h.day.exploding(g, s)
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
	if h.day.exploded != nil {
		t = append(t, h.day.exploded(g, s, poisoned)...)
	}
	t = append(t, g.griefTasks()...)
	if g.opt.ExplodeLastWords {
		// explode.last_words (seed 001 "狼人自爆可以留遺言（又稱為指刀）")
		t = append(t, func() {
			g.speechSaying("lastwords.start", SpeechLastWords, s, g.opt.LastWordsSeconds, NoWindow)
		})
	}
	if window == WindowDay {
		// an explosion in last words cuts that batch short: whoever is out
		// leaves now (A6's "請離場")
		t = append(t, g.leaveOut)
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

// dayWindow is the explosion window of a day step that part A closes
// (explode.windows): last words under any_speech and any_but_vote, the
// sheriff's order and 歸票 under any_but_vote only (choice).
func (g *Game) dayWindow(choice bool) Window {
	switch g.opt.ExplodeWindows {
	case "any_but_vote":
		return WindowDay
	case "any_speech":
		if !choice {
			return WindowDay
		}
	}
	return NoWindow
}

// leaveOut: "X號玩家請離場" for every player out whose light is still on.
func (g *Game) leaveOut() {
	var gone []int
	for s := 1; s <= g.n; s++ {
		if g.seats[s].out && !g.seats[s].lightOff {
			gone = append(gone, s)
		}
	}
	if len(gone) == 0 {
		return
	}
	g.say("day.leave", gone...)
	for _, s := range gone {
		g.lightOff(s)
	}
}
