package script_test

import (
	"regexp"
	"testing"

	"wolftable/engine"
	"wolftable/script"
)

// asciiWords finds English words: the refusals a judge reads are Chinese.
var asciiWords = regexp.MustCompile(`[A-Za-z]{2,}`)

// TestEveryRefusalReasonHasWords: every reason the engine gives for a
// refusal (engine.Reason, one per ErrorCode and the finer ones) has a
// Chinese sentence, and the table holds no reason the engine lacks.
func TestEveryRefusalReasonHasWords(t *testing.T) {
	reasons := engine.Reasons()
	seen := map[engine.Reason]bool{}
	args := script.RefusalArgs{Seat: 3, Target: 7, Role: "守衛", Step: "夜間：狼人"}
	for _, r := range reasons {
		seen[r] = true
		if _, ok := script.Refusals[r]; !ok {
			t.Errorf("engine.Reason %q has no words in script.Refusals", r)
			continue
		}
		for _, a := range []script.RefusalArgs{args, {}} {
			got := script.Refusal(r, a)
			if asciiWords.MatchString(got) || !hasHan(got) || regexp.MustCompile(`[{}]`).MatchString(got) {
				t.Errorf("refusal %q renders %q: not a Chinese sentence", r, got)
			}
		}
	}
	for k := range script.Refusals {
		if !seen[k] {
			t.Errorf("script.Refusals has %q, which is no engine.Reason", k)
		}
	}
	if got := script.Refusal("no-such-reason", args); got != "操作被拒絕" {
		t.Errorf("unknown reason renders %q", got)
	}
	if got, want := script.Refusal("twice-running", args), "守衛不能連續兩晚選7號"; got != want {
		t.Errorf("twice-running renders %q, want %q", got, want)
	}
}
