package engine

// 騎士 (rules.md B): once per game, during an exile-day speech, reveals with
// the guarded key and duels a player.

type knightState struct {
	used bool
}

func knightHooks() roleHooks {
	return roleHooks{
		day: dayHooks{
			boom: knightBoom,
		},
	}
}

func knightBoom(g *Game, seat int, s *step) error {
	if g.silenced(seat) {
		return refuse(ErrRule, Error{Reason: ReasonLocked, Role: Knight}, "the knight is locked (蝕時狼妃) and cannot duel today")
	}
	if s.window != WindowExile || s.name != WaitSpeech {
		return refuse(ErrNotNow, Error{Reason: ReasonNoWindow, Role: Knight}, "the knight duels only during the exile-day speeches")
	}
	if g.rs.knight.used {
		return refuse(ErrRule, Error{Reason: ReasonSkillUsed, Role: Knight}, "the knight has already duelled")
	}
	g.startDuel(seat, s)
	return nil
}

// startDuel: the knight reveals during an exile-day speech and names a
// player. A wolf dies (no last words) and night falls at once; a good player
// → the knight dies (no last words: project decision) and the interrupted
// speaker starts again — unless that was the knight himself: then the next
// living speaker goes on (a dead seat is never given a speech).
func (g *Game) startDuel(k int, interrupted *step) {
	speaker, again := interrupted.seat, interrupted.rerun
	rerun := func() {
		if g.present(speaker) {
			again()
		}
	}
	g.finish(interrupted)
	st := &step{name: WaitDuel, seat: k, actors: []int{k}}
	g.wait(st)
	g.say("duel.ask", k)
	chosen := g.pointOrWave(st, "the knight points at the player he duels", "seat %d cannot be duelled", nil)
	cancel := func() {
		g.finish(st)
		g.next(rerun)
	}
	st.after = func() {
		target := *chosen
		if target == 0 {
			cancel()
			return
		}
		g.finish(st)
		g.rs.knight.used = true
		g.say("duel.announce", k, target)
		g.record(Record{Type: RecAction, Kind: string(ActionDuel), By: k, Target: target, When: g.when()})
		if g.role(target).IsWolf() {
			g.interrupt()
			g.say("duel.wolf", target)
			g.dies(target, CauseDuel, true)
			if g.over {
				return
			}
			var t []func()
			if g.sheriff == target {
				t = append(t, func() { g.badgeStep(target) })
			}
			g.next(append(t, g.nightfall)...)
			return
		}
		g.say("duel.good", k)
		g.dies(k, CauseDuel, true)
		if g.over {
			return
		}
		var t []func()
		if g.sheriff == k {
			t = append(t, func() { g.badgeStep(k) })
		}
		g.next(append(t, rerun)...)
	}
	st.pedal = cancel
	g.timer(st, g.opt.ChoiceSeconds, cancel)
}
