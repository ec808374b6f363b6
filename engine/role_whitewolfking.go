package engine

// 白狼王 (rules.md B): explodes by day and takes one player with him (no
// last words) — not when poisoned last night; a status gesture at night.

func whiteWolfKingHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			step: whiteWolfKingStatus,
		},
		day: dayHooks{
			exploded: whiteWolfKingTakes,
		},
	}
}

func whiteWolfKingStatus(g *Game, s *step, _ StepKind, live bool) bool {
	g.say("night.whitewolfking.status")
	if live {
		w := s.actors[0]
		line := "cue.whitewolfking.can"
		if g.ns.poisoned[w] || g.nightBlocked(w) {
			line = "cue.whitewolfking.cannot"
		}
		g.cue(w, line, w)
	}
	return true
}

func whiteWolfKingTakes(g *Game, s int, poisoned bool) []func() {
	if poisoned {
		return nil
	}
	return []func(){func() { g.takeStep(s) }}
}

// takeStep: the white wolf king takes one player with him (no last words).
func (g *Game) takeStep(w int) {
	st := &step{name: WaitTake, seat: w, actors: []int{w}, outOK: true}
	g.wait(st)
	g.say("explode.take.ask", w)
	target := g.pointOrWave(st, "白狼王 points at the player he takes", "seat %d cannot be taken", nil)
	st.after = func() {
		g.finish(st)
		target := *target
		if target == 0 {
			return
		}
		g.say("explode.take", w, target)
		if g.spared(target) {
			g.say("skill.spared", target) // 惡魔 in the election
			return
		}
		g.dies(target, CauseTaken, false)
		if g.over {
			return
		}
		b := &batch{entries: []lwEntry{{seat: target}}}
		g.next(g.deathTasks(b)...)
	}
	st.pedal = func() { g.finish(st) }
	g.timer(st, g.opt.ChoiceSeconds, func() { g.finish(st) })
}
