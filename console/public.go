package console

import (
	"time"

	"wolftable/daemon"
	"wolftable/engine"
)

// What is public (doc.go "The public view"). publicFacts is the one place
// that decides it: the public view is built from its facts alone and never
// sees the deal, the cues, the seats' inputs or the night's records.

// publicCauses are the causes everyone at the table witnessed: announced by
// day (or a DQ, announced at once). A night death is shown without its
// cause: "wolf" or "poison" would tell whether the witch acted.
var publicCauses = map[engine.Cause]bool{
	engine.CauseExile: true, engine.CauseExplode: true, engine.CauseDuel: true, engine.CauseDQ: true,
	engine.CauseTaken: true, engine.CauseShot: true, engine.CauseCharm: true,
}

type factKind uint8

const (
	factSay factKind = iota
	factLight
	factTimerStart
	factTimerStop
	factPause
	factResume
	factPhase
	factDeath
	factVote
	factSheriff
	factExile
	factReveal
	factResult
)

// publicFact is something everyone at the table sees or hears.
type publicFact struct {
	kind    factKind
	at      time.Time
	text    string // say: the line as spoken
	seat    int
	light   engine.Light
	pulse   bool
	timer   engine.TimerID
	seconds int
	when    string       // phase; a death's night or day
	cause   engine.Cause // death: only a public cause, else ""
	day     int
	vote    *VoteView
	role    engine.Role // reveal: the card the seat turned over
	result  string
}

// publicFacts is what an event of the daemon shows everyone.
func publicFacts(e daemon.Event) []publicFact {
	if in := e.Input; in != nil {
		if in.Kind == engine.InTimer && e.Err == nil {
			return []publicFact{{kind: factTimerStop, at: e.At, timer: in.Timer}}
		}
		return nil // seats' inputs, refused inputs, the judge's commands: the voice and lights tell what follows
	}
	x := e.Effect
	if x == nil {
		return nil // link state
	}
	f := publicFact{at: e.At}
	switch x.Kind {
	case engine.EffSay:
		f.kind, f.text = factSay, e.Text
	case engine.EffLight:
		f.kind, f.seat, f.light, f.pulse = factLight, x.Seat, x.Light, x.Pulse
	case engine.EffTimerStart:
		f.kind, f.timer, f.seconds = factTimerStart, x.Timer, x.Seconds
	case engine.EffTimerCancel:
		f.kind, f.timer = factTimerStop, x.Timer
	case engine.EffPause:
		f.kind = factPause
	case engine.EffResume:
		f.kind = factResume
	case engine.EffRecord:
		r := x.Record
		if r == nil {
			return nil
		}
		switch r.Type {
		case engine.RecPhase:
			f.kind, f.when = factPhase, r.When
		case engine.RecDeath:
			f.kind, f.seat, f.when = factDeath, r.Seat, r.When
			if publicCauses[r.Cause] {
				f.cause = r.Cause
			}
		case engine.RecVote:
			f.kind, f.vote = factVote, voteView(r)
		case engine.RecSheriff:
			f.kind, f.seat = factSheriff, r.Seat
		case engine.RecExile:
			f.kind, f.seat, f.day = factExile, r.Seat, r.Day
		case engine.RecReveal:
			f.kind, f.seat, f.role = factReveal, r.Seat, r.Role
		case engine.RecResult:
			f.kind, f.result = factResult, r.Result
		default:
			return nil // check, action, speech, penalty: the judge's record only
		}
	default:
		return nil // cues are the judge's
	}
	return []publicFact{f}
}

// PublicState is the public view: GET /api/public/state and the public
// live stream.
type PublicState struct {
	Version    uint64         `json:"version"`
	Now        time.Time      `json:"now"`
	Rate       float64        `json:"rate"` // game seconds per second
	Game       *PublicGame    `json:"game"`
	Phase      string         `json:"phase"`
	PhaseLabel string         `json:"phase_label"`
	Seats      []PublicSeat   `json:"seats"`
	Sheriff    int            `json:"sheriff"`
	Paused     bool           `json:"paused"`
	Timer      *TimerView     `json:"timer"` // by day only
	Line       string         `json:"line"`  // the line being spoken
	Lines      []string       `json:"lines"` // the last lines spoken, newest last
	Deaths     []PublicDeath  `json:"deaths"`
	Exiles     []PublicExile  `json:"exiles"`
	Votes      []VoteView     `json:"votes"`
	Reveals    []PublicReveal `json:"reveals"`
	Result     string         `json:"result"`
	Ended      bool           `json:"ended"`
	Notice     string         `json:"notice,omitempty"`
}

// PublicGame is the board being played.
type PublicGame struct {
	Board   string `json:"board"`
	Name    string `json:"name"`
	Players int    `json:"players"`
}

// PublicSeat is a seat as everyone sees it.
type PublicSeat struct {
	Seat    int    `json:"seat"`
	Light   string `json:"light"`
	Pulse   bool   `json:"pulse"`
	Out     bool   `json:"out"`
	Sheriff bool   `json:"sheriff"`
	Name    string `json:"name,omitempty"` // the drawn player, once the game has started
}

// PublicDeath is a seat announced out: Cause only when public.
type PublicDeath struct {
	Seat       int    `json:"seat"`
	When       string `json:"when"`
	WhenLabel  string `json:"when_label"`
	Cause      string `json:"cause,omitempty"`
	CauseLabel string `json:"cause_label,omitempty"`
}

// PublicExile is a day's exile result (Seat 0 = nobody).
type PublicExile struct {
	Day  int `json:"day"`
	Seat int `json:"seat"`
}

// PublicReveal is a card turned over in front of everyone (愚者, 定序王子,
// 血月使徒): the voice says it.
type PublicReveal struct {
	Seat     int    `json:"seat"`
	RoleName string `json:"role_name"`
}

// VoteView is a vote with its 票型 and tally (votes, not half-votes).
type VoteView struct {
	Kind    string       `json:"kind"`
	Label   string       `json:"label"`
	Day     int          `json:"day"`
	Ballots []BallotView `json:"ballots"`
	Tally   []TallyView  `json:"tally"`
}

// BallotView is one voter's ballot: Target 0 = abstained (or not yet voted).
type BallotView struct {
	Voter  int `json:"voter"`
	Target int `json:"target"`
}

// TallyView is a candidate's votes (the sheriff's weigh 1.5 by default).
type TallyView struct {
	Seat  int     `json:"seat"`
	Votes float64 `json:"votes"`
}

func voteView(r *engine.Record) *VoteView {
	v := &VoteView{Kind: r.Kind, Label: voteLabel(r.Kind), Day: r.Day, Ballots: []BallotView{}, Tally: []TallyView{}}
	if r.Ballots != nil {
		for _, b := range r.Ballots.Votes {
			v.Ballots = append(v.Ballots, BallotView{Voter: b.Voter, Target: b.Target})
		}
		for _, t := range r.Ballots.Tally {
			v.Tally = append(v.Tally, TallyView{Seat: t.Seat, Votes: float64(t.Halves) / 2})
		}
	}
	return v
}

const publicLines = 40

// publicModel is the public view, built from public facts only.
type publicModel struct {
	game    *PublicGame
	phase   string
	seats   []PublicSeat
	sheriff int
	timers  timerSet
	lines   []string
	deaths  []PublicDeath
	exiles  []PublicExile
	votes   []VoteView
	reveals []PublicReveal
	result  string
	ended   bool
	notice  string
	names   []string // the seat draw's names by seat (none: no draw)
	started bool     // a fact of the game came: the names are shown
}

// begin resets the view for a new game: only the board is public.
func (p *publicModel) begin(b *engine.Board) {
	*p = publicModel{game: &PublicGame{Board: b.ID, Name: b.Name, Players: b.Players}}
	p.seats = make([]PublicSeat, b.Players)
	for i := range p.seats {
		p.seats[i] = PublicSeat{Seat: i + 1, Light: engine.LightOff.String()}
	}
}

func (p *publicModel) seat(n int) *PublicSeat {
	if n < 1 || n > len(p.seats) {
		return nil
	}
	return &p.seats[n-1]
}

// apply changes the view by one public fact and reports whether anything
// shown changed: the public stream sends a message only then (A15: a fact
// that changes nothing shown — a night step's timer — sends nothing).
func (p *publicModel) apply(f publicFact, speed float64) (changed bool) {
	if !p.started && p.game != nil {
		p.started = true // the daemon runs the game: its seats' names are public
		defer func() { changed = changed || len(p.names) > 0 }()
	}
	switch f.kind {
	case factSay:
		p.lines = append(p.lines, f.text)
		if len(p.lines) > publicLines {
			p.lines = append([]string(nil), p.lines[len(p.lines)-publicLines:]...)
		}
	case factLight:
		s := p.seat(f.seat)
		if s == nil || (s.Light == f.light.String() && s.Pulse == f.pulse) {
			return false
		}
		s.Light, s.Pulse = f.light.String(), f.pulse
	case factTimerStart:
		// A night step's timers would tell when a role has acted (A15): by
		// day only, when everyone sees the speeches and votes run.
		if isNight(p.phase) {
			return false
		}
		p.timers.start(f.timer, f.seconds, f.at, speed)
	case factTimerStop:
		if _, ok := p.timers.m[f.timer]; !ok {
			return false
		}
		p.timers.stop(f.timer)
	case factPause:
		if p.timers.paused {
			return false
		}
		p.timers.pause(f.at, speed)
	case factResume:
		if !p.timers.paused {
			return false
		}
		p.timers.resume(f.at, speed)
	case factPhase:
		p.phase = f.when
		p.timers.m = nil
	case factDeath:
		for _, d := range p.deaths {
			if d.Seat == f.seat {
				return false // one entry per seat: a second cause would tell more than was said
			}
		}
		d := PublicDeath{Seat: f.seat, When: f.when, WhenLabel: phaseLabel(f.when)}
		if f.cause != "" {
			d.Cause, d.CauseLabel = string(f.cause), causeLabel(f.cause)
		}
		p.deaths = append(p.deaths, d)
		if s := p.seat(f.seat); s != nil {
			s.Out = true
		}
	case factVote:
		p.votes = append(p.votes, *f.vote)
	case factSheriff:
		p.sheriff = f.seat
	case factExile:
		p.exiles = append(p.exiles, PublicExile{Day: f.day, Seat: f.seat})
	case factReveal:
		p.reveals = append(p.reveals, PublicReveal{Seat: f.seat, RoleName: f.role.Name()})
	case factResult:
		p.result, p.ended = f.result, true
		p.timers.reset()
	default:
		return false
	}
	return true
}

func (p *publicModel) state(now time.Time, speed float64) PublicState {
	st := PublicState{
		Now: now, Rate: speed, Phase: p.phase, PhaseLabel: phaseLabel(p.phase), Sheriff: p.sheriff,
		Paused: p.timers.paused, Result: p.result, Ended: p.ended, Notice: p.notice,
		Seats: append([]PublicSeat{}, p.seats...), Lines: append([]string{}, p.lines...),
		Deaths: append([]PublicDeath{}, p.deaths...), Exiles: append([]PublicExile{}, p.exiles...),
		Votes: append([]VoteView{}, p.votes...), Reveals: append([]PublicReveal{}, p.reveals...),
	}
	if p.game != nil {
		g := *p.game
		st.Game = &g
	}
	for i := range st.Seats {
		st.Seats[i].Sheriff = st.Seats[i].Seat == p.sheriff
		if p.started && i < len(p.names) {
			st.Seats[i].Name = p.names[i]
		}
	}
	if n := len(p.lines); n > 0 {
		st.Line = p.lines[n-1]
	}
	if !isNight(p.phase) {
		st.Timer = mainTimer(p.timers.view(now, speed))
	}
	return st
}
