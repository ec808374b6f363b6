package daemon

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/bots"
	"wolftable/daemon/daemontest"
	"wolftable/engine"
	"wolftable/hw"
)

// table is a minimal hw.Table for these tests.
type table struct {
	mu     sync.Mutex
	seats  int
	events chan hw.Event
	lights [][]hw.SeatLight
}

func newTable(n int) *table { return &table{seats: n, events: make(chan hw.Event, 16)} }

func (t *table) Seats() int { return t.seats }
func (t *table) SetLights(l []hw.SeatLight) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lights = append(t.lights, l)
	return nil
}
func (t *table) Events() <-chan hw.Event { return t.events }
func (t *table) Close() error            { return nil }
func (t *table) last() []hw.SeatLight {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.lights) == 0 {
		return nil
	}
	return t.lights[len(t.lights)-1]
}

type memJournal struct {
	recs   []Recorded
	result string
}

func (j *memJournal) Start(g *engine.Game, wall time.Time, source string) ([]engine.Effect, error) {
	return g.Start()
}

func (j *memJournal) Apply(g *engine.Game, wall time.Time, source string, in engine.Input) ([]engine.Effect, error) {
	j.recs = append(j.recs, Recorded{In: in, At: wall, Source: source})
	return g.Apply(in)
}

func (j *memJournal) Finish(wall time.Time, result string) error {
	j.result = result
	return nil
}

// sync waits until the daemon has handled everything due so far (Alive
// is a barrier: TestAliveRunsWhatIsDue).
func (d *Daemon) sync(t *testing.T) {
	t.Helper()
	d.Alive(context.Background())
}

func newGame(t *testing.T, board string, seed uint64) *engine.Game {
	b, err := boards.Get(board)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.New(engine.Config{Board: b, Deal: engine.Deal(b, seed), Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

type recorder struct {
	mu      sync.Mutex
	records []string
	result  string
}

func (r *recorder) on(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e.Effect != nil && e.Effect.Kind == engine.EffRecord {
		b, _ := json.Marshal(e.Effect.Record)
		r.records = append(r.records, string(b))
		if e.Effect.Record.Type == engine.RecResult {
			r.result = e.Effect.Record.Result
		}
	}
}

// runToEnd drives the fake clock until Run returns.
func runToEnd(t *testing.T, d *Daemon, clock *daemontest.FakeClock) error {
	t.Helper()
	errc := make(chan error, 1)
	go func() { errc <- d.Run(context.Background()) }()
	for i := 0; i < 100000; i++ {
		select {
		case err := <-errc:
			return err
		default:
		}
		d.sync(t)
		next, ok := clock.Next()
		if !ok {
			select {
			case err := <-errc:
				return err
			case <-time.After(2 * time.Second):
				t.Fatal("the daemon waits with no timer")
			}
		}
		clock.Advance(next.Sub(clock.Now()))
	}
	t.Fatal("the game did not end")
	return nil
}

// TestBotGameEndsAndReplays: a whole game on the daemon with random players,
// the fake clock and a journal; replaying the journal gives the same record.
func TestBotGameEndsAndReplays(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		start := time.Date(2026, 11, 29, 20, 15, 0, 0, time.UTC)
		clock := daemontest.NewFakeClock(start)
		g := newGame(t, "seer-witch-hunter-idiot", seed)
		tab := newTable(12)
		j := &memJournal{}
		rec := &recorder{}
		d, err := New(Config{Game: g, Table: tab, Clock: clock, Journal: j, OnEvent: rec.on, Player: &bots.TablePlayer{Seed: seed}})
		if err != nil {
			t.Fatal(err)
		}
		if err := runToEnd(t, d, clock); err != nil {
			t.Fatal(err)
		}
		if rec.result == "" || j.result != rec.result {
			t.Fatalf("seed %d: result %q, journal end %q", seed, rec.result, j.result)
		}
		// the lights the table shows match the engine: out seats are off
		last := tab.last()
		for s := 1; s <= 12; s++ {
			if g.Seat(s).Out && last[s-1].Color != hw.Off {
				t.Errorf("seed %d: seat %d is out but its light is %v", seed, s, last[s-1].Color)
			}
		}
		// replay the journal into a fresh game: the same record
		g2 := newGame(t, "seer-witch-hunter-idiot", seed)
		var replayed []string
		r, err := Replay(g2, start, 1, j.recs)
		if err != nil {
			t.Fatal(err)
		}
		_ = r
		if over, w := g2.Over(); !over || string(w) != rec.result {
			t.Fatalf("seed %d: replay ended %v %q, live %q", seed, over, w, rec.result)
		}
		_ = replayed
	}
}

// TestSeatKeysBecomeInputs: digits + OK is a target, CLR clears, gestures
// map, unknown keys are ignored.
func TestSeatKeysBecomeInputs(t *testing.T) {
	g := newGame(t, "seer-witch-hunter-idiot", 1)
	d, err := New(Config{Game: g, Table: newTable(12)})
	if err != nil {
		t.Fatal(err)
	}
	type step struct {
		k    hw.Key
		want *engine.Input
	}
	ti := func(in engine.Input) *engine.Input { return &in }
	steps := []step{
		{hw.Key1, nil}, {hw.Key2, nil}, {hw.KeyOK, ti(engine.SeatTarget(3, 12))},
		{hw.Key7, nil}, {hw.KeyCLR, nil}, {hw.Key9, nil}, {hw.KeyOK, ti(engine.SeatTarget(3, 9))},
		{hw.KeyOK, ti(engine.SeatTarget(3, 0))},
		{hw.Key1, nil}, {hw.Key1, nil}, {hw.Key5, nil}, {hw.KeyOK, ti(engine.SeatTarget(3, 5))},
		{hw.KeyUp, ti(engine.SeatGesture(3, engine.ActUp))},
		{hw.KeyBoom, ti(engine.SeatGesture(3, engine.ActBoom))},
		{hw.KeyHand, ti(engine.SeatGesture(3, engine.ActHand))},
		// a key the panel does not have is ignored, never "points at seat
		// 0" (an empty knife, an abstention), and keeps the typed number
		{hw.Key4, nil}, {hw.Key(200), nil}, {hw.KeyOK, ti(engine.SeatTarget(3, 4))},
	}
	for i, s := range steps {
		in, ok := d.keyInput(3, s.k)
		if ok != (s.want != nil) || (ok && in != *s.want) {
			t.Fatalf("step %d key %v: got %v %+v", i, s.k, ok, in)
		}
	}
}

// TestPauseKeepsRemainingTime: a pause stops the game clock; resume re-arms
// timers with what was left.
func TestPauseKeepsRemainingTime(t *testing.T) {
	start := time.Date(2026, 11, 29, 20, 15, 0, 0, time.UTC)
	clock := daemontest.NewFakeClock(start)
	g := newGame(t, "seer-witch-hunter-idiot", 1)
	d, err := New(Config{Game: g, Table: newTable(12), Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { errc <- d.Run(ctx) }()
	d.sync(t)
	next, _ := clock.Next()
	left := next.Sub(clock.Now())
	clock.Advance(left / 2)
	if err := d.Submit(ctx, engine.Pedal(engine.PedalDouble), "pedal"); err != nil {
		t.Fatal(err)
	}
	if _, ok := clock.Next(); ok {
		t.Fatal("a timer still runs while paused")
	}
	clock.Advance(time.Hour)
	if err := d.Submit(ctx, engine.Pedal(engine.PedalDouble), "pedal"); err != nil {
		t.Fatal(err)
	}
	n2, ok := clock.Next()
	if !ok {
		t.Fatal("no timer after resume")
	}
	if got := n2.Sub(clock.Now()); got < left/2-time.Second || got > left/2+time.Second {
		t.Fatalf("after resume the next timer is %v away, want about %v", got, left/2)
	}
}

// TestBotGameIgnoresLag: the same seed plays the same game whether the
// daemon handles each timer and bot move as it falls due or wakes up late
// with many due at once (a loaded machine): due things are handled in the
// order of their times, on the game's timeline.
func TestBotGameIgnoresLag(t *testing.T) {
	play := func(jump time.Duration) ([]string, []Recorded) {
		start := time.Date(2026, 11, 29, 20, 15, 0, 0, time.UTC)
		clock := daemontest.NewFakeClock(start)
		g := newGame(t, "seer-witch-hunter-idiot", 5)
		j := &memJournal{}
		rec := &recorder{}
		d, err := New(Config{Game: g, Table: newTable(12), Clock: clock, Journal: j, OnEvent: rec.on,
			Player: &bots.TablePlayer{Seed: 5}, Wall: &WallTime{Hour: 20, Minute: 15}})
		if err != nil {
			t.Fatal(err)
		}
		errc := make(chan error, 1)
		go func() { errc <- d.Run(context.Background()) }()
		for i := 0; ; i++ {
			select {
			case err := <-errc:
				if err != nil {
					t.Fatal(err)
				}
				return rec.records, j.recs
			default:
			}
			if i > 100000 {
				t.Fatal("the game did not end")
			}
			d.sync(t)
			if jump == 0 {
				next, ok := clock.Next()
				if !ok {
					continue
				}
				clock.Advance(next.Sub(clock.Now()))
			} else {
				clock.Advance(jump)
			}
		}
	}
	want, wantIn := play(0)
	got, gotIn := play(17 * time.Second)
	if len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("a late daemon plays another game:\n got %d records\nwant %d", len(got), len(want))
	}
	if len(gotIn) != len(wantIn) {
		t.Fatalf("%d inputs late, %d on time", len(gotIn), len(wantIn))
	}
	for i := range wantIn {
		if gotIn[i] != wantIn[i] {
			t.Fatalf("input %d: late %+v, on time %+v", i, gotIn[i], wantIn[i])
		}
	}
}
