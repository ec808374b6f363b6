package voice

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"wolftable/boards"
	"wolftable/bots"
	"wolftable/engine"
	"wolftable/script"
)

func defaultBinding(t testing.TB) *Binding {
	t.Helper()
	b, err := Default()
	if err != nil {
		t.Fatalf("the catalogue cannot be voiced: %v", err)
	}
	return b
}

// checkSequence fails unless seq is made of the binding's clips and pauses.
func checkSequence(t *testing.T, b *Binding, line string, args []int, seq []string) {
	t.Helper()
	if len(seq) == 0 {
		t.Fatalf("%s %v: empty sequence", line, args)
	}
	for _, id := range seq {
		if _, ok := b.Clip(id); !ok && id != PauseComma && id != PauseList && id != PauseCount {
			t.Fatalf("%s %v: clip %s is not one the pack records", line, args, id)
		}
	}
}

// TestEngineLinesCanBeVoiced plays random games on every board and fails if
// the engine says a line the voice cannot say.
func TestEngineLinesCanBeVoiced(t *testing.T) {
	b := defaultBinding(t)
	all, err := boards.All()
	if err != nil {
		t.Fatal(err)
	}
	said := map[string]bool{}
	maxSeat := 0
	for _, bd := range all {
		maxSeat = max(maxSeat, bd.Players)
		for seed := uint64(1); seed <= 40; seed++ {
			deal, bottom := engine.DealCards(bd, seed) // a thief board's bottom cards too
			g, err := engine.New(engine.Config{Board: bd, Deal: deal, Bottom: bottom, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			d := bots.New(g, seed)
			d.OnApply = func(in engine.Input, effs []engine.Effect) {
				for _, e := range effs {
					if e.Kind != engine.EffSay {
						continue
					}
					said[e.Line] = true
					seq, err := b.Sequence(e.Line, e.Args)
					if err != nil {
						t.Fatalf("%s seed %d: the engine says %s %v, which the voice cannot: %v", bd.ID, seed, e.Line, e.Args, err)
					}
					checkSequence(t, b, e.Line, e.Args, seq)
				}
			}
			if err := d.Start(); err != nil {
				t.Fatal(err)
			}
			if err := d.Play(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(said) < 80 {
		t.Fatalf("only %d distinct lines were said; the games did not reach far", len(said))
	}
	if maxSeat > MaxSeat {
		t.Fatalf("a board has %d seats; the voice says seats up to %d", maxSeat, MaxSeat)
	}
	// Night steps the random games may miss: every one of every board.
	for _, bd := range all {
		for _, p := range bd.Nights {
			for _, st := range p.Steps {
				for _, suffix := range []string{".open", ".wake", ".close", ".hurry"} {
					id := "night." + string(st.Kind) + suffix
					seq, err := b.Sequence(id, nil)
					if err != nil {
						t.Errorf("%s: %v", bd.ID, err)
						continue
					}
					checkSequence(t, b, id, nil, seq)
				}
			}
		}
	}
	t.Logf("%d distinct lines said in the games", len(said))
}

// plain keeps the letters and digits of a text: what is heard, without
// the punctuation.
func plain(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
}

// TestSequencesSayTheText checks, for every spoken line, that its clips'
// texts strung together are the rendered line (punctuation aside), and that
// pauses stand where the text pauses.
func TestSequencesSayTheText(t *testing.T) {
	b := defaultBinding(t)
	cat := script.New()
	for _, id := range b.Lines() {
		var args []int
		switch b.Args(id) {
		case -1:
			args = []int{2, 11, 18}
		case 1:
			args = []int{7}
		case 2:
			args = []int{7, 12}
		}
		seq, err := b.Sequence(id, args)
		if err != nil {
			t.Fatal(err)
		}
		checkSequence(t, b, id, args, seq)
		text, err := cat.Render(id, args)
		if err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		for _, c := range seq {
			if clip, ok := b.Clip(c); ok {
				got.WriteString(clip.Text)
			}
		}
		if plain(got.String()) != plain(text) {
			t.Errorf("%s: the clips say %q, the line is %q", id, got.String(), text)
		}
		if strings.Count(text, "、") != strings.Count(strings.Join(seq, " "), PauseList) {
			t.Errorf("%s: %q has %d 、, the sequence %v", id, text, strings.Count(text, "、"), seq)
		}
	}
}

func TestSequenceExamples(t *testing.T) {
	b := defaultBinding(t)
	for _, c := range []struct {
		line string
		args []int
		want string
	}{
		{"day.deaths", []int{3, 9}, "line.day.deaths.1 seat.3 pause.list seat.9 line.day.deaths.2"},
		{"day.deaths", []int{18}, "line.day.deaths.1 seat.18 line.day.deaths.2"},
		{"speech.start", []int{9}, "seat.9 line.speech.start.1"},
		{"count.321", nil, "count.3 pause.count count.2 pause.count count.1"},
		{"count.54321", nil, "count.5 pause.count count.4 pause.count count.3 pause.count count.2 pause.count count.1"},
		{"day.dawn", nil, "line.day.dawn.1 pause.comma count.3 pause.count count.2 pause.count count.1 pause.comma line.day.dawn.2"},
		{"vote.exile", nil, "line.vote.exile.1 pause.comma count.3 pause.count count.2 pause.count count.1"},
		{"tally.vote", []int{1, 2}, "seat.1 line.tally.vote.1 seat.2"},
		{"signup.list", []int{4, 5}, "line.signup.list.1 pause.comma seat.4 line.skill.shot.2 pause.list seat.5 line.skill.shot.2"}, // 上警玩家有：4號玩家、5號玩家 ("玩家" is skill.shot's clip)
		{"duel.good", []int{6}, "line.duel.good.1 pause.comma seat.6 line.duel.good.2"},
		{"night.wolves.open", nil, "line.night.wolves.open.1"},
		// the same words, recorded once: "狼人請睜眼"
		{"night.wolves.wake", nil, "line.night.wolves.open.1"},
	} {
		seq, err := b.Sequence(c.line, c.args)
		if err != nil {
			t.Errorf("%s %v: %v", c.line, c.args, err)
			continue
		}
		if got := strings.Join(seq, " "); got != c.want {
			t.Errorf("%s %v:\n got %s\nwant %s", c.line, c.args, got, c.want)
		}
	}
	if c, _ := b.Clip("line.day.deaths.2"); c.Text != "玩家死亡" {
		t.Errorf("line.day.deaths.2 says %q", c.Text)
	}
	// extra arguments are ignored, as script.Fill does
	if seq, err := b.Sequence("night.confirm", []int{1}); err != nil || len(seq) != 1 {
		t.Errorf("night.confirm with an argument: %v %v", seq, err)
	}
}

func TestSequenceErrors(t *testing.T) {
	b := defaultBinding(t)
	for _, c := range []struct {
		line string
		args []int
		want error
	}{
		{"no.such.line", nil, ErrUnknownLine},
		{"cue.seer.good", []int{1, 2}, ErrCue},
		{"speech.start", nil, ErrArgs},
		{"tally.vote", []int{1}, ErrArgs},
		{"speech.start", []int{0}, ErrArgs},
		{"speech.start", []int{MaxSeat + 1}, ErrArgs},
		{"day.deaths", []int{3, -1}, ErrArgs},
	} {
		if _, err := b.Sequence(c.line, c.args); !errors.Is(err, c.want) {
			t.Errorf("%s %v: got %v, want %v", c.line, c.args, err, c.want)
		}
	}
}

var clipIDRE = regexp.MustCompile(`^(line\.[a-z0-9.-]+\.[1-9][0-9]*|seat\.([1-9]|1[0-8])|count\.[1-9])$`)

func TestClips(t *testing.T) {
	b := defaultBinding(t)
	ids := b.ClipIDs()
	seen := map[string]bool{}
	texts := map[string]string{}
	for _, c := range b.Clips() {
		if seen[c.ID] {
			t.Errorf("clip %s twice", c.ID)
		}
		seen[c.ID] = true
		if !clipIDRE.MatchString(c.ID) {
			t.Errorf("clip id %q is not of the documented forms", c.ID)
		}
		if IsPause(c.ID) {
			t.Errorf("clip %s would be recorded, but the table makes pauses", c.ID)
		}
		if c.Text == "" || c.Pinyin == "" || len(c.Lines) == 0 {
			t.Errorf("clip %s: text %q, pinyin %q, used by %v", c.ID, c.Text, c.Pinyin, c.Lines)
		}
		if strings.ContainsAny(c.Text[:1]+c.Text[len(c.Text)-1:], "，、：, ") {
			t.Errorf("clip %s: %q keeps a pause at its edge; the sequence's pause clips say those", c.ID, c.Text)
		}
		key := c.Text + "|" + c.Pinyin
		if other, dup := texts[key]; dup {
			t.Errorf("clips %s and %s say the same", other, c.ID)
		}
		texts[key] = c.ID
		if d := c.Suggested(); d <= 0 || d > 10e9 {
			t.Errorf("clip %s: suggested length %v", c.ID, d)
		}
	}
	if len(ids) != len(seen) {
		t.Fatalf("%d ids for %d clips", len(ids), len(seen))
	}
	for n := 1; n <= MaxSeat; n++ {
		if c, ok := b.Clip(SeatClip(n)); !ok || c.Text != script.Seat(n) {
			t.Errorf("seat %d: %+v", n, c)
		}
	}
	for _, n := range []int{1, 2, 3, 4, 5} {
		if _, ok := b.Clip(CountClip(n)); !ok {
			t.Errorf("no clip for countdown number %d", n)
		}
	}
	if c, _ := b.Clip("line.skill.shot.2"); c.Text != "玩家" || !slices.Contains(c.Lines, "badge.pass") {
		t.Errorf("line.skill.shot.2 (玩家) should serve badge.pass too: %+v", c)
	}
}

func TestBindRejects(t *testing.T) {
	for _, c := range []struct {
		name string
		line script.Line
		want string
	}{
		{"unknown placeholder", script.Line{ID: "x", Text: "{n}玩家"}, "unknown placeholder"},
		{"no reading", script.Line{ID: "x", Text: "玩家☺"}, "no reading"},
		{"override lacks a placeholder", script.Line{ID: "x", Text: "{s}玩家", Pinyin: "wan2 jia1"}, "placeholders"},
		{"override with another placeholder", script.Line{ID: "x", Text: "{s}玩家", Pinyin: "{s2} wan2 jia1"}, "where the text has"},
		{"override too short", script.Line{ID: "x", Text: "玩家出局", Pinyin: "wan2 jia1 chu1"}, "syllables"},
		{"override without tones", script.Line{ID: "x", Text: "玩家", Pinyin: "wan jia"}, "tone number"},
		{"nothing to say", script.Line{ID: "x", Text: "，"}, "nothing to say"},
		{"line twice", script.Line{ID: "game.start", Text: "玩家"}, "twice"},
	} {
		lines := []script.Line{{ID: "game.start", Text: "天黑請閉眼"}, c.line}
		_, err := Bind(lines)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
	// A good override, full-width punctuation and all.
	b, err := Bind([]script.Line{{ID: "x", Text: "{s}玩家出局，請留遺言", Pinyin: "{s} wan2 jia1 chu1 ju2， qing3 liu2 yi2 yan2"}})
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := b.Clip("line.x.1"); c.Pinyin != "wan2 jia1 chu1 ju2, qing3 liu2 yi2 yan2" {
		t.Errorf("override read as %q", c.Pinyin)
	}
}
