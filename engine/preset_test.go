package engine_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"wolftable/boards"
	"wolftable/bots"
	"wolftable/engine"
)

// TestPresetKeys: which keys each seed preset sets (rules-more.md E0.1 with
// H5, H6, H12, H23), and which of them this build cannot apply yet because
// the option belongs to a role still to be merged (pending).
func TestPresetKeys(t *testing.T) {
	want := map[string]string{
		"seed003": "sheriff.weight=2 sheriff.pk_weight=1 sheriff.pk_voters=never_ran explode.windows=any_but_vote " +
			"explode.last_words=off idiot.interject=on idiot.name=baichi idiot.keeps_badge=off speaking.clock_rule=minute_mod_n " +
			"night_order.preset=seed003 cupid.category=by_ratio lovers.cupid_must_die=off silence.turn=gesture_window silence.blocks_last_words=on",
		"seed001": "sheriff.weight=2 sheriff.pk_voters=never_ran sheriff.double_explode=off explode.windows=any_speech " +
			"explode.last_words=on last_words.mode=n1_all_n2_single speaking.order=sheriff_side_alternating " +
			"sheriff.speech_start=lowest speaking.clock_rule=minute_mod_n idiot.interject=off idiot.name=baichi lovers.no_mutual_vote=on " +
			"lovers.grief_blocks_skill=on hunter.shoot_causes=any_but_poison_grief night.skip_dead_revealed_hunter=on lines.wording=seed001",
	}
	known := map[string]bool{}
	for _, k := range engine.OptionNames() {
		known[k] = true
	}
	for _, name := range engine.PresetNames() {
		set, ok := engine.PresetSettings(name)
		if !ok {
			t.Fatalf("%s: no settings", name)
		}
		var got, wantPending []string
		for _, s := range set {
			got = append(got, s.Key+"="+s.Value)
			if s.Seed == "" {
				t.Errorf("%s: %s has no seed sentence", name, s.Key)
			}
			if !known[s.Key] {
				wantPending = append(wantPending, s.Key+"="+s.Value)
			}
		}
		if g := strings.Join(got, " "); g != want[name] {
			t.Errorf("%s sets\n got %s\nwant %s", name, g, want[name])
		}
		o := engine.DefaultOptions()
		pending, err := o.ApplyPreset(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(pending, wantPending) {
			t.Errorf("%s: pending %v, want %v", name, pending, wantPending)
		}
		// every key the build knows is set to the preset's value
		for _, s := range set {
			if !known[s.Key] {
				continue
			}
			var ref engine.Options
			if err := ref.Set(s.Key, s.Value); err != nil {
				t.Fatalf("%s: %s=%s: %v", name, s.Key, s.Value, err)
			}
			w, _ := ref.Get(s.Key)
			if g, _ := o.Get(s.Key); g != w {
				t.Errorf("%s: %s = %s, want %s", name, s.Key, g, w)
			}
		}
		// and every other key keeps its default
		def := engine.DefaultOptions()
		for _, k := range engine.OptionNames() {
			inSet := false
			for _, s := range set {
				inSet = inSet || s.Key == k
			}
			d, _ := def.Get(k)
			if g, _ := o.Get(k); !inSet && g != d {
				t.Errorf("%s changes %s (%s -> %s), not in its bundle", name, k, d, g)
			}
		}
	}
	var o engine.Options
	if _, err := o.ApplyPreset("seed002"); err == nil {
		t.Error("an unknown preset is accepted")
	}
}

// TestFrameworkOptions: the options of the seed presets, their defaults
// (part A), the values they accept and the ones they refuse.
func TestFrameworkOptions(t *testing.T) {
	def := engine.DefaultOptions()
	for _, c := range []struct {
		key, def string
		good     []string
		bad      []string
	}{
		{"sheriff.pk_weight", "same", []string{"1", "1.5", "2", "same"}, []string{"0", "0.5", "4", "x", ""}},
		{"sheriff.pk_voters", "not_on_stage", []string{"never_ran", "not_on_stage"}, []string{"all", ""}},
		{"explode.windows", "part_a", []string{"any_but_vote", "any_speech", "part_a"}, []string{"always", "any"}},
		{"explode.last_words", "false", []string{"on", "off"}, []string{"maybe"}},
		{"last_words.mode", "n1", []string{"n1_n2", "n1_all_n2_single", "n1"}, []string{"per_wolf_count", "n2"}},
		{"sheriff.speech_start", "clock", []string{"lowest", "highest", "clock"}, []string{"middle"}},
		{"speaking.order", "sheriff_choice", []string{"sheriff_side_alternating", "left_of_last_dead", "sheriff_choice"}, []string{"judge_choice"}},
	} {
		if d, ok := def.Get(c.key); !ok || d != c.def {
			t.Errorf("%s: default %q (%v), want %q", c.key, d, ok, c.def)
		}
		if engine.OptionDoc(c.key) == "" {
			t.Errorf("%s: no doc", c.key)
		}
		for _, v := range c.good {
			o := engine.DefaultOptions()
			if err := o.Set(c.key, v); err != nil {
				t.Errorf("%s=%s refused: %v", c.key, v, err)
			}
			g, _ := o.Get(c.key)
			var back engine.Options
			if err := back.Set(c.key, g); err != nil {
				t.Errorf("%s: Get gives %q, which Set refuses: %v", c.key, g, err)
			}
		}
		for _, v := range c.bad {
			o := engine.DefaultOptions()
			if err := o.Set(c.key, v); err == nil {
				t.Errorf("%s=%q accepted", c.key, v)
			}
			if !reflect.DeepEqual(o, engine.DefaultOptions()) {
				t.Errorf("%s=%q: a refused value changed the options", c.key, v)
			}
		}
	}
	// last_words.nights keeps working under the default mode (G37)
	o := engine.DefaultOptions()
	if err := o.Set("last_words.nights", "3"); err != nil {
		t.Fatal(err)
	}
	if m, _ := o.Get("last_words.mode"); m != "n1" {
		t.Errorf("last_words.mode %s", m)
	}
}

// TestExplodeWindowsLastWords: under part_a (the default) a wolf's BOOM in
// last words is refused with the typed no-window reason; under any_speech
// it is the explosion.
func TestExplodeWindowsLastWords(t *testing.T) {
	// seats: 1 2 wolves, 3 seer, 4 witch, 5 hunter, 6 idiot, 7 8 wolves, 9-12 villagers
	deal := []engine.Role{"werewolf", "werewolf", "seer", "witch", "hunter", "idiot", "werewolf", "werewolf", "villager", "villager", "villager", "villager"}
	for _, windows := range []string{"part_a", "any_speech", "any_but_vote"} {
		b := newGame(t, "seer-witch-hunter-idiot", 1).Board()
		if err := b.Options.Set("explode.windows", windows); err != nil {
			t.Fatal(err)
		}
		g, err := engine.New(engine.Config{Board: b, Deal: deal, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		d := bots.New(g, 1)
		if err := d.Start(); err != nil {
			t.Fatal(err)
		}
		// night 1: the wolves kill 9, who gives last words on day 1
		advanceTo(t, g, d, "night", "wolves")
		for _, w := range []int{1, 2, 7, 8} {
			if err := d.Apply(engine.SeatTarget(w, 9)); err != nil {
				t.Fatal(err)
			}
		}
		found := false
		for i := 0; i < 20000 && !found; i++ {
			p := g.Awaiting()
			if p.Over {
				break
			}
			if p.Step == engine.WaitSpeech && p.SpeechKind == engine.SpeechLastWords {
				wolf := 0
				for _, s := range []int{1, 2, 7, 8} {
					if !g.Out(s) {
						wolf = s
						break
					}
				}
				if wolf == 0 {
					break
				}
				found = true
				_, err := g.Apply(engine.SeatGesture(wolf, engine.ActBoom))
				if windows == "part_a" {
					var e *engine.Error
					if !engine.IsCode(err, engine.ErrNotNow) || !errors.As(err, &e) || e.Reason != engine.ReasonNoWindow {
						t.Errorf("part_a: BOOM in last words: %v, want the no-window refusal", err)
					}
				} else if err != nil || g.Awaiting().Step != engine.WaitExplode {
					t.Errorf("%s: BOOM in last words: %v, step %s", windows, err, g.Awaiting().Step)
				}
				break
			}
			if err := d.Advance(); err != nil {
				t.Fatal(err)
			}
		}
		if !found {
			t.Fatalf("%s: no last words with a living wolf", windows)
		}
	}
}

// TestPresetRandomGames: random legal games on every seed-000 board under
// each seed preset (the keys this build knows) end with one result and keep
// the invariants; over all of them both sides win.
func TestPresetRandomGames(t *testing.T) {
	n := uint64(30)
	if testing.Short() {
		n = 8
	}
	for _, preset := range engine.PresetNames() {
		results := map[string]int{}
		for _, id := range seed000Boards {
			for seed := uint64(300); seed < 300+n; seed++ {
				b, err := boards.Get(id)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := b.Options.ApplyPreset(preset); err != nil {
					t.Fatal(err)
				}
				b.Preset = preset
				g, err := engine.New(engine.Config{Board: b, Deal: engine.Deal(b, seed), Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				d := bots.New(g, seed)
				inv := newInvariants(t, g)
				d.BeforeApply = func(engine.Input) { inv.snapshot() }
				d.OnApply = inv.check
				if err := d.Start(); err != nil {
					t.Fatal(err)
				}
				if err := d.Play(); err != nil {
					t.Fatalf("%s %s seed %d: %v", preset, id, seed, err)
				}
				over, w := g.Over()
				if !over || inv.results != 1 {
					t.Fatalf("%s %s seed %d: over=%v results=%d", preset, id, seed, over, inv.results)
				}
				results[string(w)]++
			}
		}
		if results["好人"] == 0 || results["狼人"] == 0 {
			t.Errorf("%s: random games should reach both results: %v", preset, results)
		}
		t.Logf("%s: %v", preset, results)
	}
}

// sheriffHalves is the sheriff's vote in half-votes in a vote of the kind:
// sheriff.weight, or sheriff.pk_weight in the exile PK (seed 003).
func sheriffHalves(o engine.Options, kind string) int {
	w := o.SheriffWeight
	if kind == string(engine.VoteExilePK) && o.SheriffPKWeight > 0 {
		w = o.SheriffPKWeight
	}
	return int(w*2 + 0.5)
}

// TestIdiotInterject (idiot.interject, seed 003): a revealed idiot's key
// during another player's speech cues the judge; the pedal then grants 15 s
// ("X號玩家插話" … "插話結束") and the speech goes on; the next pedal ends
// it. Off (the default), the key is refused.
func TestIdiotInterject(t *testing.T) {
	// seats: 1 2 wolves, 3 seer, 4 witch, 5 hunter, 6 idiot, 7 8 wolves, 9-12 villagers
	deal := []engine.Role{"werewolf", "werewolf", "seer", "witch", "hunter", "idiot", "werewolf", "werewolf", "villager", "villager", "villager", "villager"}
	for _, on := range []bool{false, true} {
		b := newGame(t, "seer-witch-hunter-idiot", 1).Board()
		b.Options.IdiotInterject = on
		g, err := engine.New(engine.Config{Board: b, Deal: deal, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		d := bots.New(g, 1)
		var said []string
		var fifteen engine.TimerID
		d.OnApply = func(_ engine.Input, effs []engine.Effect) {
			for _, e := range effs {
				if e.Kind == engine.EffSay || e.Kind == engine.EffCue {
					said = append(said, e.Line)
				}
				if e.Kind == engine.EffTimerStart && e.Seconds == 15 {
					fifteen = e.Timer
				}
			}
		}
		if err := d.Start(); err != nil {
			t.Fatal(err)
		}
		// day 1: everyone votes the idiot out: he reveals and stays
		p := advanceTo(t, g, d, "vote", "exile")
		for _, v := range p.Actors {
			if err := d.Apply(engine.SeatTarget(v, 6)); err != nil {
				t.Fatal(err)
			}
		}
		if !g.Seat(6).Revealed {
			advanceTo(t, g, d, "night", "wolves")
		}
		if !g.Seat(6).Revealed {
			t.Fatal("the idiot did not reveal")
		}
		// day 2: another player's speech
		var sp engine.Prompt
		for {
			sp = advanceTo(t, g, d, "speech", "exile")
			if sp.Seat != 6 {
				break
			}
			if err := d.Advance(); err != nil {
				t.Fatal(err)
			}
		}
		err = d.Apply(engine.SeatGesture(6, engine.ActBoom))
		if !on {
			if !engine.IsCode(err, engine.ErrRule) {
				t.Errorf("off: the idiot's key: %v, want refused", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("on: the idiot's key: %v", err)
		}
		if err := d.Apply(engine.SeatGesture(6, engine.ActBoom)); !engine.IsCode(err, engine.ErrNotNow) {
			t.Errorf("a second request in one speech: %v", err)
		}
		said, fifteen = nil, 0
		if err := d.Apply(engine.Pedal(engine.PedalShort)); err != nil {
			t.Fatal(err)
		}
		if fifteen == 0 {
			t.Fatal("no 15 s timer for the interjection")
		}
		if err := d.Apply(engine.TimerExpired(fifteen)); err != nil {
			t.Fatal(err)
		}
		if q := g.Awaiting(); q.Step != sp.Step || q.Seat != sp.Seat {
			t.Errorf("the speech did not go on: now %s seat %d", q.Step, q.Seat)
		}
		if got := strings.Join(said, " "); got != "idiot.interject idiot.interject.end" {
			t.Errorf("said %q", got)
		}
		said = nil
		if err := d.Apply(engine.Pedal(engine.PedalShort)); err != nil {
			t.Fatal(err)
		}
		if len(said) == 0 || said[0] != "speech.end" {
			t.Errorf("the next pedal: said %v, want the speech's end", said)
		}
	}
}
