package engine

// 熊 (rules-more.md D2, G23): an identification step every night ([004]
// #11); every morning, right before the night results are read (on day 1
// after the sheriff election, [003] 法官台詞 ⑥ before ⑦; with
// bear.roar_before_election right after daybreak), the judge says
// "昨晚熊咆哮了" when a neighbour of a living bear is seen as a wolf, else
// "昨晚熊沒有咆哮". The neighbours (bear.neighbours) are the nearest living
// seat on each side, taken after that night's deaths, or the two adjacent
// seats (a dead one is no wolf). A 隱狼 is not seen (it follows the seer)
// unless bear.sees_hidden_wolf. A bear that is dead, killed that night
// included, never roars again; a bear hugged or feared last night does not
// roar that morning (D2 熊's interactions). The roar is said by day: no night step
// depends on it.

type bearState struct {
	said int // the day whose roar was said
}

func bearHooks() roleHooks {
	return roleHooks{
		day: dayHooks{
			moment: func(g *Game, m dayMoment) {
				if m == dayResults || m == dayMorning && g.day == 1 && g.opt.BearEarly {
					bearRoar(g)
				}
			},
		},
	}
}

func bearRoar(g *Game) {
	if g.rs.bear.said == g.day {
		return
	}
	g.rs.bear.said = g.day
	roared := false
	for _, b := range g.holders(Bear) {
		if !g.living(b) || g.any(func(h *roleHooks) func(*Game, int) bool { return h.night.dazed }, b) {
			continue // dead, or hugged (花蝴蝶) or feared (噩夢之影) last night: no roar (D2 熊, inferred)
		}
		for _, x := range g.bearNeighbours(b) {
			if g.role(x).row().Seen() == WinWolves || (g.opt.BearSeesHidden && g.role(x).IsWolf()) {
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

// bearNeighbours are the living seats the bear smells: the nearest living
// seat on each side (one seat when only one other is alive), or the two
// adjacent seats when they live.
func (g *Game) bearNeighbours(s int) []int {
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
			if g.opt.BearNeighbours == "adjacent_seats" {
				break
			}
		}
	}
	return out
}
