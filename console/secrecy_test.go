package console

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/daemon"
	"wolftable/engine"
	"wolftable/hw"
)

// The differential test of rules.md A15 (design.md "Secrecy"): two games
// that differ only in a hidden fact — who holds a role, whether it lives at
// night, what it chose at night, whether a seat pressed keys at night, the
// order in which a blind vote's ballots arrived — must give byte-identical
// public traces: every line spoken with its time, every light change, and
// every message of the public live view with its time, on every board,
// under the fake clock. A new role must pass it too: add its night step's
// choice to hiddenChoices.

// hidden is a seat's keys at a moment of the game: in the first step named
// by step (and kind, "" = any), at seconds after the step began.
type hidden struct {
	night, day int    // the game's night or day (the other 0)
	step, kind string // engine step name and kind (night: the step kind)
	at         int    // seconds into the step
	seat       int
	keys       []hw.Key
	dq         int // the judge's 點殺 of this seat instead of keys (public)
	// who, when set, picks the seats at the moment (the step's actors,
	// every voter…): one press each, in the order returned.
	who func(p engine.Prompt) []int
}

// play is one game of a pair: a deal and the seats' presses.
type play struct {
	deal    []engine.Role
	presses []hidden
	// untilDay: the trace ends when this day's first speech begins (or the
	// game ends).
	untilDay int
}

// secrecyTrace plays p on board b and returns its public trace: what the
// table says and lights (in the daemon's order), then the public view's
// messages (in the console's order).
func secrecyTrace(t *testing.T, b *engine.Board, p play) []string {
	t.Helper()
	r := newRig(t, Options{})
	var (
		mu          sync.Mutex
		table, view []string
		seatN       atomic.Int64 // seat inputs the daemon applied or refused
	)
	at := func(x time.Time) string { return fmt.Sprintf("%9.3f", x.Sub(rigStart).Seconds()) }
	add := func(s string) {
		mu.Lock()
		if strings.Contains(s, " public ") {
			view = append(view, s)
		} else {
			table = append(table, s)
		}
		mu.Unlock()
	}
	r.observe = func(e daemon.Event) {
		if e.Input != nil && strings.HasPrefix(e.Source, "seat-") {
			seatN.Add(1)
		}
		if x := e.Effect; x != nil {
			switch x.Kind {
			case engine.EffSay:
				add(at(e.At) + " say " + e.Text)
			case engine.EffLight:
				add(fmt.Sprintf("%s light %d %s pulse=%v", at(e.At), x.Seat, x.Light, x.Pulse))
			}
		}
	}
	var lastPub uint64
	hook := func() {
		// the console's worker, after each batch: a public message goes
		// out exactly when the public version moves
		st := r.srv.publicState()
		if st.Version == lastPub {
			return
		}
		if st.Version < lastPub {
			t.Errorf("the public version went back from %d to %d", lastPub, st.Version)
		}
		lastPub = st.Version
		// How many messages one instant's events make depends on how the
		// console's worker batched them (the scheduler's doing, and the
		// live stream coalesces them anyway): the trace keeps an instant's
		// last state, without the version that counts the batches.
		st.Version = 0
		js, err := json.Marshal(st)
		if err != nil {
			t.Error(err)
			return
		}
		add(at(st.Now) + " public " + string(js))
	}
	r.srv.onApplied.Store(&hook)

	spec := GameSpec{Board: b, Deal: p.deal, Bottom: bottomOf(b, p.deal), Seed: 7}
	g, err := engine.New(spec.Config())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.StartGame(context.Background(), NewGame{Spec: spec, Game: g, OnEvent: r.srv.Attach(spec, g)}); err != nil {
		t.Fatal(err)
	}
	r.settle()

	want := int64(0)
	pressKeys := func(seat int, keys []hw.Key) {
		if err := r.table().Press(seat, keys...); err != nil {
			t.Fatal(err)
		}
		if k := keys[len(keys)-1]; k <= hw.Key9 || k == hw.KeyCLR {
			return // nothing reaches the engine yet: the daemon keeps the digits
		}
		want++
		deadline := time.Now().Add(5 * time.Second)
		for seatN.Load() < want {
			if time.Now().After(deadline) {
				t.Fatalf("seat %d's keys %v never reached the engine", seat, keys)
			}
			time.Sleep(100 * time.Microsecond)
		}
		r.settle()
	}
	lastSeq, stepStart := -1, r.clock.Now()
	var pending []hidden
	used := map[int]bool{}
	for i := 0; i < 5000; i++ {
		pr := g.Awaiting() // the daemon is idle between settles
		if pr.Over || (pr.Day >= p.untilDay && pr.Step == "speech") {
			break
		}
		if seq := g.StepSeq(); seq != lastSeq {
			lastSeq, stepStart, pending = seq, r.clock.Now(), nil
			for i, x := range p.presses {
				if !used[i] && x.step == string(pr.Step) && (x.kind == "" || x.kind == pr.Kind()) &&
					((pr.Day == 0 && x.night == pr.Night) || (pr.Day > 0 && x.day == pr.Day)) {
					used[i] = true // in the first step that matches only
					pending = append(pending, x)
				}
			}
		}
		next, ok := r.clock.Next()
		if len(pending) > 0 {
			x := pending[0]
			due := stepStart.Add(time.Duration(x.at) * time.Second)
			if !ok || !next.Before(due) && !next.Equal(due) {
				pending = pending[1:]
				r.clock.Advance(due.Sub(r.clock.Now()))
				r.settle()
				if x.dq > 0 {
					if err := r.Submit(context.Background(), engine.Judge(engine.JudgeDQ, x.dq, 0), "console"); err != nil {
						t.Fatalf("點殺 %d: %v", x.dq, err)
					}
					r.settle()
					continue
				}
				seats := []int{x.seat}
				if x.who != nil {
					seats = x.who(g.Awaiting())
				}
				for _, s := range seats {
					pressKeys(s, x.keys)
				}
				continue
			}
		}
		if !r.step() {
			break
		}
	}
	mu.Lock()
	defer mu.Unlock()
	var last []string
	for i, x := range view {
		if i+1 < len(view) && view[i+1][:9] == x[:9] {
			continue // the same instant's next state replaces it
		}
		last = append(last, x)
	}
	return append(append([]string(nil), table...), last...)
}

// target is the keys that point at a seat: its number, then OK.
func target(seat int) []hw.Key {
	var keys []hw.Key
	for _, c := range fmt.Sprint(seat) {
		keys = append(keys, hw.Key0+hw.Key(c-'0'))
	}
	return append(keys, hw.KeyOK)
}

func actors(p engine.Prompt) []int { return p.Actors }

func reversed(p engine.Prompt) []int {
	out := make([]int, 0, len(p.Actors))
	for i := len(p.Actors) - 1; i >= 0; i-- {
		out = append(out, p.Actors[i])
	}
	return out
}

// seatsOf lists the seats dealt role r.
func seatsOf(deal []engine.Role, r engine.Role) []int {
	var out []int
	for i, x := range deal {
		if x == r {
			out = append(out, i+1)
		}
	}
	return out
}

// swap returns deal with the roles of seats a and b exchanged.
func swap(deal []engine.Role, a, b int) []engine.Role {
	d := append([]engine.Role(nil), deal...)
	d[a-1], d[b-1] = d[b-1], d[a-1]
	return d
}

// hiddenChoices are night-1 choices that change nothing anyone may learn:
// a check, a guard on a player nobody attacks.
var hiddenChoices = map[string]bool{
	string(engine.StepSeer): true, string(engine.StepGuard): true, string(engine.StepGargoyle): true,
	string(engine.StepPureWhite): true, string(engine.StepWolfWitch): true,
	string(engine.StepThief):     true,                                   // the thief's card (its key, or the timeout's first card)
	string(engine.StepButterfly): true, string(engine.StepStalker): true, // a hug on a villager; 潛行者 cannot act on night 1
	string(engine.StepDemon): true, string(engine.StepFox): true,
	string(engine.StepLucky): true, // 幸運兒: nothing to use on night 1 (a key is refused)
	// rules-more.md D2: the model of 野孩子 and 混血兒 (the test boards below)
	string(engine.StepWildChild): true, string(engine.StepHalfBlood): true,
	string(engine.StepCupid): true, string(engine.StepSuccubus): true, // the lovers (nobody dies of it on night 1 here)
}

// secrecyPair is a pair of games that differ only in a hidden fact.
type secrecyPair struct {
	name string
	a, b play
}

// secrecyPairs builds the pairs for a board.
func secrecyPairs(t *testing.T, b *engine.Board) []secrecyPair {
	deal := engine.Deal(b, 11)
	villagers := seatsOf(deal, engine.Villager)
	witch := seatsOf(deal, engine.Witch)
	if len(villagers) < 2 || len(witch) > 1 {
		t.Fatalf("board %s: the pairs need two villagers and at most one witch (deal %v)", b.ID, deal)
	}
	v, v2, w := villagers[0], villagers[1], 0
	if len(witch) == 1 {
		w = witch[0] // a board without a witch (butterfly-003) skips the witch's presses
	}
	emptyKnife := hidden{night: 1, step: "night", kind: string(engine.StepWolves), at: 3, keys: target(0), who: actors}
	var pairs []secrecyPair

	// the wolves' target and the witch's antidote: a kill saved, or no kill
	if w != 0 {
		pairs = append(pairs, secrecyPair{name: "knife saved vs empty knife",
			a: play{deal: deal, untilDay: 1, presses: []hidden{
				{night: 1, step: "night", kind: string(engine.StepWolves), at: 3, keys: target(v), who: actors},
				{night: 1, step: "night", kind: string(engine.StepWitch), at: 2, seat: w, keys: []hw.Key{hw.KeyUp}},
			}},
			b: play{deal: deal, untilDay: 1, presses: []hidden{emptyKnife}},
		})
	}

	// a check, a guard… made or skipped; the witch waving or not
	var made []hidden
	for _, st := range b.StepsFor(1) {
		if hiddenChoices[string(st.Kind)] {
			keys := target(v2)
			if st.Kind == engine.StepCupid {
				keys = append(keys, target(v)...) // 丘比特 links two seats
			}
			made = append(made, hidden{night: 1, step: "night", kind: string(st.Kind), at: 4, keys: keys, who: actors})
		}
	}
	made = append(made, emptyKnife)
	if w != 0 {
		made = append(made, hidden{night: 1, step: "night", kind: string(engine.StepWitch), at: 5, seat: w, keys: []hw.Key{hw.KeyWave}})
	}
	pairs = append(pairs, secrecyPair{name: "night choices made vs skipped",
		a: play{deal: deal, untilDay: 1, presses: made},
		b: play{deal: deal, untilDay: 1, presses: []hidden{emptyKnife}},
	})

	// a villager presses keys in every night step (refused, or never
	// complete) — or sits still
	var fidget []hidden
	for _, st := range b.StepsFor(1) {
		for i, keys := range [][]hw.Key{target(3), {hw.KeyUp}, {hw.KeyWave}, {hw.Key4}, {hw.KeyBoom}} {
			fidget = append(fidget, hidden{night: 1, step: "night", kind: string(st.Kind), at: 1 + i, seat: v, keys: keys})
		}
	}
	pairs = append(pairs, secrecyPair{name: "a seat presses keys at night vs not",
		a: play{deal: deal, untilDay: 1, presses: append(fidget, emptyKnife)},
		b: play{deal: deal, untilDay: 1, presses: []hidden{emptyKnife}},
	})

	// day 1 exiles seat x; night 2: a role dead (it was x) or alive
	// (another seat holds it and acts), and the blind vote's ballots in
	// another order
	exile := func(x int, order func(engine.Prompt) []int) []hidden {
		return []hidden{emptyKnife,
			{day: 1, step: "vote", kind: "exile", at: 1, keys: target(x), who: order},
			{night: 2, step: "night", kind: string(engine.StepWolves), at: 3, keys: target(0), who: actors},
		}
	}
	roles := []engine.Role{engine.Witch, engine.Seer, engine.Guard, engine.Gargoyle,
		engine.SilenceElder, engine.Stalker, engine.Butterfly}
	for _, role := range roles {
		holders := seatsOf(deal, role)
		if len(holders) != 1 {
			continue
		}
		x := holders[0]
		alive := swap(deal, x, v) // seat x is now a villager; v holds the role
		acts := exile(x, actors)
		switch role {
		case engine.Witch:
			acts = append(acts, hidden{night: 2, step: "night", kind: string(engine.StepWitch), at: 2, seat: v, keys: []hw.Key{hw.KeyWave}})
		case engine.Seer, engine.Guard:
			acts = append(acts, hidden{night: 2, step: "night", kind: string(role), at: 2, seat: v, keys: target(v2)})
		case engine.Butterfly:
			acts = append(acts, hidden{night: 2, step: "night", kind: string(role), at: 2, seat: v, keys: target(v2)}) // a villager: no effect
		case engine.SilenceElder:
			acts = append(acts, hidden{night: 2, step: "night", kind: string(role), at: 2, seat: v, keys: []hw.Key{hw.KeyWave}}) // 空禁: nothing announced
		case engine.Stalker:
			acts = append(acts, hidden{night: 2, step: "night", kind: string(role), at: 2, seat: v, keys: []hw.Key{hw.KeyUp}}) // refused: his vote went to the exiled seat
		}
		pairs = append(pairs, secrecyPair{name: fmt.Sprintf("%s dead vs alive on night 2", role.Name()),
			a: play{deal: deal, untilDay: 2, presses: exile(x, actors)},
			b: play{deal: alive, untilDay: 2, presses: acts},
		})
	}
	// 石像鬼 becomes the last wolf, or not: the judge DQs seats 1-3 of
	// the wolves on day 1 (public); in one game all three are 狼人, in the
	// other one of them is a villager and a 狼人 lives on
	if g := seatsOf(deal, engine.Gargoyle); len(g) == 1 {
		wolves := seatsOf(deal, engine.Werewolf)
		last := wolves[len(wolves)-1]
		var dqs []hidden
		for i, w := range wolves {
			dqs = append(dqs, hidden{day: 1, step: "speech", at: 1 + i, dq: w})
		}
		night2 := func(knife bool) []hidden {
			out := append([]hidden{emptyKnife}, dqs...)
			out = append(out, hidden{day: 1, step: "vote", kind: "exile", at: 1, keys: target(v2), who: actors},
				hidden{night: 2, step: "night", kind: string(engine.StepGargoyleKill), at: 3, seat: g[0], keys: target(0)})
			if knife {
				out = append(out, hidden{night: 2, step: "night", kind: string(engine.StepWolves), at: 3, keys: target(0), who: actors})
			}
			return out
		}
		pairs = append(pairs, secrecyPair{name: "石像鬼 the last wolf vs not on night 2",
			a: play{deal: deal, untilDay: 2, presses: night2(false)},
			b: play{deal: swap(deal, last, v), untilDay: 2, presses: night2(true)},
		})
	}
	// 花蝴蝶 hugs a wolf (the pack's pointing is refused, the judge is cued
	// 技能被禁止) or a villager (the pack agrees on no kill): 平安夜 either way
	// (rules-more.md I4: nothing public changes)
	if bf, wolves := seatsOf(deal, engine.Butterfly), seatsOf(deal, engine.Werewolf); len(bf) == 1 && len(wolves) > 0 {
		hug := func(seat int) []hidden {
			return []hidden{
				{night: 1, step: "night", kind: string(engine.StepButterfly), at: 2, seat: bf[0], keys: target(seat)},
				emptyKnife,
			}
		}
		pairs = append(pairs, secrecyPair{name: "花蝴蝶 hugs a wolf vs a villager",
			a: play{deal: deal, untilDay: 1, presses: hug(wolves[0])},
			b: play{deal: deal, untilDay: 1, presses: hug(v2)},
		})
	}
	pairs = append(pairs, secrecyPair{name: "blind vote ballots in seat order vs reversed",
		a: play{deal: deal, untilDay: 2, presses: exile(v, actors)},
		b: play{deal: deal, untilDay: 2, presses: exile(v, reversed)},
	})
	return pairs
}

func TestSecrecyDifferential(t *testing.T) {
	all, err := boards.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range all {
		t.Run(b.ID, func(t *testing.T) {
			for _, p := range secrecyPairs(t, b) {
				ta, tb := secrecyTrace(t, b, p.a), secrecyTrace(t, b, p.b)
				if len(ta) < 20 {
					t.Fatalf("%s: a trace of %d entries: the game did not run", p.name, len(ta))
				}
				if d := firstDiff(ta, tb); d != "" {
					t.Errorf("%s: the public traces differ (A15):\n%s", p.name, d)
				}
			}
		})
	}
}

// firstDiff shows where two traces part, with some context ("" = equal).
func firstDiff(a, b []string) string {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	if i == n && len(a) == len(b) {
		return ""
	}
	var sb strings.Builder
	for j := max(0, i-3); j < i; j++ {
		fmt.Fprintf(&sb, "    %s\n", clip(a[j]))
	}
	for j := i; j < min(i+3, len(a)); j++ {
		fmt.Fprintf(&sb, "  a %s\n", clip(a[j]))
	}
	for j := i; j < min(i+3, len(b)); j++ {
		fmt.Fprintf(&sb, "  b %s\n", clip(b[j]))
	}
	return sb.String()
}

func clip(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

// TestPublicStreamQuietOnHiddenEvents: a seat's press at night (accepted or
// refused), a cue, a check — none sends a public message, while a public
// change still does at once (issue: every daemon event bumped the public
// view's version and pushed a message within milliseconds).
func TestPublicStreamQuietOnHiddenEvents(t *testing.T) {
	r := newRig(t, Options{})
	ts := r.serve()
	c := newClient(t, ts.URL)
	b, err := boards.Get("seer-witch-hunter-idiot")
	if err != nil {
		t.Fatal(err)
	}
	deal := engine.Deal(b, 5)
	r.start(b.ID, deal, 5)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frames, err := c.sse(ctx, "/api/public/events")
	if err != nil {
		t.Fatal(err)
	}
	quiet := func(what string) {
		t.Helper()
		select {
		case f := <-frames:
			t.Fatalf("%s sent a public message: %.200s", what, f)
		case <-time.After(3 * minGap):
		}
	}
	drain := func() {
		for {
			select {
			case <-frames:
			case <-time.After(3 * minGap):
				return
			}
		}
	}
	<-frames
	r.until("the seer's step", atNight(string(engine.StepSeer)))
	drain()
	seer := seatsOf(deal, engine.Seer)[0]
	villager := seatsOf(deal, engine.Villager)[0]
	presses := []struct {
		seat int
		keys []hw.Key
	}{
		{villager, target(3)}, {villager, []hw.Key{hw.KeyUp}}, {villager, []hw.Key{hw.KeyBoom}},
		{seer, target(99)}, {seer, target(villager)}, // refused, then the check
	}
	for i, p := range presses {
		if err := r.table().Press(p.seat, p.keys...); err != nil {
			t.Fatal(err)
		}
		r.wait(fmt.Sprintf("press %d", i), func(st JudgeState) bool { return len(st.Inputs)+len(st.Refused) > i })
		quiet(fmt.Sprintf("seat %d's keys %v at night", p.seat, p.keys))
	}
	// the step's end is public: its lines go out
	r.step()
	select {
	case <-frames:
	case <-time.After(5 * time.Second):
		t.Fatal("the seer's closing lines sent no public message")
	}
}

// TestSecrecyDifferentialTestBoards runs the same pairs on the test boards
// of the roles a venue puts on its own boards (rules-more.md D2: 野孩子,
// 混血兒, 隱狼, 熊, 老流氓; scenarios/testboards).
func TestSecrecyDifferentialTestBoards(t *testing.T) {
	all, err := boards.LoadDir("../scenarios/testboards")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range all {
		if b.ID != "followers-10" && b.ID != "rogue-9" {
			continue
		}
		t.Run(b.ID, func(t *testing.T) {
			for _, p := range secrecyPairs(t, b) {
				ta, tb := secrecyTrace(t, b, p.a), secrecyTrace(t, b, p.b)
				if len(ta) < 20 {
					t.Fatalf("%s: a trace of %d entries: the game did not run", p.name, len(ta))
				}
				if d := firstDiff(ta, tb); d != "" {
					t.Errorf("%s: the public traces differ (A15):\n%s", p.name, d)
				}
			}
		})
	}
}
