package journal

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"wolftable/boards"
	"wolftable/script"
)

// TestReviewOptionsInWords (issue 29): the 復盤 of a game with non-default
// options names them in the judge's words (script.OptionText), in the text
// and the Markdown output alike; no "key=value" is left.
func TestReviewOptionsInWords(t *testing.T) {
	b, err := boards.Get(boardIDs(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	board := *b
	changed := [][2]string{
		{"witch.self_save", "first_night"},      // an enum
		{"speaking.clock_rule", "minute_mod_n"}, // an enum whose key once showed raw
		{"sheriff.pk_weight", "2"},              // the sheriff's vote
		{"speech.seconds", "90"},                // a number of seconds
		{"lights.speaker_pulse", "false"},       // a bool
	}
	for _, kv := range changed {
		if err := board.Options.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	p := playJournalOn(t, t.TempDir(), &board, 21, true)
	j, err := Read(p.path)
	if err != nil {
		t.Fatal(err)
	}
	rv, err := NewReview(j, boards.Get)
	if err != nil {
		t.Fatal(err)
	}
	raw := regexp.MustCompile(`[a-z_]+\.[a-z_]+=`)
	for _, format := range []string{"text", "md"} {
		var out bytes.Buffer
		if err := rv.Write(&out, format); err != nil {
			t.Fatal(err)
		}
		s := out.String()
		if m := raw.FindString(s); m != "" {
			t.Errorf("%s: the 復盤 prints a raw option %q", format, m)
		}
		for _, kv := range changed {
			if w := script.OptionText(kv[0], kv[1]); !strings.Contains(s, w) {
				t.Errorf("%s: the 復盤 does not say %q (%s=%s)", format, w, kv[0], kv[1])
			}
		}
	}
}
