package script

import (
	"testing"

	"wolftable/engine"
)

// TestOptionNameAndValues: every option has a name, every value of a
// fixed set and both values of an on/off option have words; an unknown
// key or value reads so, never raw.
func TestOptionNameAndValues(t *testing.T) {
	bools := 0
	for _, k := range engine.OptionNames() {
		if OptionName(k) == "未知選項" {
			t.Errorf("%s: no name", k)
		}
		vals := engine.OptionValues(k)
		if OptionBool(k) {
			bools++
			vals = []string{"true", "false"}
		}
		for _, v := range vals {
			if w := OptionValueText(k, v); w == "未知值" || w == v {
				t.Errorf("%s=%s: %q", k, v, w)
			}
		}
	}
	if bools == 0 {
		t.Error("no on/off option found")
	}
	if OptionName("no.such") != "未知選項" || OptionValueText("no.such", "x") != "未知值" || OptionValueText("witch.self_save", "nonsense") != "未知值" {
		t.Error("an unknown key or value is not said so")
	}
}
