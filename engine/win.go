package engine

// Wins (rules.md A12, rules-more.md D0.2): one check, run after every death
// resolution in the order the deaths happen (狼刀在先); the first side to
// meet its condition wins. The wolves' condition comes first, then a third
// camp's, then the good side's.

// WinRule is a board's wolf win condition.
type WinRule int

const (
	WinSides WinRule = iota // 屠邊: every 神 or every 民 outside the wolves is out
	WinTown                 // 屠城: every player outside the wolves is out
)

// winCheck returns the winner now, counting only living seats ("" = none).
//
// W is the living wolf side outside any third camp: wolves by card, and
// seats a board rule puts on the wolves' side (a 丘比特 whose lovers are two
// wolves), who count for W but never as a living wolf; T the third camps.
// The wolves need a living wolf and 屠邊 (every 神 or every 民 outside W
// out, third-camp members counted by their cards; with
// lovers.wolves_must_kill_third also every T member) or 屠城 (everyone
// outside W out); a third camp wins when every living player is in it; the
// good side when W is empty and every T member is out (rules-more.md D0.2).
func (g *Game) winCheck() Winner {
	var wolves, sided, others, gods, villagers, third, living int
	for s := 1; s <= g.n; s++ {
		inThird := g.inThird(s)
		if !g.living(s) {
			continue
		}
		living++
		side, cat := g.sideOf(s)
		if inThird {
			third++
		}
		if side == SideWolf && !inThird {
			if g.role(s).IsWolf() {
				wolves++
			} else {
				sided++
			}
			continue
		}
		others++
		switch g.category(s, cat) {
		case CatGod:
			gods++
		case CatVillager:
			villagers++
		}
	}
	if wolves > 0 {
		switch g.b.Win {
		case WinTown:
			if others == 0 {
				return WinWolves
			}
		default:
			if (gods == 0 || villagers == 0) && (!g.opt.WolvesMustKillThird || third == 0) {
				return WinWolves
			}
		}
	}
	for _, camp := range g.thirdCamps() {
		in := 0
		for _, s := range camp {
			if g.living(s) {
				in++
			}
		}
		if living > 0 && in == living {
			return WinThird
		}
	}
	if wolves == 0 && sided == 0 && !g.thirdAlive() {
		return WinGood
	}
	return WinNone
}

// campState holds the third camps formed in play (人狼戀: set once the pair
// is known, beside the board's Third) and the seats that died by day with
// another death (殉情) and have not had their turn yet (day.go).
type campState struct {
	third    [][]int
	together []int
}

// thirdCamps are the board's third camps and those formed in play.
func (g *Game) thirdCamps() [][]int {
	switch {
	case len(g.cs.third) == 0:
		return g.b.Third
	case len(g.b.Third) == 0:
		return g.cs.third
	}
	return append(append([][]int(nil), g.b.Third...), g.cs.third...)
}

// inThird reports whether a seat belongs to a third camp.
func (g *Game) inThird(s int) bool {
	for _, camp := range g.thirdCamps() {
		if contains(camp, s) {
			return true
		}
	}
	return false
}

// thirdAlive reports whether some third-camp member the good side must
// remove is alive.
func (g *Game) thirdAlive() bool {
	for _, camp := range g.thirdCamps() {
		for _, s := range camp {
			if g.living(s) && !g.unneeded(s) {
				return true
			}
		}
	}
	return false
}

// ThirdCamps lists the game's third camps as sets of seats (a copy): the
// board's, and those formed in play (人狼戀).
func (g *Game) ThirdCamps() [][]int {
	out := [][]int{}
	for _, c := range g.thirdCamps() {
		out = append(out, append([]int(nil), c...))
	}
	return out
}

// PlaysFor is the side seat s plays for now — the winner its win would be:
// a third camp's member 第三方, the wolf side (wolves by card, and seats a
// board rule puts there) 狼人, everyone else 好人. It follows the game: the
// thief's kept card, a wild child that turned, the lovers' camp.
func (g *Game) PlaysFor(s int) Winner {
	if s < 1 || s > g.n {
		return WinNone
	}
	if g.inThird(s) {
		return WinThird
	}
	if side, _ := g.sideOf(s); side == SideWolf {
		return WinWolves
	}
	return WinGood
}
