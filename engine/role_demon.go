package engine

// 惡魔 (seed 003; rules-more.md D2, H10, H18): a wolf card that wakes with
// the wolves and joins the kill, then wakes alone after the wolf step every
// night and checks one other seat: 是神民 (a god) or 不是神民 (anything
// else, a wolf-camp seat included). From nightfall until the first
// exile-day speech begins he cannot die: the pack cannot pick him
// (RoleInfo.NoKnife), and a poison, a bet, an assassination or any other
// night death, a morning shot or a take in the election leave him in play.
// He cannot explode (RoleInfo.Explodes is false). The seer sees 狼人.

type demonState struct {
	check  int  // tonight's check
	immune bool // from nightfall to the day's first exile speech (H10)
}

// Demon check results (Record.Result of his check).
const (
	demonGod    = "是神民"
	demonNotGod = "不是神民"
)

func demonHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) { g.rs.demon = demonState{immune: true} },
			step:      demonStep,
			closed:    demonResult,
			shielded:  demonImmune,
		},
		day: dayHooks{
			moment: func(g *Game, m dayMoment) {
				if m == daySpeeches {
					g.rs.demon.immune = false
				}
			},
		},
		death: deathHooks{
			spared: demonImmune,
		},
	}
}

// demonImmune: the seat is 惡魔 and his immunity runs.
func demonImmune(g *Game, s int) bool { return g.rs.demon.immune && g.role(s) == Demon }

func demonStep(g *Game, s *step, _ StepKind, _ bool) bool {
	g.pickStep(s, "惡魔", func(seat, t int) error {
		if g.nightBlocked(seat) {
			return refuse(ErrRule, Error{Reason: ReasonBlocked, Role: Demon}, "the demon's check is blocked tonight")
		}
		if t == seat {
			return refuse(ErrBadTarget, Error{Reason: ReasonSelf, Role: Demon}, "the demon cannot check himself")
		}
		if !g.living(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
		}
		return nil
	}, func(_, target int) { g.rs.demon.check = target })
	pick := s.act
	s.act = func(seat int, a Action, t int) error {
		if a == ActWave {
			s.reset() // no check tonight
			return nil
		}
		return pick(seat, a, t)
	}
	s.keys = append(s.keys, Key{Word: "不用", Press: []Action{ActWave}})
	return false
}

// demonResult: after "他的身份為", the judge's gesture (thumbs up = 是神民,
// a wave = 不是神民) and its record.
func demonResult(g *Game, s *step, live bool) {
	if !live || g.rs.demon.check == 0 {
		return
	}
	d, t := s.actors[0], g.rs.demon.check
	res, line := demonNotGod, "cue.demon.notgod"
	if g.role(t).Camp() == CampGod {
		res, line = demonGod, "cue.demon.god"
	}
	g.cue(d, line, d, t)
	g.record(Record{Type: RecCheck, By: d, Target: t, Result: res})
}
