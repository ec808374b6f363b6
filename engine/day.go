package engine

import "fmt"

// Day: dawn, the day-1 sheriff election (A5), night results (A6), the exile
// day (A7). Later days start at the night results.

func (g *Game) beginDay() {
	g.day = g.night
	g.resultsRead = false
	g.record(Record{Type: RecPhase, When: fmt.Sprintf("day-%d", g.day)})
	g.say("day.dawn")
	if g.pendingResult == "" && g.el.pending && g.opt.Sheriff && !g.badgeGone {
		if g.el.resumed {
			g.then(g.withdrawal)
		} else {
			g.then(g.electionOpen)
		}
	}
	g.then(g.nightResults, g.exileDay)
}

// nightResults reads last night's deaths: "昨夜X號、Y號玩家死亡" in ascending
// order, or "昨夜為平安夜"; then every dead player is asked for a skill, the
// badge is passed, and last words are given (night 1 only, last_words.nights).
func (g *Game) nightResults() {
	if g.resultsRead {
		return
	}
	g.resultsRead = true
	dead := sortedCopy(g.pending)
	g.pending = nil
	words := g.night <= g.opt.LastWordsNights
	if len(dead) == 0 {
		g.say("day.peaceful")
	} else {
		// seed 000 二（二）3、: "昨夜 X 號、X 號死亡……死亡順序不分先後"; a later
		// night's flow （四）2、: "昨夜 X 號玩傢死亡，沒有遺言"
		g.say("day.deaths", dead...)
		if len(dead) > 1 {
			g.say("day.deaths.order")
		}
		if !words {
			g.say("day.nowords")
		}
	}
	for _, s := range dead {
		st := &g.seats[s]
		st.dying, st.out = false, true
		for _, c := range st.causes {
			g.record(Record{Type: RecDeath, Seat: s, Cause: c, When: st.when})
		}
	}
	if g.pendingResult != "" {
		g.end(g.pendingResult)
		return
	}
	if w := g.winCheck(); w != "" {
		g.end(w)
		return
	}
	b := &batch{}
	for _, s := range dead {
		b.entries = append(b.entries, lwEntry{seat: s, words: words})
	}
	g.next(g.deathTasks(b)...)
}

// batch is a group of players out at the same time: their skills are asked
// first, then the badge, then last words in seat order; a player taken along
// speaks right after the one who took them, exactly when that one does (A6).
type batch struct {
	entries []lwEntry
	// exiled is the exiled player of an exile batch: the manual's exile
	// lines ask him "X號玩家出局，是否選擇發動技能" and "X號玩家請留遺言" —
	// or, when wordsFirst (狼王攝夢人 from day 2), "X號玩家出局，請留遺言"
	// and then "是否選擇發動技能".
	exiled     int
	wordsFirst bool
}

type lwEntry struct {
	seat  int
	words bool
	spoke bool
}

func (b *batch) wordsOf(s int) bool {
	for _, e := range b.entries {
		if e.seat == s {
			return e.words
		}
	}
	return false
}

func (b *batch) insertAfter(s, t int, words bool) {
	for i, e := range b.entries {
		if e.seat == s {
			b.entries = append(b.entries[:i+1], append([]lwEntry{{seat: t, words: words}}, b.entries[i+1:]...)...)
			return
		}
	}
	b.entries = append(b.entries, lwEntry{seat: t, words: words})
}

func (g *Game) deathTasks(b *batch) []func() {
	var t []func()
	for _, e := range b.entries {
		s := e.seat
		t = append(t, func() { g.skillStep(b, s) })
	}
	return append(t, func() { g.badgeFor(b) }, func() { g.lastWords(b) }, func() { g.leave(b) })
}

// canSkill: 獵人 and 狼王 shoot when killed by the wolves, exiled, shot or
// taken; never when poisoned, exploding, DQ'd, charmed away or duelled.
func (g *Game) canSkill(s int) bool {
	shot := g.role(s).row().ShotOn
	if shot == nil {
		return false
	}
	for _, c := range g.seats[s].causes {
		if !containsCause(shot, c) {
			return false
		}
	}
	// a locked player (蝕時狼妃) has no skill; a board role may take the shot
	// (噩夢之影: feared and killed tonight)
	return !g.silenced(s) && !g.any(func(h *roleHooks) func(*Game, int) bool { return h.noShot }, s)
}

// skillStep: "X號玩家是否發動技能" 10 s, 5-4-3-2-1 at 5 s (A6).
func (g *Game) skillStep(b *batch, s int) {
	st := &step{name: WaitSkill, seat: s, actors: []int{s}, outOK: true}
	g.wait(st)
	switch {
	case b.exiled == s && b.wordsFirst:
		g.say("exile.skill.after")
	case b.exiled == s:
		g.say("exile.skill", s)
	default:
		g.say("skill.ask", s)
	}
	may := func(seat int) error {
		if !g.canSkill(seat) {
			return errf(ErrRule, "seat %d (%s) cannot use a skill now", seat, g.role(seat).Name())
		}
		return nil
	}
	target := g.pointOrWave(st, "shoot a seat, or wave", "seat %d cannot be shot", may)
	point := st.act
	st.act = func(seat int, a Action, t int) error {
		if a != ActUp {
			return point(seat, a, t)
		}
		// UP: the skill is used: "（如發動技能：請選擇目標）" (seed 000)
		if err := may(seat); err != nil {
			return err
		}
		g.say("skill.target")
		return nil
	}
	st.after = func() {
		if in := st.inputs; len(in) > 0 && in[len(in)-1].Action == ActUp {
			return // the target comes next
		}
		g.finish(st)
		if *target > 0 {
			g.shoot(b, s, *target)
		}
	}
	st.pedal = func() { g.finish(st) }
	st.abort = st.pedal
	if g.opt.SkillSeconds > 5 {
		g.timer(st, g.opt.SkillSeconds-5, func() { g.say("count.54321") })
	}
	g.timer(st, g.opt.SkillSeconds, func() { g.finish(st) })
}

// pointOrWave makes st a day step where its seat points at another present
// player or waves (0 = none): notNow refuses any other key, bad (with the
// seat) a target that is out or the seat itself; may, when set, refuses the
// seat's real target outright (no skill). The choice lands in the result.
func (g *Game) pointOrWave(st *step, notNow, bad string, may func(seat int) error) *int {
	target := new(int)
	st.act = func(seat int, a Action, t int) error {
		switch a {
		case ActWave:
			return nil
		case ActTarget:
		default:
			return errf(ErrNotNow, "%s", notNow)
		}
		if t == 0 {
			*target = 0
			return nil
		}
		if may != nil {
			if err := may(seat); err != nil {
				return err
			}
		}
		if t == seat || !g.present(t) {
			return errf(ErrBadTarget, bad, t)
		}
		*target = t
		return nil
	}
	return target
}

func (g *Game) shoot(b *batch, s, t int) {
	g.say("skill.shot", s, t)
	b.insertAfter(s, t, b.wordsOf(s))
	g.dies(t, CauseShot, false)
	if g.over {
		return
	}
	tasks := []func(){func() { g.skillStep(b, t) }}
	if h := g.self(t).follow; h != nil {
		tasks = append(tasks, h(g, b, t))
	}
	g.next(tasks...)
}

func (g *Game) badgeFor(b *batch) {
	sh := g.sheriff
	if sh == 0 {
		return
	}
	for _, e := range b.entries {
		if e.seat == sh && g.seats[sh].out {
			g.badgeStep(sh)
			return
		}
	}
}

// badgeStep: the dying sheriff passes the badge to a living player or tears
// it (移交/撕毀警徽); time running out tears it.
func (g *Game) badgeStep(s int) {
	st := &step{name: WaitBadge, seat: s, actors: []int{s}, outOK: true, pedal: nil}
	g.wait(st)
	g.say("badge.ask", s)
	to, decided := 0, false
	st.act = func(seat int, a Action, t int) error {
		switch a {
		case ActDown, ActWave:
			to, decided = 0, true
			return nil
		case ActTarget:
		default:
			return errf(ErrNotNow, "pass the badge to a seat, or tear it (down)")
		}
		if t != 0 && (t == seat || !g.present(t)) {
			return errf(ErrBadTarget, "the badge cannot go to seat %d", t)
		}
		to, decided = t, true
		return nil
	}
	resolve := func() {
		g.finish(st)
		if to > 0 {
			g.sheriff = to
			g.say("badge.pass", to)
			g.record(Record{Type: RecSheriff, Seat: to})
			g.light(to, g.seatLight(to), false)
		} else {
			g.sheriff = 0
			g.badgeGone = true
			g.say("badge.tear")
			g.record(Record{Type: RecSheriff, Seat: 0})
		}
	}
	st.after = func() {
		if decided {
			resolve()
		}
	}
	st.abort = resolve
	g.timer(st, g.opt.ChoiceSeconds, resolve)
}

func (g *Game) lastWords(b *batch) {
	var t []func()
	for i := range b.entries {
		if e := &b.entries[i]; e.words && !e.spoke {
			e.spoke = true
			s := e.seat
			line := "lastwords.start" // X號玩家出局，請留遺言
			if s == b.exiled && !b.wordsFirst {
				line = "lastwords.exile" // X號玩家請留遺言: "出局" was said with the skill question
			}
			t = append(t, func() { g.speechSaying(line, SpeechLastWords, s, g.opt.LastWordsSeconds, NoWindow) })
		}
	}
	g.next(t...)
}

// leave: "X號玩家請離場": lights off.
func (g *Game) leave(b *batch) {
	var gone []int
	for _, e := range b.entries {
		if !g.seats[e.seat].lightOff {
			gone = append(gone, e.seat)
		}
	}
	if len(gone) == 0 {
		return
	}
	g.say("day.leave", sortedCopy(gone)...)
	for _, s := range sortedCopy(gone) {
		g.lightOff(s)
	}
}

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

// vote runs one round (A9): helmets on, 3-2-1, one changeable vote per
// voter, abstain allowed; the tally is read in seat order; the sheriff's
// vote weighs sheriff.weight. done gets the seats with the most votes.
func (g *Game) vote(kind VoteKind, voters, targets []int, pk bool, done func(top []int)) {
	st := &step{name: WaitVote, kind: kind, actors: voters}
	g.wait(st)
	blue := pk && g.opt.PKVotersBlue
	if blue {
		for _, v := range voters {
			if !g.seats[v].lightOff {
				g.light(v, LightBlue, false)
			}
		}
	}
	g.say("vote." + kind)
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
			return errf(ErrBadTarget, "seat %d cannot be voted for in this vote", t)
		}
		ballot[seat] = t
		return nil
	}
	st.reset = func() { ballot = map[int]int{} }
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
		g.record(Record{Type: RecVote, Kind: kind, Day: g.day, Ballots: &Ballots{Votes: votes, Tally: tally}})
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

// nightfall: "所有玩家戴盔，天黑請閉眼".
func (g *Game) nightfall() {
	g.say("day.nightfall")
	g.beginNight()
}
