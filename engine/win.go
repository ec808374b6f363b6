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
func (g *Game) winCheck() Winner {
	var wolves, others, gods, villagers, third, living int
	for s := 1; s <= g.n; s++ {
		inThird := g.inThird(s)
		if !g.living(s) {
			continue
		}
		living++
		ri := g.role(s).row()
		if inThird {
			third++
		}
		if ri.Side == SideWolf && !inThird {
			wolves++
			continue
		}
		others++
		switch g.category(s, ri.Category) {
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
			if gods == 0 || villagers == 0 {
				return WinWolves
			}
		}
	}
	if len(g.b.Third) > 0 && living > 0 && third == living {
		return WinThird
	}
	if wolves == 0 && !g.thirdAlive() {
		return WinGood
	}
	return WinNone
}

// inThird reports whether a seat belongs to a third camp.
func (g *Game) inThird(s int) bool {
	for _, camp := range g.b.Third {
		if contains(camp, s) {
			return true
		}
	}
	return false
}

// thirdAlive reports whether some third-camp member is alive.
func (g *Game) thirdAlive() bool {
	for _, camp := range g.b.Third {
		for _, s := range camp {
			if g.living(s) {
				return true
			}
		}
	}
	return false
}
