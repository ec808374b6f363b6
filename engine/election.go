package engine

// SheriffElection (A5): candidates from the night sign-up; speeches by the
// clock rule; 退水; the players who never ran vote; PK once, where every
// player off the PK stage votes; a second tie means no sheriff this game. Night-1 victims take part as if alive.

type election struct {
	pending    bool // an election is still to be held or finished
	resumed    bool // it resumes after an explosion in the speeches (雙爆吞警徽)
	candidates []int
	ran        map[int]bool // ever ran (candidates and withdrawn): no vote in the first round
	withdrawn  map[int]bool
	order      []int // the candidates' speaking order
	lit        bool  // candidates' lights are red

	spk speaking // speaking.order's memory of earlier days (speech.go)
}

func (e *election) isCandidateLit(s int) bool { return e.lit && contains(e.candidates, s) }

func (e *election) drop(s int) {
	for i, c := range e.candidates {
		if c == s {
			e.candidates = append(e.candidates[:i:i], e.candidates[i+1:]...)
			return
		}
	}
}

func (g *Game) onStage() []int {
	var c []int
	for _, s := range g.el.candidates {
		if g.present(s) {
			c = append(c, s)
		}
	}
	return c
}

func (g *Game) electionOpen() {
	g.el.lit = true
	g.say("election.lights")
	for _, c := range g.el.candidates {
		g.light(c, LightRed, false)
	}
	g.el.order = g.electionOrder(func(s int) bool { return contains(g.onStage(), s) })
	var t []func()
	for _, c := range g.el.order {
		t = append(t, func() {
			if contains(g.onStage(), c) {
				g.speech(SpeechSheriff, c, g.opt.SpeechSeconds, WindowElection)
			}
		})
	}
	g.next(append(t, g.withdrawal)...)
}

// withdrawal: "退水玩家請退水，仍在警上玩家有：……". Explosions allowed; one
// here loses the badge for the game (A11).
func (g *Game) withdrawal() {
	st := &step{name: WaitWithdraw, actors: g.onStage(), window: WindowWithdraw}
	g.wait(st)
	g.say("withdraw.ask")
	hands := map[int]bool{}
	st.act = func(seat int, a Action, t int) error {
		if a != ActHand {
			return errf(ErrNotNow, "raise a hand (HAND) to withdraw")
		}
		hands[seat] = !hands[seat]
		return nil
	}
	st.reset = func() { hands = map[int]bool{} }
	st.keys = []Key{{Word: "退水", Press: []Action{ActHand}}}
	done := func() {
		g.finish(st)
		for _, c := range g.onStage() {
			if hands[c] {
				g.el.drop(c)
				g.el.withdrawn[c] = true
				g.record(Record{Type: RecAction, Kind: string(ActionWithdraw), By: c, When: g.when()})
				g.light(c, g.seatLight(c), false)
			}
		}
		if c := g.onStage(); len(c) > 0 {
			g.say("withdraw.remaining", c...)
		}
		g.next(g.electionCount)
	}
	st.pedal = done
	g.timer(st, g.opt.WithdrawSeconds, done)
}

func (g *Game) electionVoters() []int {
	var v []int
	for s := 1; s <= g.n; s++ {
		if g.present(s) && !g.el.ran[s] && !g.silenced(s) {
			v = append(v, s)
		}
	}
	return v
}

// pkVoters: every present player off the PK stage (a locked player has no vote).
func (g *Game) pkVoters(stage []int) []int {
	var v []int
	for s := 1; s <= g.n; s++ {
		if g.present(s) && !contains(stage, s) && !g.silenced(s) {
			v = append(v, s)
		}
	}
	return v
}

func (g *Game) electionCount() {
	c := g.onStage()
	switch {
	case len(c) == 0:
		g.noSheriff()
		return
	case len(c) == 1:
		g.elect(c[0])
		return
	}
	voters := g.electionVoters()
	if len(voters) == 0 {
		g.noSheriff()
		return
	}
	g.vote(VoteSheriff, voters, c, false, func(top []int) {
		switch len(top) {
		case 0:
			g.noSheriff()
		case 1:
			g.elect(top[0])
		default:
			g.electionPK(top)
		}
	})
}

// electionPK: the tied speak again, those who spoke first speak last (先發言的
// 後發言); then every player off the PK stage — 警下 players, candidates who
// were not tied, withdrawn candidates — lights blue and votes among them
// (rules.md A5.6; seed 000: "除 PK 臺上玩傢請亮藍燈 … 除瞭 PK 臺上其他玩傢戴盔投票").
func (g *Game) electionPK(top []int) {
	g.say("election.pk", top...)
	var t []func()
	first := true
	for i := len(g.el.order) - 1; i >= 0; i-- {
		c := g.el.order[i]
		if contains(top, c) {
			// the PK opens with "請X號玩家開始發言" (seed 000 （二）2、5）)
			line := "speech.start"
			if first {
				line, first = "speech.pk.first", false
			}
			t = append(t, func() {
				if g.present(c) {
					g.speechSaying(line, SpeechSheriffPK, c, g.opt.SpeechSeconds, WindowElection)
				}
			})
		}
	}
	t = append(t, func() {
		var stage []int
		for _, c := range top {
			if g.present(c) {
				stage = append(stage, c)
			}
		}
		voters := g.pkVoters(stage)
		if g.opt.PKVoters == "never_ran" {
			voters = g.electionVoters() // H6: only those who never ran vote again
		}
		if len(voters) == 0 || len(stage) == 0 {
			g.noSheriff()
			return
		}
		g.vote(VoteSheriffPK, voters, stage, true, func(top2 []int) {
			if len(top2) == 1 {
				g.elect(top2[0])
			} else {
				g.noSheriff() // second tie: no sheriff this game (seed 000)
			}
		})
	})
	g.next(t...)
}

func (g *Game) closeElection() {
	g.el.pending = false
	g.el.lit = false
	for _, c := range g.el.candidates {
		if !g.seats[c].lightOff {
			g.light(c, g.seatLight(c), false)
		}
	}
}

func (g *Game) elect(s int) {
	g.sheriff = s
	g.closeElection()
	g.say("election.elected", s)
	g.record(Record{Type: RecSheriff, Seat: s})
}

func (g *Game) noSheriff() {
	g.badgeGone = true
	g.closeElection()
	g.say("election.none")
	g.record(Record{Type: RecSheriff, Seat: 0})
}

// loseBadge: the badge is gone for the game (退水環節自爆, 雙爆吞警徽, a
// sheriff who explodes).
func (g *Game) loseBadge() {
	if g.el.pending {
		g.badgeGone = true
		g.closeElection()
		g.say("badge.lost")
		g.record(Record{Type: RecSheriff, Seat: 0})
		return
	}
	if g.sheriff != 0 {
		g.sheriff = 0
		g.badgeGone = true
		g.say("badge.lost")
		g.record(Record{Type: RecSheriff, Seat: 0})
	}
}
