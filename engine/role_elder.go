package engine

// 村長 ([003], 民) and 長老 ([001], 神): one rule, two cards (rules-more.md
// D2, G19, G20, H2, H22). An identification step every night after 守衛;
// two lives against the pack's knife only: the first landed hit costs a
// life (the night may be 平安夜), the second kills. A guarded knife costs
// nothing; 同守同救 lands. elder.first_hit_witch_info (shown | hidden)
// and elder.antidote (wasted | restores | no_effect) settle the witch.
// Exile, poison, a gun, 暗殺 and 白狼王's explosion kill at once.
//
// Penalty: when he dies by a good-camp act (exile, poison, a good player's
// shot, 暗殺), every good skill is lost for the rest of the game: night
// steps show 技能被禁止, no shot, a revealed idiot leaves at once and an
// exiled one is not spared, the lucky one's gift is gone. None for the
// knife, grief or a wolf's skill.

type elderState struct {
	hits    int  // lives lost to the knife
	penalty bool // every good skill is lost
}

func elderHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			hidden:  elderHidden,
			blocked: elderLost,
		},
		death: deathHooks{
			takeOver: func(g *Game, s int, c Cause) bool {
				if c != CauseWolf {
					return false
				}
				elderKnifed(g, s) // two lives: the hook resolves the knife
				return true
			},
			died:   elderDied,
			lost:   elderLost,
			noShot: elderLost,
		},
		camp: campHooks{
			category: func(g *Game, s int) (Category, bool) {
				if !isElder(g.role(s)) {
					return CatNone, false
				}
				switch g.opt.ElderCategory {
				case "villager":
					return CatVillager, true
				case "god":
					return CatGod, true
				}
				return CatNone, false // the card's
			},
		},
	}
}

func isElder(r Role) bool { return r == Chief || r == Elder }

// elderKnifed: the pack's knife reached him (not immune tonight).
func elderKnifed(g *Game, k int) {
	e := &g.rs.elder
	guarded, saved := g.guardedTonight(k), g.ns.saved
	hit := false
	switch {
	case guarded && !saved:
		// the guard stops the knife: no life lost
	case guarded && saved:
		hit = true // 同守同救 lands
	case saved:
		switch g.opt.ElderAntidote {
		case "restores":
		case "no_effect":
			hit = true
		default: // wasted: the first hit costs a life all the same; the lethal one is saved
			hit = e.hits == 0
		}
	default:
		hit = true
	}
	if !hit {
		return
	}
	e.hits++
	g.record(Record{Type: RecAction, Kind: string(ActionLife), Target: k, When: g.when()})
	if e.hits >= 2 {
		g.nightDeath(k, CauseWolf)
	}
}

// elderHidden: under elder.first_hit_witch_info=hidden the witch is not told
// of a knife on his first life.
func elderHidden(g *Game, s int) bool {
	return g.opt.ElderWitchInfo == "hidden" && isElder(g.role(s)) && g.rs.elder.hits == 0
}

// elderDied: a death by a good-camp act brings the penalty.
func elderDied(g *Game, s int, c Cause) {
	e := &g.rs.elder
	if e.penalty || !isElder(g.role(s)) {
		return
	}
	switch c {
	case CauseExile, CausePoison, CauseAssassinate:
	case CauseShot:
		if g.shooter == 0 || g.role(g.shooter).IsWolf() {
			return // 狼王's shot
		}
	default:
		return
	}
	e.penalty = true
	g.record(Record{Type: RecAction, Kind: string(ActionPenalty), By: s, When: g.when()})
	for x := 1; x <= g.n; x++ {
		if x == s || !g.seats[x].revealed || !g.living(x) {
			continue
		}
		// a revealed idiot leaves at once ([001] 白痴已翻牌的要判離場)
		if g.day == g.night {
			g.say("day.leave", x) // X號玩家請滅燈離場
			g.dies(x, CauseExile, true)
		} else {
			g.nightDeath(x, CauseExile)
		}
	}
}

// elderLost: after the penalty every good player has lost its skills.
func elderLost(g *Game, s int) bool {
	return g.rs.elder.penalty && !g.role(s).IsWolf()
}

// ElderLives is what the judge's god view shows of 村長/長老: the seats
// holding the card (none when the board has no such card), his lives left
// (2, 1, 0) and whether the penalty took every good skill.
func (g *Game) ElderLives() (seats []int, lives int, penalty bool) {
	for s := 1; s <= g.n; s++ {
		if isElder(g.role(s)) {
			seats = append(seats, s)
		}
	}
	return seats, 2 - g.rs.elder.hits, g.rs.elder.penalty
}
