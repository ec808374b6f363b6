package engine

// 定序王子 (rules.md B): once per game, when an exile result is read, may
// reveal with the guarded key: he speaks once and the vote is held again.

type princeState struct {
	revealed bool
}

func princeHooks() roleHooks {
	return roleHooks{
		day: dayHooks{
			exileResult: princeWindow,
			reveal:      princeReveal,
		},
	}
}

// princeReveal: his key in his window.
func princeReveal(g *Game, seat int, s *step) (bool, error) {
	if s.name != WaitPrince {
		return false, nil
	}
	if g.silenced(seat) {
		return true, refuse(ErrRule, Error{Reason: ReasonLocked, Role: Prince}, "定序王子 is locked (蝕時狼妃) and cannot reveal today")
	}
	if !contains(s.actors, seat) {
		return true, errf(ErrNotActor, "only 定序王子 may reveal now")
	}
	s.reveal(seat)
	return true, nil
}

// princeWindow: once per game, when an exile result is read, 定序王子 may
// reveal: he speaks once (120 s) and the vote is held again (seed 000 永序之輪:
// "王子是否選擇發動技能 10S … 發言結束後重新投票"). The window runs on every
// exile result until he has revealed, whether he is alive or not (A15).
func princeWindow(g *Game, s int, order []int) bool {
	if g.rs.prince.revealed {
		return false
	}
	st := &step{name: WaitPrince, seat: s}
	for _, p := range g.holders(Prince) {
		if g.present(p) && !g.silenced(p) {
			st.actors = append(st.actors, p)
		}
	}
	g.wait(st)
	g.say("prince.ask", s)
	proceed := func() {
		g.finish(st)
		g.exile(s)
	}
	st.pedal, st.abort = proceed, proceed
	if g.opt.SkillSeconds > 5 {
		g.timer(st, g.opt.SkillSeconds-5, func() { g.say("count.54321") })
	}
	g.timer(st, g.opt.SkillSeconds, proceed)
	st.reveal = func(p int) {
		g.finish(st)
		g.rs.prince.revealed = true
		g.say("prince.reveal", p)
		g.record(Record{Type: RecReveal, Seat: p, Role: Prince})
		g.next(func() { g.speech(SpeechPrince, p, g.opt.SpeechSeconds, NoWindow) }, func() { g.exileVote(order) })
	}
	return true
}
