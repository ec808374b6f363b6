package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"wolftable/engine"
)

// The A15 tests of 惡魔, 狐狸 and 賭徒 (rules.md A15, rules-more.md E0.3): a
// night where the role's actor is alive and acts, and one where it is dead,
// used up or has lost its skill, give the same public effects — every line
// said and every light, with its time — and so the same step lengths.

// nightInputs gives a night step's inputs: kind → the keys for its actors.
type nightInputs map[engine.StepKind]func(actors []int) []key

// on gives the inputs on night n (each step of ni's must come).
func (ni nightInputs) on(n int) keysFn {
	var fs []keysFn
	for kind, f := range ni {
		fs = append(fs, stepKeys(fmt.Sprintf("night %d %s", n, kind),
			func(p engine.Prompt) bool {
				return p.Step == engine.WaitNight && p.Night == n && p.StepKind == kind
			},
			func(p engine.Prompt) []key { return f(p.Actors) }))
	}
	return both(fs...)
}

// dqOnDay: the judge DQs seat (public; 0: nobody) at day n's first speech.
func dqOnDay(n, seat int) keysFn {
	if seat == 0 {
		return nil
	}
	return firstKeys(fmt.Sprintf("day %d's DQ", n),
		func(p engine.Prompt) bool { return p.Day == n && p.Step == engine.WaitSpeech },
		func(engine.Prompt) []key { return accept(engine.Judge(engine.JudgeDQ, seat, 0)) })
}

// night2 plays board with deal, without the sheriff: night 1 with n1's
// inputs, day 1 where the judge DQs dq (public; 0 = nobody) and nobody
// votes, night 2 with n2's inputs. It returns night 2's public trace, with
// times from the night's start (the A15 harness, a15_test.go: a refusal
// the inputs do not declare fails the test).
func night2(t *testing.T, board string, deal []engine.Role, n1 nightInputs, dq int, n2 nightInputs) []string {
	t.Helper()
	return a15Game{board: board, deal: deal, from: 2, to: 2,
		setup: func(b *engine.Board) { b.Options.Sheriff = false },
		keys:  both(n1.on(1), dqOnDay(1, dq), n2.on(2))}.trace(t)
}

// pointAt: every actor of the step keys seat.
func pointAt(seat int) func([]int) []key {
	return func(actors []int) []key {
		var out []key
		for _, a := range actors {
			out = append(out, accept(engine.SeatTarget(a, seat))...)
		}
		return out
	}
}

// seatKeys: seat (the role's seat in this game, whether or not it is the
// step's actor) keys target.
func seatKeys(seat, target int) func([]int) []key {
	return func([]int) []key { return accept(engine.SeatTarget(seat, target)) }
}

func rolesOf(s string) []engine.Role {
	var out []engine.Role
	for _, n := range strings.Fields(s) {
		ri, _ := engine.LookupRole(n)
		out = append(out, ri.ID)
	}
	return out
}

// 惡魔: dead (DQ'd on day 1) vs alive and checking on night 2 — the DQ'd
// seat is a villager in the other game, and another seat (6) holds 惡魔.
func TestDemonAliveOrDeadSameNight(t *testing.T) {
	deal := rolesOf("村民 狼人 預言家 惡魔 守衛 村民 女巫 狼人 獵人 村民 狼人 村民")
	n1 := nightInputs{engine.StepWolves: pointAt(0)}
	dead := night2(t, "demon-003", deal, n1, 4, nightInputs{engine.StepWolves: pointAt(0)})
	alive := night2(t, "demon-003", swapSeats(deal, 4, 6), n1, 4,
		nightInputs{engine.StepWolves: pointAt(0), engine.StepDemon: seatKeys(6, 3)})
	sameTrace(t, "惡魔 dead vs alive", dead, alive)
}

// 狐狸 (seat 5): its skill lost (沒有狼人 on night 1: 5,6,7) vs kept (有狼人
// on night 1: 1,2,3) and used on night 2; and dead vs alive (seat 6).
func TestFoxLostOrKeptSameNight(t *testing.T) {
	deal := rolesOf("村民 狼人 女巫 狼人 狐狸 村民 守衛 狼人 獵人 村民 狼人 村民")
	knife := nightInputs{engine.StepWolves: pointAt(0)}
	lostKey := func([]int) []key {
		return refuse(engine.ReasonSkillUsed, "沒有狼人 on night 1: the fox lost its skill", engine.SeatTarget(5, 3))
	}
	lost := night2(t, "fox-003", deal, nightInputs{engine.StepWolves: pointAt(0), engine.StepFox: seatKeys(5, 6)}, 0,
		nightInputs{engine.StepWolves: pointAt(0), engine.StepFox: lostKey})
	kept := night2(t, "fox-003", deal, nightInputs{engine.StepWolves: pointAt(0), engine.StepFox: seatKeys(5, 2)}, 0,
		nightInputs{engine.StepWolves: pointAt(0), engine.StepFox: seatKeys(5, 3)})
	sameTrace(t, "狐狸 lost vs kept", lost, kept)
	dead := night2(t, "fox-003", deal, knife, 5, knife)
	alive := night2(t, "fox-003", swapSeats(deal, 5, 6), knife, 5,
		nightInputs{engine.StepWolves: pointAt(0), engine.StepFox: seatKeys(6, 3)})
	sameTrace(t, "狐狸 dead vs alive", dead, alive)
}

// 賭徒 (seat 9): the bet spent on night 1 (a wolf, who dies — the DQ'd seat
// in the other game, so the day is the same) vs kept and made on night 2;
// and dead vs alive (seat 6).
func TestGamblerUsedOrNotSameNight(t *testing.T) {
	deal := rolesOf("村民 狼人 女巫 白狼王 預言家 村民 守衛 狼人 賭徒 村民 狼人 村民")
	knife := nightInputs{engine.StepWolves: pointAt(0)}
	// game a: the bet on 8 on night 1 (8 dies at night); night 2 the spent
	// gambler keys 11 (refused). Game b: no bet on night 1; 8 is DQ'd on day 1
	// — not public-equal on day 1, so only night 2 is compared; night 2 the
	// gambler bets on 11.
	spent := func([]int) []key {
		return refuse(engine.ReasonSkillUsed, "the one bet of the game was made on night 1", engine.SeatTarget(9, 11))
	}
	used := night2(t, "gambler-003", deal, nightInputs{engine.StepWolves: pointAt(0), engine.StepGambler: seatKeys(9, 8)}, 0,
		nightInputs{engine.StepWolves: pointAt(0), engine.StepGambler: spent})
	fresh := night2(t, "gambler-003", deal, knife, 8,
		nightInputs{engine.StepWolves: pointAt(0), engine.StepGambler: seatKeys(9, 11)})
	sameTrace(t, "賭徒 used vs not", used, fresh)
	dead := night2(t, "gambler-003", deal, knife, 9, knife)
	alive := night2(t, "gambler-003", swapSeats(deal, 9, 6), knife, 9,
		nightInputs{engine.StepWolves: pointAt(0), engine.StepGambler: seatKeys(6, 11)})
	sameTrace(t, "賭徒 dead vs alive", dead, alive)
}
