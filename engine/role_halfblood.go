package engine

// 混血兒 (rules-more.md D2, D0.2 "Followers"): on night 1, right after 野孩子,
// it must pick another player to follow (halfblood.timeout: a random other
// living seat, or the lowest one). It is always good and 民 for the win
// checks and every check sees 好人; it is never needed out for the good
// side. It wins exactly when its model's camp at the end of the game wins
// (a model 野孩子 that turned counts as 狼人). The game's Winner stays a
// camp: at the end the engine records, for each follower, a follow record
// (Seat, Target = the model, Kind = the model's camp, Result 勝 | 負) that
// the 復盤 shows.

type halfBloodState struct {
	model []int // model[seat]: the one followed (0 = none)
}

func halfBloodHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			step: halfBloodStep,
		},
		camp: campHooks{
			gameOver: halfBloodResult,
		},
	}
}

func halfBloodStep(g *Game, s *step, _ StepKind, _ bool) bool {
	g.modelStep(s, HalfBlood, func(by, model int) {
		st := &g.rs.halfblood
		if st.model == nil {
			st.model = make([]int, g.n+1)
		}
		st.model[by] = model
	}, g.opt.HalfBloodTimeout == "first_seat", false)
	return false
}

// campOf is the camp a seat ends the game in, as a Winner: a third camp's
// member 第三方, a wolf-camp card 狼人, else 好人; a follower follows its
// own model (a chain of followers is followed to its end).
func (g *Game) campOf(s int) Winner {
	for i := 0; i <= g.n; i++ {
		if g.role(s) != HalfBlood || g.ModelOf(s) == 0 {
			break
		}
		s = g.ModelOf(s)
	}
	switch {
	case g.inThird(s):
		return WinThird
	case g.role(s).IsWolf():
		return WinWolves
	}
	return WinGood
}

// halfBloodResult records each follower's own result.
func halfBloodResult(g *Game, w Winner) {
	st := &g.rs.halfblood
	for s := 1; s < len(st.model); s++ {
		m := st.model[s]
		if m == 0 || g.role(s) != HalfBlood {
			continue
		}
		camp := g.campOf(s)
		res := "負"
		switch {
		case w == WinVoid:
			res = string(WinVoid)
		case w == camp:
			res = "勝"
		}
		g.record(Record{Type: RecFollow, Seat: s, Target: m, Kind: string(camp), Result: res})
	}
}
