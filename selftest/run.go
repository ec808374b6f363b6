package selftest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	wvoice "wolftable/audio/voice"
	"wolftable/hw"
	"wolftable/hw/remedy"
)

// Target is the table under test as its wiring needs: how to check its
// link before it is opened, how to open it, and its counters afterwards.
// SerialTarget, GPIOTarget and VirtualTarget are the three wirings.
type Target interface {
	// Mode is the config's table mode: serial, gpio or virtual.
	Mode() string
	// CheckLink runs the link checks that come before the table is
	// opened and says what the table has. ok false: the table cannot be
	// reached, and nothing but the speaker can be tested.
	CheckLink(ctx context.Context) (f Features, checks []Check, ok bool)
	// Open opens the table.
	Open(ctx context.Context) (hw.Table, error)
	// AfterOpen runs the link checks that need the open table (the GPIO
	// soak).
	AfterOpen(ctx context.Context, tb hw.Table) []Check
	// Finish reports the link's counters over the whole test, before the
	// table is closed.
	Finish(tb hw.Table) []Check
}

// Features is what the table under test has.
type Features struct {
	Table   string     // what it is, e.g. "bridge fw 0.1.0, 12 seats, on /dev/ttyACM0"
	Seats   int        // 6…18
	Private bool       // each seat has a private indicator
	Pedal   bool       // the judge's pedal is wired
	NoPedal string     // why not, when Pedal is false
	Keys    [][]hw.Key // Keys[n-1] are seat n's keys, in the order they are asked for
	// ClosedAtStart are the key contacts found closed before anyone
	// touched a key (the bridge's raw scan): stuck down.
	ClosedAtStart []SeatKey
}

// SeatKey is one key of one seat.
type SeatKey struct {
	Seat int
	Key  hw.Key
}

func (k SeatKey) String() string { return fmt.Sprintf("%d號 %v", k.Seat, k.Key) }

// Sound is the speaker as the self-test uses it.
type Sound interface {
	// PlayTest plays the test line, waits until it has played and
	// reports what the sound device did.
	PlayTest(ctx context.Context) []Check
	// Say says a voice prompt made of clips, without waiting; false if the
	// voice has no such clips (the prompt is then shown only).
	Say(clips []string) bool
	// Describe says what plays the test line, e.g. "三聲上升的嗶聲".
	Describe() string
}

// Options configure Run.
type Options struct {
	Target     Target
	Technician Technician
	// Sound is the speaker; nil leaves it untested (skipped).
	Sound Sound
	// Progress receives the live progress, one line at a time (the
	// terminal, or the virtual table's transcript). Nil: discarded.
	Progress func(line string)
	// Only, if not empty, names the components to test (link is always
	// checked: the table must be reached).
	Only []string
	// For the report.
	Software string
	Emulated bool
	Faults   []string
	Soak     time.Duration
	// VirtualKeys says the keys are typed on the virtual table (s+seat
	// chooses the seat): the prompts say so.
	VirtualKeys bool
	// Lag measures the host's stalls, which lengthen every wait (see Lag);
	// nil: Run measures them itself.
	Lag Lag
}

// BounceWindow: a press of a key that comes this soon after the same key was
// released is a bounce, not a second touch.
const BounceWindow = 200 * time.Millisecond

// Run tests the table and returns the report. It returns when every
// component has been tested, or ctx is done (the report is then marked
// interrupted and what was not tested counts as failed).
func Run(ctx context.Context, o Options) *Report {
	lag := o.Lag
	if lag == nil {
		m := StartLagMeter(ctx)
		defer m.Stop()
		lag = m
	}
	r := &runner{o: o, rep: newReport(), pace: o.Technician.Pace(), lag: lag}
	rep := r.rep
	rep.Software, rep.Emulated, rep.Faults = o.Software, o.Emulated, o.Faults
	rep.Started = time.Now()
	rep.Mode = o.Target.Mode()
	rep.Technician = o.Technician.Name()
	rep.Soak = o.Soak.String()
	r.run(ctx)
	if ctx.Err() != nil {
		rep.Interrupted = true
	}
	rep.finish(time.Now())
	return rep
}

type runner struct {
	o     Options
	rep   *Report
	pace  Pace
	f     Features
	table hw.Table
	p     *pump
	lag   Lag

	voiceMissing []string // prompts the voice could not say
	voiceSaid    int      // prompts the voice said
}

func (r *runner) tell(format string, a ...any) {
	if r.o.Progress != nil {
		r.o.Progress(fmt.Sprintf(format, a...))
	}
}

func (r *runner) enabled(comp string) bool {
	return len(r.o.Only) == 0 || slices.Contains(r.o.Only, comp)
}

func (r *runner) run(ctx context.Context) {
	rep := r.rep
	soak := ""
	if r.o.Soak > 0 && r.o.Target.Mode() != string(hw.ModeVirtual) {
		soak = fmt.Sprintf("，壓測 %v", r.o.Soak)
	}
	r.tell("[連線]    檢查連線（%s%s）", modeWord(r.o.Target.Mode()), soak)
	f, checks, ok := r.o.Target.CheckLink(ctx)
	r.addAll(CompLink, checks)
	r.f = f
	rep.Table, rep.Seats = f.Table, f.Seats
	if ok {
		tb, err := r.o.Target.Open(ctx)
		if err != nil {
			r.add(CompLink, Check{Name: "open", Status: Fail, Detail: err.Error()})
			ok = false
		} else {
			r.table = tb
			if rep.Seats == 0 {
				rep.Seats = tb.Seats()
			}
		}
	}
	if !ok {
		why := "連不上桌子（見連線）"
		if ctx.Err() != nil {
			why = "中斷"
		}
		for _, c := range []string{CompPedal, CompLights, CompKeys} {
			if r.enabled(c) {
				r.add(c, Check{Name: c, Status: NotRun, Detail: why})
			}
		}
		r.speakerStage(ctx)
		return
	}
	for n := 1; n <= rep.Seats; n++ {
		rep.SeatResults = append(rep.SeatResults, &SeatResult{
			Seat:   n,
			Lights: Check{Name: "lights", Status: Skip},
			Keys:   KeyResult{Status: Skip},
		})
	}
	r.p = startPump(r.table)
	defer func() {
		r.addAll(CompLink, r.o.Target.Finish(r.table))
		if downs := r.p.linkDowns(); len(downs) > 0 {
			r.add(CompLink, Check{Name: "during the test", Status: Fail,
				Detail: fmt.Sprintf("連線中斷 %d 次：%s", len(downs), strings.Join(downs, "；"))})
		}
		r.table.Close()
		r.p.wait()
	}()
	r.addAll(CompLink, r.o.Target.AfterOpen(ctx, r.table))

	stages := []struct {
		name string
		run  func(context.Context)
	}{
		{CompPedal, r.pedalStage},
		{CompLights, r.lightsStage},
		{CompKeys, r.keysStage},
	}
	for _, s := range stages {
		if !r.enabled(s.name) {
			continue
		}
		s.run(ctx)
	}
	r.show(ctx, make([]hw.SeatLight, rep.Seats))
	r.speakerStage(ctx)
}

func (r *runner) add(comp string, c Check) {
	if c.Status == Fail {
		c.Detail = remedy.ExplainText(c.Detail) // SPI off, no sound card…: what to do, then the raw error
	}
	r.rep.add(comp, c)
	r.tell("[%s]%s%s %s %s", componentWord(comp), pad(comp), mark(c.Status), checkWord(c.Name), c.Detail)
	if c.Warning != "" {
		r.warn(Problem{Component: comp, Message: c.Warning})
	}
}

func (r *runner) addAll(comp string, cs []Check) {
	for _, c := range cs {
		r.add(comp, c)
	}
}

// errTimeout: nothing came before the deadline.
var errTimeout = errors.New("逾時")

// errTableGone: the table closed its events.
var errTableGone = errors.New("桌子不再回報事件")

// linkDownError: the link to the table is down, so nothing can come.
type linkDownError struct{ detail string }

func (e *linkDownError) Error() string { return "連線中斷：" + e.detail }

// lost reports whether err says no event can come: the table is gone or
// its link is down.
func lost(err error) bool {
	var ld *linkDownError
	return errors.Is(err, errTableGone) || errors.As(err, &ld)
}

// next returns the next key or pedal event, waiting until the wait w is
// over. While the table's link is down it fails at once.
func (r *runner) next(ctx context.Context, w patience) (hw.Event, error) {
	// Events that came before the link went down are still taken.
	select {
	case ev, ok := <-r.p.out:
		if !ok {
			return hw.Event{}, errTableGone
		}
		return ev, nil
	default:
	}
	var t *time.Timer
	defer func() {
		if t != nil {
			t.Stop()
		}
	}()
	for {
		down, changed := r.p.link()
		if down != "" {
			return hw.Event{}, &linkDownError{down}
		}
		d := w.left(time.Now())
		if d <= 0 {
			return hw.Event{}, errTimeout
		}
		if t == nil {
			t = time.NewTimer(d)
		} else {
			t.Reset(d)
		}
		select {
		case ev, ok := <-r.p.out:
			if !ok {
				return hw.Event{}, errTableGone
			}
			return ev, nil
		case <-changed:
		case <-t.C: // over, or stalls moved the end on
		case <-ctx.Done():
			return hw.Event{}, ctx.Err()
		}
	}
}

// drain drops the events that came before a prompt.
func (r *runner) drain() {
	for {
		select {
		case _, ok := <-r.p.out:
			if !ok {
				return
			}
		default:
			return
		}
	}
}

// ackedLights is a table that can wait for its lights to be shown (the
// serial bridge acks them).
type ackedLights interface {
	SetLightsAcked(ctx context.Context, lights []hw.SeatLight) error
}

// show sets the lights, and waits for the bridge's ack where there is one.
func (r *runner) show(ctx context.Context, frame []hw.SeatLight) error {
	if a, ok := r.table.(ackedLights); ok {
		actx, cancel := patient(r.lag, time.Second).context(ctx)
		defer cancel()
		return a.SetLightsAcked(actx, frame)
	}
	return r.table.SetLights(frame)
}

// pedalHow is the prompt for each press.
func pedalHow(p hw.PedalPress) string {
	switch p {
	case hw.PedalLong:
		return "長按（踩住一秒以上）"
	case hw.PedalDouble:
		return "雙擊（快踩兩下）"
	}
	return "短按（快踩一下）"
}

func (r *runner) pedalStage(ctx context.Context) {
	if !r.f.Pedal {
		why := r.f.NoPedal
		if why == "" {
			why = "這張桌子沒有接踏板"
		}
		r.add(CompPedal, Check{Name: "pedal", Status: Fail, Detail: why})
		return
	}
	for _, want := range []hw.PedalPress{hw.PedalShort, hw.PedalLong, hw.PedalDouble} {
		if ctx.Err() != nil {
			r.add(CompPedal, Check{Name: want.String(), Status: NotRun, Detail: "中斷"})
			continue
		}
		r.add(CompPedal, r.pedalPress(ctx, want))
	}
}

// pedalPress asks for one kind of press, up to three times.
func (r *runner) pedalPress(ctx context.Context, want hw.PedalPress) Check {
	var wrong []string
	for attempt := 1; attempt <= 3; attempt++ {
		r.drain()
		if attempt == 1 {
			r.tell("[踏板]    請踩踏板：%s", pedalHow(want))
		} else {
			r.tell("[踏板]    剛才是%s；請再踩一次：%s", zhPedalName(wrong[len(wrong)-1]), pedalHow(want))
		}
		if err := r.o.Technician.PressPedal(ctx, want); err != nil {
			return Check{Name: want.String(), Status: Fail, Detail: "技術人員無法踩踏板：" + err.Error()}
		}
		w := patient(r.lag, r.pace.Answer)
		for {
			ev, err := r.next(ctx, w)
			if err != nil {
				detail := fmt.Sprintf("%s 內沒有踩踏板", zhDur(r.pace.Answer)) + stalledNote(w)
				switch {
				case ctx.Err() != nil:
					return Check{Name: want.String(), Status: NotRun, Detail: "中斷"}
				case lost(err):
					detail = err.Error()
				case len(wrong) > 0:
					detail += fmt.Sprintf("（之前踩成：%s）", zhPedalNames(wrong))
				}
				return Check{Name: want.String(), Status: Fail, Detail: detail}
			}
			if ev.Kind != hw.EventPedal {
				continue
			}
			if ev.Pedal == want {
				d := "辨認正確"
				if len(wrong) > 0 {
					d += fmt.Sprintf("（之前踩成：%s）", zhPedalNames(wrong))
				}
				d += r.lateAnswer(w, Problem{Component: CompPedal}, "踏板"+zhPedal(want))
				return Check{Name: want.String(), Status: Pass, Detail: d}
			}
			wrong = append(wrong, ev.Pedal.String())
			break
		}
	}
	return Check{Name: want.String(), Status: Fail, Detail: fmt.Sprintf("請踩%s三次，都踩成：%s", zhPedalName(want.String()), zhPedalNames(wrong))}
}

// lightStep is one step of a seat's lights walk.
type lightStep struct {
	name  string
	light hw.SeatLight
}

func (r *runner) lightSteps() []lightStep {
	steps := []lightStep{
		{"red", hw.SeatLight{Color: hw.Red}},
		{"green", hw.SeatLight{Color: hw.Green}},
		{"blue", hw.SeatLight{Color: hw.Blue}},
		{"off", hw.SeatLight{}},
	}
	if r.f.Private {
		// The bridge lights a private indicator in its seat's colour.
		steps = append(steps, lightStep{"private", hw.SeatLight{Color: hw.Green, Private: true}})
	}
	return steps
}

// answer is a technician's verdict.
type answer uint8

const (
	noAnswer answer = iota
	yes
	no
	again
)

// answerOf reads an event as an answer: the pedal (short yes, long no,
// double again) or the seat's own OK (yes) and CLR (no).
func answerOf(ev hw.Event, seat int) answer {
	switch {
	case ev.Kind == hw.EventPedal:
		switch ev.Pedal {
		case hw.PedalShort:
			return yes
		case hw.PedalLong:
			return no
		}
		return again
	case ev.Kind == hw.EventKey && ev.Key.Edge == hw.Down && seat > 0 && ev.Key.Seat == seat:
		switch ev.Key.Key {
		case hw.KeyOK:
			return yes
		case hw.KeyCLR:
			return no
		}
	}
	return noAnswer
}

// waitAnswer waits for an answer until the wait w is over.
func (r *runner) waitAnswer(ctx context.Context, seat int, w patience) (answer, error) {
	for {
		ev, err := r.next(ctx, w)
		if err != nil {
			return noAnswer, err
		}
		if a := answerOf(ev, seat); a != noAnswer {
			return a, nil
		}
	}
}

func (r *runner) lightsStage(ctx context.Context) {
	steps := r.lightSteps()
	walk := zhWalk(steps)
	for seat := 1; seat <= r.rep.Seats; seat++ {
		res := r.rep.Seat(seat)
		if ctx.Err() != nil {
			res.Lights = Check{Name: "lights", Status: NotRun, Detail: "中斷"}
			r.rep.problem(Problem{Component: CompLights, Seat: seat, Message: "未測（中斷）"})
			continue
		}
		res.Lights = r.lightsSeat(ctx, seat, steps, walk)
		c := res.Lights
		r.tell("[燈號]    %d號：%s %s", seat, mark(c.Status), c.Detail)
		if !c.Status.OK() {
			r.rep.problem(Problem{Component: CompLights, Seat: seat, Message: c.Detail})
		}
	}
}

func (r *runner) lightsSeat(ctx context.Context, seat int, steps []lightStep, walk string) Check {
	r.drain()
	r.tell("[燈號]    %d號：請看它依次亮 %s；看完踩踏板：短按＝正常，長按＝有問題", seat, walk)
	tech := r.o.Technician
	var showErr error
	judged := false
	var w patience // the technician's answer, once asked
	for {
		for _, st := range steps {
			frame := make([]hw.SeatLight, r.rep.Seats)
			frame[seat-1] = st.light
			if err := r.show(ctx, frame); err != nil && showErr == nil {
				showErr = fmt.Errorf("%s: %w", st.name, err)
			}
			if !judged {
				if err := tech.LookAt(ctx, seat, frame); err != nil {
					return Check{Name: "lights", Status: Fail, Detail: "技術人員無法觀看：" + err.Error()}
				}
			}
			dwell := r.pace.Dwell
			if judged {
				dwell = max(dwell, 50*time.Millisecond)
			}
			a, err := r.waitAnswer(ctx, seat, patient(r.lag, dwell))
			switch {
			case ctx.Err() != nil:
				return Check{Name: "lights", Status: NotRun, Detail: "中斷"}
			case lost(err):
				return Check{Name: "lights", Status: Fail, Detail: err.Error()}
			case a == yes || a == no:
				c := r.lightsVerdict(seat, a, walk, showErr)
				if judged {
					c.Detail += r.lateAnswer(w, Problem{Component: CompLights, Seat: seat}, fmt.Sprintf("%d號燈號的回答", seat))
				}
				return c
			}
		}
		if !judged {
			judged = true
			if err := tech.JudgeLights(ctx, seat); err != nil {
				return Check{Name: "lights", Status: Fail, Detail: "技術人員無法回答：" + err.Error()}
			}
			w = patient(r.lag, r.pace.Answer)
		} else if w.over() {
			return Check{Name: "lights", Status: Fail, Detail: fmt.Sprintf("%s 內沒有回答", zhDur(r.pace.Answer)) + stalledNote(w)}
		}
	}
}

func (r *runner) lightsVerdict(seat int, a answer, walk string, showErr error) Check {
	c := Check{Name: "lights", Status: Pass, Detail: walk + "：確認正常"}
	if a == no {
		c = Check{Name: "lights", Status: Fail, Detail: "技術人員看到異常：" + walk}
		if n, ok := r.o.Technician.(Noter); ok {
			if note := n.LightsNote(seat); note != "" {
				c.Detail += "（" + note + "）"
			}
		}
	}
	if showErr != nil {
		c.Status = Fail
		c.Detail += "；桌子沒有接受燈號：" + showErr.Error()
	}
	return c
}

// keysLights is the keys stage's frame: the seat under test blue and
// pulsing, the seats done green (passed) or red (failed).
func (r *runner) keysLights(current int) []hw.SeatLight {
	frame := make([]hw.SeatLight, r.rep.Seats)
	for i, s := range r.rep.SeatResults {
		switch {
		case s.Seat == current:
			frame[i] = hw.SeatLight{Color: hw.Blue, Pulse: true}
		case s.Seat < current && s.Keys.Status == Pass:
			frame[i] = hw.SeatLight{Color: hw.Green}
		case s.Seat < current && !s.Keys.Status.OK():
			frame[i] = hw.SeatLight{Color: hw.Red}
		}
	}
	return frame
}

func keyNames(keys []hw.Key) []string {
	s := make([]string, len(keys))
	for i, k := range keys {
		s[i] = k.String()
	}
	return s
}

func (r *runner) keysStage(ctx context.Context) {
	closed := map[SeatKey]bool{}
	for _, k := range r.f.ClosedAtStart {
		closed[k] = true
	}
	for seat := 1; seat <= r.rep.Seats; seat++ {
		res := r.rep.Seat(seat)
		var expected []hw.Key
		if seat <= len(r.f.Keys) {
			expected = r.f.Keys[seat-1]
		}
		if len(expected) == 0 {
			res.Keys = KeyResult{Status: Skip, Detail: "這個座位沒有接按鍵"}
			continue
		}
		if ctx.Err() != nil {
			res.Keys = KeyResult{Status: NotRun, Detail: "中斷", Expected: keyNames(expected)}
			r.rep.problem(Problem{Component: CompKeys, Seat: seat, Message: "未測（中斷）"})
			continue
		}
		res.Keys = r.keysSeat(ctx, seat, expected, closed)
		k := &res.Keys
		r.tell("[按鍵]    %d號：%s %s", seat, mark(k.Status), k.Detail)
		for _, name := range k.Stuck {
			r.rep.problem(Problem{Component: CompKeys, Seat: seat, Key: name, Message: "卡住（一直按著）"})
		}
		for _, name := range k.Missing {
			r.rep.problem(Problem{Component: CompKeys, Seat: seat, Key: name, Message: "沒有收到（缺）"})
		}
		for _, name := range k.Bouncy {
			r.rep.problem(Problem{Component: CompKeys, Seat: seat, Key: name,
				Message: fmt.Sprintf("彈跳：按一下收到 %d 次", k.Presses[name])})
		}
		if k.Status == NotRun || (k.Status == Fail && len(k.Stuck)+len(k.Missing)+len(k.Bouncy) == 0) {
			r.rep.problem(Problem{Component: CompKeys, Seat: seat, Message: k.Detail})
		}
	}
}

// keysPromptLine is the catalogue line that asks a seat for its keys
// ("3號，請依次按下所有按鍵"); the default voice pack says it.
const keysPromptLine = "selftest.keys"

func (r *runner) keysSeat(ctx context.Context, seat int, expected []hw.Key, closedAtStart map[SeatKey]bool) KeyResult {
	res := KeyResult{Expected: keyNames(expected), Presses: map[string]int{}}
	r.drain()
	if err := r.show(ctx, r.keysLights(seat)); err != nil {
		r.tell("[按鍵]    %d號：桌子沒有接受提示燈：%v", seat, err)
	}
	prompt, err := wvoice.Sequence(keysPromptLine, []int{seat})
	spoken := err == nil && r.o.Sound != nil && r.o.Sound.Say(prompt)
	if spoken {
		r.voiceSaid++
	} else {
		r.voiceMissing = append(r.voiceMissing, fmt.Sprintf("%s %v", keysPromptLine, prompt))
	}
	how := ""
	if r.o.VirtualKeys {
		how = fmt.Sprintf("（先按 s%d）", seat)
	}
	list := strings.Join(res.Expected, " ")
	if strings.HasPrefix(list, "0 1 2 3 4 5 6 7 8 9 ") {
		list = "0-9 " + strings.TrimPrefix(list, "0 1 2 3 4 5 6 7 8 9 ")
	}
	r.tell("[按鍵]    %d號：%d號，請依次按下所有按鍵：每個鍵按一次，依序 %s%s；踩踏板＝放棄這個座位", seat, seat, list, how)

	want := map[hw.Key]bool{}
	for _, k := range expected {
		want[k] = true
	}
	stuck := map[hw.Key]string{}
	for _, k := range expected {
		if closedAtStart[SeatKey{seat, k}] {
			stuck[k] = "closed at start"
		}
	}
	for _, k := range r.p.heldKeys(seat) {
		if want[k] && stuck[k] == "" {
			stuck[k] = "down at start"
		}
	}
	for _, k := range expected {
		if why := stuck[k]; why != "" {
			r.tell("[按鍵]    %d號：%v %s：卡住了？", seat, k, zhStuck(why))
		}
	}

	presses := map[hw.Key]int{}
	lastUp := map[hw.Key]time.Time{}
	bouncy := map[hw.Key]bool{}
	var strays []string
	done := func() bool {
		for _, k := range expected {
			if presses[k] == 0 && stuck[k] == "" {
				return false
			}
		}
		return true
	}

	techDone := make(chan error, 1)
	tctx, cancelTech := context.WithCancel(ctx)
	defer cancelTech()
	go func() { techDone <- r.o.Technician.PressKeys(tctx, seat, expected) }()
	pressing := true
	complete := false   // every key has come
	var settle patience // from when the technician's part was done
	var quiet patience  // from the seat's last event once complete
	quietFor := min(max(r.pace.Quiet, 0), BounceWindow)
	gaveUp := false
	var techErr error
loop:
	for {
		held := slices.ContainsFunc(r.p.heldKeys(seat), func(k hw.Key) bool { return want[k] && stuck[k] == "" })
		te, err := r.nextOrTech(ctx, r.keysWait(pressing, complete, held, settle, quiet), pressing, techDone)
		switch {
		case errors.Is(err, errTechDone):
			pressing, techErr = false, te.techErr
			settle, quiet = patient(r.lag, r.pace.Settle), patient(r.lag, quietFor)
			continue
		case errors.Is(err, errTimeout):
			if pressing {
				continue
			}
			break loop
		case err != nil:
			if ctx.Err() != nil {
				res.Status, res.Detail = NotRun, "中斷"
			} else {
				res.Status, res.Detail = Fail, err.Error()
			}
			cancelTech()
			if pressing {
				<-techDone
			}
			return res
		}
		e := te.ev
		switch {
		case e.Kind == hw.EventPedal:
			if !pressing { // the technician gives up on the keys still missing
				gaveUp = true
				break loop
			}
		case e.Kind == hw.EventKey && e.Key.Seat == seat:
			k := e.Key.Key
			quiet = patient(r.lag, quietFor)
			if e.Key.Edge == hw.Up {
				lastUp[k] = e.Key.At
				continue
			}
			if !want[k] {
				strays = append(strays, k.String())
				continue
			}
			presses[k]++
			n := 0
			for _, kk := range expected {
				if presses[kk] > 0 {
					n++
				}
			}
			if presses[k] > 1 {
				up, released := lastUp[k]
				gap := e.Key.At.Sub(up)
				if released && gap >= 0 && gap < BounceWindow {
					bouncy[k] = true
					r.tell("[按鍵]    %d號：%v 放開後 %s 又按下：彈跳", seat, k, zhDur(gap.Round(time.Millisecond)))
				} else {
					r.tell("[按鍵]    %d號：%v 又按了一次", seat, k)
				}
			} else {
				next := ""
				for _, kk := range expected {
					if presses[kk] == 0 && stuck[kk] == "" {
						next = "，下一個 " + kk.String()
						break
					}
				}
				r.tell("[按鍵]    %d號：✓ %-4v %d/%d%s", seat, k, n, len(expected), next)
			}
			complete = complete || done()
		case e.Kind == hw.EventKey && e.Key.Edge == hw.Down:
			strays = append(strays, fmt.Sprintf("%d號 %v", e.Key.Seat, e.Key.Key))
		}
	}
	cancelTech()
	if pressing {
		<-techDone
	}

	// A key down at the start that was then released and pressed works:
	// something was resting on it.
	var notes []string
	for _, k := range expected {
		if stuck[k] != "" && presses[k] > 0 {
			notes = append(notes, fmt.Sprintf("%v %s，之後正常", k, zhStuck(stuck[k])))
			delete(stuck, k)
		}
	}
	// Keys held down now that were not stuck at the start: never released.
	for _, k := range r.p.heldKeys(seat) {
		if want[k] && stuck[k] == "" {
			stuck[k] = "never released"
		}
	}
	for _, k := range expected {
		name := k.String()
		res.Presses[name] = presses[k]
		switch {
		case stuck[k] != "":
			res.Stuck = append(res.Stuck, name)
		case presses[k] == 0:
			res.Missing = append(res.Missing, name)
		case bouncy[k]:
			res.Bouncy = append(res.Bouncy, name)
		}
	}
	var parts []string
	got := 0
	for _, k := range expected {
		if presses[k] > 0 {
			got++
		}
	}
	parts = append(parts, fmt.Sprintf("%d/%d 個鍵", got, len(expected)))
	if len(res.Missing) > 0 {
		parts = append(parts, "缺 "+strings.Join(res.Missing, " "))
	}
	if len(res.Bouncy) > 0 {
		parts = append(parts, "彈跳 "+strings.Join(res.Bouncy, " "))
	}
	if len(res.Stuck) > 0 {
		var s []string
		for _, name := range res.Stuck {
			k, _ := hw.ParseKey(name)
			s = append(s, name+"（"+zhStuck(stuck[k])+"）")
		}
		parts = append(parts, "卡住 "+strings.Join(s, " "))
	}
	parts = append(parts, notes...)
	if len(strays) > 0 {
		parts = append(parts, "另外按到："+strings.Join(strays, " "))
	}
	if gaveUp {
		parts = append(parts, "已踩踏板放棄")
	}
	if techErr != nil && ctx.Err() == nil {
		parts = append(parts, "技術人員："+techErr.Error())
	}
	res.Detail = strings.Join(parts, "；")
	res.Status = Pass
	if len(res.Missing)+len(res.Bouncy)+len(res.Stuck) > 0 {
		res.Status = Fail
	}
	if ctx.Err() != nil {
		res.Status = NotRun
	}
	return res
}

var errTechDone = errors.New("technician done")

type techEvent struct {
	ev      hw.Event
	techErr error
}

// keysWait is how long the keys stage waits for the next event: while the
// technician presses, as long as it takes (ctx ends it); then for presses
// still on their way (Settle, from when the technician was done) and for a
// key still down to come up (Settle again: a key never released is stuck);
// once every key has come and none is down, for a late bounce (Quiet, from
// the seat's last event).
func (r *runner) keysWait(pressing, complete, held bool, settle, quiet patience) patience {
	switch {
	case pressing:
		return patient(r.lag, time.Hour)
	case !complete || held:
		return settle
	}
	return quiet
}

// nextOrTech is next that also returns when the technician's PressKeys
// returns (errTechDone).
func (r *runner) nextOrTech(ctx context.Context, w patience, pressing bool, techDone <-chan error) (techEvent, error) {
	var td <-chan error
	if pressing {
		td = techDone
	}
	select {
	case ev, ok := <-r.p.out:
		if !ok {
			return techEvent{}, errTableGone
		}
		return techEvent{ev: ev}, nil
	default:
	}
	var t *time.Timer
	defer func() {
		if t != nil {
			t.Stop()
		}
	}()
	for {
		down, changed := r.p.link()
		if down != "" && !pressing {
			return techEvent{}, &linkDownError{down}
		}
		d := max(w.left(time.Now()), 0)
		if t == nil {
			t = time.NewTimer(d)
		} else {
			t.Reset(d)
		}
		select {
		case ev, ok := <-r.p.out:
			if !ok {
				return techEvent{}, errTableGone
			}
			return techEvent{ev: ev}, nil
		case err := <-td:
			return techEvent{techErr: err}, errTechDone
		case <-changed:
		case <-t.C:
			if w.left(time.Now()) <= 0 {
				return techEvent{}, errTimeout
			}
		case <-ctx.Done():
			return techEvent{}, ctx.Err()
		}
	}
}

func (r *runner) speakerStage(ctx context.Context) {
	if !r.enabled(CompSpeaker) {
		return
	}
	if r.o.Sound == nil {
		r.add(CompSpeaker, Check{Name: "speaker", Status: Skip, Detail: "沒有喇叭可測"})
		return
	}
	if ctx.Err() != nil {
		r.add(CompSpeaker, Check{Name: "test line", Status: NotRun, Detail: "中斷"})
		return
	}
	for attempt := 1; ; attempt++ {
		r.tell("[喇叭]    播放測試聲：%s", r.o.Sound.Describe())
		checks := r.o.Sound.PlayTest(ctx)
		ok := true
		for _, c := range checks {
			ok = ok && c.Status.OK()
		}
		if !ok || r.table == nil {
			// A failed device needs no ear; with no table there is no
			// pedal to answer on.
			r.addAll(CompSpeaker, checks)
			break
		}
		if r.p != nil {
			r.drain()
		}
		r.tell("[喇叭]    聽到%s了嗎？踩踏板：短按＝聽到，長按＝沒聽到，雙擊＝再播一次", r.o.Sound.Describe())
		if err := r.o.Technician.Listen(ctx); err != nil {
			checks = append(checks, Check{Name: "heard", Status: Fail, Detail: "技術人員無法回答：" + err.Error()})
			r.addAll(CompSpeaker, checks)
			break
		}
		w := patient(r.lag, r.pace.Answer)
		a, err := r.waitAnswer(ctx, 0, w)
		if a == again && attempt < 3 {
			continue
		}
		switch {
		case ctx.Err() != nil:
			checks = append(checks, Check{Name: "heard", Status: NotRun, Detail: "中斷"})
		case lost(err):
			checks = append(checks, Check{Name: "heard", Status: Fail, Detail: "沒有回答：" + err.Error()})
		case err != nil:
			checks = append(checks, Check{Name: "heard", Status: Fail, Detail: fmt.Sprintf("%s 內沒有回答", zhDur(r.pace.Answer)) + stalledNote(w)})
		case a == yes:
			checks = append(checks, Check{Name: "heard", Status: Pass, Detail: "技術人員聽到了" + r.lateAnswer(w, Problem{Component: CompSpeaker}, "喇叭的回答")})
		default:
			checks = append(checks, Check{Name: "heard", Status: Fail, Detail: "技術人員沒聽到" + r.lateAnswer(w, Problem{Component: CompSpeaker}, "喇叭的回答")})
		}
		r.addAll(CompSpeaker, checks)
		break
	}
	switch {
	case len(r.voiceMissing) > 0:
		r.add(CompSpeaker, Check{Name: "voice prompts", Status: Skip,
			Detail: fmt.Sprintf("只顯示文字：沒有語音包，或缺少這些語音（%s）", r.voiceMissing[0])})
	case r.voiceSaid > 0:
		r.add(CompSpeaker, Check{Name: "voice prompts", Status: Pass,
			Detail: fmt.Sprintf("%d 個座位用語音提示（「3號，請依次按下所有按鍵」）", r.voiceSaid)})
	}
}

// pump reads the table's events for the whole test: it keeps track of the
// keys held down and of the link, and passes key and pedal events on.
type pump struct {
	out  chan hw.Event
	done chan struct{}

	mu      sync.Mutex
	held    map[SeatKey]time.Time
	downs   []string
	down    string        // why the link is down now; "" while it is up
	changed chan struct{} // closed, and replaced, when the link changes
}

func startPump(tb hw.Table) *pump {
	p := &pump{out: make(chan hw.Event, 4096), done: make(chan struct{}), held: map[SeatKey]time.Time{}, changed: make(chan struct{})}
	go func() {
		defer close(p.done)
		defer close(p.out)
		for ev := range tb.Events() {
			switch ev.Kind {
			case hw.EventLink:
				p.mu.Lock()
				p.down = ""
				if !ev.Link.Up {
					p.downs = append(p.downs, ev.Link.Detail)
					p.down = ev.Link.Detail
					if p.down == "" {
						p.down = "no detail"
					}
				}
				close(p.changed)
				p.changed = make(chan struct{})
				p.mu.Unlock()
				continue
			case hw.EventKey:
				k := SeatKey{ev.Key.Seat, ev.Key.Key}
				p.mu.Lock()
				if ev.Key.Edge == hw.Down {
					p.held[k] = ev.Key.At
				} else {
					delete(p.held, k)
				}
				p.mu.Unlock()
			}
			p.out <- ev
		}
	}()
	return p
}

// heldKeys returns the seat's keys down now, in key order.
func (p *pump) heldKeys(seat int) []hw.Key {
	p.mu.Lock()
	defer p.mu.Unlock()
	var keys []hw.Key
	for k := range p.held {
		if k.Seat == seat {
			keys = append(keys, k.Key)
		}
	}
	slices.Sort(keys)
	return keys
}

// link says why the link is down ("" while it is up) and gives a channel
// closed when that changes.
func (p *pump) link() (string, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.down, p.changed
}

func (p *pump) linkDowns() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.downs)
}

// wait waits for the pump to finish after the table closed, dropping what
// is left.
func (p *pump) wait() {
	for range p.out {
	}
	<-p.done
}
