package engine

// 女巫 (rules.md B): told the victim while the antidote is unused (std), one
// potion a night, never saves herself by default (witch.self_save).

type witchState struct {
	antidoteUsed, poisonUsed bool
}

func witchHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			step: witchStep,
		},
	}
}

func witchStep(g *Game, s *step, _ StepKind, live bool) bool {
	w := &g.rs.witch
	g.say("night.witch.victim")
	witch := 0
	victim := g.ns.kill
	if victim > 0 && g.hiddenVictim(victim) {
		victim = 0 // 長老's first life ([001]: the witch is not told)
	}
	if live {
		witch = s.actors[0]
		switch {
		case g.nightBlocked(witch) && !g.skillLost(witch):
			// 噩夢之影: a feared witch gets no victim info (rules.md B); after
			// 長老's penalty she is still shown the knife ([001] (11))
		case w.antidoteUsed:
			g.cue(witch, "cue.witch.used", witch)
		case victim > 0:
			g.cue(witch, "cue.witch.victim", witch, victim)
		default:
			g.cue(witch, "cue.witch.none", witch)
		}
	}
	g.say("night.witch.ask")
	var save, armed, wave bool
	var poison int
	s.act = func(seat int, a Action, t int) error {
		if g.nightBlocked(seat) && a != ActWave {
			return refuse(ErrRule, Error{Reason: ReasonBlocked, Role: Witch}, "the witch's skill is blocked tonight (feared, locked or sealed)")
		}
		if save || poison > 0 || wave {
			return refuse(ErrRule, Error{Reason: ReasonOnePotion, Role: Witch}, "the witch has already chosen tonight (one potion a night)")
		}
		switch a {
		case ActUp:
			if w.antidoteUsed {
				return refuse(ErrRule, Error{Reason: ReasonAntidoteUsed, Role: Witch}, "the antidote is used")
			}
			if victim == 0 {
				return refuse(ErrRule, Error{Reason: ReasonNobodyToSave, Role: Witch}, "nobody to save tonight")
			}
			if g.ns.kill == seat && !g.selfSaveAllowed() {
				return refuse(ErrRule, Error{Reason: ReasonSelf, Role: Witch}, "the witch cannot save herself (witch.self_save=%s)", g.opt.WitchSelfSave)
			}
			save = true
		case ActDown:
			if w.poisonUsed && !g.spare(seat, StepWitch, false) {
				return refuse(ErrRule, Error{Reason: ReasonPoisonUsed, Role: Witch}, "the poison is used")
			}
			armed = true
		case ActTarget:
			if t == 0 {
				wave = true
				return nil
			}
			if !armed {
				return errf(ErrNotNow, "thumb down first to poison")
			}
			if !g.living(t) {
				return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
			}
			poison = t
		case ActWave:
			wave = true
		default:
			return errf(ErrNotNow, "the witch saves (up), poisons (down + seat) or waves")
		}
		return nil
	}
	s.reset, s.keys = func() { save, armed, wave, poison = false, false, false, 0 }, witchKeys()
	s.done = func() bool { return save || poison > 0 || wave }
	s.commit = func() {
		if save {
			w.antidoteUsed = true
			g.ns.saved = true
			g.record(Record{Type: RecAction, Kind: string(ActionSave), By: witch, Target: g.ns.kill, When: g.when()})
		}
		if poison > 0 {
			if w.poisonUsed {
				g.spare(witch, StepWitch, true) // the lucky one's second poison
			}
			w.poisonUsed = true
			g.ns.poison = poison
			g.ns.poisoned[poison] = true
			g.reachedBy(witch, poison, CausePoison)
			g.record(Record{Type: RecAction, Kind: string(ActionPoison), By: witch, Target: poison, When: g.when()})
		}
	}
	return false
}

// witchKeys: what her step takes (Choices; the scenario's words).
func witchKeys() []Key {
	return []Key{{Word: "救", Press: []Action{ActUp}}, {Word: "毒", Press: []Action{ActDown}, Target: TargetSeat},
		{Word: "毒", Target: TargetSeat}, // the seat, once thumbed down
		{Word: "不用", Press: []Action{ActWave}}, {Word: "不用", Target: TargetZero}}
}

func (g *Game) selfSaveAllowed() bool {
	switch g.opt.WitchSelfSave {
	case "first_night":
		return g.night == 1
	case "no_guard":
		return !g.b.hasProtector()
	}
	return false
}
