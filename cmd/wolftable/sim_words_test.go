package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"wolftable/daemon"
	"wolftable/engine"
)

// TestSimTranscriptWords: the simulation's transcript names causes, phases
// and votes in the judge's words (script/words.go): "〔出局〕8號（狼刀，
// 第1夜）", "〔票型〕警長投票：…", never "wolf, night-1" or "sheriff".
func TestSimTranscriptWords(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"sim", "--bots", "--no-tui", "--voice", "off", "--speed", "5000", "--seed", "3"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	death := regexp.MustCompile(`〔出局〕\d+號（\p{Han}+，第\d+[夜天]）$`)
	vote := regexp.MustCompile(`〔票型〕\p{Han}+(PK\p{Han}+)?：`)
	deaths, votes := 0, 0
	for _, l := range strings.Split(out.String(), "\n") {
		switch {
		case strings.Contains(l, "〔出局〕"):
			deaths++
			if !death.MatchString(l) {
				t.Errorf("death line not in the judge's words: %q", l)
			}
		case strings.Contains(l, "〔票型〕"):
			votes++
			if !vote.MatchString(l) {
				t.Errorf("vote line not in the judge's words: %q", l)
			}
		}
	}
	if deaths == 0 || votes == 0 {
		t.Fatalf("a game with %d deaths and %d votes\n%s", deaths, votes, out.String())
	}
}

// TestSimRefusalInChinese: a refused key reads as the judge's words, not
// the engine's English message.
func TestSimRefusalInChinese(t *testing.T) {
	in := engine.SeatTarget(5, 9)
	err := &engine.Error{Code: engine.ErrNotActor, Reason: engine.ReasonNotActor, Seat: 5, Step: engine.WaitNight,
		StepKind: engine.StepWolves, Msg: "seat 5 does not act in this step (night wolves)"}
	got := refusalLine(daemon.Event{Input: &in, Err: err, Source: "seat-5"})
	if want := "〔拒絕〕seat-5：5號現在不行動（夜間：狼人）"; got != want {
		t.Errorf("refusal line %q, want %q", got, want)
	}
}

// TestSimHeaderInChinese (issue 31 item 8): the lines sim prints before
// the game (the board, the deal, the bottom cards, the voice) are the
// reader's Chinese: no English label ("deal:", "voice: off"); only the
// last line, "result: …", which scripts read, keeps its English word.
func TestSimHeaderInChinese(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"sim", "--bots", "--no-tui", "--voice", "off", "--speed", "5000", "--seed", "3", "--board", "thief-cupid-001"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	english := regexp.MustCompile(`(?i)\b(deal|bottom|voice|seed|speed|off|text only)\b\s*[:(]|^\s*[a-z]+:`)
	header := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "00:") { // the transcript begins
			break
		}
		header++
		if !regexp.MustCompile(`\p{Han}`).MatchString(l) || english.MatchString(strings.NewReplacer("wolftable", "", "--voice on", "").Replace(l)) {
			t.Errorf("a header line in English: %q", l)
		}
	}
	if header < 3 || !strings.Contains(out.String(), "底牌：") {
		t.Errorf("the header (%d lines) lacks the board, the deal, the bottom cards or the voice:\n%s", header, lastLines(out.String(), 40))
	}
	if !strings.Contains(out.String(), "\nresult: ") {
		t.Errorf("the machine-read result line is gone:\n%s", lastLines(out.String(), 5))
	}
}
