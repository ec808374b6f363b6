package engine

// speech: "X號玩家請發言", a warning 30 s before the end, "X號玩家發言結束";
// the judge's pedal ends it early (A7).
func (g *Game) speech(kind SpeechKind, s, secs int, window Window) {
	line := "speech.start"
	if kind == SpeechLastWords {
		line = "lastwords.start"
	}
	g.speechSaying(line, kind, s, secs, window)
}

// speechSaying is a speech whose opening line is line (with the seat).
func (g *Game) speechSaying(line string, kind SpeechKind, s, secs int, window Window) {
	st := &step{name: WaitSpeech, kind: kind, seat: s, window: window}
	g.wait(st)
	st.rerun = func() { g.speechSaying(line, kind, s, secs, window) }
	g.say(line, s)
	g.record(Record{Type: RecSpeech, Day: g.day, Kind: kind, Seat: s})
	pulse := g.opt.SpeakerPulse && !g.seats[s].lightOff
	if pulse {
		g.light(s, g.seatLight(s), true)
		// However the speech ends — its time, the pedal, or an explosion or
		// a duel that interrupts it — the light stops pulsing: no light
		// animates at night (A1, A15).
		st.stop = func() {
			if !g.seats[s].lightOff {
				g.light(s, g.seatLight(s), false)
			}
		}
	}
	end := func() {
		g.say("speech.end", s)
		g.finish(st)
	}
	st.pedal, st.abort = end, end
	if w := g.opt.SpeechWarn; w > 0 && w < secs {
		g.timer(st, secs-w, func() { g.say("speech.warn") })
	}
	g.timer(st, secs, end)
}

// clockOrder is the clock rule for the first speaker (A8): minute mod N or
// the sum of the minute's digits (0 → N); odd minute ascending, even
// descending; seats that cannot speak are passed in the direction of travel.
func (g *Game) clockOrder(rule string, eligible func(int) bool) []int {
	m := g.min
	first := m % g.n
	if rule == "minute_digit_sum" {
		first = (m/10 + m%10) % g.n
	}
	if first == 0 {
		first = g.n
	}
	dir := -1
	if m%2 == 1 {
		dir = 1
	}
	var out []int
	for i := 0; i < g.n; i++ {
		s := ((first-1+i*dir)%g.n+g.n)%g.n + 1
		if eligible(s) {
			out = append(out, s)
		}
	}
	return out
}
