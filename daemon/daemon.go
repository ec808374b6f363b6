// Package daemon is the table runtime: the one path every input takes
// (design.md "Data flow"). Seat keys, pedal presses, console commands,
// timer expiries and the wall clock become engine inputs; each is journaled
// (written and synced) before the engine applies it; the engine's effects
// go to the voice, the lights, the timers, the judge's console and the
// record. Everything runs on one goroutine (Run); other goroutines talk to
// it through channels.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"wolftable/daemon/play"
	"wolftable/engine"
	"wolftable/hw"
	"wolftable/script"
)

// Voice speaks catalogue lines. Say queues and returns at once.
type Voice interface {
	Say(line string, args []int)
	Interrupt()
}

// Journal records every input, written and synced, before the engine
// applies it (journal.Writer implements it): Start and Apply journal, then
// call the engine; an input the journal cannot take never reaches it.
type Journal interface {
	Start(g *engine.Game, wall time.Time, source string) ([]engine.Effect, error)
	Apply(g *engine.Game, wall time.Time, source string, in engine.Input) ([]engine.Effect, error)
	// Finish journals the end of the game with its result.
	Finish(wall time.Time, result string) error
}

// Event is what the daemon reports to the console and the transcript.
type Event struct {
	At     time.Time
	Effect *engine.Effect // an effect of the engine (Args and Record copied)
	Text   string         // the rendered line of a say or cue effect
	Input  *engine.Input  // an input that was applied (or refused: Err)
	Source string
	Err    error
	Link   *hw.Link
}

// PedalMap says what each pedal press does (configurable).
type PedalMap struct{ Short, Long, Double engine.PedalPress }

// DefaultPedalMap: short = advance, long = repeat the line, double = pause/resume.
func DefaultPedalMap() PedalMap {
	return PedalMap{Short: engine.PedalShort, Long: engine.PedalLong, Double: engine.PedalDouble}
}

// Config assembles a daemon.
type Config struct {
	Game    *engine.Game // a dealt game; started by Run unless Restored says otherwise
	Table   hw.Table
	Voice   Voice    // nil: text only
	Journal Journal  // nil: no file (tests, sim without --journal): inputs apply directly
	Clock   Clock    // nil: the real clock
	Speed   float64  // timers run Speed times faster (sim); 0 = 1
	Pedal   PedalMap // zero value: DefaultPedalMap
	Log     *slog.Logger
	OnEvent func(Event) // called on the daemon's goroutine; must not block
	// Restored resumes a replayed game instead of starting a new one.
	Restored *Restored
	// Player, when set, is a scripted player of the table (package play:
	// the random players and judge of sim --bots). The daemon then keeps
	// the game's own timeline (see Daemon.at).
	Player play.Player
	// KeysJournaled are the identities (hw.KeyEvent.ID) of key events
	// the journals already hold: such an event that comes again is signed
	// and dropped, never applied twice (keys.go).
	KeysJournaled []string
	// Wall, when set, is what the judge's wall clock read when the game
	// started; it then runs at Speed with the game (sim --clock, for
	// reproducible games: the clock rule A8 reads it). Unset: the real
	// clock.
	Wall *WallTime
}

// WallTime is a time of day on the judge's clock.
type WallTime struct{ Hour, Minute int }

type armed struct {
	stop      Stopper
	deadline  time.Time
	remaining time.Duration // while paused
	seconds   int
}

type request struct {
	in     engine.Input
	source string
	reply  chan error
	probe  bool // a liveness probe: answered, nothing applied
}

// Daemon is a running table.
type Daemon struct {
	cfg     Config
	journal Journal // cfg.Journal, or noJournal: every input takes this one path
	g       *engine.Game
	cat     *script.Catalogue
	clock   Clock
	log     *slog.Logger
	timers  map[engine.TimerID]*armed
	wake    chan struct{} // something scheduled may be due: runDue
	reqs    chan request
	lights  []hw.SeatLight
	dirty   bool
	entry   []int           // per seat: the number being typed, -1 = none
	keys    map[string]bool // the key events journaled (Config.KeysJournaled)
	minute  int             // the last wall-clock minute fed to the engine
	paused  bool
	players *players // nil: nobody plays the table but its keys and the console
	done    chan struct{}

	// The daemon's time. With a scripted player (sim --bots) it is the
	// game's own timeline: a due timer or move is handled at the instant it was
	// due (at), whatever the machine's load, and a resumed game continues
	// the journal's timeline (offset), so the same seed plays the same game
	// uninterrupted or resumed after a kill.
	at      time.Time
	offset  time.Duration
	started time.Time // the game's start, on the daemon's time
	stepSeq int       // the engine's current step and when it began
	stepAt  time.Time
}

// noJournal is the journal of a game kept in no file: the engine applies
// each input at once (tests, sim without --journal). The daemon has one
// path to the engine either way.
type noJournal struct{}

func (noJournal) Start(g *engine.Game, _ time.Time, _ string) ([]engine.Effect, error) {
	return g.Start()
}

func (noJournal) Apply(g *engine.Game, _ time.Time, _ string, in engine.Input) ([]engine.Effect, error) {
	return g.Apply(in)
}

func (noJournal) Finish(time.Time, string) error { return nil }

// ErrStopped is returned by Submit after Run has returned.
var ErrStopped = errors.New("daemon: stopped")

// New makes a daemon; Run starts it.
func New(cfg Config) (*Daemon, error) {
	if cfg.Game == nil || cfg.Table == nil {
		return nil, errors.New("daemon: a game and a table are required")
	}
	if cfg.Table.Seats() != cfg.Game.Players() {
		b := cfg.Game.Board()
		return nil, fmt.Errorf("daemon: 桌子有 %d 個座位，板子 %s（%s）是 %d 人局：不能開局；請選 %d 人的板子，或改設定檔的 [table] seats / the table has %d seats, the board %d players",
			cfg.Table.Seats(), b.Name, b.ID, cfg.Game.Players(), cfg.Table.Seats(), cfg.Table.Seats(), cfg.Game.Players())
	}
	if cfg.Clock == nil {
		cfg.Clock = RealClock{}
	}
	if cfg.Speed <= 0 {
		cfg.Speed = 1
	}
	if cfg.Pedal == (PedalMap{}) {
		cfg.Pedal = DefaultPedalMap()
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	n := cfg.Game.Players()
	var j Journal = noJournal{}
	if cfg.Journal != nil {
		j = cfg.Journal
	}
	d := &Daemon{cfg: cfg, journal: j, g: cfg.Game, cat: script.New(), clock: cfg.Clock, log: cfg.Log,
		timers: map[engine.TimerID]*armed{}, wake: make(chan struct{}, 1),
		reqs: make(chan request), lights: make([]hw.SeatLight, n), entry: make([]int, n+1),
		minute: -1, done: make(chan struct{})}
	for i := range d.entry {
		d.entry[i] = -1
	}
	d.keys = make(map[string]bool, len(cfg.KeysJournaled))
	for _, id := range cfg.KeysJournaled {
		d.keys[id] = true
	}
	if cfg.Player != nil {
		d.players = &players{d: d, p: cfg.Player}
	}
	return d, nil
}

// Submit feeds an input from outside the daemon's goroutine (the console,
// a test) and waits until it is applied or refused.
func (d *Daemon) Submit(ctx context.Context, in engine.Input, source string) error {
	return d.send(ctx, request{in: in, source: source, reply: make(chan error, 1)})
}

// Alive checks that the daemon's loop answers (for systemd's watchdog). The
// loop first handles everything due by its clock's now (the timers and
// players' moves a wake would run), so on a fake clock Alive is a barrier:
// once it returns, every timer due at the clock's time has been applied and
// its effects reported.
func (d *Daemon) Alive(ctx context.Context) error {
	return d.send(ctx, request{reply: make(chan error, 1), probe: true}) // Run answers a probe nil
}

// send hands r to Run and waits for its reply.
func (d *Daemon) send(ctx context.Context, r request) error {
	select {
	case d.reqs <- r:
	case <-d.done:
		return ErrStopped
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run starts (or resumes) the game and serves until it ends or ctx is done.
func (d *Daemon) Run(ctx context.Context) error {
	defer close(d.done)
	defer d.stopTimers()
	defer d.stopPlayers()
	if r := d.cfg.Restored; r != nil {
		d.restore(r)
	} else {
		d.started = d.now()
		if d.players != nil {
			d.at = d.started
		}
		d.feedClock()
		effs, err := d.journal.Start(d.g, d.now(), "daemon")
		if err != nil {
			return err
		}
		d.stepSeq, d.stepAt = d.g.StepSeq(), d.now()
		d.handle(effs)
		d.at = time.Time{}
	}
	d.flushLights()
	events := d.cfg.Table.Events()
	for {
		if over, w := d.g.Over(); over {
			if err := d.journal.Finish(d.now(), string(w)); err != nil {
				d.log.Error("journal: end of game not written", "err", err)
			}
			return nil
		}
		if d.players != nil {
			d.players.schedule()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev, ok := <-events:
			if !ok {
				return errors.New("daemon: the table closed its events")
			}
			d.onTable(ev)
		case <-d.wake:
			d.runDue()
		case r := <-d.reqs:
			if r.probe {
				d.runDue() // what a pending wake would run: a barrier for fake clocks
				d.flushLights()
				r.reply <- nil
				continue
			}
			r.reply <- d.apply(r.in, r.source)
		}
		d.flushLights()
	}
}

// apply is the one path: clock, journal, engine, effects.
func (d *Daemon) apply(in engine.Input, source string) error {
	if in.Kind != engine.InClock {
		d.feedClock()
	}
	now := d.now()
	effs, err := d.journal.Apply(d.g, now, source, in)
	var ee *engine.Error
	if err != nil && !errors.As(err, &ee) {
		d.log.Error("journal append failed; input not applied", "err", err, "source", source)
		return fmt.Errorf("daemon: journal: %w", err)
	}
	if in.Kind == engine.InTimer && err == nil {
		delete(d.timers, in.Timer)
	}
	if err == nil && d.cfg.Voice != nil && cutsTheLine(in) {
		d.cfg.Voice.Interrupt() // the judge repeats the line or skips on: cut what is playing
	}
	d.report(Event{At: now, Input: &in, Source: source, Err: err})
	if err != nil {
		d.log.Debug("input refused", "source", source, "err", err)
		return err
	}
	if seq := d.g.StepSeq(); seq != d.stepSeq {
		d.stepSeq, d.stepAt = seq, now
	}
	d.handle(effs)
	return nil
}

// now is the daemon's time: the clock's, or with a player the game's own
// timeline (see Daemon.at).
func (d *Daemon) now() time.Time {
	if !d.at.IsZero() {
		return d.at
	}
	return d.clock.Now().Add(-d.offset)
}

// after calls poke when the daemon's time reaches at.
func (d *Daemon) after(at time.Time) Stopper {
	wait := at.Sub(d.clock.Now().Add(-d.offset))
	if wait < 0 {
		wait = 0
	}
	return d.clock.AfterFunc(wait, d.poke)
}

// poke wakes Run to look for due timers and moves.
func (d *Daemon) poke() {
	select {
	case d.wake <- struct{}{}:
	default: // a wake is pending already
	}
}

// runDue handles everything whose time has come, earliest first: one
// order, however late the goroutine runs (a timer and a player's move due
// close together never swap).
func (d *Daemon) runDue() {
	for {
		if over, _ := d.g.Over(); over {
			return
		}
		now := d.clock.Now().Add(-d.offset)
		var next due
		found := false
		for id, t := range d.timers {
			if t.stop == nil || t.deadline.After(now) {
				continue // paused, or not yet
			}
			if c := (due{at: t.deadline, timer: id}); !found || c.before(next) {
				next, found = c, true
			}
		}
		if d.players != nil {
			for _, m := range d.players.moves {
				if m.at.After(now) {
					continue
				}
				if c := (due{at: m.at, rank: m.Rank, move: m}); !found || c.before(next) {
					next, found = c, true
				}
			}
		}
		if !found {
			return
		}
		if d.players != nil {
			d.at = next.at
		}
		if next.move != nil {
			d.players.play(next.move)
		} else {
			delete(d.timers, next.timer)
			d.apply(engine.TimerExpired(next.timer), "timer")
		}
		if d.players != nil {
			d.players.schedule()
		}
		d.at = time.Time{}
	}
}

// feedClock gives the engine the judge's wall clock when its minute changed
// (the clock rule, A8, reads it; the engine never reads a clock).
func (d *Daemon) feedClock() {
	now := d.now()
	if w := d.cfg.Wall; w != nil {
		start := time.Date(2000, 1, 1, w.Hour, w.Minute, 0, 0, time.UTC)
		now = start.Add(time.Duration(float64(now.Sub(d.started)) * d.cfg.Speed))
	}
	m := now.Hour()*60 + now.Minute()
	if m == d.minute {
		return
	}
	d.minute = m
	d.apply(engine.Clock(now.Hour(), now.Minute()), "clock")
}

// cutsTheLine: inputs after which the line being spoken is stale.
func cutsTheLine(in engine.Input) bool {
	switch in.Kind {
	case engine.InPedal:
		return in.Pedal == engine.PedalShort || in.Pedal == engine.PedalLong
	case engine.InJudge:
		return in.Judge == engine.JudgeRepeat
	}
	return false
}

func (d *Daemon) report(e Event) {
	if d.cfg.OnEvent != nil {
		d.cfg.OnEvent(e)
	}
}

func copyEffect(e engine.Effect) *engine.Effect {
	c := e
	c.Args = append([]int(nil), e.Args...)
	if e.Record != nil {
		r := *e.Record
		c.Record = &r
	}
	return &c
}

func (d *Daemon) handle(effs []engine.Effect) {
	now := d.now()
	for _, e := range effs {
		ev := Event{At: now, Effect: copyEffect(e)}
		switch e.Kind {
		case engine.EffSay:
			ev.Text, _ = d.cat.Render(e.Line, e.Args)
			if l, _ := d.cat.Lookup(e.Line); l.Untap { // a step the tapped seats woke in closes
				for i := range d.lights {
					if d.lights[i].Private {
						d.lights[i].Private, d.dirty = false, true
					}
				}
			}
			if d.cfg.Voice != nil {
				d.cfg.Voice.Say(e.Line, ev.Effect.Args)
			}
		case engine.EffCue:
			ev.Text, _ = d.cat.Render(e.Line, e.Args)
			if l, _ := d.cat.Lookup(e.Line); l.Tap && e.Seat >= 1 && e.Seat <= len(d.lights) {
				d.lights[e.Seat-1].Private = true // the judge's tap: the seat's private indicator, where the table has one
				d.dirty = true
			}
		case engine.EffLight:
			if e.Seat >= 1 && e.Seat <= len(d.lights) {
				d.lights[e.Seat-1] = hw.SeatLight{Color: color(e.Light), Pulse: e.Pulse}
				d.dirty = true
			}
		case engine.EffTimerStart:
			d.arm(e.Timer, time.Duration(e.Seconds)*time.Second, e.Seconds)
		case engine.EffTimerCancel:
			if t, ok := d.timers[e.Timer]; ok {
				if t.stop != nil {
					t.stop.Stop()
				}
				delete(d.timers, e.Timer)
			}
		case engine.EffPause:
			d.pause()
		case engine.EffResume:
			d.resume()
		}
		d.report(ev)
	}
}

func color(l engine.Light) hw.Color {
	switch l {
	case engine.LightGreen:
		return hw.Green
	case engine.LightRed:
		return hw.Red
	case engine.LightBlue:
		return hw.Blue
	}
	return hw.Off
}

func (d *Daemon) scaled(dur time.Duration) time.Duration {
	return time.Duration(float64(dur) / d.cfg.Speed)
}

// arm starts a timer of the engine; game time runs Speed times faster.
func (d *Daemon) arm(id engine.TimerID, dur time.Duration, seconds int) {
	t := &armed{seconds: seconds}
	d.timers[id] = t
	if d.paused {
		t.remaining = dur
		return
	}
	t.deadline = d.now().Add(d.scaled(dur))
	t.stop = d.after(t.deadline)
}

func (d *Daemon) pause() {
	d.paused = true
	now := d.now()
	for _, t := range d.timers {
		if t.stop != nil {
			t.stop.Stop()
			t.stop = nil
			t.remaining = time.Duration(float64(t.deadline.Sub(now)) * d.cfg.Speed)
		}
	}
}

func (d *Daemon) resume() {
	d.paused = false
	for id, t := range d.timers {
		rem := t.remaining
		if rem < 0 {
			rem = 0
		}
		delete(d.timers, id)
		d.arm(id, rem, t.seconds)
	}
}

func (d *Daemon) stopPlayers() {
	if d.players != nil {
		d.players.clear()
	}
}

func (d *Daemon) stopTimers() {
	for _, t := range d.timers {
		if t.stop != nil {
			t.stop.Stop()
		}
	}
}

func (d *Daemon) flushLights() {
	if !d.dirty {
		return
	}
	d.dirty = false
	if err := d.cfg.Table.SetLights(append([]hw.SeatLight(nil), d.lights...)); err != nil {
		d.log.Warn("lights not set", "err", err)
	}
}

// onTable maps a table event to engine inputs: a seat types a number and
// OK (CLR clears it), or presses a gesture key; the pedal's presses map
// through the PedalMap. Only key-down edges count.
func (d *Daemon) onTable(ev hw.Event) {
	defer ev.Receipt.Done() // after the journal has the input (or it is none): the table may ack it now
	switch ev.Kind {
	case hw.EventLink:
		l := ev.Link
		d.report(Event{At: d.now(), Link: &l})
		if !l.Up {
			d.log.Warn("table link down", "detail", l.Detail)
		}
	case hw.EventPedal:
		p := d.cfg.Pedal.Short
		switch ev.Pedal {
		case hw.PedalLong:
			p = d.cfg.Pedal.Long
		case hw.PedalDouble:
			p = d.cfg.Pedal.Double
		}
		d.apply(engine.Pedal(p), "pedal")
	case hw.EventKey:
		d.onKey(ev.Key)
	}
}
