package engine

import (
	"slices"
	"strconv"
	"testing"
)

// TestOptionValues: every value OptionValues lists is one Set accepts and
// Get gives back; an option that lists values refuses one it does not list;
// an option without a list is a bool or a whole number.
func TestOptionValues(t *testing.T) {
	def := DefaultOptions()
	for _, k := range OptionNames() {
		vs := OptionValues(k)
		if vs == nil {
			d, _ := def.Get(k)
			if _, err := strconv.ParseBool(d); err != nil {
				if _, err := strconv.Atoi(d); err != nil {
					t.Errorf("%s: no value list, but its default %q is neither a bool nor a number", k, d)
				}
			}
			continue
		}
		for _, v := range vs {
			o := DefaultOptions()
			if err := o.Set(k, v); err != nil {
				t.Errorf("%s=%s listed but refused: %v", k, v, err)
				continue
			}
			if got, _ := o.Get(k); got != v {
				t.Errorf("%s=%s reads back as %q", k, v, got)
			}
		}
		o := DefaultOptions()
		if err := o.Set(k, "not_a_value"); err == nil {
			t.Errorf("%s: accepts a value it does not list", k)
		}
		if d, _ := def.Get(k); d != "" && !slices.Contains(vs, d) {
			t.Errorf("%s: default %q not in its list %v", k, d, vs)
		}
		vs[0] = "changed"
		if OptionValues(k)[0] == "changed" {
			t.Errorf("%s: OptionValues hands out the table's own slice", k)
		}
	}
	if OptionValues("witch.self_save") == nil || OptionValues("night.pace") == nil || OptionValues("sheriff.pk_weight") == nil {
		t.Error("witch.self_save, night.pace and sheriff.pk_weight must list their values")
	}
	if OptionValues("speech.seconds") != nil || OptionValues("fox.wrap") != nil || OptionValues("no.such") != nil {
		t.Error("a number, a bool or an unknown key lists values")
	}
}
