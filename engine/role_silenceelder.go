package engine

// 禁言長老 (rules-more.md D2; seed 003 "禁言长老每晚能指定一位玩家，若禁言长老
// 当晚未死亡，则被禁言玩家在第二天白天不能发言(警长竞选环节除外)"): every night
// he keys a seat, himself allowed, or WAVE (空禁); never the same seat two
// nights running (silence.no_repeat). If he survives the night and so does the
// seat, the next day "X號玩家被禁言" follows the night results' deaths (their
// skills, last words and leaving), before the speeches, and the seat's
// exile-day and PK speeches are replaced by the judge's line (no speech).
// Election speeches, votes, explosions, 歸票 and last words stay
// (silence.blocks_last_words replaces the last words too).

type silenceElderState struct {
	tonight, last int // tonight's choice (0 = 空禁) and the previous night's
	elder         int // the elder who chose tonight
	day, seat     int // the silence in force: seat silenced on day (0 = none)
	say           int // the seat to announce this morning (an effective silence, or a void one under announce_void)
}

func silenceElderHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) {
				st := &g.rs.silenceelder
				st.tonight, st.elder, st.say = 0, 0, 0
			},
			step: silenceElderStep,
			dawn: silenceDawn,
		},
		day: dayHooks{
			moment: func(g *Game, m dayMoment) {
				if m == dayExile {
					silenceAnnounce(g)
				}
			},
			mutedLine: silenceMuted,
		},
	}
}

func silenceElderStep(g *Game, s *step, _ StepKind, _ bool) bool {
	target, chosen := 0, false
	s.act = func(seat int, a Action, t int) error {
		switch a {
		case ActWave:
			target, chosen = 0, true // 空禁
			return nil
		case ActTarget:
		default:
			return errf(ErrNotNow, "禁言長老 points at a seat (0 or wave = 空禁)")
		}
		if t != 0 && !g.living(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
		}
		if t != 0 && t == g.rs.silenceelder.last && !g.opt.SilenceRepeat {
			return refuse(ErrRule, Error{Reason: ReasonTwiceRunning, Role: SilenceElder, Target: t}, "禁言長老 cannot silence seat %d two nights running", t)
		}
		target, chosen = t, true
		return nil
	}
	s.reset = func() { target, chosen = 0, false }
	s.keys = []Key{{Target: TargetSeat}, {Word: "不用", Target: TargetZero}, {Word: "不用", Press: []Action{ActWave}}} // 0: the key 0
	s.done = func() bool { return chosen }
	s.commit = func() {
		g.rs.silenceelder.tonight, g.rs.silenceelder.elder = target, s.actors[0]
		if target > 0 {
			g.record(Record{Type: RecAction, Kind: string(ActionSilence), By: s.actors[0], Target: target, When: g.when()})
		}
	}
	return false
}

// silenceDawn: the night's deaths are known; the silence holds for the
// coming day only if the elder and the seat are both alive.
func silenceDawn(g *Game) {
	st := &g.rs.silenceelder
	st.last = st.tonight
	st.day, st.seat = 0, 0
	t := st.tonight
	if t == 0 {
		return // 空禁: nothing is announced
	}
	if g.living(st.elder) && g.living(t) {
		st.day, st.seat, st.say = g.night, t, t
	} else if g.opt.SilenceAnnounceVoid {
		st.say = t // 報: said, with no effect
	}
}

// silenceAnnounce: "X號玩家被禁言", after the deaths' block and before the
// speeches (rules-more.md I9); a seat that went out in that block (a morning
// shot) is not announced.
func silenceAnnounce(g *Game) {
	st := &g.rs.silenceelder
	if st.say == 0 || (st.seat == st.say && !g.present(st.say)) {
		st.say = 0
		return
	}
	g.say("day.silenced", st.say)
	if st.seat == st.say && st.day == g.day {
		g.record(Record{Type: RecSilence, Day: g.day, Seat: st.seat})
	}
	st.say = 0
}

func silenceMuted(g *Game, s int, kind SpeechKind) string {
	st := &g.rs.silenceelder
	if st.seat != s || st.day != g.day || g.day != g.night {
		return ""
	}
	switch kind {
	case SpeechExile, SpeechExilePK:
		return "speech.silenced"
	case SpeechLastWords:
		if g.opt.SilenceLastWords {
			return "speech.silenced"
		}
	}
	return ""
}
