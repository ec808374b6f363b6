package engine

// 愚者/白痴 (rules.md B): his first exile reveals him: he stays, without a
// vote (and without the badge unless idiot.keeps_badge).

func idiotHooks() roleHooks {
	return roleHooks{
		day: dayHooks{
			reveal: idiotInterject,
			badge:  idiotBadge,
		},
		death: deathHooks{
			takeOver: func(g *Game, s int, c Cause) bool { return c == CauseExile && idiotExiled(g, s) },
		},
	}
}

// idiotBadge ([003] 警长 "已被票死一次的白痴不能继续担任警长，同样，警徽也不能移交给已被票死一次的白痴";
// rules-more.md D0.4, I1): the badge cannot go to a revealed idiot, unless
// idiot.keeps_badge lets a revealed idiot hold it.
func idiotBadge(g *Game, to int) error {
	if !g.seats[to].revealed || g.opt.IdiotKeepsBadge {
		return nil
	}
	return refuse(ErrRule, Error{Reason: ReasonBadgeIdiot, Target: to}, "the badge cannot go to seat %d, a revealed idiot", to)
}

// idiotInterjectSeconds is an interjection's length (rules-more.md D1: 15 s, inferred).
const idiotInterjectSeconds = 15

// idiotState: the speech a revealed idiot asked to cut into (idiot.interject).
type idiotState struct {
	asked *step
}

// idiotInterject (idiot.interject, [003] "此后白天仍可发言，且在任意玩家发言时可以插话"):
// a revealed idiot presses his guarded key during another player's speech
// to ask to cut in. The judge is cued; his next pedal press grants a 15 s
// interjection instead of ending the speech (the one after it ends the
// speech as usual). The speaker's time runs on. Once per speech.
func idiotInterject(g *Game, seat int, s *step) (bool, error) {
	if !g.opt.IdiotInterject || !g.seats[seat].revealed || !g.present(seat) {
		return false, nil // not his: the key is an explosion (refused)
	}
	if s.name != WaitSpeech || s.seat == seat || s.pedal == nil {
		return true, refuse(ErrNotNow, Error{Reason: ReasonNoInterject, Seat: seat}, "a revealed idiot cuts in only during another player's speech")
	}
	if g.rs.idiot.asked == s {
		return true, refuse(ErrNotNow, Error{Reason: ReasonNoInterject, Seat: seat}, "seat %d has already asked to cut into this speech", seat)
	}
	g.rs.idiot.asked = s
	g.cue(seat, "cue.interject", seat)
	end := s.pedal
	s.pedal = func() {
		s.pedal = end
		idiotGrant(g, seat, s)
	}
	return true, nil
}

// idiotGrant: "X號玩家插話", his light pulses for 15 s, "插話結束"; the
// speech he cut into goes on (its end cancels the interjection too).
func idiotGrant(g *Game, seat int, s *step) {
	g.say("idiot.interject", seat)
	g.record(Record{Type: RecSpeech, Day: g.day, Kind: string(SpeechInterject), Seat: seat})
	pulse := g.opt.SpeakerPulse && !g.seats[seat].lightOff
	if pulse {
		g.light(seat, g.seatLight(seat), true)
	}
	done := false
	over := func() {
		if !done && pulse && !g.seats[seat].lightOff {
			g.light(seat, g.seatLight(seat), false)
		}
		done = true
	}
	stop := s.stop
	s.stop = func() {
		over()
		if stop != nil {
			stop()
		}
	}
	g.timer(s, idiotInterjectSeconds, func() {
		g.say("idiot.interject.end", seat)
		over()
	})
}

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

// CardName is the name the table gives card r in its records and lines:
// 白痴 for 愚者 under idiot.name baichi (the seed-003/001/004 boards: "翻牌
// 白痴"; rules-more.md I10), else the role's name.
func (o *Options) CardName(r Role) string {
	if r == Idiot && o.IdiotName == "baichi" {
		return "白痴"
	}
	return r.Name()
}

// CardNameOf is CardName for a card written by name (a record's Result:
// the thief's buried card); a text that names no card is returned as it is.
func (o *Options) CardNameOf(name string) string {
	if ri, ok := LookupRole(name); ok {
		return o.CardName(ri.ID)
	}
	return name
}

// baichi: under idiot.name baichi (seeds 003 and 001 call the card 白痴) the
// lines that name the card are said in the seeds' word.
func baichi(line string) string {
	switch line {
	case "night.idiot.open", "night.idiot.close", "night.idiot.wake", "idiot.reveal",
		"cue.thief.card.idiot", "cue.exact.idiot":
		return line + ".baichi"
	}
	return line
}
