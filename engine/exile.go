package engine

// ExileDay (A7): speeches (the sheriff picks 順/逆 and speaks last, 150 s;
// without a sheriff the clock rule), the sheriff's 歸票, the vote, PK once,
// then the exiled player's skill, badge and last words.

func (g *Game) exileDay() {
	// the deaths' block is over: the morning's lines before the speeches
	// ("X號玩家被禁言"; [003] 台词 ⑦ the deaths, then ⑧ the speeches)
	g.dayAt(dayExile)
	sh := g.sheriff
	if sh != 0 && g.present(sh) {
		if g.opt.SpeakingOrder == "sheriff_side_alternating" && g.el.spk.lastDir != 0 {
			g.exileSpeeches(g.sheriffOrder(sh, -g.el.spk.lastDir)) // H12: the other side today
			return
		}
		g.orderStep(sh)
		return
	}
	if g.opt.SpeakingOrder != "sheriff_choice" && g.el.spk.lastDead != 0 {
		g.exileSpeeches(g.fromSeat(g.el.spk.lastDead)) // H12: left of the last to die
		return
	}
	rule := g.opt.ExileClockRule
	if rule == "" {
		rule = g.opt.ClockRule
	}
	g.exileSpeeches(g.clockOrder(rule, g.present))
}

// orderStep: the sheriff's 順 (up) or 逆 (down); time running out means 順.
func (g *Game) orderStep(sh int) {
	st := &step{name: WaitOrder, seat: sh, actors: []int{sh}, window: g.dayWindow(true)}
	g.wait(st)
	g.say("exile.order.ask")
	dir := 1
	st.act = func(seat int, a Action, t int) error {
		switch a {
		case ActUp:
			dir = 1
		case ActDown:
			dir = -1
		default:
			return errf(ErrNotNow, "the sheriff gives the order: up = 順, down = 逆")
		}
		return nil
	}
	st.reset, st.noUndo = func() { dir = 1 }, true
	st.keys = []Key{{Word: "順", Press: []Action{ActUp}}, {Word: "逆", Press: []Action{ActDown}}}
	done := func() {
		g.finish(st)
		g.el.spk.lastDir = dir // sheriff_side_alternating: the other side tomorrow
		var order []int
		for i := 1; i < g.n; i++ {
			s := ((sh-1+i*dir)%g.n+g.n)%g.n + 1
			if g.present(s) {
				order = append(order, s)
			}
		}
		g.exileSpeeches(append(order, sh))
	}
	st.after, st.pedal, st.abort = done, done, done
	g.timer(st, g.opt.ChoiceSeconds, done)
}

func (g *Game) exileSpeeches(order []int) {
	g.dayAt(daySpeeches)
	var t []func()
	for _, s := range order {
		t = append(t, func() {
			if !g.present(s) {
				return
			}
			secs := g.opt.SpeechSeconds
			if s == g.sheriff {
				secs = g.opt.SheriffSeconds
			}
			if g.mutedTurn(s, SpeechExile, WindowExile) {
				return // silenced: the judge's line replaces the speech
			}
			g.speech(SpeechExile, s, secs, WindowExile)
		})
	}
	t = append(t, func() { g.dayAt(daySpeechesOver) }, g.guide, func() { g.exileVote(order) })
	g.next(t...)
}

// guide: 歸票 — the sheriff names one seat, two for a PK, or none; announced only.
func (g *Game) guide() {
	sh := g.sheriff
	if sh == 0 || !g.present(sh) {
		return
	}
	st := &step{name: WaitGuide, seat: sh, actors: []int{sh}, window: g.dayWindow(true)}
	g.wait(st)
	g.say("guide.ask")
	var picks []int
	st.act = func(seat int, a Action, t int) error {
		switch a {
		case ActWave:
			picks = nil
			return nil
		case ActTarget:
		default:
			return errf(ErrNotNow, "歸票: a seat (twice for a PK), or wave for none")
		}
		if t == 0 {
			picks = nil
			return nil
		}
		if !g.present(t) || contains(picks, t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonCannotTarget, Target: t}, "cannot 歸票 seat %d", t)
		}
		if len(picks) == 2 {
			return errf(ErrRule, "歸票 names at most two seats")
		}
		picks = append(picks, t)
		return nil
	}
	st.reset = func() { picks = nil }
	st.keys = []Key{{Target: TargetSeat}, {Word: "不歸", Press: []Action{ActWave}}, {Word: "不歸", Target: TargetZero}}
	done := func() {
		g.finish(st)
		switch len(picks) {
		case 0:
			g.say("guide.none")
		case 1:
			g.say("guide.one", picks[0])
		default:
			g.say("guide.pk", picks...)
		}
	}
	st.pedal, st.abort = done, done
	g.timer(st, g.opt.ChoiceSeconds, done)
}

func (g *Game) exileVoters(except []int) []int {
	var v []int
	for s := 1; s <= g.n; s++ {
		if g.present(s) && !g.seats[s].revealed && !contains(except, s) && !g.silenced(s) {
			v = append(v, s)
		}
	}
	return v
}

func (g *Game) exileVote(order []int) {
	var targets []int
	for s := 1; s <= g.n; s++ {
		if g.present(s) {
			targets = append(targets, s)
		}
	}
	g.vote(VoteExile, g.exileVoters(nil), targets, false, func(top []int) {
		switch len(top) {
		case 0:
			g.nobodyExiled("exile.novote") // nobody voted: no tie, no PK
		case 1:
			g.exileResult(top[0], order)
		default:
			g.exilePK(top, order)
		}
	})
}

// exilePK: the tied speak once more (in the day's order), then the players
// not on the stage vote among them; a second tie: nobody is exiled.
func (g *Game) exilePK(top, order []int) {
	g.say("exile.pk", top...)
	var t []func()
	for _, s := range order {
		if contains(top, s) {
			t = append(t, func() {
				if g.present(s) {
					if g.mutedTurn(s, SpeechExilePK, WindowExile) {
						return // silenced: the judge's line replaces the speech
					}
					g.speech(SpeechExilePK, s, g.opt.SpeechSeconds, WindowExile)
				}
			})
		}
	}
	t = append(t, func() {
		var stage []int
		for _, s := range top {
			if g.present(s) {
				stage = append(stage, s)
			}
		}
		voters := g.exileVoters(stage)
		if len(stage) == 0 || len(voters) == 0 {
			g.nobodyExiled("exile.novote")
			return
		}
		g.vote(VoteExilePK, voters, stage, true, func(top2 []int) {
			switch len(top2) {
			case 0:
				g.nobodyExiled("exile.novote")
			case 1:
				g.exileResult(top2[0], order)
			default:
				g.nobodyExiled("exile.none") // 再次平票
			}
		})
	})
	g.next(t...)
}

// nobodyExiled: nobody is out today; line says why (a second tie, or no votes).
func (g *Game) nobodyExiled(line string) {
	g.say(line)
	g.record(Record{Type: RecExile, Day: g.day, Seat: 0})
	g.next(g.nightfall)
}

// exileResult: an exile result is read; a board role may take over (定序王子's
// window), else the player is exiled.
func (g *Game) exileResult(s int, order []int) {
	for i := range g.hooks {
		if h := g.hooks[i].day.exileResult; h != nil && h(g, s, order) {
			return
		}
	}
	g.exile(s)
}

// exile: the role's own exile hook may take over (the idiot's first exile
// reveals him); anyone else is out with skill,
// badge and last words (always), then leaves.
func (g *Game) exile(s int) {
	g.record(Record{Type: RecExile, Day: g.day, Seat: s})
	for i := range g.hooks {
		if h := g.hooks[i].day.exileSeen; h != nil {
			h(g, s)
		}
	}
	if g.hitTakenOver(s, CauseExile) {
		return // the role's own exile (a revealed idiot stays)
	}
	h := g.self(s)
	g.dies(s, CauseExile, false)
	if g.over {
		return
	}
	// the exile is announced with the skill question: "X號玩家出局，是否選擇
	// 發動技能" (seed 000 （二）4、6）), or with the last words where they come first
	b := &batch{entries: []lwEntry{{seat: s, words: true}}, exiled: s}
	b.wordsFirst = g.opt.LastWordsFirst && g.day > 1
	t := g.deathTasks(b) // skill, badge, last words, leave
	skill := 0           // the exiled player's skill question in t
	if said, skills := g.joinGrief(b, s); said != nil {
		if b.wordsFirst {
			// the last words announce the exile (狼王攝夢人, no lovers on the board): the grief follows the skill
			for i := range said {
				t = append(append([]func(){t[0]}, said[i], skills[i]), t[1:]...)
			}
		} else {
			// "X號玩家出局", at once "Y號玩家殉情" ([001] (8), I8), then X's and Y's skills
			b.announced = true
			pre := append([]func(){func() { g.say("exile.out", s) }}, said...)
			skill = len(pre)
			t = append(append(pre, t[0]), append(skills, t[1:]...)...)
		}
	}
	if h.death.follow != nil {
		t = append(append(append([]func(){}, t[:skill+1]...), h.death.follow(g, b, s)), t[skill+1:]...)
	}
	if b.wordsFirst {
		// 狼王攝夢人: from day 2 the exiled player's last words come before the
		// skill question (its （四）6）); day 1 asks the skill first (its （二）6）)
		t = append([]func(){func() { g.lastWords(b) }}, t...)
	}
	g.next(append(t, g.nightfall)...)
}
