package daemon

import (
	"testing"

	"wolftable/script"
)

// The catalogue's Tap and Untap (Untap from the role table's Tapped) mark
// exactly the lines the daemon's lists held before the taps became
// properties of the catalogue line and the step row (issue 30).
func TestPrivateCuesFromCatalogue(t *testing.T) {
	oldCues := map[string]bool{"cue.lovers.tap": true,
		"cue.lucky.gift.glasses": true, "cue.lucky.gift.poison": true, "cue.lucky.gift.gun": true}
	oldOff := map[string]bool{"night.lovers.close": true, "night.succubuslovers.close": true, "night.lucky.close": true}
	cat := script.New()
	for _, l := range script.All() {
		if l.Tap != oldCues[l.ID] {
			t.Errorf("%s: Tap %v, the daemon's list said %v", l.ID, l.Tap, oldCues[l.ID])
		}
		if l.Untap != oldOff[l.ID] {
			t.Errorf("%s: Untap %v, the daemon's list said %v", l.ID, l.Untap, oldOff[l.ID])
		}
	}
	for id := range oldCues {
		if l, ok := cat.Lookup(id); !ok || !l.Tap || !l.Cue {
			t.Errorf("%s: not a tap cue in the catalogue (%v)", id, ok)
		}
	}
	for id := range oldOff {
		if l, ok := cat.Lookup(id); !ok || !l.Untap {
			t.Errorf("%s: no Untap in the catalogue (%v)", id, ok)
		}
	}
}
