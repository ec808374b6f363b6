package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"wolftable/engine"
	"wolftable/script"
)

// Event is one line of the run's output (JSON-lines or transcript).
type Event struct {
	Type   string            `json:"type"`
	Line   string            `json:"line,omitempty"`
	Text   string            `json:"text,omitempty"`
	Seat   *int              `json:"seat,omitempty"`
	State  string            `json:"state,omitempty"`
	Pulse  bool              `json:"pulse,omitempty"`
	Kind   string            `json:"kind,omitempty"`
	Day    int               `json:"day,omitempty"`
	Votes  seatMap           `json:"votes,omitempty"`
	Tally  seatMap           `json:"tally,omitempty"`
	By     int               `json:"by,omitempty"`
	Target *int              `json:"target,omitempty"`
	Result string            `json:"result,omitempty"`
	Cause  string            `json:"cause,omitempty"`
	When   string            `json:"when,omitempty"`
	Role   string            `json:"role,omitempty"`
	Winner engine.Winner     `json:"winner,omitempty"`
	Phase  string            `json:"phase,omitempty"`
	Points float64           `json:"points,omitempty"`
	What   string            `json:"what,omitempty"`
	Roared *bool             `json:"roared,omitempty"` // roar: 熊 roared that morning
	Seats  []int             `json:"seats,omitempty"`  // lovers: the pair
	At     int               `json:"at"`               // game seconds since the start (the fake clock)
	Extra  map[string]string `json:"-"`
	// ordered copies for the transcript
	votes []engine.Vote
	tally []engine.Tally
}

// Failure is an expectation that did not hold.
type Failure struct {
	Line int
	Msg  string
}

// RunError is a decision that could not be applied (exit status 2).
type RunError struct {
	Line int
	Msg  string
	// Code is the engine's error code when the engine refused an input;
	// 0 when the runner itself stopped (a window that never opened, a
	// decision the role cannot take, a board that does not exist).
	Code engine.ErrorCode
}

// refused is the RunError of an error at line: the engine's code is kept.
func refused(line int, err error) *RunError {
	e := &RunError{Line: line, Msg: err.Error()}
	var ee *engine.Error
	if errors.As(err, &ee) {
		e.Code = ee.Code
	}
	return e
}

func (e *RunError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Result is a finished run.
type Result struct {
	Events   []Event
	Failures []Failure
	Err      *RunError
	Winner   engine.Winner
	Game     *engine.Game
}

// ExitStatus is 0 (all expectations hold), 1 (an expectation failed) or 2
// (invalid file or a decision that could not be applied).
func (r *Result) ExitStatus() int {
	switch {
	case r.Err != nil:
		return 2
	case len(r.Failures) > 0:
		return 1
	}
	return 0
}

// BoardSource finds a board by id or name.
type BoardSource func(idOrName string) (*engine.Board, error)

type runner struct {
	f        *File
	g        *engine.Game
	cat      *script.Catalogue
	now      int
	timers   map[engine.TimerID]int
	events   []Event
	checks   []engine.Record
	deaths   []engine.Record
	exiles   []engine.Record
	silences []engine.Record // 禁言長老's silences (expect silenced)
	roars    []engine.Record // 熊's mornings
	follows  []engine.Record // 混血兒's results
	lovers   []engine.Record // 丘比特's and 魅魔's pairs
}

// maxSteps bounds a run: a stuck game is an error, never a hang.
const maxSteps = 200000

// Run plays a parsed scenario through the engine.
func Run(f *File, boards BoardSource) *Result {
	res := &Result{}
	fail := func(line int, err error) *Result {
		res.Err = refused(line, err)
		return res
	}
	b, err := boards(f.Board)
	if err != nil {
		return fail(f.BoardLine, err)
	}
	for _, o := range f.Options {
		if err := b.Options.Set(o.Key, o.Value); err != nil {
			return fail(o.Line, err)
		}
	}
	if msg := dealProblem(b, f); msg != "" {
		line := f.BottomLine
		if line == 0 {
			line = f.RolesLine
		}
		res.Err = &RunError{Line: line, Msg: msg, Code: engine.ErrBadInput}
		return res
	}
	g, err := engine.New(engine.Config{Board: b, Deal: f.Roles, Bottom: f.Bottom, Seed: f.Seed})
	if err != nil {
		line := f.RolesLine
		if f.BottomLine != 0 && strings.Contains(err.Error(), "bottom") {
			line = f.BottomLine
		}
		if line == 0 {
			line = f.BoardLine
		}
		return fail(line, err)
	}
	r := &runner{f: f, g: g, cat: script.New(), timers: map[engine.TimerID]int{}}
	res.Game = g
	defer func() { res.Events = r.events }()
	if f.Clock != nil {
		if _, err := r.apply(engine.Clock(f.Clock.Hour, f.Clock.Minute)); err != nil {
			return fail(f.Clock.Line, err)
		}
	}
	effs, err := g.Start()
	if err != nil {
		return fail(f.BoardLine, err)
	}
	r.observe(effs)
	for _, sec := range f.Sections {
		if over, _ := g.Over(); over {
			break
		}
		queue := append([]Decision(nil), sec.Decisions...)
		// A clock line applies "from here on": the ones that open a section
		// apply before the section begins (the first speaker of the day-1
		// election is fixed as the day breaks).
		for len(queue) > 0 && queue[0].Kind == KClock {
			if _, _, e := r.try(g.Awaiting(), queue[0]); e != nil {
				res.Err = e
				return res
			}
			queue = queue[1:]
		}
		if e := r.enter(sec); e != nil {
			res.Err = e
			return res
		}
		for len(queue) > 0 {
			if over, _ := g.Over(); over {
				break
			}
			d := queue[0]
			queue = queue[1:]
			follow, e := r.decide(sec, d)
			if e != nil {
				res.Err = e
				return res
			}
			if follow != nil {
				queue = append([]Decision{*follow}, queue...)
			}
		}
		if e := r.leave(sec); e != nil {
			res.Err = e
			return res
		}
	}
	_, w := g.Over()
	res.Winner = w
	res.Failures = r.expectations()
	return res
}

func (r *runner) inSection(p engine.Prompt, sec Section) bool {
	if sec.Night {
		return p.Day == 0 && p.Night == sec.N
	}
	return p.Day == sec.N
}

// position orders game phases: night 1 = 1, day 1 = 2, night 2 = 3…
func position(p engine.Prompt) int {
	if p.Day > 0 {
		return p.Day * 2
	}
	return p.Night*2 - 1
}

func sectionPos(sec Section) int {
	if sec.Night {
		return sec.N*2 - 1
	}
	return sec.N * 2
}

func (r *runner) enter(sec Section) *RunError {
	for i := 0; i < maxSteps; i++ {
		p := r.g.Awaiting()
		if p.Over || r.inSection(p, sec) {
			return nil
		}
		if position(p) > sectionPos(sec) {
			return &RunError{Line: sec.Line, Msg: fmt.Sprintf("%s has already passed", sec)}
		}
		if e := r.advance(p, sec.Line); e != nil {
			return e
		}
	}
	return &RunError{Line: sec.Line, Msg: "the game is stuck"}
}

func (r *runner) leave(sec Section) *RunError {
	for i := 0; i < maxSteps; i++ {
		p := r.g.Awaiting()
		if p.Over || !r.inSection(p, sec) {
			return nil
		}
		if e := r.advance(p, sec.Line); e != nil {
			return e
		}
	}
	return &RunError{Line: sec.Line, Msg: "the game is stuck"}
}

// advance does what an idle judge does: presses the pedal where it
// advances, else lets the earliest timer run out.
func (r *runner) advance(p engine.Prompt, line int) *RunError {
	if p.Pedal {
		if _, err := r.apply(engine.Pedal(engine.PedalShort)); err != nil {
			return refused(line, err)
		}
		return nil
	}
	if len(r.timers) == 0 {
		return &RunError{Line: line, Msg: fmt.Sprintf("the game waits for input in step %s and has no timer", p.Step)}
	}
	var best engine.TimerID
	bestAt := -1
	for id, at := range r.timers {
		if bestAt < 0 || at < bestAt || (at == bestAt && id < best) {
			best, bestAt = id, at
		}
	}
	r.now = bestAt
	if _, err := r.apply(engine.TimerExpired(best)); err != nil {
		return refused(line, err)
	}
	return nil
}

func (r *runner) apply(in engine.Input) ([]engine.Effect, error) {
	effs, err := r.g.Apply(in)
	if err != nil {
		return nil, err
	}
	if in.Kind == engine.InTimer {
		delete(r.timers, in.Timer)
	}
	r.observe(effs)
	return effs, nil
}

func intp(n int) *int { return &n }

func (r *runner) observe(effs []engine.Effect) {
	for _, e := range effs {
		switch e.Kind {
		case engine.EffTimerStart:
			r.timers[e.Timer] = r.now + e.Seconds
		case engine.EffTimerCancel:
			delete(r.timers, e.Timer)
		case engine.EffSay, engine.EffCue:
			text, err := r.cat.Render(e.Line, e.Args)
			if err != nil {
				text = "?" + err.Error()
			}
			typ := "say"
			ev := Event{Type: typ, Line: e.Line, Text: text, At: r.now}
			if e.Kind == engine.EffCue {
				ev.Type, ev.Seat = "cue", intp(e.Seat)
			}
			r.events = append(r.events, ev)
		case engine.EffLight:
			r.events = append(r.events, Event{Type: "light", Seat: intp(e.Seat), State: e.Light.String(), Pulse: e.Pulse, At: r.now})
		case engine.EffPause, engine.EffResume:
			t := "pause"
			if e.Kind == engine.EffResume {
				t = "resume"
			}
			r.events = append(r.events, Event{Type: t, At: r.now})
		case engine.EffRecord:
			r.events = append(r.events, r.recordEvent(e.Record))
		}
	}
}

func (r *runner) recordEvent(rec *engine.Record) Event {
	ev := Event{Type: string(rec.Type), At: r.now}
	switch rec.Type {
	case engine.RecPhase:
		ev.Phase = rec.When
	case engine.RecDeath:
		ev.Seat, ev.Cause, ev.When = intp(rec.Seat), string(rec.Cause), rec.When
		r.deaths = append(r.deaths, *rec)
	case engine.RecVote:
		ev.Kind, ev.Day = rec.Kind, rec.Day
		ev.votes, ev.tally = rec.Ballots.Votes, rec.Ballots.Tally
		for _, v := range rec.Ballots.Votes {
			ev.Votes = append(ev.Votes, seatValue{v.Voter, v.Target})
		}
		for _, t := range rec.Ballots.Tally {
			ev.Tally = append(ev.Tally, seatValue{t.Seat, halves(t.Halves)})
		}
	case engine.RecSheriff:
		ev.Seat = intp(rec.Seat)
	case engine.RecCheck:
		ev.By, ev.Target, ev.Result = rec.By, intp(rec.Target), rec.Result
		r.checks = append(r.checks, *rec)
	case engine.RecExile:
		ev.Day, ev.Seat = rec.Day, intp(rec.Seat)
		r.exiles = append(r.exiles, *rec)
	case engine.RecReveal, engine.RecRole:
		ev.Seat, ev.Role = intp(rec.Seat), r.g.Board().Options.CardName(rec.Role) // 白痴 on 白痴 boards
	case engine.RecSpeech:
		ev.Day, ev.Kind, ev.Seat = rec.Day, rec.Kind, intp(rec.Seat)
	case engine.RecResult:
		ev.Winner = engine.Winner(rec.Result)
	case engine.RecPenalty:
		ev.Seat, ev.Points = intp(rec.Seat), rec.Points
	case engine.RecAction:
		ev.What, ev.By, ev.Target, ev.When = rec.Kind, rec.By, intp(rec.Target), rec.When
		ev.Result = rec.Result // 黑市商人's trade: the gift (glasses, poison, gun); 盜賊: the buried card
		if rec.Role != "" {    // the thief's kept card, and its buried one, as the board names them
			o := &r.g.Board().Options
			ev.Role, ev.Result = o.CardName(rec.Role), o.CardNameOf(rec.Result)
		}
	case engine.RecSilence:
		ev.Day, ev.Seat = rec.Day, intp(rec.Seat)
		r.silences = append(r.silences, *rec)
	case engine.RecRoar:
		roared := rec.Result == "是"
		ev.Day, ev.Roared = rec.Day, &roared
		r.roars = append(r.roars, *rec)
	case engine.RecFollow:
		ev.Seat, ev.Target, ev.Kind, ev.Result = intp(rec.Seat), intp(rec.Target), rec.Kind, rec.Result
		r.follows = append(r.follows, *rec)
	case engine.RecLovers:
		ev.Seats = []int{rec.Seat, rec.Target}
		r.lovers = append(r.lovers, *rec)
	}
	return ev
}

type seatValue struct {
	seat  int
	value any
}

// seatMap is a JSON object keyed by seat number, in seat order.
type seatMap []seatValue

// MarshalJSON writes {"1":3,"2":7} with the seats in ascending order.
func (m seatMap) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, kv := range m {
		if i > 0 {
			b = append(b, ',')
		}
		v, err := json.Marshal(kv.value)
		if err != nil {
			return nil, err
		}
		b = append(b, fmt.Sprintf("%q:", fmt.Sprint(kv.seat))...)
		b = append(b, v...)
	}
	return append(b, '}'), nil
}

// halves renders a half-vote count: 3 → 1.5, 4 → 2.
func halves(h int) any {
	if h%2 == 0 {
		return h / 2
	}
	return float64(h) / 2
}

func (r *runner) seatInputs(d Decision, ins ...engine.Input) *RunError {
	for _, in := range ins {
		if _, err := r.apply(in); err != nil {
			return refused(d.Line, err)
		}
	}
	return nil
}

// decide applies one decision to the next step of the section that takes
// it, advancing the game (pedal, timers) until then.
func (r *runner) decide(sec Section, d Decision) (*Decision, *RunError) {
	for i := 0; i < maxSteps; i++ {
		p := r.g.Awaiting()
		if p.Over {
			return nil, nil
		}
		if !r.inSection(p, sec) {
			return nil, &RunError{Line: d.Line, Msg: fmt.Sprintf("%q could not be applied: %s ended first%s", d.Text, sec, r.why(d))}
		}
		done, follow, e := r.try(p, d)
		if e != nil || done {
			return follow, e
		}
		if e := r.advance(p, d.Line); e != nil {
			return nil, e
		}
	}
	return nil, &RunError{Line: d.Line, Msg: "the game is stuck"}
}

// nightKindOf is the night step a decision of the role is for: its first
// step, or the one its word picks (石像鬼 刀: StepInfo.Word); ok is false
// for a word that picks a step of another role only.
func nightKindOf(role engine.Role, w string) (engine.StepKind, bool) {
	steps := role.Info().Steps
	for _, st := range steps {
		if w != "" && st.Word == w {
			return st.Kind, true
		}
	}
	if len(steps) == 0 {
		return engine.StepKind(role), !stepWord(w)
	}
	return steps[0].Kind, !stepWord(w)
}

// stepWord: w picks a step among its role's several (StepInfo.Word), so
// it is no key of the step.
func stepWord(w string) bool {
	for _, ri := range engine.Roles() {
		for _, st := range ri.Steps {
			if w != "" && st.Word == w {
				return true
			}
		}
	}
	return false
}

// rolesWith names the roles of the table with a trait (騎士 for Duels).
func rolesWith(trait func(engine.RoleInfo) bool) string {
	var names []string
	for _, ri := range engine.Roles() {
		if trait(ri) {
			names = append(names, ri.Name)
		}
	}
	return strings.Join(names, "/")
}

// statusStep is the night step whose actor holds the status named name
// (幸運兒), from the role table (StepInfo.Status).
func statusStep(name string) engine.StepKind {
	for _, ri := range engine.Roles() {
		for _, st := range ri.Steps {
			if st.Status == name {
				return st.Kind
			}
		}
	}
	return ""
}

// try applies d if the current step takes it.
func (r *runner) try(p engine.Prompt, d Decision) (bool, *Decision, *RunError) {
	target := func(seat, t int) engine.Input { return engine.SeatTarget(seat, t) }
	gesture := engine.SeatGesture
	fail := func(format string, a ...any) (bool, *Decision, *RunError) {
		return false, nil, &RunError{Line: d.Line, Msg: fmt.Sprintf(format, a...)}
	}
	ok := func(e *RunError) (bool, *Decision, *RunError) { return e == nil, nil, e }
	switch d.Kind {
	case KClock:
		_, err := r.apply(engine.Clock(d.Hour, d.Minute))
		if err != nil {
			return false, nil, refused(d.Line, err)
		}
		return true, nil, nil
	case KDQ:
		return ok(r.seatInputs(d, engine.Judge(engine.JudgeDQ, d.Seats[0], 0)))
	case KPenalty:
		return ok(r.seatInputs(d, engine.Judge(engine.JudgePenalty, d.Seats[0], d.Points)))
	case KVoid:
		return ok(r.seatInputs(d, engine.Judge(engine.JudgeVoid, 0, 0)))
	case KReveal:
		if p.Step != engine.WaitPrince {
			return false, nil, nil
		}
		return ok(r.seatInputs(d, gesture(d.Seats[0], engine.ActBoom)))
	case KNight:
		kind, ok1 := nightKindOf(d.Role, d.Word)
		if !ok1 {
			return fail("%s takes no %s", d.Role.Name(), d.Word)
		}
		if p.Step == engine.WaitNight && p.StepKind == kind && !p.Input && !r.laterStep(p, kind) {
			return fail("%s only opens and closes its eyes in this step", d.Role.Name())
		}
		if p.Step != engine.WaitNight || p.StepKind != kind || !p.Input {
			return false, nil, nil
		}
		if len(p.Actors) == 0 {
			return fail("no living %s acts tonight", d.Role.Name())
		}
		return ok(r.nightKeys(p, d))
	case KLucky:
		if p.Step != engine.WaitNight || p.StepKind != statusStep("幸運兒") {
			return false, nil, nil
		}
		if !p.Input || len(p.Actors) == 0 {
			return fail("幸運兒 has nothing to use in this step (no gift yet, or none usable tonight)")
		}
		want := map[string]string{"驗": "glasses", "毒": "poison"}[d.Word]
		if _, gift, _ := r.g.Lucky(); gift != want {
			return fail("幸運兒 %s %d: the lucky one's gift is %q", d.Word, d.Seats[0], gift)
		}
		return ok(r.seatInputs(d, target(p.Actors[0], d.Seats[0])))
	case KSignup, KWithdraw:
		want := engine.WaitSignup
		if d.Kind == KWithdraw {
			want = engine.WaitWithdraw
		}
		if p.Step != want {
			return false, nil, nil
		}
		var ins []engine.Input
		for _, s := range d.Seats {
			ins = append(ins, gesture(s, engine.ActHand))
		}
		return ok(r.seatInputs(d, ins...))
	case KVote:
		if p.Step != engine.WaitVote || p.VoteKind != d.VoteKind {
			return false, nil, nil
		}
		var ins []engine.Input
		for _, v := range d.Votes {
			ins = append(ins, target(v.Voter, v.Target))
		}
		return ok(r.seatInputs(d, ins...))
	case KSkill:
		if p.Step != engine.WaitSkill || p.Seat != d.Seats[0] {
			return false, nil, nil
		}
		if d.Word == "不發動" {
			return ok(r.seatInputs(d, gesture(p.Seat, engine.ActWave)))
		}
		// the skill is used (UP: "請選擇目標"), then the target
		return ok(r.seatInputs(d, gesture(p.Seat, engine.ActUp), target(p.Seat, d.Seats[1])))
	case KBadge:
		if p.Step != engine.WaitBadge {
			return false, nil, nil
		}
		if d.Word == "撕毀" {
			return ok(r.seatInputs(d, gesture(p.Seat, engine.ActDown)))
		}
		return ok(r.seatInputs(d, target(p.Seat, d.Seats[0])))
	case KOrder:
		if p.Step != engine.WaitOrder {
			return false, nil, nil
		}
		a := engine.ActUp
		if d.Word == "逆" {
			a = engine.ActDown
		}
		return ok(r.seatInputs(d, gesture(p.Seat, a)))
	case KGuide:
		if p.Step != engine.WaitGuide {
			return false, nil, nil
		}
		if d.Word == "不歸" {
			return ok(r.seatInputs(d, gesture(p.Seat, engine.ActWave)))
		}
		var ins []engine.Input
		for _, s := range d.Seats {
			ins = append(ins, target(p.Seat, s))
		}
		return ok(r.seatInputs(d, ins...))
	case KExplode:
		if ri := r.g.RoleOf(d.Seats[0]).Info(); len(d.Seats) == 2 && !ri.Takes {
			return fail("自爆 %d 帶走 %d: seat %d is %s, not %s", d.Seats[0], d.Seats[1], d.Seats[0], r.g.RoleOf(d.Seats[0]).Name(), rolesWith(func(ri engine.RoleInfo) bool { return ri.Takes }))
		}
		inWindow := p.Step == engine.WaitExplode || ((p.Step == engine.WaitSpeech || p.Step == engine.WaitWithdraw) && p.Window != engine.NoWindow && (d.Window == "" || engine.Window(d.Window) == p.Window))
		// explode.windows: last words (@遺言), the sheriff's order and 歸票 (@白天)
		switch {
		case d.Window == windowLastWords:
			inWindow = p.Step == engine.WaitSpeech && p.SpeechKind == engine.SpeechLastWords && p.Window != engine.NoWindow
		case p.Step == engine.WaitOrder || p.Step == engine.WaitGuide:
			inWindow = p.Window != engine.NoWindow && (d.Window == "" || engine.Window(d.Window) == p.Window)
		}
		if !inWindow {
			return false, nil, nil
		}
		if e := r.seatInputs(d, gesture(d.Seats[0], engine.ActBoom)); e != nil {
			return false, nil, e
		}
		if len(d.Seats) == 2 {
			return true, &Decision{Line: d.Line, Kind: KTake, Seats: d.Seats, Text: d.Text}, nil
		}
		return true, nil, nil
	case KTake:
		if p.Step != engine.WaitTake || p.Seat != d.Seats[0] {
			return false, nil, nil
		}
		return ok(r.seatInputs(d, target(p.Seat, d.Seats[1])))
	case KInterject:
		// the idiot's guarded key during another player's speech; the
		// judge's next pedal (the runner's, as an idle judge) grants it
		if p.Step != engine.WaitSpeech || p.Seat == d.Seats[0] {
			return false, nil, nil
		}
		return ok(r.seatInputs(d, gesture(d.Seats[0], engine.ActBoom)))
	case KDuel:
		if role := r.g.RoleOf(d.Seats[0]); !role.Info().Duels {
			return fail("決鬥: seat %d is %s, not %s", d.Seats[0], role.Name(), rolesWith(func(ri engine.RoleInfo) bool { return ri.Duels }))
		}
		if p.Step != engine.WaitSpeech || p.Window != engine.WindowExile {
			return false, nil, nil
		}
		return ok(r.seatInputs(d, gesture(d.Seats[0], engine.ActBoom), target(d.Seats[0], d.Seats[1])))
	}
	return fail("unknown decision")
}

// laterStep: another step of the same kind that takes input comes later
// tonight (石像鬼 opens first on night 1 and checks last).
func (r *runner) laterStep(p engine.Prompt, kind engine.StepKind) bool {
	steps := r.g.Board().StepsFor(p.Night)
	seen := false
	for _, st := range steps {
		if st.Kind == kind && st.OpenOnly && !seen {
			seen = true
			continue
		}
		if seen && st.Kind == kind && !st.OpenOnly {
			return true
		}
	}
	return false
}

// why explains a decision the section ended before: the window it needs
// never opened (for the judge reading the error).
func (r *runner) why(d Decision) string {
	switch d.Kind {
	case KTake:
		return fmt.Sprintf(" (seat %d had no 帶走: a white wolf king poisoned last night who explodes in the election has no skill)", d.Seats[0])
	case KSkill:
		v := r.g.Seat(d.Seats[0])
		if !v.Out {
			return fmt.Sprintf(" (seat %d is not out, so it was never asked for a skill)", d.Seats[0])
		}
		return fmt.Sprintf(" (seat %d went out by %s: no skill window)", d.Seats[0], causes(v.Causes))
	case KBadge:
		return " (no sheriff left the game in this section)"
	case KExplode:
		windows := ""
		if r.g != nil {
			windows = r.g.Board().Options.ExplodeWindows
		}
		switch windows {
		case "any_speech":
			return " (no explosion window came: election speeches, 退水, exile-day speeches, last words)"
		case "any_but_vote":
			return " (no explosion window came: election speeches, 退水, exile-day speeches, last words, the sheriff's order and 歸票)"
		}
		return " (no explosion window came: election speeches, 退水, exile-day speeches)"
	case KDuel:
		return " (no explosion window came: election speeches, 退水, exile-day speeches)"
	case KInterject:
		return " (no other player's speech came)"
	case KVote:
		return fmt.Sprintf(" (no %s vote came in this section)", d.VoteKind)
	case KSignup:
		return " (no sheriff sign-up came in this section)"
	case KWithdraw:
		return " (no 退水 window came in this section)"
	case KOrder:
		return " (no speaking-order choice came in this section: no sheriff)"
	case KReveal:
		return " (no 翻牌 window came in this section)"
	}
	return ""
}

// someSeat is a seat a disagreeing wolf points at: any present seat the
// wolf may knife other than the first wolf's choice (an empty knife).
func (r *runner) someSeat(wolf int) int {
	for s := 1; s <= r.g.Players(); s++ {
		v := r.g.Seat(s)
		if !v.Out && s != wolf && !v.Role.Info().NoKnife {
			return s
		}
	}
	return wolf
}

func (r *runner) expectations() []Failure {
	var out []Failure
	g := r.g
	for _, e := range r.f.Expects {
		failf := func(format string, a ...any) {
			out = append(out, Failure{Line: e.Line, Msg: fmt.Sprintf("%s: %s", e.Text, fmt.Sprintf(format, a...))})
		}
		seat := func(i int) int { n, _ := seatNum(e.Args[i]); return n }
		switch e.What {
		case "winner":
			if want, _ := winnerOf(e.Args[0]); resultOf(g) != want {
				failf("winner is %s", winnerWord(resultOf(g)))
			}
		case "dead", "alive":
			for i := range e.Args {
				s := seat(i)
				if s < 1 || s > g.Players() {
					failf("no seat %d", s)
					continue
				}
				v := g.Seat(s)
				dead := v.Out || v.Dying
				if e.What == "dead" && !dead {
					failf("seat %d is alive", s)
				}
				if e.What == "alive" && dead {
					failf("seat %d is out (%s)", s, causes(v.Causes))
				}
			}
		case "sheriff":
			if got := g.Sheriff(); got != seat(0) {
				failf("sheriff is %d", got)
			}
		case "death":
			s, c := seat(0), engine.Cause(e.Args[1])
			found := false
			for _, d := range r.deaths {
				if d.Seat == s && d.Cause == c {
					found = true
				}
			}
			if v := g.Seat(s); v.Dying {
				for _, x := range v.Causes {
					if x == c {
						found = true
					}
				}
			}
			if !found {
				failf("seat %d did not die of %s (%s)", s, c, causes(g.Seat(s).Causes))
			}
		case "check":
			by, t, res := seat(0), seat(1), e.Args[2]
			found := false
			var got []string
			for _, c := range r.checks {
				if c.By == by && c.Target == t {
					got = append(got, c.Result)
					if c.Result == res || (res == "狼人" && c.Result == "狼人") {
						found = true
					}
				}
			}
			if !found {
				failf("checks by %d on %d: %v", by, t, got)
			}
		case "lines", "no-line":
			if msg := r.expectLines(e); msg != "" {
				failf("%s", msg)
			}
		case "role":
			if msg := r.expectRole(e); msg != "" {
				failf("%s", msg)
			}
		case "roar":
			day, want := seat(0), e.Args[1]
			var got []string
			for _, x := range r.roars {
				if x.Day == day {
					got = append(got, x.Result)
				}
			}
			if len(got) != 1 || got[0] != want {
				failf("roars on day %d: %v", day, got)
			}
		case "follow":
			s := seat(0)
			var got []string
			for _, x := range r.follows {
				if x.Seat == s {
					got = append(got, x.Result)
				}
			}
			if len(got) != 1 || got[0] != e.Args[1] {
				failf("follower %d's results: %v", s, got)
			}
		case "lovers":
			a, b := seat(0), seat(1)
			found := false
			var got [][2]int
			for _, l := range r.lovers {
				got = append(got, [2]int{l.Seat, l.Target})
				if (l.Seat == a && l.Target == b) || (l.Seat == b && l.Target == a) {
					found = true
				}
			}
			if !found {
				failf("lovers: %v", got)
			}
		case "exile":
			day, s := seat(0), seat(1)
			found, got := false, -1
			for _, x := range r.exiles {
				if x.Day == day {
					got = x.Seat
					if x.Seat == s {
						found = true
					}
				}
			}
			if !found && s == 0 && got < 0 && r.dayEnded(day) {
				found = true // the day ended without an exile vote (an explosion, a duel)
			}
			if !found {
				if got < 0 {
					failf("no exile vote ended on day %d", day)
				} else {
					failf("day %d exiled %d", day, got)
				}
			}
		case "silenced":
			day, s := seat(0), seat(1)
			var got []int
			for _, x := range r.silences {
				if x.Day == day {
					got = append(got, x.Seat)
				}
			}
			if !(len(got) == 1 && got[0] == s) && !(s == 0 && len(got) == 0) {
				failf("silenced on day %d: %v", day, got)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// expectRole: the card a seat plays at the end (the thief's pick).
func (r *runner) expectRole(e Expect) string {
	s, _ := seatNum(e.Args[0])
	want, _ := engine.LookupRole(e.Args[1])
	if s < 1 || s > r.g.Players() {
		return fmt.Sprintf("no seat %d", s)
	}
	if got := r.g.RoleOf(s); got != want.ID {
		return fmt.Sprintf("seat %d plays %s", s, got.Name())
	}
	return ""
}

// dealProblem checks the header's cards against the board: roles (one a
// seat) and bottom together must be the board's cards ("" = they are).
func dealProblem(b *engine.Board, f *File) string {
	if len(f.Roles) != b.Players {
		return fmt.Sprintf("roles lists %d cards; board %s has %d seats", len(f.Roles), b.ID, b.Players)
	}
	if len(f.Bottom) != b.Bottom() {
		if b.Bottom() > 0 {
			return fmt.Sprintf("board %s leaves %d bottom cards: write them on a `bottom` line (roles + bottom = the board's %d cards); bottom lists %d", b.ID, b.Bottom(), len(b.Cards()), len(f.Bottom))
		}
		return fmt.Sprintf("board %s has no bottom cards: remove the `bottom` line", b.ID)
	}
	want := map[engine.Role]int{}
	cards := b.Cards()
	for _, c := range cards {
		want[c]++
	}
	for _, c := range append(append([]engine.Role(nil), f.Roles...), f.Bottom...) {
		want[c]--
	}
	var extra, missing []string
	for _, c := range cards {
		if n := want[c]; n > 0 {
			missing = append(missing, fmt.Sprintf("%s×%d", c.Name(), n))
		} else if n < 0 {
			extra = append(extra, fmt.Sprintf("%s×%d", c.Name(), -n))
		}
		want[c] = 0
	}
	for c, n := range want {
		if n < 0 {
			extra = append(extra, fmt.Sprintf("%s×%d", c.Name(), -n))
		}
	}
	if len(extra) == 0 && len(missing) == 0 {
		return ""
	}
	sort.Strings(extra)
	return fmt.Sprintf("roles + bottom are not the cards of board %s: missing %s; not on the board %s", b.ID, strings.Join(orNone(missing), " "), strings.Join(orNone(extra), " "))
}

func orNone(a []string) []string {
	if len(a) == 0 {
		return []string{"none"}
	}
	return a
}

func roleNames(rs []engine.Role) string {
	var s []string
	for _, x := range rs {
		s = append(s, x.Name())
	}
	return strings.Join(s, " ")
}

// dayEnded: night day+1 began or the game ended after day started.
func (r *runner) dayEnded(day int) bool {
	p := r.g.Awaiting()
	return p.Night > day || (p.Over && p.Day == day)
}

func causes(c []engine.Cause) string {
	var s []string
	for _, x := range c {
		s = append(s, string(x))
	}
	if len(s) == 0 {
		return "alive"
	}
	return strings.Join(s, ",")
}
