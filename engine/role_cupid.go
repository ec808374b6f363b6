package engine

// 丘比特 and 情侶 (rules-more.md D2, D0.2, D0.3; G1–G8; H3, H7, H8, H23).
//
// Night 1: 丘比特 keys two seats (himself allowed) or WAVE for none; one seat,
// or the same seat twice, links nobody (H3). The judge taps the lovers (a
// cue per lover, for the private indicator) and they open their eyes
// together in the 情侶 step. When a lover dies the partner dies of grief at
// once, day or night, whatever the cause; a lover may not vote for the
// partner (lovers.no_mutual_vote). The pair's cards fix 丘比特's side: two
// good lovers, good; two wolves, cupid.wolf_pair_side; one of each, a third
// camp (人狼戀) of both lovers and 丘比特 (lovers.mixed_pair_camp). The
// lovers' rules (grief, votes) are shared with 魅魔's pair (role_succubus.go).

// loversState: every linked pair, whoever linked it.
type loversState struct {
	pairs [][2]int
}

// cupidState: 丘比特's pair and the side it gave him.
type cupidState struct {
	seat     int      // 丘比特's seat once his step closed (0 = none)
	pair     [2]int   // his lovers ({0, 0} = none)
	fixed    bool     // the step closed: side and cat hold
	side     Side     // his side (SideGood or SideWolf; in a third camp: inThird)
	cat      Category // his 屠邊 category (cupid.category)
	third    bool     // he is a member of the 人狼戀 camp
	wolfTeam bool     // lovers.mixed_pair_camp=wolf_team: the good lover is on the wolves' side
}

func cupidHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			step:   cupidStep,
			closed: cupidClosed,
			actors: func(g *Game, k StepKind) ([]int, bool) { return pairSeats(g.rs.cupid.pair), k == StepLovers },
			asleep: func(g *Game, s int) bool {
				// H21: succubus.later_nights=asleep also keeps a 人狼戀's wolf lover out of the wolves' step
				c := &g.rs.cupid
				return g.opt.SuccubusLaterNights == "asleep" && g.night > 1 && contains(c.pair[:], s) && g.inThird(s)
			},
		},
		day: dayHooks{
			ballot: loversBallot,
		},
		death: deathHooks{
			died: loversDied,
		},
		camp: campHooks{
			side: cupidSide,
			unneeded: func(g *Game, s int) bool {
				c := &g.rs.cupid
				return !g.opt.CupidMustDie && c.third && s == c.seat && !contains(c.pair[:], s)
			},
		},
	}
}

func pairSeats(p [2]int) []int {
	if p[0] == 0 {
		return nil
	}
	return []int{p[0], p[1]}
}

// cupidStep: two seats, or WAVE (or 0) for none. The 情侶 step only opens
// and closes the lovers' eyes.
func cupidStep(g *Game, s *step, k StepKind, _ bool) bool {
	if k == StepLovers {
		if g.opt.Wording == "seed001" {
			// [001]'s tap script, said every night 1 whoever was linked (A15):
			// "请大家依然保持闭眼…法官会轻轻触碰被连的两名玩家的手掌心…被点中的两名玩家将成为本局
			// 游戏的情侣…好了请将你们的手伸回…情侣请睁眼，情侣请互相认识" (the open line said
			// the first part)
			g.say("cupid.tap.touch")
			g.say("cupid.tap.done")
			g.say("night.lovers.open.seed001")
		}
		return true
	}
	var picks []int
	waved := false
	s.act = func(seat int, a Action, t int) error {
		if a == ActWave || (a == ActTarget && t == 0) {
			picks, waved = nil, true
			return nil
		}
		if a != ActTarget {
			return errf(ErrNotNow, "丘比特 keys two seats, or waves for none")
		}
		if g.nightBlocked(seat) {
			return refuse(ErrRule, Error{Reason: ReasonBlocked, Role: Cupid}, "丘比特's link is blocked tonight")
		}
		if !g.living(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
		}
		if len(picks) == 1 && picks[0] == t {
			return refuse(ErrBadTarget, Error{Reason: ReasonSameLover, Role: Cupid, Target: t}, "丘比特 links two different seats, not seat %d twice", t)
		}
		if len(picks) == 2 {
			return refuse(ErrRule, Error{Reason: ReasonLinked, Role: Cupid}, "丘比特 has keyed two seats already (wave to start again)")
		}
		picks, waved = append(picks, t), false
		return nil
	}
	s.reset = func() { picks, waved = nil, false }
	s.keys = []Key{{Target: TargetSeat}, {Word: "不用", Press: []Action{ActWave}}, {Word: "不用", Target: TargetZero}}
	s.done = func() bool { return len(picks) == 2 || waved }
	s.commit = func() {
		if len(picks) == 2 {
			g.rs.cupid.pair = [2]int{picks[0], picks[1]}
		}
	}
	return false
}

// cupidClosed: the link is made, the judge taps the lovers, and 丘比特's
// side is fixed. Under cupid.may_skip=random_link the engine draws on every
// board night 1 whatever happened (A15), and links a 丘比特 who linked nobody
// with a random other living player.
func cupidClosed(g *Game, s *step, live bool) {
	if s.night != StepCupid {
		return
	}
	c := &g.rs.cupid
	if g.opt.CupidMaySkip == "random_link" {
		r := g.draw(0, 1<<30)
		if live && c.pair[0] == 0 {
			var others []int
			for x := 1; x <= g.n; x++ {
				if g.living(x) && x != s.actors[0] {
					others = append(others, x)
				}
			}
			if len(others) > 0 {
				c.pair = [2]int{s.actors[0], others[r%len(others)]}
			}
		}
	}
	if live {
		c.seat = s.actors[0]
	}
	if c.pair[0] != 0 {
		g.link(c.seat, c.pair)
	} else {
		g.cue(0, "cue.lovers.none") // the judge still walks the round ([004] 法官绕场一周)
	}
	g.fixCupid()
}

// link makes a pair of lovers: the judge taps each (a cue per lover: the
// seat's private indicator, where the table has one) and the record says so.
func (g *Game) link(by int, p [2]int) {
	g.rs.lovers.pairs = append(g.rs.lovers.pairs, p)
	for _, x := range p {
		g.cue(x, "cue.lovers.tap", x)
	}
	g.record(Record{Type: RecLovers, By: by, Seat: p[0], Target: p[1], When: g.when()})
}

// fixCupid fixes 丘比特's side and category from his pair (D0.3, H7, H8).
func (g *Game) fixCupid() {
	c := &g.rs.cupid
	c.fixed, c.side, c.cat = true, SideGood, CatNone
	ratioTwo := false // cupid.category=by_ratio, case ②: fewer 民 than wolves on the board
	if g.opt.CupidCategory == "by_ratio" {
		var villagers, wolves int
		for _, r := range g.b.Roles {
			if r.row().Category == CatVillager {
				villagers++
			} else if r.IsWolf() {
				wolves++
			}
		}
		ratioTwo = villagers < wolves
		c.cat = CatGod
		if ratioTwo {
			c.cat = CatVillager
		}
	} else if g.opt.CupidCategory == "god" {
		c.cat = CatGod
	}
	a, b := c.pair[0], c.pair[1]
	if a == 0 {
		return
	}
	self := c.seat == a || c.seat == b
	wa, wb := g.role(a).IsWolf(), g.role(b).IsWolf()
	switch {
	case wa && wb:
		if !ratioTwo && g.opt.CupidWolfPairSide == "wolves" && c.seat != 0 {
			c.side = SideWolf
		}
	case wa != wb:
		if g.opt.MixedPairCamp == "wolf_team" {
			c.wolfTeam = true
			return
		}
		camp := []int{a, b}
		if !self && !ratioTwo && c.seat != 0 {
			camp = append(camp, c.seat)
			c.third = true
		}
		g.cs.third = append(g.cs.third, camp)
	}
}

// cupidSide: 丘比特's side and category once fixed; under wolf_team the good
// lover of a mixed pair is on the wolves' side.
func cupidSide(g *Game, s int) (Side, Category, bool) {
	c := &g.rs.cupid
	if !c.fixed {
		return 0, 0, false
	}
	if c.wolfTeam && contains(c.pair[:], s) {
		return SideWolf, CatNone, true
	}
	if s == c.seat && s != 0 {
		if c.third {
			return SideThird, c.cat, true
		}
		return c.side, c.cat, true
	}
	return 0, 0, false
}

// partners are the seats linked with s.
func (g *Game) partners(s int) []int {
	var out []int
	for _, p := range g.rs.lovers.pairs {
		if p[0] == s {
			out = append(out, p[1])
		} else if p[1] == s {
			out = append(out, p[0])
		}
	}
	return out
}

// loversDied: the partner dies of grief at once — by day out now, with the
// death that caused it (its batch says "X號玩家殉情"); at night among the
// night's deaths. Nothing stops it (guard, antidote, immunity).
func loversDied(g *Game, s int, _ Cause) {
	for _, p := range g.partners(s) {
		if !g.present(p) || g.seats[p].dying {
			continue
		}
		if g.day == g.night {
			g.cs.together = append(g.cs.together, p)
			g.dies(p, CauseGrief, false)
		} else {
			g.nightDeath(p, CauseGrief)
		}
	}
}

// loversBallot: lovers.no_mutual_vote — in exile and PK votes a lover may
// not vote for the partner; the voter may vote again or abstain.
func loversBallot(g *Game, kind VoteKind, voter, target int) error {
	if !g.opt.NoMutualVote || (kind != VoteExile && kind != VoteExilePK) {
		return nil
	}
	if contains(g.partners(voter), target) {
		return refuse(ErrRule, Error{Reason: ReasonLoverVote, Seat: voter, Target: target}, "seat %d may not vote for its lover, seat %d (lovers.no_mutual_vote)", voter, target)
	}
	return nil
}

// griefTonight: under lovers.grief_blocks_skill, s will die of grief
// tonight as the night stands (a partner knifed or poisoned): the hunter's
// status is "cannot" ([001] (7) "如果猎人…是情侣中殉情的一方则会得到法官否定的指示").
// The knife comes first: a lover knifed himself dies of the knife, not of
// a partner's poison.
func (g *Game) griefTonight(s int) bool {
	if !g.opt.GriefBlocksSkill {
		return false
	}
	knifed := func(x int) bool {
		k := g.ns.kill
		return k == x && g.living(x) && !g.immuneAtNight(x) && g.guardedTonight(x) == g.ns.saved
	}
	for _, p := range g.partners(s) {
		if !g.living(p) {
			continue
		}
		if knifed(p) {
			return true
		}
		if g.ns.poison == p && !knifed(s) && !g.immuneAtNight(p) && !g.role(p).row().PoisonOK {
			return true
		}
	}
	return false
}
