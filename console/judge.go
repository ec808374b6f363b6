package console

import (
	"slices"
	"strconv"
	"time"

	"wolftable/daemon"
	"wolftable/engine"
)

// probe is what the game waits for, read on the daemon's goroutine right
// after the event (the only goroutine that touches the game): the step,
// its actors, and each seat as the judge knows it (died tonight, revealed).
type probe struct {
	prompt  engine.Prompt
	seq     int
	seats   []engine.SeatView // index 0 is seat 1
	sheriff int
	paused  bool
	// the thief's pick (seat 0: none yet, or no thief)
	thief        int
	kept, buried engine.Role
	inputs       []engine.Input   // the step's seat inputs as the engine holds them
	status       map[int][]string // hidden statuses by seat (the lucky one's gift, 村長's lives)
}

func takeProbe(g *engine.Game) *probe {
	p := &probe{prompt: g.Awaiting(), seq: g.StepSeq(), sheriff: g.Sheriff(), paused: g.Paused(), inputs: g.StepInputs()}
	p.thief, p.kept, p.buried = g.ThiefPick()
	p.seats = make([]engine.SeatView, g.Players())
	for i := range p.seats {
		p.seats[i] = g.Seat(i + 1)
	}
	p.status = seatStatus(g)
	return p
}

// JudgeState is the god view: GET /api/judge/state and the judge's live
// stream. Only a logged-in judge ever gets it.
type JudgeState struct {
	Version    uint64        `json:"version"`
	Now        time.Time     `json:"now"`
	Rate       float64       `json:"rate"` // game seconds per second
	Game       *GameInfo     `json:"game"`
	Phase      string        `json:"phase"`
	PhaseLabel string        `json:"phase_label"`
	Step       *StepView     `json:"step"`
	Seats      []JudgeSeat   `json:"seats"`
	Sheriff    int           `json:"sheriff"`
	Paused     bool          `json:"paused"`
	Over       bool          `json:"over"`
	Result     string        `json:"result"`
	Timer      *TimerView    `json:"timer"` // the step's main timer
	Timers     []TimerView   `json:"timers"`
	Line       string        `json:"line"` // the line being spoken
	Lines      []LineView    `json:"lines"`
	Wake       *WakeView     `json:"wake"` // at night: whom the step wakes
	Cues       []CueView     `json:"cues"` // tonight's cues, newest last
	Inputs     []InputView   `json:"inputs"`
	LiveVote   *VoteView     `json:"live_vote"` // ballots as they are entered
	Votes      []VoteView    `json:"votes"`
	Deaths     []DeathView   `json:"deaths"`
	Records    []RecordView  `json:"records"`
	Refused    []RefusalView `json:"refused"`
	Link       *LinkView     `json:"link"`
	Notice     string        `json:"notice,omitempty"`
	// Dealt is a game dealt and waiting for the pedal (or the console's
	// 下一步, the same): nil when none waits (dealt.go).
	Dealt *GameInfo `json:"dealt"`
}

// GameInfo is the game being played: board, options, seed and deal.
type GameInfo struct {
	Board     string            `json:"board"`
	Name      string            `json:"name"`
	Players   int               `json:"players"`
	Seed      string            `json:"seed"` // a string: JavaScript numbers lose uint64 digits
	Manual    bool              `json:"manual"`
	Options   map[string]string `json:"options"`
	Deal      []DealSeat        `json:"deal"`
	Bottom    []DealCard        `json:"bottom"` // the bottom cards (底牌), none on most boards
	StartedAt time.Time         `json:"started_at"`
}

// DealSeat is a seat's role.
type DealSeat struct {
	Seat      int    `json:"seat"`
	Role      string `json:"role"`
	RoleName  string `json:"role_name"`
	Camp      string `json:"camp"`
	CampLabel string `json:"camp_label"`
}

// DealCard is a bottom card: a card dealt beyond the seats.
type DealCard struct {
	Role      string `json:"role"`
	RoleName  string `json:"role_name"`
	Camp      string `json:"camp"`
	CampLabel string `json:"camp_label"`
	// the thief's pick: Kept by seat Thief, or Buried
	Kept   bool `json:"kept,omitempty"`
	Buried bool `json:"buried,omitempty"`
	Thief  int  `json:"thief,omitempty"`
}

// StepView is what the game waits for (engine.Prompt).
type StepView struct {
	Step   string `json:"step"`
	Kind   string `json:"kind"`
	Label  string `json:"label"`
	Seat   int    `json:"seat"`
	Actors []int  `json:"actors"`
	Window string `json:"window"`
	Pedal  bool   `json:"pedal"`
	Input  bool   `json:"input"`
}

// JudgeSeat is a seat with its role and state.
type JudgeSeat struct {
	Seat     int      `json:"seat"`
	Role     string   `json:"role"`
	RoleName string   `json:"role_name"`
	Camp     string   `json:"camp"`
	Light    string   `json:"light"`
	Pulse    bool     `json:"pulse"`
	Out      bool     `json:"out"`
	Dying    bool     `json:"dying"` // died tonight, not announced yet
	Revealed bool     `json:"revealed"`
	Sheriff  bool     `json:"sheriff"`
	Causes   []string `json:"causes"`
	// DealtName is the card the seat was dealt when it now plays another
	// (the thief's kept card); "" otherwise.
	DealtName string   `json:"dealt_name,omitempty"`
	Status    []string `json:"status,omitempty"` // hidden statuses: 幸運兒's gift and its use, 村長's lives
	Model     int      `json:"model,omitempty"`  // 野孩子 / 混血兒: its model
	Plays     string   `json:"plays,omitempty"`  // the card it plays now when not the one dealt (a 野孩子 that turned)
	Lovers    []int    `json:"lovers"`           // the seats linked with it (情侶)
	Third     bool     `json:"third"`            // a member of a third camp (人狼戀): camp "third"
}

// LineView is a line said, or a cue (judge-only).
type LineView struct {
	At   time.Time `json:"at"`
	Text string    `json:"text"`
	Cue  bool      `json:"cue"`
}

// WakeView is whom the night step wakes.
type WakeView struct {
	Kind     string     `json:"kind"`
	RoleName string     `json:"role_name"`
	Seats    []WakeSeat `json:"seats"`
	Actors   []int      `json:"actors"` // the seats that act (alive)
}

// WakeSeat is a holder of the role woken.
type WakeSeat struct {
	Seat int  `json:"seat"`
	Out  bool `json:"out"`
}

// CueView is what to gesture to whom.
type CueView struct {
	At      time.Time `json:"at"`
	Seat    int       `json:"seat"`
	Line    string    `json:"line"`
	Text    string    `json:"text"`
	Gesture string    `json:"gesture"`
}

// InputView is a seat's input in the current step.
type InputView struct {
	Seat   int    `json:"seat"`
	Action string `json:"action"`
	Target int    `json:"target"`
	Label  string `json:"label"`
	Source string `json:"source"`
}

// DeathView is a seat out, with the cause.
type DeathView struct {
	Seat       int    `json:"seat"`
	Cause      string `json:"cause"`
	CauseLabel string `json:"cause_label"`
	When       string `json:"when"`
	WhenLabel  string `json:"when_label"`
}

// RecordView is an entry of the game record.
type RecordView struct {
	At   time.Time `json:"at"`
	Type string    `json:"type"`
	Text string    `json:"text"`
}

// RefusalView is an input the engine refused.
type RefusalView struct {
	At     time.Time `json:"at"`
	Source string    `json:"source"`
	Input  string    `json:"input"`
	Error  string    `json:"error"`
}

// LinkView is the link to the table's hardware.
type LinkView struct {
	Up     bool   `json:"up"`
	Detail string `json:"detail"`
}

const (
	judgeLines   = 80
	judgeRefused = 8
)

type recordEntry struct {
	at     time.Time
	rec    engine.Record
	source string // the input's ("seat-7"): the line names who fired a shot
}

type judgeSeat struct {
	light engine.Light
	pulse bool
}

// judgeModel is the god view, built from every event plus the deal.
type judgeModel struct {
	spec       *GameSpec
	started    time.Time
	phase      string
	seats      []judgeSeat
	probe      *probe
	timers     timerSet
	transcript []LineView // every line and cue, for the export
	cues       []CueView
	stepSeq    int
	inputs     []InputView
	votes      []VoteView
	deaths     []DeathView
	records    []recordEntry
	refused    []RefusalView
	link       *LinkView
	sheriff    int
	over       bool
	result     string
	notice     string
}

func (m *judgeModel) begin(spec GameSpec, at time.Time) {
	*m = judgeModel{spec: &spec, started: at}
	m.seats = make([]judgeSeat, spec.Board.Players)
}

func (m *judgeModel) apply(e daemon.Event, pr *probe, speed float64) {
	if l := e.Link; l != nil {
		m.link = &LinkView{Up: l.Up, Detail: l.Detail}
	}
	if in := e.Input; in != nil {
		switch {
		case e.Err != nil:
			if in.Kind != engine.InClock && e.Source != "bot" && e.Source != "bot-judge" && e.Source != "timer" {
				m.refused = append(m.refused, RefusalView{At: e.At, Source: e.Source, Input: describeInput(*in), Error: refusalText(e.Err)})
				if len(m.refused) > judgeRefused {
					m.refused = append([]RefusalView(nil), m.refused[len(m.refused)-judgeRefused:]...)
				}
			}
		case in.Kind == engine.InSeat:
			m.inputs = append(m.inputs, InputView{Seat: in.Seat, Action: actionNames[in.Action], Target: in.Target,
				Label: inputLabel(*in), Source: e.Source})
		case in.Kind == engine.InJudge && in.Judge == engine.JudgeUndo:
			if n := len(m.inputs); n > 0 {
				m.inputs = m.inputs[:n-1]
			}
			if pr != nil {
				// The engine replays the step's other inputs after an undo and
				// drops those that no longer apply (a target DQ'd since): the
				// list keeps what the engine kept, with who gave it.
				m.inputs = keptInputs(m.inputs, pr.inputs)
			}
		case in.Kind == engine.InTimer:
			m.timers.stop(in.Timer)
		}
	}
	if x := e.Effect; x != nil {
		switch x.Kind {
		case engine.EffSay:
			m.transcript = append(m.transcript, LineView{At: e.At, Text: e.Text})
		case engine.EffCue:
			m.transcript = append(m.transcript, LineView{At: e.At, Text: e.Text, Cue: true})
			m.cues = append(m.cues, CueView{At: e.At, Seat: x.Seat, Line: x.Line, Text: e.Text, Gesture: cueGesture(x.Line, x.Args)})
		case engine.EffLight:
			if x.Seat >= 1 && x.Seat <= len(m.seats) {
				m.seats[x.Seat-1] = judgeSeat{light: x.Light, pulse: x.Pulse}
			}
		case engine.EffTimerStart:
			m.timers.start(x.Timer, x.Seconds, e.At, speed)
		case engine.EffTimerCancel:
			m.timers.stop(x.Timer)
		case engine.EffPause:
			m.timers.pause(e.At, speed)
		case engine.EffResume:
			m.timers.resume(e.At, speed)
		case engine.EffRecord:
			if x.Record != nil {
				m.record(e.At, e.Source, x.Record)
			}
		}
	}
	if pr != nil {
		if pr.seq != m.stepSeq {
			m.stepSeq, m.inputs = pr.seq, nil
		}
		m.probe = pr
	}
}

func (m *judgeModel) record(at time.Time, source string, r *engine.Record) {
	m.records = append(m.records, recordEntry{at: at, rec: *r, source: source})
	switch r.Type {
	case engine.RecPhase:
		m.phase = r.When
		m.cues = nil
	case engine.RecDeath:
		m.deaths = append(m.deaths, DeathView{Seat: r.Seat, Cause: string(r.Cause), CauseLabel: causeLabel(r.Cause),
			When: r.When, WhenLabel: phaseLabel(r.When)})
	case engine.RecVote:
		m.votes = append(m.votes, *voteView(r))
	case engine.RecSheriff:
		m.sheriff = r.Seat
	case engine.RecResult:
		m.over, m.result = true, r.Result
		m.timers.reset()
	}
}

func campOf(r engine.Role) (string, string) {
	switch r.Camp() {
	case engine.CampWolf:
		return "wolf", "狼人陣營"
	case engine.CampVillager:
		return "villager", "平民"
	}
	return "god", "神民"
}

func gameInfo(spec *GameSpec, started time.Time) *GameInfo {
	b := spec.Board
	gi := &GameInfo{Board: b.ID, Name: b.Name, Players: b.Players, Seed: strconv.FormatUint(spec.Seed, 10),
		Manual: spec.Manual, Options: map[string]string{}, StartedAt: started, Deal: []DealSeat{}, Bottom: []DealCard{}}
	for _, k := range engine.OptionNames() {
		if v, ok := b.Options.Get(k); ok {
			gi.Options[k] = v
		}
	}
	for i, r := range spec.Deal {
		camp, label := campOf(r)
		gi.Deal = append(gi.Deal, DealSeat{Seat: i + 1, Role: string(r), RoleName: r.Name(), Camp: camp, CampLabel: label})
	}
	for _, r := range spec.Bottom {
		camp, label := campOf(r)
		gi.Bottom = append(gi.Bottom, DealCard{Role: string(r), RoleName: r.Name(), Camp: camp, CampLabel: label})
	}
	return gi
}

func (m *judgeModel) state(now time.Time, speed float64) JudgeState {
	st := JudgeState{Now: now, Rate: speed, Phase: m.phase, PhaseLabel: phaseLabel(m.phase), Over: m.over,
		Result: m.result, Notice: m.notice, Link: m.link, Sheriff: m.sheriff, Paused: m.timers.paused,
		Seats: []JudgeSeat{}, Lines: []LineView{}, Cues: append([]CueView{}, m.cues...),
		Inputs: append([]InputView{}, m.inputs...), Votes: append([]VoteView{}, m.votes...),
		Deaths: append([]DeathView{}, m.deaths...), Records: []RecordView{}, Refused: append([]RefusalView{}, m.refused...)}
	st.Timers = m.timers.view(now, speed)
	st.Timer = mainTimer(st.Timers)
	if m.spec == nil {
		return st
	}
	st.Game = gameInfo(m.spec, m.started)
	pr := m.probe
	if pr != nil && pr.thief > 0 {
		markThiefPick(st.Game.Bottom, pr.thief, pr.kept)
	}
	if pr != nil {
		st.Sheriff, st.Paused = pr.sheriff, pr.paused
	}
	st.Seats = m.seatViews(pr, st.Sheriff)
	m.addLines(&st)
	if pr != nil && !m.over && pr.prompt.Step != engine.StepName("") {
		p := pr.prompt
		st.Step = &StepView{Step: string(p.Step), Kind: p.Kind(), Label: stepLabel(p), Seat: p.Seat,
			Actors: append([]int{}, p.Actors...), Window: string(p.Window), Pedal: p.Pedal, Input: p.Input}
		if p.Step == engine.WaitNight {
			st.Wake = m.wake(p, pr)
		}
		if p.Step == engine.WaitVote {
			st.LiveVote = m.liveVote(p, pr)
		}
	}
	return st
}

// seatViews are the god view's seats.
func (m *judgeModel) seatViews(pr *probe, sheriff int) []JudgeSeat {
	seats := []JudgeSeat{}
	for i, r := range m.spec.Deal {
		s := JudgeSeat{Seat: i + 1, Role: string(r), RoleName: r.Name(), Causes: []string{}, Lovers: []int{}}
		s.Camp, _ = campOf(r)
		if i < len(m.seats) {
			s.Light, s.Pulse = m.seats[i].light.String(), m.seats[i].pulse
		}
		if pr != nil && i < len(pr.seats) {
			v := pr.seats[i]
			s.Out, s.Dying, s.Revealed = v.Out, v.Dying, v.Revealed
			if v.Role != "" && v.Role != r { // the thief's kept card
				s.DealtName = r.Name()
				s.Role, s.RoleName = string(v.Role), v.Role.Name()
				s.Camp, _ = campOf(v.Role)
			}
			s.Model = v.Model
			if v.Role != "" && v.Role != r {
				s.Plays = v.Role.Name()
			}
			s.Lovers, s.Third = append([]int{}, v.Lovers...), v.Third
			if v.Third {
				s.Camp = "third"
			}
			for _, c := range v.Causes {
				s.Causes = append(s.Causes, causeLabel(c))
			}
			s.Status = pr.status[s.Seat]
		} else {
			for _, d := range m.deaths {
				if d.Seat == s.Seat {
					s.Out = true
					s.Causes = append(s.Causes, d.CauseLabel)
				}
			}
		}
		s.Sheriff = s.Seat == sheriff && sheriff > 0
		seats = append(seats, s)
	}
	return seats
}

// addLines puts the transcript's last lines and the record in st.
func (m *judgeModel) addLines(st *JudgeState) {
	from := max(len(m.transcript)-judgeLines, 0)
	st.Lines = append(st.Lines, m.transcript[from:]...)
	for i := len(m.transcript) - 1; i >= 0; i-- {
		if !m.transcript[i].Cue {
			st.Line = m.transcript[i].Text
			break
		}
	}
	for i, text := range m.recordTexts() {
		r := &m.records[i]
		st.Records = append(st.Records, RecordView{At: r.at, Type: string(r.rec.Type), Text: text})
	}
}

// wake lists the holders of the role the night step wakes, dead or alive
// (every step is called for them alike, A15).
func (m *judgeModel) wake(p engine.Prompt, pr *probe) *WakeView {
	w := &WakeView{Kind: string(p.StepKind), RoleName: p.StepKind.Name(), Seats: []WakeSeat{}, Actors: append([]int{}, p.Actors...)}
	role, _ := p.StepKind.Role()
	si, _ := p.StepKind.Info()
	for i, r := range m.spec.Deal {
		var hold bool
		switch si.Wakes {
		case engine.WakesWolves:
			ri := r.Info()
			hold = ri.WakesWithWolves(0) // the role table: 石像鬼 never wakes with the wolves
		case engine.WakesLovers:
			hold = slices.Contains(p.Actors, i+1) || (i < len(pr.seats) && len(pr.seats[i].Lovers) > 0) // the lovers, not 丘比特
		default:
			hold = r == role
		}
		if hold {
			out := i < len(pr.seats) && (pr.seats[i].Out || pr.seats[i].Dying)
			w.Seats = append(w.Seats, WakeSeat{Seat: i + 1, Out: out})
		}
	}
	return w
}

// liveVote is the vote as entered so far: each voter's last ballot, and
// the tally with the sheriff's weight.
func (m *judgeModel) liveVote(p engine.Prompt, pr *probe) *VoteView {
	v := &VoteView{Kind: string(p.VoteKind), Label: voteLabel(string(p.VoteKind)), Ballots: []BallotView{}, Tally: []TallyView{}}
	ballot := map[int]int{}
	for _, in := range m.inputs {
		switch {
		case in.Action == "target" && in.Target > 0:
			ballot[in.Seat] = in.Target
		case in.Action == "target", in.Action == "wave":
			delete(ballot, in.Seat)
		}
	}
	halves := map[int]int{}
	weight := int(m.spec.Board.Options.SheriffWeight*2 + 0.5)
	for _, voter := range p.Actors {
		t := ballot[voter]
		v.Ballots = append(v.Ballots, BallotView{Voter: voter, Target: t})
		if t > 0 {
			if voter == pr.sheriff {
				halves[t] += weight
			} else {
				halves[t] += 2
			}
		}
	}
	for s := 1; s <= len(m.spec.Deal); s++ {
		if h := halves[s]; h > 0 {
			v.Tally = append(v.Tally, TallyView{Seat: s, Votes: float64(h) / 2})
		}
	}
	return v
}

// keptInputs is the shown inputs that the engine still holds, in order:
// shown is a superset of kept in the same order, so each kept input is the
// next shown one that matches it.
func keptInputs(shown []InputView, kept []engine.Input) []InputView {
	out := shown[:0:0]
	i := 0
	for _, k := range kept {
		for i < len(shown) && (shown[i].Seat != k.Seat || shown[i].Action != actionNames[k.Action] || shown[i].Target != k.Target) {
			i++
		}
		if i == len(shown) {
			break
		}
		out = append(out, shown[i])
		i++
	}
	return out
}

// markThiefPick marks the bottom card the thief kept and the one it buried.
func markThiefPick(bottom []DealCard, thief int, kept engine.Role) {
	k := -1
	for i, c := range bottom {
		if c.Role == string(kept) && k < 0 {
			k = i
		}
	}
	if k < 0 {
		return
	}
	for i := range bottom {
		if i == k {
			bottom[i].Kept, bottom[i].Thief = true, thief
		} else {
			bottom[i].Buried = true
		}
	}
}
