package engine

import "fmt"

// Day: dawn, the day-1 sheriff election (A5), night results (A6), the exile
// day (A7). Later days start at the night results.

func (g *Game) beginDay() {
	g.day = g.night
	g.resultsRead = false
	g.record(Record{Type: RecPhase, When: fmt.Sprintf("day-%d", g.day)})
	g.say("day.dawn")
	g.dayAt(dayMorning)
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
	g.dayAt(dayResults)
	dead := sortedCopy(g.pending)
	g.pending = nil
	g.el.spk.lastDead = 0 // H12: a 平安夜 leaves the clock rule
	if len(dead) > 0 {
		g.el.spk.lastDead = dead[len(dead)-1] // several: the highest seat
	}
	words := g.nightWords(len(dead))
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
	// announced: the exile was announced on its own ("X號玩家出局", a lover's
	// grief right after it): the skill question is then "X號玩家是否發動技能"
	announced bool
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
	shot := g.shotOn(s) // the card's, an option's (hunter.shoot_causes), a gun's (the lucky one's)
	if shot == nil {
		return false
	}
	for _, c := range g.seats[s].causes {
		if !containsCause(shot, c) && !(c == CauseGrief && !g.opt.GriefBlocksSkill) {
			return false
		}
	}
	// a locked player (蝕時狼妃) has no skill; a board role may take the shot
	// (噩夢之影: feared and killed tonight)
	return !g.silenced(s) && !g.any(func(h *roleHooks) func(*Game, int) bool { return h.death.noShot }, s)
}

// skillStep: "X號玩家是否發動技能" 10 s, 5-4-3-2-1 at 5 s (A6).
func (g *Game) skillStep(b *batch, s int) {
	st := &step{name: WaitSkill, seat: s, actors: []int{s}, outOK: true}
	g.wait(st)
	switch {
	case b.exiled == s && b.wordsFirst:
		g.say("exile.skill.after")
	case b.exiled == s && b.announced:
		g.say("skill.ask", s)
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
	st.keys = []Key{{Word: "發動", Press: []Action{ActUp}, Target: TargetSeat}, {Target: TargetSeat},
		{Word: "不發動", Press: []Action{ActWave}}, {Word: "不發動", Target: TargetZero}}
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
	st.reset, st.noUndo = func() { *target = 0 }, true
	st.keys = []Key{{Target: TargetSeat}, {Word: "不用", Press: []Action{ActWave}}, {Word: "不用", Target: TargetZero}}
	return target
}

func (g *Game) shoot(b *batch, s, t int) {
	g.say("skill.shot", s, t)
	if g.spared(t) {
		g.say("skill.spared", t) // 惡魔 before the exile-day speeches
		return
	}
	if g.hitTakenOver(t, CauseShot) {
		return // 老流氓: not dead yet
	}
	g.el.spk.lastDead = t
	b.insertAfter(s, t, b.wordsOf(s))
	g.shooter = s
	g.dies(t, CauseShot, false)
	g.shooter = 0
	if g.over {
		return
	}
	// a lover of t grieves at once after the shot's line ([001] (8), I8)
	said, skills := g.joinGrief(b, t)
	tasks := said
	if g.secondShot(s) {
		// a 獵人 holding the lucky one's gun shoots twice, in order
		tasks = append(tasks, func() { g.skillStep(b, s) })
	}
	tasks = append(tasks, func() { g.skillStep(b, t) })
	if h := g.self(t).death.follow; h != nil {
		tasks = append(tasks, h(g, b, t))
	}
	tasks = append(tasks, skills...)
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
			return refuse(ErrBadTarget, Error{Reason: ReasonCannotTarget, Target: t}, "the badge cannot go to seat %d", t)
		}
		if t != 0 {
			if err := g.badgeRefused(t); err != nil {
				return err
			}
		}
		to, decided = t, true
		return nil
	}
	st.reset, st.noUndo = func() { to, decided = 0, false }, true
	st.keys = []Key{{Word: "移交", Target: TargetSeat}, {Word: "撕毀", Press: []Action{ActDown}},
		{Word: "撕毀", Press: []Action{ActWave}}, {Word: "撕毀", Target: TargetZero}}
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
			t = append(t, func() {
				if g.mutedTurn(s, SpeechLastWords, g.dayWindow(false)) {
					return // silenced (silence.blocks_last_words)
				}
				g.speechSaying(line, SpeechLastWords, s, g.opt.LastWordsSeconds, g.dayWindow(false))
			})
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

// nightfall: "所有玩家戴盔，天黑請閉眼".
func (g *Game) nightfall() {
	if t := g.griefTasks(); t != nil {
		g.next(append(t, g.nightfall)...)
		return
	}
	g.say("day.nightfall")
	g.beginNight()
}

// nightWords: do the deaths of the night just ended give last words
// (last_words.mode, G37)? n1 keeps last_words.nights (A6).
func (g *Game) nightWords(dead int) bool {
	switch g.opt.LastWordsMode {
	case "n1_n2":
		return g.night <= 2
	case "n1_all_n2_single":
		return g.night == 1 || (g.night == 2 && dead == 1)
	}
	return g.night <= g.opt.LastWordsNights
}
