package scenario

import (
	"testing"

	"wolftable/engine"
)

// TestWinnerWords: every result of the engine has the word an `expect
// winner` line writes, and the word reads back as that result; 无 is 無.
func TestWinnerWords(t *testing.T) {
	for _, w := range []engine.Winner{engine.WinNone, engine.WinGood, engine.WinWolves, engine.WinVoid, engine.WinThird} {
		got, ok := winnerOf(winnerWord(w))
		if !ok || got != w {
			t.Errorf("%q: the word %q reads as %q (%v)", w, winnerWord(w), got, ok)
		}
	}
	if w, ok := winnerOf("无"); !ok || w != engine.WinNone {
		t.Errorf("无 reads as %q (%v), want none", w, ok)
	}
	for _, bad := range []string{"", "good", "好人勝"} {
		if _, ok := winnerOf(bad); ok {
			t.Errorf("%q reads as a winner", bad)
		}
	}
}
