package engine

// 攝夢人 (rules.md B): each night must pick another player as sleepwalker
// (夢遊者), immune to all night harm; the same sleepwalker two nights
// running dies, and so does the sleepwalker when the dreamweaver dies
// tonight (the link).

type dreamweaverState struct {
	tonight, last int
}

func dreamweaverHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) { g.rs.dreamweaver.tonight = 0 },
			step:      dreamweaverStep,
			shielded:  func(g *Game, s int) bool { return s == g.rs.dreamweaver.tonight },
			resolve:   dreamDeaths,
			dawn:      func(g *Game) { g.rs.dreamweaver.last = g.rs.dreamweaver.tonight },
		},
	}
}

// dreamweaverStep: time running out → the system picks one at random (not
// last night's, which would kill it).
func dreamweaverStep(g *Game, s *step, _ StepKind, _ bool) bool {
	d := &g.rs.dreamweaver
	g.pickStep(s, "攝夢人", func(seat, t int) error {
		if !g.living(t) || t == seat {
			return refuse(ErrBadTarget, Error{Reason: ReasonCannotTarget, Role: Dreamweaver, Target: t}, "攝夢人 cannot pick seat %d", t)
		}
		return nil
	}, func(dw, target int) {
		if g.nightBlocked(dw) {
			return
		}
		if target == 0 {
			var pool []int
			for x := 1; x <= g.n; x++ {
				if g.living(x) && x != dw && x != d.last {
					pool = append(pool, x)
				}
			}
			if len(pool) == 0 {
				return
			}
			target = pool[g.draw(0, len(pool)-1)]
			g.cue(dw, "cue.dream.random", dw, target)
		}
		d.tonight = target
		g.record(Record{Type: RecAction, Kind: string(ActionDream), By: dw, Target: target, When: g.when()})
	})
	return false
}

func dreamDeaths(g *Game) {
	if d := g.rs.dreamweaver.tonight; d > 0 {
		dw := g.holders(Dreamweaver)
		linked := len(dw) > 0 && g.seats[dw[0]].dying
		if d == g.rs.dreamweaver.last || linked {
			g.nightDeath(d, CauseDream)
		}
	}
}
