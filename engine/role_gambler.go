package engine

// 賭徒 (seed 003; rules-more.md D2, H1, H3, H17, H18): once a game, at his
// step after the seer's, the gambler keys another seat (his own is refused)
// or waves. At the night's end, after the knife and the poison, a wolf-camp
// target dies; any other target (a god, a villager, a third camp) costs the
// gambler his life (cause gamble). The guard and the antidote stop neither.
// A bet on a seat that cannot die tonight (惡魔) kills nobody: the target is
// a wolf, so the gambler survives (G27). No key (a timeout or a wave) is no
// bet, and the use is not spent; once spent, his step still runs its whole
// window and the judge shows 技能被禁止. A 白狼王 killed by the bet who
// explodes in the next election takes nobody (explode.go, as 吞毒).

type gamblerState struct {
	used       bool
	target, by int // tonight's bet and the gambler who made it
}

func gamblerHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) { g.rs.gambler.target, g.rs.gambler.by = 0, 0 },
			step:      gamblerStep,
			resolve:   gambleDeaths,
		},
	}
}

func gamblerStep(g *Game, s *step, _ StepKind, live bool) bool {
	if live && g.rs.gambler.used && !g.nightBlocked(s.actors[0]) {
		g.cue(s.actors[0], "cue.blocked", s.actors[0]) // 技能被禁止: the bet is spent (H17)
	}
	target, waved := 0, false
	s.act = func(seat int, a Action, t int) error {
		if a == ActWave {
			target, waved = 0, true // no bet tonight; the use is kept
			return nil
		}
		if a != ActTarget || t == 0 {
			return errf(ErrNotNow, "the gambler points at a seat, or waves")
		}
		if g.rs.gambler.used {
			return refuse(ErrRule, Error{Reason: ReasonSkillUsed, Role: Gambler}, "the gambler's one bet is used")
		}
		if g.nightBlocked(seat) {
			return refuse(ErrRule, Error{Reason: ReasonBlocked, Role: Gambler}, "the gambler's bet is blocked tonight")
		}
		if t == seat {
			return refuse(ErrBadTarget, Error{Reason: ReasonSelf, Role: Gambler}, "the gambler cannot bet on himself")
		}
		if !g.living(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
		}
		target, waved = t, false
		return nil
	}
	s.reset = func() { target, waved = 0, false }
	s.keys = []Key{{Target: TargetSeat}, {Word: "不用", Press: []Action{ActWave}}}
	s.done = func() bool { return target > 0 || waved }
	s.commit = func() {
		if target == 0 {
			return
		}
		gs := &g.rs.gambler
		gs.used, gs.target, gs.by = true, target, s.actors[0]
		g.record(Record{Type: RecAction, Kind: string(ActionBet), By: gs.by, Target: target, When: g.when()})
	}
	return false
}

// gambleDeaths: the bet resolves after the poison (H1). A seat already
// dying tonight gets the cause recorded and dies once (H2).
func gambleDeaths(g *Game) {
	t, by := g.rs.gambler.target, g.rs.gambler.by
	if t == 0 || by == 0 {
		return
	}
	loser := by // a good (or third-camp) target: the gambler dies
	if g.role(t).IsWolf() {
		loser = t
	}
	if (g.living(loser) || g.seats[loser].dying) && !g.immuneAtNight(loser) {
		g.nightDeath(loser, CauseGamble)
	}
}
