package engine

import "fmt"

// seatState is one player's public and hidden state.
type seatState struct {
	role     Role
	out      bool    // out of the game, publicly (announced, exiled, exploded, DQ)
	dying    bool    // died last night, not announced yet: takes part as if alive (A5)
	causes   []Cause // why the seat went out, in order
	when     string  // "night-2" / "day-3"
	revealed bool    // a revealed idiot: alive, no vote
	lightOff bool    // the light is off (left the table)
	hooks    int     // the index of its role's hooks in Game.hooks
}

// Config is what a game starts from.
type Config struct {
	Board *Board
	Deal  []Role // Deal[i] is the role of seat i+1
	// Bottom holds the cards dealt to no seat (Board.Bottom of them); Deal
	// and Bottom together must be the board's cards.
	Bottom []Role
	Seed   uint64 // seeds the engine's own random choices (plausible step lengths)
}

// Game is one game: a pure state machine. Apply inputs, get effects.
type Game struct {
	b      Board
	bottom []Role // the cards dealt to no seat
	opt    Options
	n      int
	seats  []seatState // index 1..n
	rng    uint64
	halves int // the sheriff's vote in half-votes

	night, day int
	started    bool
	over       bool
	winner     Winner
	paused     bool

	sheriff   int
	badgeGone bool // no sheriff for the rest of the game
	hour, min int
	agenda    []func()
	cur       *step
	nextTimer TimerID
	stepSeq   int
	recs      []Record // slab the records are handed out from
	out       []Effect
	buf       []Effect // reused by Apply: its result is valid until the next call
	lastSay   Effect   // the last line said, for "repeat" (Kind EffSay when set)

	// night bookkeeping
	ns            nightState
	exploded      []int // wolves that exploded the day before: they point the next kill
	pending       []int // last night's dead, not announced, in the order they died
	pendingResult Winner
	resultsRead   bool // this day's night results have been read

	el election

	cs campState // third camps formed in play, grief by day (win.go)

	rs        roleStates  // each role's own state (its file defines it)
	hooks     []roleHooks // the hooks of the board's roles, in table order
	hookRoles []Role      // … and their roles
	shooter   int         // the seat whose shot is being resolved (村長's penalty asks who shot)
}

// nightState is what the night's steps decided.
type nightState struct {
	kill     int  // wolves' agreed target, 0 = none
	saved    bool // the witch saved the wolves' target
	poison   int
	poisoned map[int]bool
}

// New deals a game. The deal must be a permutation of the board's roles.
func New(cfg Config) (*Game, error) {
	b := cfg.Board
	if b == nil {
		return nil, errf(ErrBadInput, "no board")
	}
	if len(cfg.Deal) != b.Players {
		return nil, errf(ErrBadInput, "deal has %d roles, board %s has %d players", len(cfg.Deal), b.ID, b.Players)
	}
	if len(cfg.Bottom) != b.Bottom() {
		return nil, errf(ErrBadInput, "deal has %d bottom cards, board %s has %d", len(cfg.Bottom), b.ID, b.Bottom())
	}
	want := map[Role]int{}
	cards := b.Cards()
	for _, r := range cards {
		want[r]++
	}
	for _, r := range cfg.Deal {
		want[r]--
	}
	for _, r := range cfg.Bottom {
		want[r]--
	}
	for _, r := range cards {
		if want[r] != 0 {
			return nil, errf(ErrBadInput, "deal does not match the composition of %s (role %s)", b.ID, r.Name())
		}
	}
	if len(cfg.Bottom) > 0 && forbiddenBottom(cfg.Bottom, b.Options.ThiefTwoWolves == "allow") {
		return nil, errf(ErrBadInput, "forbidden bottom cards: two wolf-camp cards, or 盜賊 and a wolf-camp card (the deal redeals them)")
	}
	g := &Game{b: *b, opt: b.Options, n: b.Players, rng: cfg.Seed ^ 0x9E3779B97F4A7C15}
	g.halves = int(g.opt.SheriffWeight*2 + 0.5)
	g.bottom = append([]Role(nil), cfg.Bottom...)
	g.seats = make([]seatState, g.n+1)
	for i, r := range cfg.Deal {
		g.seats[i+1].role = r
	}
	g.boardHooks()
	return g, nil
}

func splitmix(s *uint64) uint64 {
	*s += 0x9E3779B97F4A7C15
	z := *s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Start begins the game: "選手請查看身份牌，天黑請閉眼", lights, night 1.
func (g *Game) Start() ([]Effect, error) {
	if g.started {
		return nil, errf(ErrNotNow, "game already started")
	}
	g.started = true
	g.out = nil
	for s := 1; s <= g.n; s++ {
		g.light(s, LightGreen, false)
	}
	g.say("game.start")
	g.beginNight()
	g.run()
	return g.flush(), nil
}

func (g *Game) flush() []Effect {
	o := g.out
	g.buf = o[:0]
	g.out = nil
	return o
}

// Apply feeds one input to the game. On error the state is unchanged and no
// effect is returned. The returned slice is reused by the next call to Apply:
// callers that keep effects must copy them.
func (g *Game) Apply(in Input) ([]Effect, error) {
	if !g.started && in.Kind != InClock {
		return nil, refuse(ErrNotNow, Error{Reason: ReasonNotStarted}, "the game has not started")
	}
	g.out = g.buf[:0]
	var err error
	switch in.Kind {
	case InSeat:
		err = g.applySeat(in)
	case InPedal:
		err = g.applyPedal(in.Pedal)
	case InTimer:
		err = g.applyTimer(in.Timer)
	case InClock:
		if in.Hour < 0 || in.Hour > 23 || in.Minute < 0 || in.Minute > 59 {
			err = errf(ErrBadInput, "clock %d:%d out of range", in.Hour, in.Minute)
		} else {
			g.hour, g.min = in.Hour, in.Minute
		}
	case InJudge:
		err = g.applyJudge(in)
	default:
		err = errf(ErrBadInput, "unknown input kind %d", in.Kind)
	}
	if err != nil {
		g.out = nil
		return nil, err
	}
	g.run()
	if len(g.out) == 0 {
		g.out = nil
		return nil, nil
	}
	return g.flush(), nil
}

// run starts queued tasks until one waits for input or the game ends.
func (g *Game) run() {
	for g.cur == nil && !g.over && len(g.agenda) > 0 {
		t := g.agenda[0]
		g.agenda = g.agenda[1:]
		t()
	}
}

// then appends tasks to the end of the agenda.
func (g *Game) then(t ...func()) { g.agenda = append(g.agenda, t...) }

// next puts tasks at the front of the agenda, in the order given.
func (g *Game) next(t ...func()) {
	g.agenda = append(append(make([]func(), 0, len(t)+len(g.agenda)), t...), g.agenda...)
}

// interrupt drops the current step and everything queued (an explosion ends the day).
func (g *Game) interrupt() {
	if g.cur != nil {
		g.finish(g.cur)
	}
	g.agenda = nil
}

func (g *Game) emit(e Effect) { g.out = append(g.out, e) }

func (g *Game) say(line string, args ...int) {
	if c := g.cur; c != nil && c.lines.Lines != "" {
		if line = c.lines.LineSwap(line); line == "" {
			return // this board's 語術 does not say it
		}
	}
	if g.opt.IdiotName == "baichi" {
		line = baichi(line)
	}
	for _, l := range g.worded(line) { // none: this wording does not say it
		g.lastSay = Effect{Kind: EffSay, Line: l, Args: args}
		g.emit(g.lastSay)
	}
}

func (g *Game) cue(seat int, line string, args ...int) {
	if g.opt.IdiotName == "baichi" {
		line = baichi(line) // the judge reads the card's name as the board says it
	}
	g.emit(Effect{Kind: EffCue, Seat: seat, Line: line, Args: args})
}

func (g *Game) record(r Record) {
	if len(g.recs) == cap(g.recs) {
		g.recs = make([]Record, 0, 32)
	}
	g.recs = append(g.recs, r)
	g.emit(Effect{Kind: EffRecord, Record: &g.recs[len(g.recs)-1]})
}

func (g *Game) light(seat int, l Light, pulse bool) {
	g.emit(Effect{Kind: EffLight, Seat: seat, Light: l, Pulse: pulse})
}

// seatLight is the light a present seat shows by day.
func (g *Game) seatLight(s int) Light {
	if g.seats[s].lightOff {
		return LightOff
	}
	if s == g.sheriff || g.el.isCandidateLit(s) {
		return LightRed
	}
	return LightGreen
}

func (g *Game) repeat() error {
	if g.over {
		return errf(ErrGameOver, "the game is over")
	}
	if g.lastSay.Line == "" {
		return refuse(ErrNotNow, Error{Reason: ReasonNothingToUndo}, "nothing to repeat")
	}
	g.emit(g.lastSay)
	return nil
}

// draw returns a uniform int in [lo, hi].
func (g *Game) draw(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + int(splitmix(&g.rng)%uint64(hi-lo+1))
}

// present reports whether a seat is still in the game as the players know it.
func (g *Game) present(s int) bool { return s >= 1 && s <= g.n && !g.seats[s].out }

// living is present and not dead last night (for the night's steps and wins).
func (g *Game) living(s int) bool { return g.present(s) && !g.seats[s].dying }

func (g *Game) role(s int) Role { return g.seats[s].role }

func (g *Game) holders(r Role) []int {
	var out []int
	for s := 1; s <= g.n; s++ {
		if g.seats[s].role == r {
			out = append(out, s)
		}
	}
	return out
}

func (g *Game) when() string {
	if g.day == g.night {
		return fmt.Sprintf("day-%d", g.day)
	}
	return fmt.Sprintf("night-%d", g.night)
}

// end finishes the game: nothing owed is taken any more (獵人封槍).
func (g *Game) end(winner Winner) {
	if g.over {
		return
	}
	g.interrupt()
	g.over = true
	g.winner = winner
	for s := 1; s <= g.n; s++ {
		if g.seats[s].out || g.seats[s].dying {
			g.lightOff(s) // the game is over: every player who is out leaves
		}
	}
	g.overHooks(winner)
	switch winner {
	case WinGood:
		g.say("game.over.good")
	case WinWolves:
		g.say("game.over.wolves")
	case WinThird:
		g.say("game.over.third")
	default:
		g.say("game.over.void")
	}
	g.record(Record{Type: RecResult, Result: string(winner)})
}

// dies takes a seat out by day (or a DQ at any time), records it and checks
// the win. The light goes off now when off is set, else when the seat leaves.
func (g *Game) dies(s int, c Cause, off bool) {
	st := &g.seats[s]
	wasPending := st.dying
	st.out, st.dying = true, false
	st.causes = append(st.causes, c)
	st.when = g.when()
	if wasPending {
		g.dropPending(s)
	}
	g.record(Record{Type: RecDeath, Seat: s, Cause: c, When: st.when})
	if off {
		g.lightOff(s)
	}
	g.onDeath(s, c)
	if w := g.winCheck(); w != "" {
		g.end(w)
	}
}

func (g *Game) lightOff(s int) {
	if !g.seats[s].lightOff {
		g.seats[s].lightOff = true
		g.light(s, LightOff, false)
	}
}

func (g *Game) dropPending(s int) {
	for i, x := range g.pending {
		if x == s {
			g.pending = append(g.pending[:i:i], g.pending[i+1:]...)
			return
		}
	}
}
