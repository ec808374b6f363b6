package engine

// step is what the game waits on: a night step, a speech, a vote, a skill
// window… Only seats in actors may act in it; its timers are its own and are
// cancelled when it finishes.
type step struct {
	name   StepName
	night  StepKind   // a night step's kind
	speech SpeechKind // a speech's kind
	vote   VoteKind   // a vote's kind
	seat   int        // the seat the step is about (speaker, dying player, sheriff)
	actors []int
	window Window // explosion window (NoWindow = none)

	act    func(seat int, a Action, target int) error // validate, then change step-local state
	after  func()                                     // runs after an accepted input (e.g. close when done)
	reset  func()                                     // clears step-local state, for undo
	pedal  func()                                     // short pedal; nil = the pedal does nothing here
	abort  func()                                     // the step's seat left the game (DQ): end as if time ran out
	rerun  func()                                     // restarts the step (an interrupted speech)
	reveal func(seat int)                             // 定序王子 reveals in his window
	stop   func()                                     // runs when the step finishes, however it ends
	lines  Step                                       // a night step's board step: its line swaps (Step.Lines)
	keys   []Key                                      // what the step takes from a seat (Choices)
	noUndo bool                                       // reset serves Choices only: the judge's undo refuses here
	timers []timer
	inputs []Input
	closed bool
	seq    int  // the step's number in the game
	outOK  bool // actors may be out (a dead player's skill, a dying sheriff's badge)

	// night steps
	done   func() bool        // the actor's choice is complete
	commit func()             // writes the choice into the night
	agreed func() (int, bool) // wolves: the agreed target
}

type timer struct {
	id   TimerID
	fire func()
}

func (s *step) isActor(seat int) bool { return contains(s.actors, seat) }

func (s *step) describe() string {
	if k := kindWord(s.night, s.speech, s.vote); k != "" {
		return string(s.name) + " " + k
	}
	return string(s.name)
}

// wait makes s the current step.
func (g *Game) wait(s *step) {
	g.stepSeq++
	s.seq = g.stepSeq
	g.cur = s
}

// StepSeq numbers the current step (0 = none): it changes whenever the game
// moves to another step, so callers can tell a new step from the same one.
func (g *Game) StepSeq() int {
	if g.cur == nil {
		return 0
	}
	return g.cur.seq
}

// timer starts a timer of the current step.
func (g *Game) timer(s *step, seconds int, fire func()) TimerID {
	g.nextTimer++
	id := g.nextTimer
	s.timers = append(s.timers, timer{id: id, fire: fire})
	g.emit(Effect{Kind: EffTimerStart, Timer: id, Seconds: seconds})
	return id
}

// finish ends a step: its remaining timers are cancelled.
func (g *Game) finish(s *step) {
	if s.closed {
		return
	}
	s.closed = true
	for _, t := range s.timers {
		g.emit(Effect{Kind: EffTimerCancel, Timer: t.id})
	}
	s.timers = nil
	if g.cur == s {
		g.cur = nil
	}
	if s.stop != nil {
		s.stop()
	}
}

// undo removes the last seat input of the current step (A13).
func (g *Game) undo() error {
	s := g.cur
	if s == nil || len(s.inputs) == 0 || s.reset == nil || s.noUndo {
		return refuse(ErrNotNow, Error{Reason: ReasonNothingToUndo}, "no seat input to undo in this step")
	}
	mark := len(g.out)
	s.reset()
	var kept []Input
	for _, in := range s.inputs[:len(s.inputs)-1] {
		// An input that no longer applies (its target was DQ'd since) is dropped.
		if err := s.act(in.Seat, in.Action, in.Target); err == nil {
			kept = append(kept, in)
		}
	}
	g.out = g.out[:mark]
	s.inputs = kept
	return nil
}

// StepInputs returns the seat inputs the current step holds (a copy), in
// the order given: what an undo (A13) takes back from, one by one.
func (g *Game) StepInputs() []Input {
	if g.cur == nil {
		return nil
	}
	return append([]Input(nil), g.cur.inputs...)
}

// Prompt describes what the game waits for: the current step and who may act.
type Prompt struct {
	Over  bool
	Night int      // the current night (or the last one, by day)
	Day   int      // the current day, 0 at night
	Step  StepName // what the game waits on ("" = nothing: the game is over)
	// the step's kind: one of these is set, by Step (Kind is its word)
	StepKind   StepKind   // WaitNight: the night step (wolves, seer…)
	SpeechKind SpeechKind // WaitSpeech: the speech
	VoteKind   VoteKind   // WaitVote: the vote
	Seat       int
	Actors     []int
	Window     Window // 警上 退水 放逐: explosions (and the knight's duel by day) are allowed
	Pedal      bool   // a short pedal press advances
	Input      bool   // the step takes seat input (false: open and close only)
}

// Kind is the word of the step's kind (its StepKind, SpeechKind or
// VoteKind; "" for a step without one), for logs and views.
func (p Prompt) Kind() string { return kindWord(p.StepKind, p.SpeechKind, p.VoteKind) }

// kindWord is the word of the one kind of a step that is set.
func kindWord(night StepKind, speech SpeechKind, vote VoteKind) string {
	switch {
	case night != "":
		return string(night)
	case speech != "":
		return string(speech)
	}
	return string(vote)
}

// Awaiting returns what the game waits for now.
func (g *Game) Awaiting() Prompt {
	p := Prompt{Over: g.over, Night: g.night}
	if g.day == g.night {
		p.Day = g.day
	}
	if s := g.cur; s != nil {
		p.Step, p.Seat, p.Window, p.Pedal = s.name, s.seat, s.window, s.pedal != nil
		p.StepKind, p.SpeechKind, p.VoteKind = s.night, s.speech, s.vote
		p.Input = s.act != nil || s.reveal != nil
		for _, a := range s.actors {
			if s.name == WaitNight || g.present(a) {
				p.Actors = append(p.Actors, a)
			}
		}
	}
	return p
}

// SeatView is a seat as the judge sees it.
type SeatView struct {
	Role     Role
	Out      bool
	Dying    bool
	Revealed bool
	Causes   []Cause
	Model    int   // 野孩子 / 混血兒: the model it picked (0 = none)
	Lovers   []int // the seats linked with it (丘比特's or 魅魔's pair)
	Third    bool  // a member of a third camp (人狼戀)
}

// Seat returns the judge's view of a seat (1..Players).
func (g *Game) Seat(s int) SeatView {
	if s < 1 || s > g.n {
		return SeatView{}
	}
	st := g.seats[s]
	return SeatView{Role: st.role, Out: st.out, Dying: st.dying, Revealed: st.revealed, Causes: append([]Cause(nil), st.causes...),
		Model: g.ModelOf(s), Lovers: g.partners(s), Third: g.inThird(s)}
}

// PedalAdvances reports whether a short pedal press advances the current step.
func (g *Game) PedalAdvances() bool { return g.cur != nil && g.cur.pedal != nil }

// Night is the current night, or the last one by day.
func (g *Game) Night() int { return g.night }

// Out reports whether a seat is out of the game (as the players know it).
func (g *Game) Out(s int) bool { return s < 1 || s > g.n || g.seats[s].out }

// Living reports whether a seat is in the game and did not die last night.
func (g *Game) Living(s int) bool { return s >= 1 && s <= g.n && g.living(s) }

// RoleOf is the role dealt to a seat.
func (g *Game) RoleOf(s int) Role {
	if s < 1 || s > g.n {
		return ""
	}
	return g.seats[s].role
}

// Bottom returns the cards dealt to no seat (a copy; none on most boards).
func (g *Game) Bottom() []Role { return append([]Role(nil), g.bottom...) }

// Players is the seat count.
func (g *Game) Players() int { return g.n }

// Sheriff is the sheriff's seat (0 = none).
func (g *Game) Sheriff() int { return g.sheriff }

// Over reports whether the game has ended, and the winner (好人 狼人 流局).
func (g *Game) Over() (bool, Winner) { return g.over, g.winner }

// Board is the board the game is played on.
func (g *Game) Board() *Board { return &g.b }

// Paused reports whether the judge paused the timers.
func (g *Game) Paused() bool { return g.paused }
