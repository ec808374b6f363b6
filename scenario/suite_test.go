package scenario_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wolftable/boards"
	"wolftable/scenario"
)

// TestSuite runs every .wolf file of the rules suite (../scenarios). Files
// whose first line is "# reject-line: N" must be refused at line N with exit
// status 2; every other file must run with all its expectations holding.
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
			want := scenario.RejectLine(src)
			f, err := scenario.Parse(file, src)
			if err != nil {
				var pe *scenario.ParseError
				if want > 0 && asParseError(err, &pe) && pe.Line == want {
					return
				}
				t.Fatalf("parse: %v", err)
			}
			res := scenario.Run(f, boards.Get)
			if want > 0 {
				if res.ExitStatus() != 2 || res.Err.Line != want {
					t.Fatalf("want refusal (exit 2) at line %d, got exit %d %+v", want, res.ExitStatus(), res.Err)
				}
				return
			}
			if res.Err != nil {
				t.Fatalf("exit 2: line %d: %s", res.Err.Line, res.Err.Msg)
			}
			for _, fl := range res.Failures {
				t.Errorf("line %d: %s", fl.Line, fl.Msg)
			}
			checkSpeechOrders(t, src, res)
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
		ores := scenario.Run(f, boards.Get)
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

func asParseError(err error, pe **scenario.ParseError) bool {
	p, ok := err.(*scenario.ParseError)
	*pe = p
	return ok
}
