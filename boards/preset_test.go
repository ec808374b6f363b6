package boards

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"wolftable/engine"
)

// TestPresetDirective: "preset seed003|seed001" applies the seed's bundle
// (rules-more.md E0.1, H5, H6, H12, H23) on top of the defaults; option
// lines after it override it; Format writes the preset back and only the
// options that differ from it.
func TestPresetDirective(t *testing.T) {
	for _, c := range []struct {
		preset string
		want   map[string]string
	}{
		{"seed003", map[string]string{
			"sheriff.weight": "2", "sheriff.pk_weight": "1", "sheriff.pk_voters": "never_ran",
			"explode.windows": "any_but_vote", "explode.last_words": "false",
			"idiot.keeps_badge": "false", "speaking.clock_rule": "minute_mod_n", "idiot.interject": "true",
			// venue choices stay at the defaults
			"last_words.mode": "n1", "sheriff.double_explode": "true", "witch.self_save": "never",
		}},
		{"seed001", map[string]string{
			"sheriff.weight": "2", "sheriff.pk_weight": "same", "sheriff.pk_voters": "never_ran",
			"sheriff.double_explode": "false", "explode.windows": "any_speech", "explode.last_words": "true",
			"last_words.mode": "n1_all_n2_single", "speaking.order": "sheriff_side_alternating",
			"sheriff.speech_start": "lowest", "speaking.clock_rule": "minute_mod_n", "idiot.interject": "false",
		}},
	} {
		b, err := Parse("t.board", src(lID, lName, lPlayers, lRoles, "preset "+c.preset, lNight1, lNight2))
		if err != nil {
			t.Fatalf("%s: %v", c.preset, err)
		}
		if b.Preset != c.preset {
			t.Errorf("%s: Preset %q", c.preset, b.Preset)
		}
		for k, v := range c.want {
			if got, _ := b.Options.Get(k); got != v {
				t.Errorf("%s: %s = %s, want %s", c.preset, k, got, v)
			}
		}
		// an option line after the preset overrides it
		o, err := Parse("t.board", src(lID, lName, lPlayers, lRoles, "preset "+c.preset, lNight1, lNight2,
			"option sheriff.weight 1.5", "option last_words.mode n1_n2"))
		if err != nil {
			t.Fatalf("%s with options: %v", c.preset, err)
		}
		if w, _ := o.Options.Get("sheriff.weight"); w != "1.5" {
			t.Errorf("%s: option after the preset: sheriff.weight %s", c.preset, w)
		}
		if w, _ := o.Options.Get("last_words.mode"); w != "n1_n2" {
			t.Errorf("%s: option after the preset: last_words.mode %s", c.preset, w)
		}
		for _, x := range []*engine.Board{b, o} {
			text := Format(x)
			if !strings.Contains(string(text), "preset "+c.preset+"\n") {
				t.Errorf("%s: Format lost the preset:\n%s", c.preset, text)
			}
			back, err := Parse(x.Source, text)
			if err != nil {
				t.Fatalf("%s: Format's output does not parse: %v\n%s", c.preset, err, text)
			}
			if !reflect.DeepEqual(back, x) {
				t.Errorf("%s: round trip differs:\n got %+v\nwant %+v\n%s", c.preset, back, x, text)
			}
		}
		if text := string(Format(b)); strings.Contains(text, "option ") {
			t.Errorf("%s: Format writes options the preset already sets:\n%s", c.preset, text)
		}
		if text := string(Format(o)); !strings.Contains(text, "option sheriff.weight 1.5\n") {
			t.Errorf("%s: Format drops an option that overrides the preset:\n%s", c.preset, text)
		}
	}
}

func TestPresetErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		src  []byte
		line int
		msg  string
	}{
		{"unknown preset", src(lID, lName, lPlayers, lRoles, "preset seed009", lNight1, lNight2), 5,
			`unknown preset "seed009" (want seed003 or seed001)`},
		{"preset without name", src(lID, lName, lPlayers, lRoles, "preset", lNight1, lNight2), 5,
			"preset wants one name (seed003 or seed001), got 0 words"},
		{"two presets", src(lID, lName, lPlayers, lRoles, "preset seed003", "preset seed001", lNight1, lNight2), 6,
			"duplicate preset (first on line 5)"},
		{"preset after an option", src(lID, lName, lPlayers, lRoles, "option sheriff.weight 2", "preset seed003", lNight1, lNight2), 6,
			"preset must come before the option lines (option sheriff.weight on line 5)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("t.board", c.src)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want *Error, got %v", err)
			}
			if e.Line != c.line || e.Msg != c.msg {
				t.Errorf("got line %d %q, want line %d %q", e.Line, e.Msg, c.line, c.msg)
			}
		})
	}
	// a board built in code with an unknown preset fails Validate
	b, err := Parse("t.board", src(lID, lName, lPlayers, lRoles, lNight1, lNight2))
	if err != nil {
		t.Fatal(err)
	}
	b.Preset = "seed999"
	if err := Validate(b); err == nil {
		t.Error("Validate accepts an unknown preset")
	}
}

// TestPresetBoards: every built-in board of seed 003 carries preset seed003
// and every board of seed 001 preset seed001 (issue 14 item 2, E0.1), and
// plays its values: the sheriff counts 2 on both, the seed-001 hunter shoots
// on any death but poison and grief.
func TestPresetBoards(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range all {
		want := ""
		switch {
		case strings.HasSuffix(b.ID, "-003"):
			want = "seed003"
		case strings.HasSuffix(b.ID, "-001"):
			want = "seed001"
		}
		if b.Preset != want {
			t.Errorf("%s: preset %q, want %q", b.ID, b.Preset, want)
			continue
		}
		if want == "" {
			continue
		}
		n++
		o := b.Options
		if o.SheriffWeight != 2 || o.ClockRule != "minute_mod_n" {
			t.Errorf("%s: sheriff.weight %v, speaking.clock_rule %s", b.ID, o.SheriffWeight, o.ClockRule)
		}
		if want == "seed001" && (o.HunterShootCauses != "any_but_poison_grief" || !o.SkipRevealedHunter || o.SpeakingOrder != "sheriff_side_alternating") {
			t.Errorf("%s: seed-001 values not applied: %+v", b.ID, o)
		}
		if want == "seed003" && (o.NightOrderPreset != "seed003" || !o.IdiotInterject || o.SheriffPKWeight != 1) {
			t.Errorf("%s: seed-003 values not applied: %+v", b.ID, o)
		}
	}
	if n < 19 {
		t.Errorf("%d boards with a preset", n)
	}
}
