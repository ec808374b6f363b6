package engine_test

import (
	"fmt"
	"testing"

	"wolftable/engine"
)

// A15 for 黑市商人, 幸運兒 and 村長/長老: a night where the actor lives and
// acts and one where it is dead, used up, a wolf (no gift) or under the
// penalty say the same lines and light the same lights at the same times
// (times from the night's start). The games are played by the A15 harness
// (a15_test.go): every key is given by a named seat, and a refusal the test
// does not declare fails it.

// blackMarket: 1 狼人, 2 村民, 3 女巫, 4 白狼王, 5 預言家, 6 村民, 7 守衛,
// 8 狼人, 9 村長, 10 黑市商人, 11 狼人, 12 村民.
var blackMarket = rolesOf("狼人 村民 女巫 白狼王 預言家 村民 守衛 狼人 村長 黑市商人 狼人 村民")

// elderDeal: 1 狼人, 2 村民, 3 女巫, 4 狼人, 5 預言家, 6 村民, 7 獵人, 8 長老,
// 9 狼人, 10 村民, 11 狼人, 12 村民.
var elderDeal = rolesOf("狼人 村民 女巫 狼人 預言家 村民 獵人 長老 狼人 村民 狼人 村民")

// wolvesKill: every wolf of the step keys seat (0: an empty knife).
func wolvesKill(n, seat int) keysFn {
	return stepKeys(fmt.Sprintf("night %d wolves", n),
		func(p engine.Prompt) bool {
			return p.Step == engine.WaitNight && p.Night == n && p.StepKind == engine.StepWolves
		},
		func(p engine.Prompt) []key {
			var out []key
			for _, a := range p.Actors {
				out = append(out, accept(engine.SeatTarget(a, seat))...)
			}
			return out
		})
}

// exileVotes: on day n, each voter of votes (voter → target) votes.
func exileVotes(n int, votes map[int]int) keysFn {
	return voteKeys(n, engine.VoteExile, func(engine.Prompt) []key {
		var out []key
		for v := 1; v <= 12; v++ {
			if x, ok := votes[v]; ok {
				out = append(out, accept(engine.SeatTarget(v, x))...)
			}
		}
		return out
	})
}

// allBut: every seat but the skipped ones votes x.
func allBut(x int, skip ...int) map[int]int {
	m := map[int]int{}
	for v := 1; v <= 12; v++ {
		m[v] = x
	}
	for _, s := range skip {
		delete(m, s)
	}
	return m
}

// target and wave are seat's keys in night n's step kind.
func target(n int, kind engine.StepKind, seat, x int) keysFn {
	return nightKeys(n, kind, accept(engine.SeatTarget(seat, x)))
}

func wave(n int, kind engine.StepKind, seat int) keysFn {
	return nightKeys(n, kind, accept(engine.SeatGesture(seat, engine.ActWave)))
}

// trade: on night 1 the merchant (seat 10) gives lucky the gift (1 眼鏡, 2
// 毒藥, 3 獵槍).
func trade(lucky, gift int) keysFn {
	return nightKeys(1, engine.StepMerchant, accept(engine.SeatTarget(10, lucky), engine.SeatTarget(10, gift)))
}

// bmNight1 is night 1 on the black-market board: the merchant's keys, the
// guard on 7, the knife, the witch waving, the seer checking 4.
func bmNight1(merchant keysFn, kill int) keysFn {
	return both(merchant, target(1, engine.StepGuard, 7, 7), wolvesKill(1, kill),
		wave(1, engine.StepWitch, 3), target(1, engine.StepSeer, 5, 4))
}

// bmNight2 is night 2: the guard on 5, the knife on 12, the witch waving,
// the seer on 8.
func bmNight2() keysFn {
	return both(target(2, engine.StepGuard, 7, 5), wolvesKill(2, 12),
		wave(2, engine.StepWitch, 3), target(2, engine.StepSeer, 5, 8))
}

// bmNight3 is night 3: the guard on 7, an empty knife, the witch waving,
// the seer on 11.
func bmNight3() keysFn {
	return both(target(3, engine.StepGuard, 7, 7), wolvesKill(3, 0),
		wave(3, engine.StepWitch, 3), target(3, engine.StepSeer, 5, 11))
}

// bmTrace is night n's public trace of deal on board, keys given.
func bmTrace(t *testing.T, board string, deal []engine.Role, n int, keys ...keysFn) []string {
	t.Helper()
	return a15Game{board: board, deal: deal, keys: both(keys...), from: n, to: n}.trace(t)
}

func TestA15Merchant(t *testing.T) {
	const bm = "black-market-003"
	// the merchant keys both, or lets time run out (the engine draws)
	sameTrace(t, "merchant keyed vs timeout", bmTrace(t, bm, blackMarket, 1, bmNight1(trade(6, 1), 2)),
		bmTrace(t, bm, blackMarket, 1, bmNight1(nil, 2)))
	// night 2: the lucky one (6) checks 1 with the glasses
	alive := bmTrace(t, bm, blackMarket, 2, bmNight1(trade(6, 1), 2), bmNight2(), target(2, engine.StepLucky, 6, 1))
	dead := bmTrace(t, bm, blackMarket, 2, bmNight1(trade(6, 1), 6), bmNight2())
	wolf := bmTrace(t, bm, blackMarket, 2, bmNight1(trade(8, 1), 2), bmNight2())
	gun := bmTrace(t, bm, blackMarket, 2, bmNight1(trade(6, 3), 2), bmNight2())
	sameTrace(t, "lucky alive (glasses) vs dead", alive, dead)
	sameTrace(t, "lucky alive (glasses) vs a wolf lucky one", alive, wolf)
	sameTrace(t, "lucky alive (glasses) vs gun status", alive, gun)
	used := bmTrace(t, bm, blackMarket, 3, bmNight1(trade(6, 1), 2), bmNight2(), target(2, engine.StepLucky, 6, 1), bmNight3())
	unused := bmTrace(t, bm, blackMarket, 3, bmNight1(trade(6, 2), 2), bmNight2(), bmNight3(), target(3, engine.StepLucky, 6, 8))
	sameTrace(t, "lucky used up vs using the poison", used, unused)
}

func TestA15Chief(t *testing.T) {
	const bm = "black-market-003"
	n2 := both(wolvesKill(2, 12), wave(2, engine.StepWitch, 3))
	alive := bmTrace(t, bm, blackMarket, 2, bmNight1(trade(6, 1), 2), n2)
	// the chief (9) exiled on day 1 by everyone else (2 died on night 1)
	exiled := bmTrace(t, bm, blackMarket, 2, bmNight1(trade(6, 1), 2), exileVotes(1, allBut(9, 2, 9)), n2)
	sameTrace(t, "村長 alive vs exiled (penalty: every good skill blocked)", alive, exiled)
}

func TestA15Elder(t *testing.T) {
	const eb = "swhe-12-001"
	n1 := func(kill int) keysFn {
		return both(wolvesKill(1, kill), wave(1, engine.StepWitch, 3), target(1, engine.StepSeer, 5, 1))
	}
	n2 := both(wolvesKill(2, 12), wave(2, engine.StepWitch, 3))
	alive := bmTrace(t, eb, elderDeal, 2, n1(2), n2)
	// the elder (8) exiled on day 1 by everyone else (2 died on night 1)
	exiled := bmTrace(t, eb, elderDeal, 2, n1(2), exileVotes(1, allBut(8, 2, 8)), n2)
	sameTrace(t, "長老 alive vs exiled", alive, exiled)
	// his first hit (hidden from the witch) vs an ordinary victim
	sameTrace(t, "長老's first hit vs a villager knifed", bmTrace(t, eb, elderDeal, 1, n1(8)), bmTrace(t, eb, elderDeal, 1, n1(2)))
}
