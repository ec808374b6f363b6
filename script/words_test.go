package script_test

import (
	"slices"
	"testing"

	"wolftable/engine"
	"wolftable/script"
)

// TestEveryEngineWordHasALabel: every cause of death, action kind, vote
// kind, speech kind and record kind the engine defines (its word lists,
// which engine's TestVocabularyListed holds to its constants) has one
// Chinese label in the script's word tables, and no label is left for a
// word the engine no longer has.
func TestEveryEngineWordHasALabel(t *testing.T) {
	checkLabels(t, "Cause", engine.Causes(), script.Causes)
	checkLabels(t, "ActionKind", engine.ActionKinds(), script.Actions, "check") // a check record's verb
	checkLabels(t, "VoteKind", engine.VoteKinds(), script.Votes)
	checkLabels(t, "SpeechKind", engine.SpeechKinds(), script.Speeches)
	checkLabels(t, "RecordType", engine.RecordTypes(), script.Records)
}

func checkLabels[K ~string](t *testing.T, ty string, words []K, table map[K]string, extra ...K) {
	t.Helper()
	seen := map[K]bool{}
	for _, w := range words {
		seen[w] = true
		label, ok := table[w]
		if !ok {
			t.Errorf("engine.%s %q has no label in script", ty, w)
			continue
		}
		if !hasHan(label) {
			t.Errorf("engine.%s %q: label %q is not Chinese", ty, w, label)
		}
	}
	for k := range table {
		if !seen[k] && !slices.Contains(extra, k) {
			t.Errorf("script labels %s %q, which the engine does not define", ty, k)
		}
	}
}

func hasHan(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

func TestPhaseLabel(t *testing.T) {
	for in, want := range map[string]string{
		"night-1": "第1夜", "day-12": "第12天", "setup": "開局", "night-x": "night-x", "": "",
	} {
		if got := script.PhaseLabel(in); got != want {
			t.Errorf("PhaseLabel(%q) = %q, want %q", in, got, want)
		}
	}
}
