package engine

// 老流氓 (rules-more.md D2, G28): an identification step on night 1
// ([004] #16). A charm on him is accepted and has no effect (no 殉情). Poisoned
// or shot, he is not announced dead: the hit day is the day the hit would
// have been announced (poison at night N: day N, the morning after it; a
// day shot: that day),
// and he dies at the end of the speeches of the day after it
// (rogue.delay=next_day_speeches; hit_day_speeches: of the hit day itself),
// before the 歸票 and the vote, with no last words (he has just spoken),
// passing the badge if he is sheriff. The knife and exile kill him at once.

type rogueState struct {
	dieDay []int   // dieDay[seat]: the day whose speeches end his life (0 = none)
	cause  []Cause // … and the hit that kills him
}

func rogueHooks() roleHooks {
	return roleHooks{
		day: dayHooks{
			moment: func(g *Game, m dayMoment) {
				if m == daySpeechesOver {
					rogueDies(g)
				}
			},
		},
		death: deathHooks{
			// poison, a shot or a charm link: the death waits (the knife and the exile kill)
			takeOver: func(g *Game, s int, c Cause) bool {
				return (c == CausePoison || c == CauseShot || c == CauseCharm) && rogueHit(g, s, c)
			},
		},
	}
}

func rogueHit(g *Game, s int, c Cause) bool {
	if c == CauseCharm {
		return true
	}
	if g.seats[s].dying {
		return false // killed tonight already (the knife): he dies of both
	}
	st := &g.rs.rogue
	if st.dieDay == nil {
		st.dieDay, st.cause = make([]int, g.n+1), make([]Cause, g.n+1)
	}
	if st.dieDay[s] > 0 {
		return true // already doomed by an earlier hit
	}
	hit := g.day // a day shot; at night g.day is still yesterday
	if g.night > g.day {
		hit = g.night // tonight's poison belongs to the morning after (day N follows night N)
	}
	if g.opt.RogueDelay != "hit_day_speeches" {
		hit++
	}
	st.dieDay[s], st.cause[s] = hit, c
	g.cue(s, "cue.rogue.delayed", s, hit)
	return true
}

// rogueDies: after the exile day's speeches, a doomed rogue whose day has
// come dies (no last words).
func rogueDies(g *Game) {
	st := &g.rs.rogue
	for s := 1; s < len(st.dieDay); s++ {
		if st.dieDay[s] == 0 || g.day < st.dieDay[s] || !g.present(s) {
			continue
		}
		st.dieDay[s] = 0
		g.say("rogue.dies", s)
		b := &batch{entries: []lwEntry{{seat: s}}}
		g.dies(s, st.cause[s], false)
		if g.over {
			return
		}
		g.next(g.deathTasks(b)...)
	}
}
