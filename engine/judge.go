package engine

// Judge powers (A13): 點殺/DQ, 流局, 扣分, undo, repeat, pause/resume.

func (g *Game) applyJudge(in Input) error {
	switch in.Judge {
	case JudgePenalty:
		if in.Seat < 1 || in.Seat > g.n {
			return refuse(ErrBadInput, Error{Reason: ReasonSeatRange, Seat: in.Seat}, "seat %d out of range", in.Seat)
		}
		if in.Points <= 0 || in.Points > 3 || in.Points*2 != float64(int(in.Points*2)) {
			return refuse(ErrBadInput, Error{Reason: ReasonBadPenalty}, "penalty %v: want 0.5 to 3 in steps of 0.5", in.Points)
		}
		g.record(Record{Type: RecPenalty, Seat: in.Seat, Points: in.Points})
		return nil
	case JudgeRepeat:
		return g.repeat()
	}
	if g.over {
		return errf(ErrGameOver, "the game is over")
	}
	switch in.Judge {
	case JudgeDQ:
		return g.dq(in.Seat)
	case JudgeVoid:
		g.end(WinVoid)
		return nil
	case JudgeUndo:
		return g.undo()
	case JudgePause:
		if g.paused {
			return refuse(ErrNotNow, Error{Reason: ReasonAlreadyPaused}, "already paused")
		}
		g.paused = true
		g.emit(Effect{Kind: EffPause})
		return nil
	case JudgeResume:
		if !g.paused {
			return refuse(ErrNotNow, Error{Reason: ReasonNotPaused}, "not paused")
		}
		g.paused = false
		g.emit(Effect{Kind: EffResume})
		return nil
	}
	return errf(ErrBadInput, "unknown judge command %d", in.Judge)
}

// dq: 點殺 — out at once, no skill, no last words; a DQ'd sheriff's badge is
// lost (project decision: passing it would be a skill).
func (g *Game) dq(s int) error {
	if s < 1 || s > g.n {
		return refuse(ErrBadTarget, Error{Reason: ReasonSeatRange, Seat: s}, "seat %d is not in the game", s)
	}
	if g.seats[s].out {
		return refuse(ErrBadTarget, Error{Reason: ReasonSeatOut, Seat: s}, "seat %d is not in the game", s)
	}
	cur := g.cur
	g.say("judge.dq", s)
	g.seats[s].causes = nil
	g.el.drop(s)
	g.dies(s, CauseDQ, true)
	if g.over {
		return nil
	}
	if s == g.sheriff {
		g.loseBadge()
	}
	if cur != nil && !cur.closed {
		switch {
		case cur.seat == s && cur.abort != nil:
			cur.abort()
		case cur.name == WaitNight && cur.after != nil:
			cur.after() // the wolves may now agree without the DQ'd wolf
		}
	}
	return nil
}
