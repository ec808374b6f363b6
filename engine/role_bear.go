package engine

// 熊 (rules-more.md D2, G23): an identification step every night ([004]
// #11); every morning, right before the night results are read (on day 1
// after the sheriff election, [003] 法官台词 ⑥ before ⑦), the judge says
// "昨晚熊咆哮了" when a nearest living neighbour of a living bear — taken
// after that night's deaths — is seen as a wolf (a 隱狼 is not: it follows
// the seer), else "昨晚熊沒有咆哮". A bear that is dead, killed that night
// included, never roars again. The roar is said by day: no night step
// depends on it.

func bearHooks() roleHooks { return roleHooks{results: bearRoar} }

func bearRoar(g *Game) {
	roared := false
	for _, b := range g.holders(Bear) {
		if !g.living(b) {
			continue
		}
		for _, x := range g.livingNeighbours(b) {
			if g.role(x).row().Seen() == WinWolves {
				roared = true
			}
		}
	}
	res := "否"
	if roared {
		res = "是"
		g.say("bear.roar")
	} else {
		g.say("bear.silent")
	}
	g.record(Record{Type: RecRoar, Day: g.day, Result: res})
}

// livingNeighbours are the nearest living seats to s on each side (one
// seat when only one other is alive, none when s is alone).
func (g *Game) livingNeighbours(s int) []int {
	var out []int
	for _, dir := range []int{-1, 1} {
		for i := 1; i < g.n; i++ {
			x := ((s-1+i*dir)%g.n+g.n)%g.n + 1
			if g.living(x) {
				if !contains(out, x) {
					out = append(out, x)
				}
				break
			}
		}
	}
	return out
}
