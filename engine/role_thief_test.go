package engine_test

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"testing"

	"wolftable/boards"
	"wolftable/bots"
	"wolftable/engine"
)

// thiefBoard is the scenario suite's 14-card thief board.
func thiefBoard(t *testing.T) *engine.Board {
	t.Helper()
	const path = "../scenarios/testboards/thief-test.board"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := boards.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func roles(t *testing.T, names ...string) []engine.Role {
	t.Helper()
	var out []engine.Role
	for _, n := range names {
		ri, ok := engine.LookupRole(n)
		if !ok {
			t.Fatalf("role %q", n)
		}
		out = append(out, ri.ID)
	}
	return out
}

// publicNight1 plays night 1 with no input but the thief's (keys, given to
// seat 1 when the thief step opens) and returns what the table hears and
// sees: every line said and every light, with its time.
func publicNight1(t *testing.T, b *engine.Board, deal, bottom []engine.Role, pace engine.NightPace, keys ...engine.Input) []string {
	t.Helper()
	bb := *b
	bb.Options.NightPace = pace
	g, err := engine.New(engine.Config{Board: &bb, Deal: deal, Bottom: bottom, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	now := 0
	timers := map[engine.TimerID]int{}
	var out []string
	observe := func(effs []engine.Effect) {
		for _, e := range effs {
			switch e.Kind {
			case engine.EffTimerStart:
				timers[e.Timer] = now + e.Seconds
			case engine.EffTimerCancel:
				delete(timers, e.Timer)
			case engine.EffSay:
				out = append(out, fmt.Sprintf("%d say %s %v", now, e.Line, e.Args))
			case engine.EffLight:
				out = append(out, fmt.Sprintf("%d light %d %v %v", now, e.Seat, e.Light, e.Pulse))
			}
		}
	}
	effs, err := g.Start()
	if err != nil {
		t.Fatal(err)
	}
	observe(effs)
	keyed := false
	for i := 0; i < 1000; i++ {
		p := g.Awaiting()
		if p.Over || p.Day > 0 {
			return out
		}
		if !keyed && p.StepKind == engine.StepThief {
			keyed = true
			for _, in := range keys {
				effs, err := g.Apply(in)
				if err != nil {
					t.Fatalf("thief key %+v: %v", in, err)
				}
				observe(effs)
			}
			continue
		}
		var best engine.TimerID
		at := -1
		for id, x := range timers {
			if at < 0 || x < at || (x == at && id < best) {
				best, at = id, x
			}
		}
		if at < 0 {
			t.Fatalf("stuck in %+v", p)
		}
		now = at
		delete(timers, best)
		effs, err := g.Apply(engine.TimerExpired(best))
		if err != nil {
			t.Fatal(err)
		}
		observe(effs)
	}
	t.Fatal("night 1 did not end")
	return nil
}

// TestThiefA15: night 1 sounds and looks the same whether the thief keys
// a card at once, times out, is forced to a wolf card, or does not exist
// (the thief card lies in the bottom): same lines, same times, same lights
// (rules.md A15; rules-more.md D2 盜賊, H19).
func TestThiefA15(t *testing.T) {
	b := thiefBoard(t)
	seated := roles(t, "盜賊", "村民", "女巫", "狼人", "預言家", "村民", "守衛", "狼人", "獵人", "狼人", "愚者", "村民")
	noThief := slices.Clone(seated)
	noThief[0] = engine.Villager
	wolfBottom := slices.Clone(seated)
	wolfBottom[9] = engine.Villager // the third wolf goes to the bottom
	cases := []struct {
		name         string
		deal, bottom []engine.Role
		keys         []engine.Input
	}{
		{"keys card 2 at once", seated, roles(t, "村民", "村民"), []engine.Input{engine.SeatTarget(1, 2)}},
		{"times out", seated, roles(t, "村民", "村民"), nil},
		{"keeps a god", seated[:0:0], nil, nil}, // filled below
		{"forced wolf, confirms", wolfBottom, roles(t, "村民", "狼人"), []engine.Input{engine.SeatTarget(1, 2)}},
		{"forced wolf, times out", wolfBottom, roles(t, "狼人", "村民"), nil},
		{"thief card in the bottom", noThief, roles(t, "盜賊", "村民"), nil},
	}
	god := slices.Clone(seated)
	god[4] = engine.Villager // 預言家 goes to the bottom
	cases[2].deal, cases[2].bottom, cases[2].keys = god, roles(t, "預言家", "村民"), []engine.Input{engine.SeatTarget(1, 1)}
	for _, pace := range []engine.NightPace{engine.PaceFixed, engine.PacePlausible} {
		want := publicNight1(t, b, cases[0].deal, cases[0].bottom, pace, cases[0].keys...)
		if len(want) < 20 {
			t.Fatalf("night 1 has %d public events", len(want))
		}
		for _, c := range cases[1:] {
			if pace == engine.PacePlausible && c.name == "times out" {
				continue // a live actor who keys nothing holds any step open to its window (every role alike)
			}
			got := publicNight1(t, b, c.deal, c.bottom, pace, c.keys...)
			if !slices.Equal(got, want) {
				for i := range want {
					if i >= len(got) || got[i] != want[i] {
						t.Fatalf("pace %v, %s: public event %d differs:\n got  %v\n want %s", pace, c.name, i, got[min(i, len(got)-1)], want[i])
					}
				}
				t.Fatalf("pace %v, %s: %d public events, want %d", pace, c.name, len(got), len(want))
			}
		}
	}
}

// TestThiefKeeps: the kept card is the thief's role from the step on; the
// forced wolf card is kept whatever the thief keys; WAVE and the other
// card are refused with their reasons.
func TestThiefKeeps(t *testing.T) {
	b := thiefBoard(t)
	deal := roles(t, "盜賊", "村民", "女巫", "狼人", "預言家", "村民", "守衛", "狼人", "獵人", "村民", "愚者", "村民")
	g, err := engine.New(engine.Config{Board: b, Deal: deal, Bottom: roles(t, "村民", "狼人"), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Start(); err != nil {
		t.Fatal(err)
	}
	if p := g.Awaiting(); p.StepKind != engine.StepThief || !slices.Equal(p.Actors, []int{1}) {
		t.Fatalf("first step %+v, want the thief's with seat 1", p)
	}
	if g.RoleOf(1) != engine.Werewolf {
		t.Fatalf("the forced wolf card is not the thief's when its step opens: %s", g.RoleOf(1))
	}
	for _, c := range []struct {
		in     engine.Input
		reason engine.Reason
	}{
		{engine.SeatGesture(1, engine.ActWave), engine.ReasonThiefMustTake},
		{engine.SeatTarget(1, 1), engine.ReasonThiefMustWolf},
		{engine.SeatTarget(1, 3), engine.ReasonThiefCard},
	} {
		_, err := g.Apply(c.in)
		var e *engine.Error
		if !errors.As(err, &e) || e.Reason != c.reason {
			t.Errorf("%+v: %v, want reason %s", c.in, err, c.reason)
		}
	}
	if _, err := g.Apply(engine.SeatTarget(1, 2)); err != nil {
		t.Fatal(err)
	}
	if seat, kept, buried := g.ThiefPick(); seat != 1 || kept != engine.Werewolf || buried != engine.Villager {
		t.Fatalf("ThiefPick %d %s %s", seat, kept, buried)
	}
}

// TestThiefDeal: boards with bottom cards never deal a forbidden bottom
// (two wolf-camp cards, or 盜賊 and one), and every deal is the board's
// cards; a forbidden bottom given by hand is refused.
func TestThiefDeal(t *testing.T) {
	b := thiefBoard(t)
	withWolf := 0
	for seed := uint64(1); seed <= 2000; seed++ {
		seats, bottom := engine.DealCards(b, seed)
		wolves, thief := 0, false
		for _, r := range bottom {
			if r.IsWolf() {
				wolves++
			}
			thief = thief || r == engine.Thief
		}
		if wolves > 1 || (thief && wolves > 0) {
			t.Fatalf("seed %d: forbidden bottom %v", seed, bottom)
		}
		all := append(slices.Clone(seats), bottom...)
		want := slices.Clone(b.Roles)
		slices.Sort(all)
		slices.Sort(want)
		if !slices.Equal(all, want) {
			t.Fatalf("seed %d: deal %v + %v", seed, seats, bottom)
		}
		s2, b2 := engine.DealCards(b, seed)
		if !slices.Equal(s2, seats) || !slices.Equal(b2, bottom) {
			t.Fatalf("seed %d: the deal is not deterministic", seed)
		}
		if wolves == 1 {
			withWolf++ // a wolf card at the bottom still happens (the thief takes it)
		}
	}
	if withWolf == 0 {
		t.Fatal("no deal left a wolf card at the bottom in 2000 seeds")
	}
	deal := roles(t, "盜賊", "村民", "女巫", "村民", "預言家", "村民", "守衛", "狼人", "獵人", "村民", "愚者", "村民")
	if _, err := engine.New(engine.Config{Board: b, Deal: deal, Bottom: roles(t, "狼人", "狼人")}); !engine.IsCode(err, engine.ErrBadInput) {
		t.Fatalf("two wolves in the bottom: %v", err)
	}
}

// TestThiefRandomGames: bots play the thief test board (deals with bottom
// cards, the thief's step) to both results, with the random games'
// invariants, and the thief always ends up playing one of its bottom cards.
func TestThiefRandomGames(t *testing.T) {
	b := thiefBoard(t)
	results := map[engine.Winner]int{}
	for seed := uint64(100); seed < 250; seed++ {
		bb := *b
		if seed%2 == 1 {
			bb.Options.NightPace = engine.PacePlausible
		}
		deal, bottom := engine.DealCards(&bb, seed)
		g, err := engine.New(engine.Config{Board: &bb, Deal: deal, Bottom: bottom, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		d := bots.New(g, seed)
		inv := newInvariants(t, g)
		d.BeforeApply = func(engine.Input) { inv.snapshot() }
		d.OnApply = inv.check
		if err := d.Start(); err != nil {
			t.Fatal(err)
		}
		if err := d.Play(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		over, w := g.Over()
		if !over || inv.results != 1 {
			t.Fatalf("seed %d: over=%v results=%d", seed, over, inv.results)
		}
		results[w]++
		checkThiefPick(t, g, deal, fmt.Sprintf("seed %d", seed))
	}
	if results[engine.WinGood] == 0 || results[engine.WinWolves] == 0 {
		t.Fatalf("random games should reach both results: %v", results)
	}
}

// checkThiefPick: at the end of a game with bottom cards, the seat dealt
// the thief card (if any seat was) plays one of the two bottom cards, the
// wolf-camp card when the bottom holds one, and the judge's view names it.
func checkThiefPick(t *testing.T, g *engine.Game, deal []engine.Role, where string) {
	t.Helper()
	bottom := g.Bottom()
	if len(bottom) == 0 {
		return
	}
	thief := slices.Index(deal, engine.Thief) + 1
	seat, kept, buried := g.ThiefPick()
	if thief == 0 {
		if seat != 0 {
			t.Fatalf("%s: the thief card lies in the bottom %v, but seat %d picked %s", where, bottom, seat, kept)
		}
		return // the thief card lies in the bottom
	}
	if seat != thief || g.RoleOf(thief) != kept || !slices.Contains(bottom, kept) || !slices.Contains(bottom, buried) {
		t.Fatalf("%s: thief %d plays %s; pick %d %s (buried %s) from %v", where, thief, g.RoleOf(thief), seat, kept, buried, bottom)
	}
	if thiefForcedWolf(bottom) && !kept.IsWolf() {
		t.Fatalf("%s: a wolf card in the bottom %v, the thief kept %s", where, bottom, kept)
	}
}

func thiefForcedWolf(bottom []engine.Role) bool {
	return slices.ContainsFunc(bottom, engine.Role.IsWolf)
}

// TestThiefTwoVillagers: under thief.extra_cards=two_villagers a board of
// one card a seat deals two more 村民 (two bottom cards).
func TestThiefTwoVillagers(t *testing.T) {
	b := thiefBoard(t)
	bb := *b
	bb.Roles = slices.Clone(b.Roles)
	// the board's list less two 村民: one card a seat
	for i := 0; i < 2; i++ {
		k := slices.Index(bb.Roles, engine.Villager)
		bb.Roles = slices.Delete(bb.Roles, k, k+1)
	}
	if err := bb.Options.Set("thief.extra_cards", "two_villagers"); err != nil {
		t.Fatal(err)
	}
	if len(bb.Roles) != bb.Players || bb.Bottom() != 2 || len(bb.Cards()) != bb.Players+2 {
		t.Fatalf("%d cards listed, %d dealt, %d at the bottom", len(bb.Roles), len(bb.Cards()), bb.Bottom())
	}
	for seed := uint64(1); seed <= 50; seed++ {
		seats, bottom := engine.DealCards(&bb, seed)
		all := append(slices.Clone(seats), bottom...)
		want := bb.Cards()
		slices.Sort(all)
		slices.Sort(want)
		if !slices.Equal(all, want) || len(bottom) != 2 {
			t.Fatalf("seed %d: %v + %v", seed, seats, bottom)
		}
		if _, err := engine.New(engine.Config{Board: &bb, Deal: seats, Bottom: bottom, Seed: seed}); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}
