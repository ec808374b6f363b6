package engine

// vote runs one round (A9): helmets on, 3-2-1, one changeable vote per
// voter, abstain allowed; the tally is read in seat order; the sheriff's
// vote weighs sheriff.weight. done gets the seats with the most votes.
func (g *Game) vote(kind VoteKind, voters, targets []int, pk bool, done func(top []int)) {
	st := &step{name: WaitVote, vote: kind, actors: voters}
	g.wait(st)
	blue := pk && g.opt.PKVotersBlue
	if blue {
		for _, v := range voters {
			if !g.seats[v].lightOff {
				g.light(v, LightBlue, false)
			}
		}
	}
	line := "vote." + string(kind)
	if kind == VoteSheriffPK && g.opt.PKVoters == "never_ran" {
		line += ".never-ran" // only 警下 players vote again: [003] 警下玩家再次举手投票 (I5)
	}
	g.say(line)
	ballot := map[int]int{}
	st.act = func(seat int, a Action, t int) error {
		switch a {
		case ActWave:
			delete(ballot, seat)
			return nil
		case ActTarget:
		default:
			return errf(ErrNotNow, "vote for a seat (0 or wave = abstain)")
		}
		if t == 0 {
			delete(ballot, seat)
			return nil
		}
		if !contains(targets, t) || !g.present(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonNotVotable, Target: t}, "seat %d cannot be voted for in this vote", t)
		}
		if err := g.ballotOK(kind, seat, t); err != nil {
			return err
		}
		ballot[seat] = t
		return nil
	}
	st.reset, st.keys = func() { ballot = map[int]int{} }, []Key{{Target: TargetSeat}, {Word: "棄票", Press: []Action{ActWave}}, {Word: "棄票", Target: TargetZero}}
	closeVote := func() {
		g.finish(st)
		halves := map[int]int{}
		var votes []Vote
		for _, v := range sortedCopy(voters) {
			if !g.present(v) {
				continue
			}
			t := ballot[v]
			votes = append(votes, Vote{v, t})
			if t > 0 && g.present(t) {
				w := 2
				if v == g.sheriff {
					w = g.halves
					if kind == VoteExilePK && g.opt.SheriffPKWeight > 0 {
						w = int(g.opt.SheriffPKWeight*2 + 0.5) // sheriff.pk_weight (seed 003: 1)
					}
				}
				halves[t] += w
				g.say("tally.vote", v, t)
			} else {
				g.say("tally.abstain", v)
			}
		}
		var tally []Tally
		best := 0
		for s := 1; s <= g.n; s++ {
			if h := halves[s]; h > 0 {
				tally = append(tally, Tally{s, h})
				if h > best {
					best = h
				}
			}
		}
		var top []int
		for _, t := range tally {
			if t.Halves == best {
				top = append(top, t.Seat)
			}
		}
		g.record(Record{Type: RecVote, Kind: string(kind), Day: g.day, Ballots: &Ballots{Votes: votes, Tally: tally}})
		for i := range g.hooks {
			if h := g.hooks[i].day.voted; h != nil {
				h(g, kind, votes)
			}
		}
		if blue {
			for _, v := range voters {
				if !g.seats[v].lightOff {
					g.light(v, g.seatLight(v), false)
				}
			}
		}
		done(top)
	}
	st.pedal = closeVote
	g.timer(st, g.opt.VoteSeconds, closeVote)
}
