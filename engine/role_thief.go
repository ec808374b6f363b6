package engine

// 盜賊 (rules-more.md D2 盜賊, G9, G10, H9): the board lists N+2 cards; two
// are left at the bottom (the deal redeals a bottom of two wolf-camp cards,
// or of 盜賊 and a wolf-camp card: forbiddenBottom). On night 1 only, first,
// the thief is shown the two bottom cards and keys 1 or 2 (WAVE is refused:
// "必須从底牌选择一个身份"). With a wolf-camp card in the bottom the engine
// gives it to the thief when the step opens ("就直接给盗贼狼身份"); a key for
// the other card is refused, a key for the wolf card confirms it. On timeout
// the thief keeps the forced card, or the first. From the step's close (the
// forced card: its open) the thief plays the kept card (setRole), in every
// later step of the same night too; the buried card's steps still run
// (A3, A15). A thief card in the bottom: no thief this game, the step runs
// all the same.

type thiefState struct {
	seat   int // the thief's seat once it has kept a card (0 = none yet, or no thief)
	kept   int // 1 or 2: the bottom card it keeps
	forced bool
}

func thiefHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			step: thiefStep,
		},
	}
}

// forbiddenBottom: a bottom the deal may not leave (G10, H9); twoWolves:
// thief.two_wolf_bottom=allow (only 盜賊 with a wolf card is redealt).
func forbiddenBottom(bottom []Role, twoWolves bool) bool {
	wolves, thief := 0, false
	for _, r := range bottom {
		if r.IsWolf() {
			wolves++
		}
		if r == Thief {
			thief = true
		}
	}
	return (wolves >= 2 && !twoWolves) || (thief && wolves > 0)
}

// thiefForced is the bottom card (1 or 2) the thief must take: the
// wolf-camp card; of two wolf-camp cards (thief.two_wolf_bottom=allow) the
// special wolf, "有特殊狼人必选特殊狼人" (0 = a free choice: no wolf card, or
// two plain or two special wolves).
func thiefForced(bottom []Role) int {
	wolf, special, wolves, specials := 0, 0, 0, 0
	for i, r := range bottom {
		if !r.IsWolf() || i >= 2 {
			continue
		}
		wolves++
		wolf = i + 1
		if r != Werewolf {
			specials++
			special = i + 1
		}
	}
	switch {
	case wolves == 1:
		return wolf
	case wolves == 2 && specials == 1:
		return special
	}
	return 0
}

func thiefStep(g *Game, s *step, _ StepKind, live bool) bool {
	seat := 0
	if live {
		seat = s.actors[0]
	}
	// the judge is shown both bottom cards, whoever holds the thief card
	for i, r := range g.bottom {
		g.cue(seat, "cue.thief.card."+string(r), i+1)
	}
	forced := thiefForced(g.bottom)
	if live && forced > 0 {
		g.cue(seat, "cue.thief.forced", seat, forced)
		g.keepCard(seat, forced, true)
	}
	choice := forced
	s.act = func(seat int, a Action, t int) error {
		switch a {
		case ActWave:
			return refuse(ErrRule, Error{Reason: ReasonThiefMustTake, Role: Thief}, "the thief must keep one of the two bottom cards (key 1 or 2)")
		case ActTarget:
		default:
			return errf(ErrNotNow, "the thief keys 1 or 2 (the bottom card it keeps)")
		}
		if t != 1 && t != 2 || t > len(g.bottom) {
			return refuse(ErrBadTarget, Error{Reason: ReasonThiefCard, Role: Thief, Target: t}, "the thief keys 1 or 2, not %d", t)
		}
		if forced > 0 && t != forced {
			if g.bottom[t-1].IsWolf() { // thief.two_wolf_bottom=allow: the special wolf first
				return refuse(ErrRule, Error{Reason: ReasonThiefMustSpecial, Role: Thief, Target: t}, "bottom card %d is a special wolf: the thief must keep it, not card %d", forced, t)
			}
			return refuse(ErrRule, Error{Reason: ReasonThiefMustWolf, Role: Thief, Target: t}, "bottom card %d is a wolf-camp card: the thief must keep it, not card %d", forced, t)
		}
		choice = t
		return nil
	}
	s.reset = func() { choice = forced }
	s.keys = []Key{{Target: TargetCard}, {Word: "不用", Press: []Action{ActWave}}} // a card's word is its name; 不用 is refused
	s.done = func() bool { return choice > 0 }
	s.commit = func() {
		if forced > 0 {
			return // kept when the step opened
		}
		if choice == 0 {
			choice = 1 // timeout: the first card (inferred, D2)
		}
		g.keepCard(s.actors[0], choice, false)
	}
	return live && forced > 0 // the forced card is kept: the thief has acted
}

// keepCard: the thief at seat keeps bottom card k; the other is buried.
func (g *Game) keepCard(seat, k int, forced bool) {
	if k < 1 || k > len(g.bottom) {
		return
	}
	g.rs.thief = thiefState{seat: seat, kept: k, forced: forced}
	kept := g.bottom[k-1]
	buried := Role("")
	if len(g.bottom) == 2 {
		buried = g.bottom[2-k]
	}
	g.record(Record{Type: RecAction, Kind: string(ActionThief), By: seat, Role: kept, Result: buried.Name(), When: g.when()})
	g.setRole(seat, kept)
}

// ThiefPick tells the judge's view what the thief did: its seat, the card
// it kept and the card it buried (seat 0: no thief has kept a card yet, or
// the thief card lies in the bottom).
func (g *Game) ThiefPick() (seat int, kept, buried Role) {
	t := g.rs.thief
	if t.seat == 0 || t.kept < 1 || t.kept > len(g.bottom) {
		return 0, "", ""
	}
	kept = g.bottom[t.kept-1]
	if len(g.bottom) == 2 {
		buried = g.bottom[2-t.kept]
	}
	return t.seat, kept, buried
}
