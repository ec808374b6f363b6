package engine

// 潛行者 (rules-more.md D2 and H4, H17; seed 003 "每局游戏仅限一次，白天放逐公投
// 时，若潜行者投票的玩家未被放逐，则当晚潜行者可秘密暗杀这位玩家"): his step runs
// every night after 預言家, always the same length. On the night after day D
// he may act when his ballot in the last exile-vote round of day D in which
// he was entitled to vote (the first round when he stood on the PK stage)
// named another player X, X was not exiled (a revealed idiot was not) and X
// is alive at nightfall. He is shown X's number and keys OK or UP (kill) or
// WAVE; once per game, spent as soon as he keys the kill. X dies at the
// night's end (assassinate), through the guard and the antidote. When he
// cannot act (night 1, not eligible, used up) the judge shows 技能被禁止; a
// hug (花蝴蝶) loses the chance without spending the use.

type stalkerState struct {
	used   bool
	day    int // the day of his last counted exile ballot
	vote   int // its target (0 = abstained)
	target int // tonight's 暗殺 (0 = none)
}

func stalkerHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) { g.rs.stalker.target = 0 },
			step:      stalkerStep,
			resolve:   stalkerDeaths,
		},
		day: dayHooks{
			voted: stalkerVoted,
		},
	}
}

// stalkerVoted keeps his ballot of each exile-vote round he votes in: the
// last one of the day counts (the PK round's, unless he stood on the stage).
func stalkerVoted(g *Game, kind VoteKind, votes []Vote) {
	if kind != VoteExile && kind != VoteExilePK {
		return // the sheriff election never counts (H4 a)
	}
	for _, v := range votes {
		if g.role(v.Voter) == Stalker {
			g.rs.stalker.day, g.rs.stalker.vote = g.day, v.Target
		}
	}
}

// stalkerPrey is the seat the stalker may assassinate tonight (0 = none).
func (g *Game) stalkerPrey(seat int) int {
	st := &g.rs.stalker
	if st.used || st.day == 0 || st.day != g.night-1 {
		return 0
	}
	if x := st.vote; x > 0 && x != seat && g.living(x) {
		return x
	}
	return 0
}

func stalkerStep(g *Game, s *step, _ StepKind, live bool) bool {
	g.say("night.stalker.ask")
	prey := 0
	if live {
		a := s.actors[0]
		prey = g.stalkerPrey(a)
		switch {
		case g.nightBlocked(a):
			// hugged: the shared step shows 技能被禁止
		case prey == 0:
			g.cue(a, "cue.blocked", a) // night 1, not eligible or used up (H17)
		default:
			g.cue(a, "cue.stalker.prey", a, prey)
		}
	}
	kill, chosen := false, false
	s.act = func(seat int, a Action, t int) error {
		switch {
		case a == ActWave || (a == ActTarget && t == 0):
			kill, chosen = false, true
			return nil
		case a == ActUp || a == ActTarget:
		default:
			return errf(ErrNotNow, "潛行者 keys OK or up (kill) or wave (spare)")
		}
		if g.rs.stalker.used {
			return refuse(ErrRule, Error{Reason: ReasonSkillUsed, Role: Stalker}, "潛行者's 暗殺 is used")
		}
		if prey == 0 {
			return refuse(ErrRule, Error{Reason: ReasonNotEligible, Role: Stalker}, "潛行者 has nobody to assassinate tonight")
		}
		if a == ActTarget && t != prey {
			return refuse(ErrBadTarget, Error{Reason: ReasonCannotTarget, Role: Stalker, Target: t}, "潛行者 may only assassinate seat %d tonight", prey)
		}
		kill, chosen = true, true
		return nil
	}
	s.reset = func() { kill, chosen = false, false }
	s.keys = []Key{{Word: "刺", Press: []Action{ActUp}}, {Word: "刺", Target: TargetSeat},
		{Word: "不刺", Press: []Action{ActWave}}, {Word: "不刺", Target: TargetZero}}
	s.done = func() bool { return chosen }
	s.commit = func() {
		if !kill {
			return
		}
		g.rs.stalker.used, g.rs.stalker.target = true, prey
		g.record(Record{Type: RecAction, Kind: string(ActionAssassinate), By: s.actors[0], Target: prey, When: g.when()})
	}
	return false
}

// stalkerDeaths: 暗殺 (H1 (4)); neither the guard nor the antidote stops it.
func stalkerDeaths(g *Game) {
	t := g.rs.stalker.target
	if t == 0 || !(g.living(t) || g.seats[t].dying) || g.immuneAtNight(t) {
		return
	}
	g.nightDeath(t, CauseAssassinate)
}
