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
	st := &step{name: WaitSpeech, speech: kind, seat: s, window: window}
	g.wait(st)
	st.rerun = func() { g.speechSaying(line, kind, s, secs, window) }
	g.say(line, s)
	g.record(Record{Type: RecSpeech, Day: g.day, Kind: string(kind), Seat: s})
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

// speaking remembers what speaking.order needs from earlier days (H12).
type speaking struct {
	lastDir  int // the direction of the last sheriff's order: 1 順, -1 逆, 0 none yet
	lastDead int // the last player to die before today's speeches (0: a 平安夜)
}

// sheriffOrder: from the seat after the sheriff in direction dir (1 順, -1
// 逆), the sheriff last (A7); remembered for sheriff_side_alternating.
func (g *Game) sheriffOrder(sh, dir int) []int {
	g.el.spk.lastDir = dir
	var order []int
	for i := 1; i < g.n; i++ {
		s := ((sh-1+i*dir)%g.n+g.n)%g.n + 1
		if g.present(s) {
			order = append(order, s)
		}
	}
	return append(order, sh)
}

// fromSeat: every present player ascending from the seat after d (A7's
// 順, "the left" of H12), wrapping round the table.
func (g *Game) fromSeat(d int) []int {
	var order []int
	for i := 1; i <= g.n; i++ {
		if s := (d-1+i)%g.n + 1; g.present(s) {
			order = append(order, s)
		}
	}
	return order
}

// electionOrder: the candidates' speaking order (sheriff.speech_start):
// the clock rule (A8), or from the lowest candidate up, or the highest down.
func (g *Game) electionOrder(eligible func(int) bool) []int {
	var order []int
	switch g.opt.SpeechStart {
	case "lowest":
		for s := 1; s <= g.n; s++ {
			if eligible(s) {
				order = append(order, s)
			}
		}
	case "highest":
		for s := g.n; s >= 1; s-- {
			if eligible(s) {
				order = append(order, s)
			}
		}
	default:
		order = g.clockOrder(g.opt.ClockRule, eligible)
	}
	return order
}
