package console

import (
	"strconv"
	"strings"
	"testing"

	"wolftable/engine"
	"wolftable/script"
)

// Every line of the catalogue gets the hand mark the console gave it when
// cueGesture named cue.blocked, cue.witch.victim and cue.dream.random
// (issue 30: a cue's own mark is its catalogue line's Hand or HandArg).
func TestCueGestureFromCatalogue(t *testing.T) {
	marks := 0
	for _, l := range script.All() {
		for _, args := range [][]int{nil, {3}, {3, 5}, {3, 5, 7}} {
			got, want := cueGesture(l.ID, args), legacyCueGesture(l.ID, args)
			if got != want {
				t.Errorf("%s %v: %q, was %q", l.ID, args, got, want)
			}
			if want != "" {
				marks++
			}
		}
	}
	if marks == 0 {
		t.Error("no cue with a mark")
	}
}

// legacyCueGesture is cueGesture before issue 30.
func legacyCueGesture(line string, args []int) string {
	arg := func(i int) string {
		if i < len(args) {
			return strconv.Itoa(args[i])
		}
		return "?"
	}
	wave := false
	for _, l := range script.All() {
		if l.ID == line && l.Cue && strings.HasSuffix(l.Text, "（擺手）") {
			wave = true
		}
	}
	switch {
	case line == "cue.blocked":
		return "╳ 雙臂交叉"
	case line == "cue.witch.victim", line == "cue.dream.random":
		return arg(1)
	case wave:
		return "〜 擺手"
	case strings.HasPrefix(line, "cue.exact."):
		return engine.Role(strings.TrimPrefix(line, "cue.exact.")).Name()
	case strings.HasSuffix(line, ".wolf"):
		return "狼爪"
	case strings.HasSuffix(line, ".cannot"):
		return "▼ 拇指向下"
	case strings.HasSuffix(line, ".good"), strings.HasSuffix(line, ".can"):
		return "▲ 拇指向上"
	}
	return ""
}
