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

func asParseError(err error, pe **scenario.ParseError) bool {
	p, ok := err.(*scenario.ParseError)
	*pe = p
	return ok
}
