package engine

// The inputs a game takes from the table: a seat's panel, the pedal, a
// timer (the judge's own commands are in judge.go).

func (g *Game) applySeat(in Input) error {
	if g.over {
		return errf(ErrGameOver, "the game is over")
	}
	if g.paused {
		return errf(ErrPaused, "timers are paused")
	}
	if in.Seat < 1 || in.Seat > g.n {
		return refuse(ErrBadInput, Error{Reason: ReasonSeatRange, Seat: in.Seat}, "seat %d out of range 1..%d", in.Seat, g.n)
	}
	if in.Action < ActTarget || in.Action > ActBoom {
		return errf(ErrBadInput, "unknown action %d", in.Action)
	}
	if in.Action == ActTarget && (in.Target < 0 || in.Target > g.n) {
		return refuse(ErrBadTarget, Error{Reason: ReasonTargetRange, Target: in.Target}, "target %d out of range 0..%d", in.Target, g.n)
	}
	if in.Action == ActBoom {
		return g.boom(in.Seat)
	}
	s := g.cur
	if s == nil || s.act == nil {
		return refuse(ErrNotNow, Error{Reason: ReasonNoStep, Seat: in.Seat}, "no step takes seat input now")
	}
	if err := g.stepAllows(s, in); err != nil {
		return err
	}
	if err := s.act(in.Seat, in.Action, in.Target); err != nil {
		return err
	}
	s.inputs = append(s.inputs, in)
	if s.after != nil {
		s.after()
	}
	return nil
}

// stepAllows: the seat acts in step s and its skill is not blocked (the
// checks of a seat input before the step's own act).
func (g *Game) stepAllows(s *step, in Input) error {
	if !s.isActor(in.Seat) || (!s.outOK && !g.present(in.Seat) && !(s.name == WaitNight && contains(g.exploded, in.Seat))) {
		return refuse(ErrNotActor, Error{Reason: ReasonNotActor, Seat: in.Seat, Step: s.name,
			StepKind: s.night, SpeechKind: s.speech, VoteKind: s.vote}, "seat %d does not act in this step (%s)", in.Seat, s.describe())
	}
	if s.name == WaitNight && s.night != StepWolves && in.Action != ActWave && g.nightBlocked(in.Seat) {
		// 噩夢之影's fear, 蝕時狼妃's lock, 血月使徒's seal: 技能被禁止
		return refuse(ErrRule, Error{Reason: ReasonBlocked, Seat: in.Seat}, "seat %d's skill is blocked tonight (feared, locked or sealed)", in.Seat)
	}
	return nil
}

func (g *Game) applyPedal(p PedalPress) error {
	switch p {
	case PedalLong:
		return g.repeat()
	case PedalDouble:
		if g.over {
			return errf(ErrGameOver, "the game is over")
		}
		if g.paused {
			g.paused = false
			g.emit(Effect{Kind: EffResume})
		} else {
			g.paused = true
			g.emit(Effect{Kind: EffPause})
		}
		return nil
	case PedalShort:
		if g.over {
			return errf(ErrGameOver, "the game is over")
		}
		if g.paused {
			return errf(ErrPaused, "timers are paused")
		}
		if g.cur == nil || g.cur.pedal == nil {
			return refuse(ErrNotNow, Error{Reason: ReasonNoPedal}, "the pedal does not advance this step")
		}
		g.cur.pedal()
		return nil
	}
	return errf(ErrBadInput, "unknown pedal press %d", p)
}

func (g *Game) applyTimer(id TimerID) error {
	if g.over {
		return errf(ErrGameOver, "the game is over")
	}
	if g.paused {
		return errf(ErrPaused, "timers are paused")
	}
	if g.cur != nil {
		for i, t := range g.cur.timers {
			if t.id == id {
				g.cur.timers = append(g.cur.timers[:i:i], g.cur.timers[i+1:]...)
				t.fire()
				return nil
			}
		}
	}
	return errf(ErrUnknownTimer, "timer %d is not running", id)
}
