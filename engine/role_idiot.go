package engine

// 愚者/白痴 (rules.md B): his first exile reveals him: he stays, without a
// vote (and without the badge unless idiot.keeps_badge).

func idiotHooks() roleHooks { return roleHooks{exiled: idiotExiled} }

func idiotExiled(g *Game, s int) bool {
	if g.seats[s].revealed || g.skillLost(s) {
		return false
	}
	g.seats[s].revealed = true
	g.say("idiot.reveal", s)
	g.record(Record{Type: RecReveal, Seat: s, Role: Idiot})
	if g.sheriff == s && !g.opt.IdiotKeepsBadge {
		g.loseBadge()
		g.light(s, g.seatLight(s), false)
	}
	g.next(g.nightfall)
	return true
}
