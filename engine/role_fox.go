package engine

// 狐狸 (seed 003; rules-more.md D2, H3, H18): every night, at the seer's
// slot, the fox keys the middle seat of three consecutive seats — any three,
// dead seats and its own included; 12-1-2 wraps round the table unless
// fox.wrap is off — and learns 有狼人 (a wolf claw) or 沒有狼人 (thumbs up),
// as the seer sees each seat (RoleInfo.Seen). After 沒有狼人 the skill is gone
// from the next night on: the step still runs its whole window and the
// judge shows 技能被禁止. No key (a timeout or a wave) is no check, and the
// skill is kept.

type foxState struct {
	check    int  // tonight's middle seat
	lost     bool // the skill is gone (a 沒有狼人 on an earlier night)
	lostNext bool // tonight's result was 沒有狼人: the skill goes at nightfall
}

// Fox check results (Record.Result of its check).
const (
	foxWolf   = "有狼人"
	foxNoWolf = "沒有狼人"
)

func foxHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) {
				f := &g.rs.fox
				f.check, f.lost = 0, f.lost || f.lostNext
			},
			step:   foxStep,
			closed: foxResult,
		},
	}
}

func foxStep(g *Game, s *step, _ StepKind, live bool) bool {
	if live && g.rs.fox.lost && !g.nightBlocked(s.actors[0]) {
		g.cue(s.actors[0], "cue.blocked", s.actors[0]) // 技能被禁止: the skill is gone (D0.4)
	}
	g.say("night.fox.ask")
	target, waved := 0, false
	s.act = func(seat int, a Action, t int) error {
		if a == ActWave {
			target, waved = 0, true // no check tonight; the skill is kept
			return nil
		}
		if a != ActTarget || t == 0 {
			return errf(ErrNotNow, "the fox points at the middle seat of three, or waves")
		}
		if g.rs.fox.lost {
			return refuse(ErrRule, Error{Reason: ReasonSkillUsed, Role: Fox}, "the fox lost its skill after a 沒有狼人 result")
		}
		if g.nightBlocked(seat) {
			return refuse(ErrRule, Error{Reason: ReasonBlocked, Role: Fox}, "the fox's check is blocked tonight")
		}
		if !g.opt.FoxWrap && (t == 1 || t == g.n) {
			return refuse(ErrBadTarget, Error{Reason: ReasonCannotTarget, Role: Fox, Target: t},
				"without fox.wrap the middle seat is 2..%d", g.n-1)
		}
		target, waved = t, false
		return nil
	}
	s.reset = func() { target, waved = 0, false }
	s.keys = []Key{{Target: TargetSeat}, {Word: "不用", Press: []Action{ActWave}}}
	s.done = func() bool { return target > 0 || waved }
	s.commit = func() { g.rs.fox.check = target }
	return false
}

// foxGroup is the three seats around the middle seat m.
func (g *Game) foxGroup(m int) [3]int {
	wrap := func(x int) int { return (x+g.n-1)%g.n + 1 }
	return [3]int{wrap(m - 1), m, wrap(m + 1)}
}

// foxResult: after "他的身份為", the judge's gesture and its record.
func foxResult(g *Game, s *step, live bool) {
	if !live || g.rs.fox.check == 0 {
		return
	}
	f, m := s.actors[0], g.rs.fox.check
	res, line := foxNoWolf, "cue.fox.nowolf"
	for _, x := range g.foxGroup(m) {
		if g.role(x).row().Seen() == WinWolves {
			res, line = foxWolf, "cue.fox.wolf"
		}
	}
	if res == foxNoWolf {
		g.rs.fox.lostNext = true
	}
	g.cue(f, line, f, m)
	g.record(Record{Type: RecCheck, By: f, Target: m, Result: res})
}
