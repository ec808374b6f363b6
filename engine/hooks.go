package engine

// roleHooks are a role's rules, plugged into the shared phases: four
// contracts, one for each part of the game the phases call them from. The
// phase files call them through the contract (h.night.step, h.death.died)
// and hold no role-specific branch. Every hook is optional; a role's file
// sets the ones its rules need in its <role>Hooks constructor, and the role
// table's hooks column (roleHooksTab) hands them to the game.
//
// "Self" hooks run for the role of the seat the event is about (the seat
// checked, poisoned, exiled, exploding…); "board" hooks run for every role
// of the board's composition, in the order of the role table (or, for
// resolve, in the order of nightDeathOrder); "its own steps" hooks run for
// the role that acts in the step.
type roleHooks struct {
	night nightHooks // night.go, steps and the night's deaths
	day   dayHooks   // day.go, election.go, speech.go, vote.go, exile.go, explode.go
	death deathHooks // any death, day or night (game.go's dies, day.go's skill)
	camp  campHooks  // who a seat plays for, and the game's end (win.go)
}

// nightHooks: a night, from its fall to its dawn (night.go, endNight).
// Board hooks unless marked.
type nightHooks struct {
	nightfall func(g *Game)                                      // a night begins, before its steps
	leftOut   func(g *Game, k StepKind) bool                     // (its own steps) the step is left out tonight (獵人, out and shown)
	actors    func(g *Game, k StepKind) ([]int, bool)            // (its own steps) the seats that open their eyes, when not the role's holders (情侶, 幸運兒: a status); false = the holders
	step      func(g *Game, s *step, k StepKind, live bool) bool // (its own steps) runs a night step; true = the actor has acted
	closed    func(g *Game, s *step, live bool)                  // (its own steps) at the close, after the commit and the result line
	wolfStep  func(g *Game, seat int) bool                       // the seat wakes in the wolves' step tonight though its role does not (隱狼 alone)
	asleep    func(g *Game, seat int) bool                       // the seat does not wake with the wolves tonight
	blocked   func(g *Game, seat int) bool                       // the seat's night skill is blocked tonight
	dazed     func(g *Game, seat int) bool                       // hugged or feared last night: no passive skill this morning (熊's roar)
	noKill    func(g *Game) bool                                 // the wolves cannot kill tonight
	guarded   func(g *Game, seat int) bool                       // the seat is guarded against the knife tonight
	shielded  func(g *Game, seat int) bool                       // the seat is immune to all night harm tonight
	hidden    func(g *Game, seat int) bool                       // the knife on the seat is not shown to the witch tonight
	reached   func(g *Game, by, target int, c Cause)             // (self) a night skill reached the role: a check (CauseCheck) or the poison (CausePoison)
	spare     func(g *Game, seat int, k StepKind, use bool) bool // the seat holds a second use of its skill of step k (a doubled gift); use spends it
	resolve   func(g *Game)                                      // the role's night deaths, after the knife and the poison
	dawn      func(g *Game)                                      // the night is over: its choices become last night's
}

// dayMoment is a moment of the day a board hook may answer (dayHooks.moment),
// in the order a day meets them.
type dayMoment int

const (
	dayMorning      dayMoment = iota // a day begins, right after "天亮了" (before day 1's election)
	dayResults                       // the night results are about to be read (day 1: after the election)
	dayExile                         // the night's deaths are settled, the exile day begins: the role's morning line (禁言長老)
	daySpeeches                      // the day's first exile speech begins (rules-more.md H10)
	daySpeechesOver                  // the exile day's speeches are over, before the 歸票 and the vote
)

// dayHooks: the day's moments, speeches, votes, badge, exile and
// explosions. Board hooks unless marked.
type dayHooks struct {
	moment      func(g *Game, m dayMoment)                            // a moment of the day has come
	silenced    func(g *Game, seat int) bool                          // the seat can use no skill and cannot vote today
	mutedLine   func(g *Game, seat int, kind SpeechKind) string       // the line that replaces the seat's speech of this kind ("" = it speaks)
	ballot      func(g *Game, kind VoteKind, voter, target int) error // a ballot the rules forbid (lovers.no_mutual_vote)
	voted       func(g *Game, kind VoteKind, votes []Vote)            // a vote closed, with its ballots
	badge       func(g *Game, to int) error                           // a board rule refuses the badge to this seat (a revealed 白痴)
	exileResult func(g *Game, s int, order []int) bool                // an exile result is read; true = the hook took over
	exileSeen   func(g *Game, s int)                                  // somebody was exiled
	exploding   func(g *Game, s int)                                  // (self) exploding, before it dies
	exploded    func(g *Game, s int, poisoned bool) []func()          // (self) exploded: tasks after the badge
	boom        func(g *Game, seat int, s *step) error                // (self) its guarded key in an explosion window
	reveal      func(g *Game, seat int, s *step) (bool, error)        // (self) its guarded key outside the windows; false = not its window
}

// deathHooks: a death, day or night, and what it leaves: a take-over, a
// shot, a task after it. Board hooks unless marked.
type deathHooks struct {
	takeOver   func(g *Game, s int, c Cause) bool      // (self) c is about to kill the seat (the knife, the poison, a shot, a charm link, the exile); true = the hook took over (no death now)
	spared     func(g *Game, seat int) bool            // the seat survives a day kill (a morning shot, a take) now
	died       func(g *Game, s int, c Cause)           // a seat died, any cause, day or night, before the win check (殉情; 村長's penalty)
	noShot     func(g *Game, seat int) bool            // the seat's death leaves it no shot
	shotOn     func(g *Game, seat int) ([]Cause, bool) // the causes of death that leave the seat a shot, when not its card's ShotOn (an option, a gun)
	secondShot func(g *Game, seat int) bool            // the seat has shot and holds a second shot: it spends it
	follow     func(g *Game, b *batch, s int) func()   // (self) out by day (exiled, shot): a task after its skill
	lost       func(g *Game, seat int) bool            // the seat has lost every skill for good (村長's penalty)
}

// campHooks: who a seat plays for, and the game's end. Board hooks.
type campHooks struct {
	side     func(g *Game, s int) (Side, Category, bool) // the seat's side and 屠邊 category now, when not its card's (丘比特)
	category func(g *Game, seat int) (Category, bool)    // the seat's 屠邊 category when an option sets it (elder.category)
	unneeded func(g *Game, s int) bool                   // a third-camp member the good side need not remove
	gameOver func(g *Game, w Winner)                     // the game ended with w, before the result is recorded
}

// hitTakenOver: the seat's role takes over c (the knife, the poison, a
// shot, a charm link, the exile) instead of dying now (老流氓's delay,
// 村長's two lives, 白痴's reveal).
func (g *Game) hitTakenOver(s int, c Cause) bool {
	h := g.self(s).death.takeOver
	return h != nil && h(g, s, c)
}

// reachedBy: a night skill (a check, CauseCheck, or the poison,
// CausePoison) of seat by reached the target's role (惡靈騎士's reflection).
func (g *Game) reachedBy(by, target int, c Cause) {
	if h := g.self(target).night.reached; h != nil {
		h(g, by, target, c)
	}
}

// stepLeftOut: the role acting in step k leaves it out tonight (獵人).
func (g *Game) stepLeftOut(k StepKind) bool {
	r, ok := k.Role()
	if !ok {
		return false
	}
	h := g.hooksOf(r)
	return h != nil && h.night.leftOut != nil && h.night.leftOut(g, k)
}

// wakesInWolfStep: a board hook makes the seat wake in the wolves' step.
func (g *Game) wakesInWolfStep(s int) bool {
	return g.any(func(h *roleHooks) func(*Game, int) bool { return h.night.wolfStep }, s)
}

// overHooks runs the board hooks of the game's end (a follower's result).
func (g *Game) overHooks(w Winner) {
	for i := range g.hooks {
		if h := g.hooks[i].camp.gameOver; h != nil {
			h(g, w)
		}
	}
}

// dayAt runs the board hooks of a moment of the day, in table order.
func (g *Game) dayAt(m dayMoment) {
	for i := range g.hooks {
		if f := g.hooks[i].day.moment; f != nil {
			f(g, m)
		}
	}
}

// boardHooks sets up the hooks of the board's roles, in table order.
func (g *Game) boardHooks() {
	n := 0
	for i := range roleTab {
		if g.b.Has(roleTab[i].ID) {
			n++
		}
	}
	g.hooks, g.hookRoles = make([]roleHooks, 0, n), make([]Role, 0, n)
	for i := range roleTab {
		if g.b.Has(roleTab[i].ID) {
			g.hooks = append(g.hooks, hooksFor(roleTab[i].ID))
			g.hookRoles = append(g.hookRoles, roleTab[i].ID)
		}
	}
	for s := 1; s <= g.n; s++ {
		for i, r := range g.hookRoles {
			if r == g.seats[s].role {
				g.seats[s].hooks = i
			}
		}
	}
}

// self returns the hooks of a seat's role.
func (g *Game) self(s int) *roleHooks { return &g.hooks[g.seats[s].hooks] }

// hooksOf returns the hooks of a role of the board (nil: not on the board).
func (g *Game) hooksOf(r Role) *roleHooks {
	for i, x := range g.hookRoles {
		if x == r {
			return &g.hooks[i]
		}
	}
	return nil
}

// any reports whether a board hook says yes.
func (g *Game) any(pick func(h *roleHooks) func(g *Game, seat int) bool, seat int) bool {
	for i := range g.hooks {
		if f := pick(&g.hooks[i]); f != nil && f(g, seat) {
			return true
		}
	}
	return false
}

// nightBlocked: the seat cannot use a night skill now (噩夢之影's fear,
// 蝕時狼妃's lock, 血月使徒's seal: 技能被禁止).
func (g *Game) nightBlocked(s int) bool {
	return g.any(func(h *roleHooks) func(*Game, int) bool { return h.night.blocked }, s)
}

// silenced: the seat can use no skill and cannot vote today.
func (g *Game) silenced(s int) bool {
	return g.any(func(h *roleHooks) func(*Game, int) bool { return h.day.silenced }, s)
}

// immuneAtNight: the seat cannot be harmed tonight (a role that cannot die
// at night, or a seat shielded by another role).
func (g *Game) immuneAtNight(s int) bool {
	return g.role(s).row().NightProof || g.any(func(h *roleHooks) func(*Game, int) bool { return h.night.shielded }, s)
}

// guardedTonight: the knife on the seat is guarded.
func (g *Game) guardedTonight(s int) bool {
	return g.any(func(h *roleHooks) func(*Game, int) bool { return h.night.guarded }, s)
}

// setRole makes seat s play role r from now on (the thief's kept card, a
// wild child that turned): its hooks become r's, and the game record says
// so (RecRole, hidden like every night fact). r must be a card of the board
// (its hooks are set up from the composition).
func (g *Game) setRole(s int, r Role) {
	g.seats[s].role = r
	for i, x := range g.hookRoles {
		if x == r {
			g.seats[s].hooks = i
		}
	}
	g.record(Record{Type: RecRole, Seat: s, Role: r})
}

// mutedTurn: when the seat's speech of this kind is muted (禁言長老), the
// judge's line replaces it (silence.turn skip_with_line) or opens a 15 s
// turn of gestures (gesture_window), and mutedTurn reports true.
func (g *Game) mutedTurn(s int, kind SpeechKind, window Window) bool {
	l := g.mutedLine(s, kind)
	if l == "" {
		return false
	}
	if g.opt.SilenceTurn == "gesture_window" {
		g.speechSaying(l+".gesture", kind, s, silenceGestureSecs, window)
	} else {
		g.say(l, s)
	}
	return true
}

// silenceGestureSecs: silence.turn gesture_window's turn (rules-more.md D2, inferred).
const silenceGestureSecs = 15

// mutedLine: the line that replaces the seat's speech (禁言長老), "" = none.
func (g *Game) mutedLine(s int, kind SpeechKind) string {
	for i := range g.hooks {
		if f := g.hooks[i].day.mutedLine; f != nil {
			if l := f(g, s, kind); l != "" {
				return l
			}
		}
	}
	return ""
}

// onDeath runs the board's death hooks: a seat died (any cause, day or
// night); a death that follows at once (殉情) happens here, before the win
// check of the death that caused it.
func (g *Game) onDeath(s int, c Cause) {
	for i := range g.hooks {
		if h := g.hooks[i].death.died; h != nil {
			h(g, s, c)
		}
	}
}

// ballotOK: no board rule forbids the ballot.
func (g *Game) ballotOK(kind VoteKind, voter, target int) error {
	for i := range g.hooks {
		if h := g.hooks[i].day.ballot; h != nil {
			if err := h(g, kind, voter, target); err != nil {
				return err
			}
		}
	}
	return nil
}

// sideOf is the seat's side and 屠邊 category now: its card's, unless a
// board rule changed them (丘比特 after night 1).
func (g *Game) sideOf(s int) (Side, Category) {
	for i := range g.hooks {
		if h := g.hooks[i].camp.side; h != nil {
			if sd, c, ok := h(g, s); ok {
				return sd, c
			}
		}
	}
	ri := g.role(s).row()
	return ri.Side, ri.Category
}

// unneeded: the good side need not remove this third-camp member.
func (g *Game) unneeded(s int) bool {
	return g.any(func(h *roleHooks) func(*Game, int) bool { return h.camp.unneeded }, s)
}

// spared: the seat survives a day kill now (惡魔 until the exile-day
// speeches: a morning shot, a take in the election).
func (g *Game) spared(s int) bool {
	return g.any(func(h *roleHooks) func(*Game, int) bool { return h.death.spared }, s)
}

// badgeRefused: a board rule refuses the badge to seat to (nil = it may
// take it).
func (g *Game) badgeRefused(to int) error {
	for i := range g.hooks {
		if h := g.hooks[i].day.badge; h != nil {
			if err := h(g, to); err != nil {
				return err
			}
		}
	}
	return nil
}

// skillLost: the seat has lost every skill for good (村長's penalty).
func (g *Game) skillLost(s int) bool {
	return g.any(func(h *roleHooks) func(*Game, int) bool { return h.death.lost }, s)
}

// hiddenVictim: the witch is not shown the knife on the seat tonight.
func (g *Game) hiddenVictim(s int) bool {
	return g.any(func(h *roleHooks) func(*Game, int) bool { return h.night.hidden }, s)
}

// shotOn is the causes of death that leave the seat a shot: its card's
// (ShotOn), unless a board hook says otherwise (hunter.shoot_causes, the
// lucky one's gun).
func (g *Game) shotOn(s int) []Cause {
	for i := range g.hooks {
		if f := g.hooks[i].death.shotOn; f != nil {
			if c, ok := f(g, s); ok {
				return c
			}
		}
	}
	return g.role(s).row().ShotOn
}

// secondShot: the seat has shot and holds a second shot, which it spends
// (a 獵人 holding the lucky one's gun).
func (g *Game) secondShot(s int) bool {
	return g.any(func(h *roleHooks) func(*Game, int) bool { return h.death.secondShot }, s)
}

// spare reports (and, with use, spends) a second use of the seat's skill of
// step k: the seer's second check, the witch's second poison
// (黑市商人's gift to a role that already holds it; a second shot is
// secondShot).
func (g *Game) spare(s int, k StepKind, use bool) bool {
	for i := range g.hooks {
		if f := g.hooks[i].night.spare; f != nil && f(g, s, k, use) {
			return true
		}
	}
	return false
}

// category is the seat's 屠邊 category: the card's (def), unless a board
// role's option says otherwise (elder.category).
func (g *Game) category(s int, def Category) Category {
	for i := range g.hooks {
		if f := g.hooks[i].camp.category; f != nil {
			if c, ok := f(g, s); ok {
				return c
			}
		}
	}
	return def
}

// asleepWithWolves: the seat does not wake with the wolves tonight.
func (g *Game) asleepWithWolves(s int) bool {
	return g.any(func(h *roleHooks) func(*Game, int) bool { return h.night.asleep }, s)
}
