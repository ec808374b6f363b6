package engine

// 狼美人 (rules.md B; seed 003): charms one other player each night, not the
// same two nights running; when she is exiled or shot by day, last night's
// charmed player dies with her. The wolves cannot knife her (RoleInfo.NoKnife);
// she cannot explode.

type wolfBeautyState struct {
	tonight int // tonight's charm
	last    int // the charm of the most recent night
}

func wolfBeautyHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) { g.rs.wolfbeauty.tonight = 0 },
			step:      charmStep,
			dawn:      func(g *Game) { g.rs.wolfbeauty.last = g.rs.wolfbeauty.tonight },
		},
		death: deathHooks{
			follow: func(g *Game, b *batch, s int) func() {
				return func() { g.charmFollow(b, s) }
			},
		},
	}
}

func charmStep(g *Game, s *step, _ StepKind, _ bool) bool {
	g.pickStep(s, "狼美人", func(seat, t int) error {
		if !g.living(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
		}
		if t == seat {
			return refuse(ErrBadTarget, Error{Reason: ReasonSelf, Role: WolfBeauty}, "狼美人 cannot charm herself")
		}
		if t == g.rs.wolfbeauty.last {
			return refuse(ErrRule, Error{Reason: ReasonTwiceRunning, Role: WolfBeauty, Target: t}, "狼美人 cannot charm seat %d two nights running", t)
		}
		return nil
	}, func(actor, target int) {
		g.rs.wolfbeauty.tonight = target
		g.record(Record{Type: RecAction, Kind: string(ActionCharm), By: actor, Target: target, When: g.when()})
	})
	return false
}

// charmFollow: last night's charmed player dies with her.
func (g *Game) charmFollow(b *batch, beauty int) {
	c := g.rs.wolfbeauty.last
	if c == 0 || !g.present(c) || g.hitTakenOver(c, CauseCharm) {
		return
	}
	g.say("charm.follow", c)
	b.insertAfter(beauty, c, b.wordsOf(beauty))
	g.dies(c, CauseCharm, false)
	if g.over {
		return
	}
	g.next(func() { g.skillStep(b, c) })
}
