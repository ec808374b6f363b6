package engine

// 黑市商人 and his 幸運兒 (rules-more.md D2, H1, H3, H13, H22). Night 1, first
// step: the merchant keys the lucky seat (never himself), then the gift (1
// glasses, 2 poison, 3 gun); on timeout the engine draws both (H3). A good
// lucky one holds the gift for the game, usable from the next night
// (lucky.same_night off); a wolf lucky one gets nothing, is not told, and
// the merchant joins night 1's deaths (cause trade, last in H1's order).
//
// 幸運兒 is a status, not a card: its step (after 預言家) acts through the
// lucky seat. Glasses: one check; poison: one kill at the night's end (not
// stopped by the guard); gun: the hunter's status gesture, and a shot when
// he dies (hunter.shoot_causes knife_exile). A seer, witch or hunter lucky
// one uses the gift in her own step (two checks one night, a second poison,
// two shots); her 幸運兒 step is open/close only.

// The gifts, as the merchant keys them.
const (
	giftGlasses = 1
	giftPoison  = 2
	giftGun     = 3
)

// giftName is a gift's id (Record.Result of a trade action).
func giftName(gift int) string {
	switch gift {
	case giftGlasses:
		return "glasses"
	case giftPoison:
		return "poison"
	case giftGun:
		return "gun"
	}
	return ""
}

type merchantState struct {
	merchant, lucky int
	gift            int
	night           int  // the night of the trade
	failed          bool // the lucky one is a wolf: no gift, the merchant dies
	used            bool // the glasses or the poison is spent, the gun fired
	poison          int  // the lucky one's poison tonight
}

// holds: a good lucky one holds a gift.
func (m *merchantState) holds() bool { return m.lucky > 0 && !m.failed && m.gift > 0 }

func merchantHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) { g.rs.merchant.poison = 0 },
			actors:    merchantActors,
			step:      merchantSteps,
			resolve:   merchantResolve,
			spare:     luckySpare,
		},
		death: deathHooks{
			// the lucky one's gun shoots as 獵人's does (hunter.shoot_causes
			// too); a card with a shot of its own gets a second one
			shotOn: func(g *Game, s int) ([]Cause, bool) {
				if g.role(s).row().ShotOn != nil || !luckyGun(g, s) {
					return nil, false
				}
				if g.opt.HunterShootCauses == "any_but_poison_grief" {
					return shotCausesAny(), true
				}
				return shotCauses(), true
			},
			secondShot: func(g *Game, s int) bool { return luckySpare(g, s, StepHunter, true) },
		},
	}
}

// merchantActors: the merchant's step is his; the lucky one's step is the
// good lucky seat's (a wolf lucky one never knows: nobody acts).
func merchantActors(g *Game, k StepKind) ([]int, bool) {
	if k != StepLucky {
		return nil, false // the merchant's own step: the card's holders
	}
	if m := &g.rs.merchant; m.holds() {
		return []int{m.lucky}, true // nightActors keeps the living
	}
	return nil, true
}

// merchantAnyNight: merchant.timing any_night_after_seer (he trades once,
// on any night, after 預言家; his step's place moves: E0.2 4b).
func merchantAnyNight(o Options) bool { return o.MerchantTiming == "any_night_after_seer" }

func merchantSteps(g *Game, s *step, k StepKind, live bool) bool {
	if k == StepLucky {
		return luckyStep(g, s, live)
	}
	g.say("night.merchant.ask")
	anyNight := merchantAnyNight(g.opt)
	if anyNight && g.rs.merchant.lucky > 0 {
		if live {
			g.cue(s.actors[0], "cue.blocked", s.actors[0]) // traded: used up
		}
		return true
	}
	lucky, gift, none := 0, 0, false
	// the lucky seat (or not tonight: any_night_after_seer), then the gift's key
	luckyKeys := []Key{{Target: TargetSeat}, {Word: "不用", Press: []Action{ActWave}}, {Word: "不用", Target: TargetZero}}
	giftKeys := []Key{{Word: "眼鏡", Target: TargetValue, Value: giftGlasses},
		{Word: "毒藥", Target: TargetValue, Value: giftPoison}, {Word: "獵槍", Target: TargetValue, Value: giftGun}}
	s.keys = luckyKeys
	s.act = func(seat int, a Action, t int) error {
		if anyNight && lucky == 0 && (a == ActWave || (a == ActTarget && t == 0)) {
			none = true // [001]: not tonight
			return nil
		}
		if a != ActTarget || t == 0 {
			return errf(ErrNotNow, "the merchant keys the lucky seat, then the gift (1 glasses, 2 poison, 3 gun)")
		}
		if lucky == 0 {
			if t == seat {
				return refuse(ErrBadTarget, Error{Reason: ReasonSelf, Role: Merchant}, "the merchant cannot make himself the lucky one")
			}
			if !g.living(t) {
				return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
			}
			lucky, s.keys = t, giftKeys
			return nil
		}
		if t < giftGlasses || t > giftGun {
			return refuse(ErrBadTarget, Error{Reason: ReasonBadGift, Target: t}, "the gift is 1 (glasses), 2 (poison) or 3 (gun), not %d", t)
		}
		gift = t
		return nil
	}
	s.reset = func() { lucky, gift, none, s.keys = 0, 0, false, luckyKeys }
	s.done = func() bool { return none || lucky > 0 && gift > 0 }
	s.commit = func() {
		merchant := s.actors[0]
		if anyNight && (none || lucky == 0) {
			return // optional on any night: no trade tonight (H3 draws only for night 1's mandatory trade)
		}
		if lucky == 0 || gift == 0 {
			// H3: a mandatory choice, drawn with the seeded generator
			if lucky == 0 {
				var c []int
				for x := 1; x <= g.n; x++ {
					if x != merchant && g.living(x) {
						c = append(c, x)
					}
				}
				lucky = c[g.draw(0, len(c)-1)]
			}
			if gift == 0 {
				gift = g.draw(giftGlasses, giftGun)
			}
			g.cue(merchant, "cue.merchant.random."+giftName(gift), merchant, lucky)
		}
		m := &g.rs.merchant
		*m = merchantState{merchant: merchant, lucky: lucky, gift: gift, night: g.night, failed: g.role(lucky).IsWolf()}
		g.record(Record{Type: RecAction, Kind: string(ActionTrade), By: merchant, Target: lucky, Result: giftName(gift), When: g.when()})
	}
	return false
}

// luckyStep: night of the trade: the judge taps a good lucky one and shows
// the gift (no cue for a wolf: H13). Later nights: the gift's use.
func luckyStep(g *Game, s *step, live bool) bool {
	m := &g.rs.merchant
	if !live {
		return true
	}
	l := s.actors[0]
	if g.night == m.night {
		g.cue(l, "cue.lucky.gift."+giftName(m.gift), l)
		return true
	}
	own := g.role(l).row()
	switch {
	case m.gift == giftGlasses && own.acts(StepSeer), m.gift == giftPoison && own.acts(StepWitch),
		m.gift == giftGun && own.ShotOn != nil:
		return true // used in her own step (H13)
	case g.skillLost(l) || g.nightBlocked(l):
		s.act = func(seat int, a Action, t int) error {
			if a == ActWave || (a == ActTarget && t == 0) {
				return nil
			}
			return refuse(ErrRule, Error{Reason: ReasonBlocked, Role: Merchant}, "the lucky one's gift is lost or blocked")
		}
		s.reset, s.noUndo = func() {}, true
		s.keys = []Key{{Word: "不用", Press: []Action{ActWave}}, {Word: "不用", Target: TargetZero}}
		return false
	case m.gift == giftGun:
		line := "cue.lucky.gun.can"
		if m.used || !g.canShootTonight(l) {
			line = "cue.lucky.gun.cannot"
		}
		g.cue(l, line, l)
		return true
	case m.used:
		g.cue(l, "cue.blocked", l) // used up: 技能被禁止
		return true
	}
	target, chosen := 0, false
	s.act = func(seat int, a Action, t int) error {
		if a == ActWave || (a == ActTarget && t == 0) {
			target, chosen = 0, true
			return nil
		}
		if a != ActTarget {
			return errf(ErrNotNow, "the lucky one keys a seat, or waves")
		}
		if t == seat {
			return refuse(ErrBadTarget, Error{Reason: ReasonSelf, Role: Merchant}, "the lucky one cannot pick himself")
		}
		if !g.living(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
		}
		target, chosen = t, true
		return nil
	}
	s.reset = func() { target, chosen = 0, false }
	s.keys = []Key{{Word: map[int]string{giftGlasses: "驗", giftPoison: "毒"}[m.gift], Target: TargetSeat}, {Word: "不用", Press: []Action{ActWave}}, {Word: "不用", Target: TargetZero}}
	s.done = func() bool { return chosen }
	s.commit = func() {
		if target == 0 {
			return
		}
		m.used = true
		if m.gift == giftGlasses {
			res, line := WinGood, "cue.lucky.good"
			if g.role(target).row().Seen() == WinWolves {
				res, line = WinWolves, "cue.lucky.wolf"
			}
			g.cue(l, line, l, target)
			g.record(Record{Type: RecCheck, By: l, Target: target, Result: string(res)})
			return
		}
		m.poison = target
		g.ns.poisoned[target] = true
		g.reachedBy(l, target, CausePoison)
		g.record(Record{Type: RecAction, Kind: string(ActionPoison), By: l, Target: target, When: g.when()})
	}
	return false
}

// merchantResolve: (5) the lucky one's poison, (6) the failed trade (H1).
func merchantResolve(g *Game) {
	m := &g.rs.merchant
	if p := m.poison; p > 0 && (g.living(p) || g.seats[p].dying) && !g.immuneAtNight(p) && !g.role(p).row().PoisonOK {
		g.nightDeath(p, CausePoison)
	}
	m.poison = 0
	if s := m.merchant; m.failed && g.night == m.night && (g.living(s) || g.seats[s].dying) {
		g.nightDeath(s, CauseTrade) // the guard and the antidote cannot stop it
	}
}

// luckyGun: a lucky one holding an unfired gun (a hunter's own shot is his card's).
func luckyGun(g *Game, s int) bool {
	m := &g.rs.merchant
	return m.holds() && s == m.lucky && m.gift == giftGun && !m.used && !g.skillLost(s)
}

// luckySpare: the gift doubles the skill of the role that already holds it.
func luckySpare(g *Game, s int, k StepKind, use bool) bool {
	m := &g.rs.merchant
	if !m.holds() || s != m.lucky || m.used || g.skillLost(s) || g.night == m.night && g.day != g.night {
		return false
	}
	var ok bool
	switch k {
	case StepSeer:
		ok = m.gift == giftGlasses && g.role(s).row().acts(StepSeer)
	case StepWitch:
		ok = m.gift == giftPoison && g.role(s).row().acts(StepWitch)
	case StepHunter:
		if m.gift != giftGun {
			return false
		}
		if use {
			m.used = true // fired: the second shot of a hunter, the only one of anyone else
		}
		return g.role(s).row().ShotOn != nil
	}
	if ok && use {
		m.used = true
	}
	return ok
}

// Lucky is the lucky one of 黑市商人's trade, for the judge's god view: the
// seat (0 = no trade yet), the gift (glasses, poison, gun; "" for a wolf
// lucky one, who got nothing) and whether it is spent.
func (g *Game) Lucky() (seat int, gift string, used bool) {
	m := &g.rs.merchant
	if m.lucky == 0 {
		return 0, "", false
	}
	if m.failed {
		return m.lucky, "", false
	}
	return m.lucky, giftName(m.gift), m.used
}

// acts reports whether the role acts in night steps of kind k (it already
// holds the skill a gift would double).
func (ri *RoleInfo) acts(k StepKind) bool {
	for j := range ri.Steps {
		if ri.Steps[j].Kind == k {
			return true
		}
	}
	return false
}
