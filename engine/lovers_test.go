package engine_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"wolftable/boards"
	"wolftable/bots"
	"wolftable/engine"
)

// nightOne plays night 1 of a deal with the fixed pace: at each time the
// inputs of that time are applied before the timers due then; it returns
// the public effects of the night's steps (the lines said and the lights,
// with their times) and the lengths of the timers started, leaving out the
// effects of the inputs in skip (a judge's DQ, itself public). The lovers
// linked (hidden) go to linked.
func nightOne(t *testing.T, b *engine.Board, deal []engine.Role, inputs map[int][]engine.Input, skip map[engine.Input]bool, linked *[]int) []string {
	t.Helper()
	g, err := engine.New(engine.Config{Board: b, Deal: deal, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	type pending struct {
		id  engine.TimerID
		due int
	}
	var timers []pending
	var out []string
	now := 0
	take := func(effs []engine.Effect, public bool) bool {
		for _, e := range effs {
			switch e.Kind {
			case engine.EffTimerStart:
				timers = append(timers, pending{e.Timer, now + e.Seconds})
				if public {
					out = append(out, fmt.Sprintf("%d timer %d", now, e.Seconds))
				}
			case engine.EffTimerCancel:
				for i, p := range timers {
					if p.id == e.Timer {
						timers = append(timers[:i], timers[i+1:]...)
						break
					}
				}
			case engine.EffSay:
				if public {
					out = append(out, fmt.Sprintf("%d say %s %v", now, e.Line, e.Args))
				}
			case engine.EffLight:
				if public {
					out = append(out, fmt.Sprintf("%d light %d %v", now, e.Seat, e.Light))
				}
			case engine.EffRecord:
				if e.Record.Type == engine.RecPhase && e.Record.When == "day-1" {
					return true
				}
			}
		}
		return false
	}
	effs, err := g.Start()
	if err != nil {
		t.Fatal(err)
	}
	take(effs, true)
	done := map[int]bool{}
	for len(timers) > 0 {
		next := timers[0]
		for _, p := range timers {
			if p.due < next.due {
				next = p
			}
		}
		applied := false
		for at, ins := range inputs {
			if done[at] || at > next.due {
				continue
			}
			done[at], applied = true, true
			if at > now {
				now = at
			}
			for _, in := range ins {
				effs, err := g.Apply(in)
				if err != nil {
					t.Fatalf("at %d: %+v: %v", now, in, err)
				}
				for _, e := range effs {
					if e.Kind == engine.EffRecord && e.Record.Type == engine.RecLovers {
						*linked = append(*linked, e.Record.Seat, e.Record.Target)
					}
				}
				if take(effs, !skip[in]) {
					return out
				}
			}
			break
		}
		if applied {
			continue
		}
		now = next.due
		for i, p := range timers {
			if p.id == next.id {
				timers = append(timers[:i], timers[i+1:]...)
				break
			}
		}
		effs, err := g.Apply(engine.TimerExpired(next.id))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range effs {
			if e.Kind == engine.EffRecord && e.Record.Type == engine.RecLovers {
				*linked = append(*linked, e.Record.Seat, e.Record.Target)
			}
		}
		if take(effs, true) {
			return out
		}
	}
	return out
}

func sameNight(t *testing.T, what string, a, b []string) {
	t.Helper()
	if len(a) < 20 {
		t.Fatalf("%s: only %d public effects in the night", what, len(a))
	}
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		for i := 0; i < len(a) && i < len(b); i++ {
			if a[i] != b[i] {
				t.Fatalf("%s: the nights differ at %d: %q vs %q", what, i, a[i], b[i])
			}
		}
		t.Fatalf("%s: the nights differ in length: %d vs %d", what, len(a), len(b))
	}
}

// TestCupidA15: 丘比特's and the 情侶 steps look and last the same whether he
// links two players, links nobody, or was DQ'd before he could act (A15).
func TestCupidA15(t *testing.T) {
	b, err := boards.Get("cupid-7-001")
	if err != nil {
		t.Fatal(err)
	}
	// 1女 2預 3丘 4狼 5狼 6村 7村
	deal := []engine.Role{engine.Witch, engine.Seer, engine.Cupid, engine.Werewolf, engine.Werewolf, engine.Villager, engine.Villager}
	var l1, l2, l3 []int
	linked := nightOne(t, b, deal, map[int][]engine.Input{5: {engine.SeatTarget(3, 4), engine.SeatTarget(3, 6)}}, nil, &l1)
	none := nightOne(t, b, deal, map[int][]engine.Input{5: {engine.SeatGesture(3, engine.ActWave)}}, nil, &l2)
	dq := engine.Judge(engine.JudgeDQ, 3, 0)
	dead := nightOne(t, b, deal, map[int][]engine.Input{1: {dq}}, map[engine.Input]bool{dq: true}, &l3)
	if fmt.Sprint(l1, l2, l3) != "[4 6] [] []" {
		t.Fatalf("lovers %v %v %v, want 4 and 6 in the first night only", l1, l2, l3)
	}
	sameNight(t, "linked vs none", linked, none)
	sameNight(t, "linked vs dead", linked, dead)
}

// TestSuccubusA15: 魅魔's steps look and last the same whether she picks, lets
// the engine pick, or was DQ'd before her step (A15).
func TestSuccubusA15(t *testing.T) {
	src, err := os.ReadFile("../scenarios/testboards/succubus-test.board")
	if err != nil {
		t.Fatal(err)
	}
	b, err := boards.Parse("succubus-test.board", src)
	if err != nil {
		t.Fatal(err)
	}
	// 1魅 2狼 3狼 4預 5女 6獵 7守 8村 9村; the guard's step is 0..30, the wolves' 30..120, hers 120..150
	deal := []engine.Role{engine.Succubus, engine.Werewolf, engine.Werewolf, engine.Seer, engine.Witch, engine.Hunter, engine.Guard, engine.Villager, engine.Villager}
	var l1, l2, l3 []int
	picks := nightOne(t, b, deal, map[int][]engine.Input{125: {engine.SeatTarget(1, 9)}}, nil, &l1)
	random := nightOne(t, b, deal, nil, nil, &l2)
	dq := engine.Judge(engine.JudgeDQ, 1, 0)
	dead := nightOne(t, b, deal, map[int][]engine.Input{1: {dq}}, map[engine.Input]bool{dq: true}, &l3)
	if len(l1) != 2 || l1[1] != 9 || len(l2) != 2 || l2[1] == 9 || len(l3) != 0 {
		t.Fatalf("lovers %v %v %v, want 1 and 9, 1 and a random non-wolf, none", l1, l2, l3)
	}
	sameNight(t, "picks vs random", picks, random)
	sameNight(t, "picks vs dead", picks, dead)
}

// TestSuccubusLaterNights: with_wolves (default) she keeps waking in the
// wolves' step after night 1; asleep, she does not (G29, H21).
func TestSuccubusLaterNights(t *testing.T) {
	src, err := os.ReadFile("../scenarios/testboards/succubus-test.board")
	if err != nil {
		t.Fatal(err)
	}
	deal := []engine.Role{engine.Succubus, engine.Werewolf, engine.Werewolf, engine.Seer, engine.Witch, engine.Hunter, engine.Guard, engine.Villager, engine.Villager}
	for _, tt := range []struct {
		value string
		want  string
	}{{"with_wolves", "[1 2 3]"}, {"asleep", "[2 3]"}} {
		b, err := boards.Parse("succubus-test.board", src)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Options.Set("succubus.later_nights", tt.value); err != nil {
			t.Fatal(err)
		}
		g, err := engine.New(engine.Config{Board: b, Deal: deal, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		d := bots.New(g, 3)
		if err := d.Start(); err != nil {
			t.Fatal(err)
		}
		if p := g.Awaiting(); p.Night != 1 {
			t.Fatalf("starts on night %d", p.Night)
		}
		for i := 0; ; i++ {
			p := g.Awaiting()
			if p.Step == engine.WaitNight && p.StepKind == engine.StepWolves {
				if got := fmt.Sprint(p.Actors); (p.Night == 1 && got != "[1 2 3]") || (p.Night == 2 && got != tt.want) {
					t.Fatalf("%s: night %d wolves %s", tt.value, p.Night, got)
				}
				if p.Night == 2 {
					break
				}
			}
			if over, _ := g.Over(); over || i > 10000 {
				t.Fatalf("%s: no night-2 wolves step", tt.value)
			}
			if err := d.Advance(); err != nil {
				t.Fatal(err)
			}
		}
	}
}
