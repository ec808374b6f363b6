package engine

import (
	"testing"
	"unicode"
)

// TestStepKindNames: every night step kind has a row in the role table and
// a Traditional Chinese name of who it wakes (the console's label), and
// the steps that wake others than their role's holders say so (Wakes).
func TestStepKindNames(t *testing.T) {
	for _, k := range StepKinds() {
		if _, ok := k.Info(); !ok {
			t.Errorf("%s: no row in the role table", k)
			continue
		}
		n := k.Name()
		if n == "" || !unicode.Is(unicode.Han, []rune(n)[0]) {
			t.Errorf("%s: name %q is not Chinese", k, n)
		}
	}
	want := map[StepKind]struct {
		name  string
		wakes Wakes
	}{
		StepWolves:         {"狼人", WakesWolves},
		StepSeer:           {"預言家", WakesRole},
		StepGargoyleKill:   {"石像鬼（刀）", WakesRole},
		StepLovers:         {"情侶", WakesLovers},
		StepSuccubusLovers: {"魅魔情侶", WakesLovers},
	}
	for k, w := range want {
		si, _ := k.Info()
		if k.Name() != w.name || si.Wakes != w.wakes {
			t.Errorf("%s: name %q wakes %d, want %q %d", k, k.Name(), si.Wakes, w.name, w.wakes)
		}
	}
	if StepKind("nosuch").Name() != "nosuch" {
		t.Errorf("an unknown kind's name is %q", StepKind("nosuch").Name())
	}
}

// TestTraitsMatchHooks: the role table's Takes and Duels, which the
// scenario runner reads, say what the role's file does: a role takes a
// seat when exploding exactly when it has dayHooks.exploded, and a role
// that duels reveals by day (dayHooks.boom).
func TestTraitsMatchHooks(t *testing.T) {
	takes, duels := 0, 0
	for _, ri := range Roles() {
		h := hooksFor(ri.ID)
		if ri.Takes != (h.day.exploded != nil) {
			t.Errorf("%s: Takes %v, dayHooks.exploded set %v", ri.ID, ri.Takes, h.day.exploded != nil)
		}
		if ri.Duels && h.day.boom == nil {
			t.Errorf("%s: Duels without dayHooks.boom", ri.ID)
		}
		if ri.Takes {
			takes++
		}
		if ri.Duels {
			duels++
		}
	}
	if takes == 0 || duels == 0 {
		t.Errorf("%d roles take, %d duel: the table lost a trait", takes, duels)
	}
}
