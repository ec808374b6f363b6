package daemon

import (
	"testing"

	"wolftable/engine"
)

// TestLoversTapLightsPrivateIndicator: the judge's tap on a lover (a cue)
// lights that seat's private indicator; the lovers' step closing puts it out
// (rules-more.md D0.4). The seat's public light does not change.
func TestLoversTapLightsPrivateIndicator(t *testing.T) {
	g := newGame(t, "cupid-7-001", 1)
	d, err := New(Config{Game: g, Table: newTable(7)})
	if err != nil {
		t.Fatal(err)
	}
	before := d.lights[3].Color
	d.handle([]engine.Effect{{Kind: engine.EffCue, Line: "cue.lovers.tap", Seat: 4, Args: []int{4}}})
	if !d.lights[3].Private || d.lights[2].Private || d.lights[3].Color != before {
		t.Fatalf("after the tap: %+v", d.lights)
	}
	d.handle([]engine.Effect{{Kind: engine.EffSay, Line: "night.lovers.open"}})
	if !d.lights[3].Private {
		t.Fatal("the indicator went out before the lovers' step closed")
	}
	d.handle([]engine.Effect{{Kind: engine.EffSay, Line: "night.lovers.close"}})
	if d.lights[3].Private {
		t.Fatal("the indicator is still on after the lovers' step")
	}
}

// TestLuckyTapLightsPrivateIndicator: the judge's tap on the lucky one (the
// gift's cue, rules-more.md H13) lights its private indicator until the
// 幸運兒 step closes.
func TestLuckyTapLightsPrivateIndicator(t *testing.T) {
	g := newGame(t, "cupid-7-001", 1)
	d, err := New(Config{Game: g, Table: newTable(7)})
	if err != nil {
		t.Fatal(err)
	}
	for _, gift := range []string{"glasses", "poison", "gun"} {
		d.handle([]engine.Effect{{Kind: engine.EffCue, Line: "cue.lucky.gift." + gift, Seat: 5, Args: []int{5}}})
		if !d.lights[4].Private || d.lights[3].Private {
			t.Fatalf("%s: after the tap: %+v", gift, d.lights)
		}
		d.handle([]engine.Effect{{Kind: engine.EffSay, Line: "night.lucky.close"}})
		if d.lights[4].Private {
			t.Fatalf("%s: the indicator is still on after the 幸運兒 step", gift)
		}
	}
}
