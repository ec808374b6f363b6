package script

import (
	"strings"
	"testing"
	"unicode"

	"wolftable/engine"
)

func checkOptionText(t *testing.T, key, value string) {
	t.Helper()
	s := OptionText(key, value)
	if strings.Contains(s, "未知") {
		t.Errorf("%s=%s has no words: %q", key, value, s)
	}
	if strings.IndexFunc(s, func(r rune) bool { return r < unicode.MaxASCII && unicode.IsLetter(r) }) >= 0 {
		t.Errorf("%s=%s: %q holds ASCII letters", key, value, s)
	}
}

// TestOptionVocabulary: every option key of the engine has a Chinese name,
// every value of an enum option a Chinese word, and no text holds ASCII
// letters; no word is left over for a key the engine no longer has.
func TestOptionVocabulary(t *testing.T) {
	keys := map[string]bool{}
	for _, k := range engine.OptionNames() {
		keys[k] = true
		w, ok := optionWords[k]
		if !ok {
			t.Errorf("option %s has no Chinese name", k)
			continue
		}
		for _, v := range engine.OptionValues(k) {
			checkOptionText(t, k, v)
		}
		switch w.kind {
		case optEnum:
			if engine.OptionValues(k) == nil {
				t.Errorf("%s is worded as an enum but the engine lists no values", k)
			}
			for v := range w.values {
				if v != "" && !contains(engine.OptionValues(k), v) {
					t.Errorf("%s: word for %q, a value the engine does not list", k, v)
				}
			}
		case optBool:
			checkOptionText(t, k, "true")
			checkOptionText(t, k, "false")
			if OptionText(k, "true") == OptionText(k, "false") {
				t.Errorf("%s: on and off read the same", k)
			}
		case optVotes:
			if engine.OptionValues(k) == nil {
				t.Errorf("%s is worded as a vote but the engine lists no values", k)
			}
		default:
			if engine.OptionValues(k) != nil {
				t.Errorf("%s is worded as a number but the engine lists values", k)
			}
			checkOptionText(t, k, "0")
			checkOptionText(t, k, "30")
		}
	}
	for k := range optionWords {
		if !keys[k] {
			t.Errorf("words for %s, not an engine option", k)
		}
	}
	def := engine.DefaultOptions()
	for _, k := range engine.OptionNames() {
		d, _ := def.Get(k)
		checkOptionText(t, k, d)
	}
}

// TestOptionTextExamples pins the brief's examples and the fallbacks.
func TestOptionTextExamples(t *testing.T) {
	for _, c := range []struct{ key, value, want string }{
		{"witch.self_save", "first_night", "女巫自救：僅首夜"},
		{"speaking.clock_rule", "minute_digit_sum", "發言起點的時鐘規則：分鐘各位數字相加"},
		{"sheriff.pk_weight", "same", "放逐平票對決中警長票數：同警長票數"},
		{"sheriff.weight", "1.5", "警長票數：1.5 票"},
		{"speech.seconds", "90", "發言時長：90 秒"},
		{"speech.warn_seconds", "0", "發言結束前提醒：不提醒"},
		{"night.min_percent", "40", "擬真節奏下夜晚步驟的最短時長：40%"},
		{"sheriff.enabled", "false", "有警長：否"},
		{"no.such_option", "x", "未知選項"},
		{"witch.self_save", "always", "女巫自救：未知值"},
		{"speech.seconds", "abc", "發言時長：未知值"},
		{"sheriff.weight", "Inf", "警長票數：未知值"},
	} {
		if got := OptionText(c.key, c.value); got != c.want {
			t.Errorf("OptionText(%q, %q) = %q, want %q", c.key, c.value, got, c.want)
		}
	}
}

func contains(vs []string, v string) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// FuzzOptionText: whatever key and value a journal holds, the words never
// echo them raw: no ASCII letter reaches the reader.
func FuzzOptionText(f *testing.F) {
	for _, k := range engine.OptionNames() {
		f.Add(k, "on")
		for _, v := range engine.OptionValues(k) {
			f.Add(k, v)
		}
	}
	f.Add("speech.seconds", "1e3")
	f.Add("sheriff.weight", "0x1p1")
	f.Add("sheriff.weight", "NaN")
	f.Fuzz(func(t *testing.T, key, value string) {
		s := OptionText(key, value)
		if strings.IndexFunc(s, func(r rune) bool { return r < unicode.MaxASCII && unicode.IsLetter(r) }) >= 0 {
			t.Errorf("OptionText(%q, %q) = %q holds ASCII letters", key, value, s)
		}
	})
}
