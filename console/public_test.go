package console

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/bots"
	"wolftable/daemon"
	"wolftable/engine"
)

// leakCheck holds what the table said and cued in a game, to check the
// public view against.
type leakCheck struct {
	mu      sync.Mutex
	said    map[string]bool
	cues    map[string]bool
	reveals map[string]bool // "seat:name"
	checked int
	nights  int
	deaths  int
	votes   int
}

func newLeakCheck() *leakCheck {
	return &leakCheck{said: map[string]bool{}, cues: map[string]bool{}, reveals: map[string]bool{}}
}

func (lc *leakCheck) observe(e daemon.Event) {
	x := e.Effect
	if x == nil {
		return
	}
	lc.mu.Lock()
	defer lc.mu.Unlock()
	switch x.Kind {
	case engine.EffSay:
		lc.said[e.Text] = true
	case engine.EffCue:
		lc.cues[e.Text] = true
	case engine.EffRecord:
		if r := x.Record; r.Type == engine.RecReveal {
			lc.reveals[fmt.Sprintf("%d:%s", r.Seat, r.Role.Name())] = true
		}
	}
}

// Keys the public JSON never has: they would hold roles, cues, the seats'
// inputs, the night's actions or the judge's record.
var hiddenKeys = map[string]bool{
	"role": true, "roles": true, "deal": true, "camp": true, "cue": true, "cues": true, "gesture": true,
	"inputs": true, "input": true, "action": true, "actions": true, "check": true, "checks": true, "by": true,
	"causes": true, "dying": true, "revealed": true, "actors": true, "wake": true, "step": true, "records": true,
	"refused": true, "seed": true, "live_vote": true, "timers": true, "source": true, "link": true,
}

// Values the public JSON never has: night action kinds and the causes of
// night deaths.
var hiddenValues = map[string]bool{
	"kill": true, "guard": true, "save": true, "poison": true, "charm": true, "dream": true, "fear": true,
	"lock": true, "hunt": true, "signup": true, "withdraw": true, "wolf": true, "reflect": true, "check": true,
}

// Fields whose text may name a role: the lines the voice spoke (checked
// against what it said), the board's name, the winning side, a card turned
// over in front of everyone (checked against the reveals).
var freeText = map[string]bool{"lines[]": true, "line": true, "game.name": true, "result": true, "reveals[].role_name": true}

// check asserts one public JSON document reveals nothing hidden.
func (lc *leakCheck) check(t testing.TB, doc []byte) {
	t.Helper()
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.checked++
	var v map[string]any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatalf("public JSON: %v", err)
	}
	raw := string(doc)
	for c := range lc.cues {
		if strings.Contains(raw, c) {
			t.Errorf("public JSON holds the cue %q", c)
		}
	}
	for _, frag := range []string{"（拇指向上）", "（拇指向下）", "（比狼爪）", "（擺手）", "（號碼手勢）", "雙前臂交叉"} {
		if strings.Contains(raw, frag) {
			t.Errorf("public JSON holds cue text %q", frag)
		}
	}
	var roleNames []string
	roleIDs := map[string]bool{}
	for _, r := range engine.Roles() {
		roleNames = append(roleNames, r.Name, r.Simplified)
		roleIDs[string(r.ID)] = true
	}
	var walk func(path string, x any)
	walk = func(path string, x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, y := range x {
				if hiddenKeys[k] {
					t.Errorf("public JSON has the key %q at %s", k, path)
				}
				p := k
				if path != "" {
					p = path + "." + k
				}
				walk(p, y)
			}
		case []any:
			for _, y := range x {
				walk(path+"[]", y)
			}
		case string:
			if path == "game.board" {
				return // the board's id (a few are named for a role): the composition is public
			}
			// a death's cause is checked against publicCauses below ("charm"
			// is a night action and also a death announced by day)
			if roleIDs[x] || (hiddenValues[x] && path != "deaths[].cause") {
				t.Errorf("public JSON has %q at %s", x, path)
			}
			if freeText[path] {
				return
			}
			for _, n := range roleNames {
				if strings.Contains(x, n) {
					t.Errorf("public JSON names the role %s at %s: %q", n, path, x)
				}
			}
		}
	}
	walk("", v)

	var st PublicState
	if err := json.Unmarshal(doc, &st); err != nil {
		t.Fatal(err)
	}
	for _, l := range st.Lines {
		if !lc.said[l] {
			t.Errorf("public line %q was never said", l)
		}
	}
	if st.Line != "" && !lc.said[st.Line] {
		t.Errorf("public line %q was never said", st.Line)
	}
	if isNight(st.Phase) {
		lc.nights++
		if st.Timer != nil {
			t.Errorf("a timer at night: %+v", st.Timer)
		}
	}
	seen := map[int]bool{}
	for _, d := range st.Deaths {
		if seen[d.Seat] {
			t.Errorf("seat %d has two public deaths", d.Seat)
		}
		seen[d.Seat] = true
		if d.Cause != "" && !publicCauses[engine.Cause(d.Cause)] {
			t.Errorf("public death of seat %d shows the cause %q", d.Seat, d.Cause)
		}
		if isNight(d.When) && d.Cause != "" && d.Cause != string(engine.CauseDQ) {
			t.Errorf("a night death shows its cause: %+v", d)
		}
	}
	for _, s := range st.Seats {
		if s.Out && !seen[s.Seat] {
			t.Errorf("seat %d is out publicly with no announced death", s.Seat)
		}
	}
	for _, r := range st.Reveals {
		if !lc.reveals[fmt.Sprintf("%d:%s", r.Seat, r.RoleName)] {
			t.Errorf("public reveal %+v was never turned over", r)
		}
	}
	lc.deaths = max(lc.deaths, len(st.Deaths))
	lc.votes = max(lc.votes, len(st.Votes))
}

// TestPublicViewLeaksNothing plays whole games with random players on every
// board and checks the public view after every batch of events the console
// applies: no role, no cue, no night action, no night cause, no night timer.
func TestPublicViewLeaksNothing(t *testing.T) {
	all, err := boards.All()
	if err != nil {
		t.Fatal(err)
	}
	seeds := []uint64{11, 12}
	if testing.Short() {
		seeds = seeds[:1]
	}
	total := 0
	for _, b := range all {
		for _, seed := range seeds {
			t.Run(fmt.Sprintf("%s/%d", b.ID, seed), func(t *testing.T) {
				total += playLeakGame(t, b.ID, seed, false)
			})
		}
	}
	t.Logf("%d public states checked", total)
}

// TestPublicStreamLeaksNothing checks every message of the public live
// stream and the public state over HTTP through a whole game.
func TestPublicStreamLeaksNothing(t *testing.T) {
	playLeakGame(t, "seer-witch-hunter-idiot", 5, true)
}

func playLeakGame(t *testing.T, board string, seed uint64, overHTTP bool) int {
	r := newRig(t, Options{})
	lc := newLeakCheck()
	r.observe = lc.observe
	r.bots = &bots.TablePlayer{Seed: seed}
	done := make(chan struct{})
	var once sync.Once
	check := func() {
		b, err := json.Marshal(r.srv.publicState())
		if err != nil {
			t.Error(err)
			return
		}
		lc.check(t, b)
		if r.srv.publicState().Ended {
			once.Do(func() { close(done) })
		}
	}
	r.srv.onApplied.Store(&check)
	var frames <-chan []byte
	var c *client
	if overHTTP {
		ts := r.serve()
		c = newClient(t, ts.URL)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var err error
		if frames, err = c.sse(ctx, "/api/public/events"); err != nil {
			t.Fatal(err)
		}
	}
	r.start(board, nil, seed)
	for i := 0; ; i++ {
		select {
		case <-done:
		default:
			if i > 200000 {
				t.Fatal("the game did not end")
			}
			if st := r.srv.judgeState(); st.Phase == "night-25" && !st.Over {
				// random players can play on for ever: the judge voids it
				if err := r.Submit(context.Background(), engine.Judge(engine.JudgeVoid, 0, 0), "test"); err != nil {
					t.Fatal(err)
				}
			}
			if overHTTP && i%50 == 0 {
				code, b := c.do("GET", "/api/public/state", nil, nil)
				if code != 200 {
					t.Fatalf("public state: %d", code)
				}
				lc.check(t, b)
			}
			if !r.stepBots() {
				time.Sleep(time.Millisecond)
			}
			continue
		}
		break
	}
	r.settle()
	r.srv.onApplied.Store(nil) // no check runs past here
	r.srv.settle(context.Background())
	if overHTTP {
		time.Sleep(3 * minGap) // the last message
		n := 0
		var last PublicState
	drain:
		for {
			select {
			case f, ok := <-frames:
				if !ok {
					break drain
				}
				lc.check(t, f)
				n++
				last = PublicState{}
				if err := json.Unmarshal(f, &last); err != nil {
					t.Fatal(err)
				}
			default:
				break drain
			}
		}
		if n < 2 || !last.Ended {
			t.Errorf("%d live messages, the last one ended=%v", n, last.Ended)
		}
	}
	st := r.srv.publicState()
	if !st.Ended || st.Result == "" {
		t.Errorf("the public view did not see the end: %+v", st.Result)
	}
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if lc.nights == 0 || lc.deaths == 0 {
		t.Errorf("the game checked no night or no death (%d nights, %d deaths)", lc.nights, lc.deaths)
	}
	if len(lc.cues) == 0 {
		t.Errorf("no cue was given: the check proves little")
	}
	return lc.checked
}

// stepBots advances the clock to the next timer for a bot game. Bot inputs
// run inside Advance; timer expiries go through the daemon's channel, which
// holds Advance back when the daemon lags: no exact sync is needed.
func (r *rig) stepBots() bool {
	next, ok := r.clock.Next()
	if !ok {
		return false
	}
	r.clock.Advance(next.Sub(r.clock.Now()))
	runtime.Gosched()
	return true
}

// TestPublicDeathCauses: the public cause of a death is its public cause,
// and a seat's second cause is not shown.
func TestPublicDeathCauses(t *testing.T) {
	var p publicModel
	b, _ := boards.Get("seer-witch-hunter-idiot")
	p.begin(b)
	at := rigStart
	death := func(seat int, c engine.Cause, when string) daemon.Event {
		return daemon.Event{At: at, Effect: &engine.Effect{Kind: engine.EffRecord, Record: &engine.Record{Type: engine.RecDeath, Seat: seat, Cause: c, When: when}}}
	}
	for _, e := range []daemon.Event{
		death(3, engine.CauseWolf, "night-1"), death(3, engine.CausePoison, "night-1"),
		death(4, engine.CausePoison, "night-1"), death(5, engine.CauseDQ, "night-2"),
		death(6, engine.CauseExile, "day-2"), death(7, engine.CauseShot, "day-2"),
		{At: at, Effect: &engine.Effect{Kind: engine.EffRecord, Record: &engine.Record{Type: engine.RecCheck, By: 1, Target: 2, Result: "狼人"}}},
		{At: at, Effect: &engine.Effect{Kind: engine.EffCue, Line: "cue.seer.wolf", Args: []int{1, 2}}, Text: "預言家1號查驗2號：狼人（比狼爪）"},
	} {
		for _, f := range publicFacts(e) {
			p.apply(f, 1)
		}
	}
	st := p.state(at, 1)
	want := []PublicDeath{{Seat: 3, When: "night-1", WhenLabel: "第1夜"}, {Seat: 4, When: "night-1", WhenLabel: "第1夜"},
		{Seat: 5, When: "night-2", WhenLabel: "第2夜", Cause: "dq", CauseLabel: "點殺"},
		{Seat: 6, When: "day-2", WhenLabel: "第2天", Cause: "exile", CauseLabel: "放逐"},
		{Seat: 7, When: "day-2", WhenLabel: "第2天", Cause: "shot", CauseLabel: "槍殺"}}
	if fmt.Sprint(st.Deaths) != fmt.Sprint(want) {
		t.Errorf("deaths\n got %+v\nwant %+v", st.Deaths, want)
	}
	if len(st.Lines) != 0 {
		t.Errorf("a cue reached the public lines: %v", st.Lines)
	}
}
