package console

import (
	"os"
	"path/filepath"
	"testing"

	"wolftable/engine"
)

// cjkSafe: a mark every CJK font has (Noto Sans CJK, the fonts a machine that
// shows the console's Chinese needs anyway): no emoji, no dingbat outside
// the few CJK fonts carry.
func cjkSafe(r rune) bool {
	switch {
	case r >= 0x1F000 && r <= 0x1FAFF, r == 0xFE0F, r == 0x200D: // emoji, emoji presentation, joiner
		return false
	case r >= 0x2600 && r <= 0x27BF: // symbols and dingbats
		return r == '☝' || r == '★' || r == '✓'
	}
	return true
}

// TestGestureMarksNeedNoEmojiFont: the gesture marks of the cues, the
// recorded inputs and the judge's page render without an emoji font
// (issue 13 item 8: on the test machine's Chromium they were empty boxes).
// Before, every one of them was an emoji (👍 👎 👋 ✋ 💥 🐺 🙅) and ✗.
func TestGestureMarksNeedNoEmojiFont(t *testing.T) {
	var texts []string
	for _, line := range []string{"cue.blocked", "cue.witch.none", "cue.witch.used", "cue.gravekeeper.none", "cue.seer.wolf", "cue.seer.good", "cue.hunter.can", "cue.hunter.cannot"} {
		if g := cueGesture(line, nil); g == "" {
			t.Errorf("%s: no gesture", line)
		} else {
			texts = append(texts, g)
		}
	}
	for _, a := range []engine.Action{engine.ActUp, engine.ActDown, engine.ActWave, engine.ActHand, engine.ActBoom} {
		texts = append(texts, inputLabel(engine.SeatGesture(3, a)))
	}
	files, _ := filepath.Glob("web/*.html")
	js, _ := filepath.Glob("web/static/*.js")
	for _, f := range append(files, js...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	if len(texts) < 15 {
		t.Fatalf("only %d texts checked", len(texts))
	}
	for _, s := range texts {
		for _, r := range s {
			if !cjkSafe(r) {
				t.Errorf("%q (U+%04X) needs an emoji font, in %.60q", r, r, s)
				break
			}
		}
	}
}
