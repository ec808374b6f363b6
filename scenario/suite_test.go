package scenario_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"wolftable/scenario"
)

// TestSuite runs every .wolf file of the rules suite (../scenarios). Files
// whose first line is "# reject-line: N REASON" must be refused at line N
// for that reason (scenario.Reject); every other file must run with all its
// expectations holding.
func TestSuite(t *testing.T) {
	var files []string
	err := filepath.WalkDir("../scenarios", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".wolf") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 60 {
		t.Fatalf("the rules suite has %d scenario files, want at least 60", len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimPrefix(file, "../scenarios/"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, isReject, err := scenario.ParseReject(src)
			if err != nil {
				t.Fatal(err)
			}
			f, err := scenario.Parse(file, src)
			if isReject {
				var res *scenario.Result
				if err == nil {
					res = scenario.Run(f, getBoard)
				}
				if err := want.Check(err, res); err != nil {
					t.Fatal(err)
				}
				return
			}
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			res := scenario.Run(f, getBoard)
			if res.Err != nil {
				t.Fatalf("exit 2: line %d: %s", res.Err.Line, res.Err.Msg)
			}
			for _, fl := range res.Failures {
				t.Errorf("line %d: %s", fl.Line, fl.Msg)
			}
			checkSpeechOrders(t, src, res)
			checkTranscript(t, src, res)
			checkNoPulseAtNight(t, res)
			checkTranscriptWords(t, res)
			checkSamePublicTrace(t, file, src, res)
		})
	}
}

// checkSpeechOrders checks the suite's "# speech-order: DAY KIND SEAT..."
// comments (the clock rule, A8, and the sheriff's 順/逆) against the run's
// speech events: the whole order of that day's speeches of that kind.
func checkSpeechOrders(t *testing.T, src []byte, res *scenario.Result) {
	got := map[string][]string{}
	for _, e := range res.Events {
		if e.Type == "speech" {
			k := fmt.Sprintf("%d %s", e.Day, e.Kind)
			got[k] = append(got[k], fmt.Sprint(*e.Seat))
		}
	}
	for _, line := range strings.Split(string(src), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "# speech-order:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 3 {
			t.Fatalf("bad speech-order comment %q", line)
		}
		k := f[0] + " " + f[1]
		if want := strings.Join(f[2:], " "); strings.Join(got[k], " ") != want {
			t.Errorf("day %s %s speeches: got %v, want %s", f[0], f[1], got[k], want)
		}
	}
}

// transcript is the run's said lines and light changes, one token each:
// a said line's text ("3號玩家請發言") or "light SEAT STATE" ("light 5 blue",
// "light 3 green pulse"), in order, with the game second of each.
func transcript(res *scenario.Result) (tokens []string, at []int) {
	for _, e := range res.Events {
		switch e.Type {
		case "say":
			tokens = append(tokens, e.Text)
		case "light":
			tok := fmt.Sprintf("light %d %s", *e.Seat, e.State)
			if e.Pulse {
				tok += " pulse"
			}
			tokens = append(tokens, tok)
		default:
			continue
		}
		at = append(at, e.At)
	}
	return tokens, at
}

// checkTranscript checks the suite's transcript comments, so a reviewer
// reads the judge's lines a ruling produces next to the ruling:
//
//	# says-in-order: A | B | C    A, B, C occur in this order (not necessarily adjacent)
//	# never-says: A               no token equals A
//	# seconds: A | B | N          from the first A to the first B after it, N game seconds
//
// A token is a said line's text or "light SEAT STATE" (see transcript).
func checkTranscript(t *testing.T, src []byte, res *scenario.Result) {
	tokens, at := transcript(res)
	find := func(from int, want string) int {
		for i := from; i < len(tokens); i++ {
			if tokens[i] == want {
				return i
			}
		}
		return -1
	}
	split := func(rest string) []string {
		var out []string
		for _, p := range strings.Split(rest, "|") {
			out = append(out, strings.TrimSpace(p))
		}
		return out
	}
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "# says-in-order:"); ok {
			i := 0
			for _, want := range split(rest) {
				j := find(i, want)
				if j < 0 {
					t.Errorf("%s: %q is not said (in this order) after token %d; transcript:\n%s", line, want, i, strings.Join(tokens, "\n"))
					break
				}
				i = j + 1
			}
		}
		if rest, ok := strings.CutPrefix(line, "# never-says:"); ok {
			if want := strings.TrimSpace(rest); find(0, want) >= 0 {
				t.Errorf("%s: said", line)
			}
		}
		if rest, ok := strings.CutPrefix(line, "# seconds:"); ok {
			p := split(rest)
			if len(p) != 3 {
				t.Fatalf("bad seconds comment %q", line)
			}
			i := find(0, p[0])
			j := -1
			if i >= 0 {
				j = find(i+1, p[1])
			}
			if i < 0 || j < 0 {
				t.Errorf("%s: %q then %q not found", line, p[0], p[1])
				continue
			}
			if got := fmt.Sprint(at[j] - at[i]); got != p[2] {
				t.Errorf("%s: %s seconds", line, got)
			}
		}
	}
}

// checkNoPulseAtNight: no light animates at night (A1, A15). Every seat
// whose last light change pulses when a night begins fails the run.
func checkNoPulseAtNight(t *testing.T, res *scenario.Result) {
	pulsing := map[int]bool{}
	for _, e := range res.Events {
		switch {
		case e.Type == "light":
			pulsing[*e.Seat] = e.Pulse
		case e.Type == "phase" && strings.HasPrefix(e.Phase, "night-"):
			for s, p := range pulsing {
				if p {
					t.Errorf("%s: seat %d's light still pulses", e.Phase, s)
				}
			}
		}
	}
}

// checkSamePublicTrace checks the suite's "# same-public-trace-as: FILE"
// comments (rules.md A15): two games that differ only in hidden facts must
// give the same public transcript — every judge line with its time, every
// light, tally, sheriff, exile, reveal and result.
func checkSamePublicTrace(t *testing.T, file string, src []byte, res *scenario.Result) {
	for _, line := range strings.Split(string(src), "\n") {
		other, ok := strings.CutPrefix(strings.TrimSpace(line), "# same-public-trace-as:")
		if !ok {
			continue
		}
		path := filepath.Join(filepath.Dir(file), strings.TrimSpace(other))
		osrc, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("same-public-trace-as: %v", err)
		}
		f, err := scenario.Parse(path, osrc)
		if err != nil {
			t.Fatalf("same-public-trace-as: %v", err)
		}
		ores := scenario.Run(f, getBoard)
		mine, theirs := publicLines(t, res), publicLines(t, ores)
		if len(mine) < 20 {
			t.Fatalf("a public transcript of %d lines: nothing to compare", len(mine))
		}
		for i := 0; i < len(mine) || i < len(theirs); i++ {
			var a, b string
			if i < len(mine) {
				a = mine[i]
			}
			if i < len(theirs) {
				b = theirs[i]
			}
			if a != b {
				t.Fatalf("the public transcript differs from %s's at line %d (A15):\n  here:  %s\n  there: %s", path, i+1, a, b)
			}
		}
	}
}

// transcriptWords: a death names its cause and phase in the judge's words
// (script/words.go), a vote its kind, a phase header its day or night.
var transcriptWords = []*regexp.Regexp{
	regexp.MustCompile(`〔出局〕\d+號（\p{Han}+，第\d+[夜天]）$`),
	regexp.MustCompile(`〔票型〕\p{Han}+(PK)?\p{Han}*：`),
	regexp.MustCompile(`^== 第\d+[夜天] ==$`),
}

// checkTranscriptWords checks that the transcript's deaths, votes and phase
// headers speak Chinese, not the engine's encodings ("wolf", "night-1").
func checkTranscriptWords(t *testing.T, res *scenario.Result) {
	t.Helper()
	var sb strings.Builder
	if err := scenario.WriteTranscript(&sb, res); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(sb.String(), "\n") {
		var want *regexp.Regexp
		switch {
		case strings.Contains(l, "〔出局〕"):
			want = transcriptWords[0]
		case strings.Contains(l, "〔票型〕"):
			want = transcriptWords[1]
		case strings.HasPrefix(l, "== "):
			want = transcriptWords[2]
		default:
			continue
		}
		if !want.MatchString(l) {
			t.Errorf("transcript line not in the judge's words: %q", l)
		}
	}
}

// publicLines is what everyone at the table hears and sees in a transcript.
func publicLines(t *testing.T, res *scenario.Result) []string {
	var sb strings.Builder
	if err := scenario.WriteTranscript(&sb, res); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(sb.String(), "\n") {
		for _, mark := range []string{"法官：", "〔燈〕", "〔票型〕", "〔警長〕", "〔放逐〕", "〔翻牌〕", "〔結果〕"} {
			if strings.Contains(l, mark) {
				out = append(out, l)
				break
			}
		}
	}
	return out
}
