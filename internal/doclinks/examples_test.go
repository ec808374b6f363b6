package doclinks

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"wolftable/boards"
	"wolftable/scenario"
)

var wolfBlock = regexp.MustCompile("(?ms)^```wolf\n(.*?)^```")

// TestScenarioExamplesRun: every ```wolf block of docs/*.md is a whole
// scenario that runs with every expectation holding, as a judge who copies
// it will expect.
func TestScenarioExamplesRun(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, doc := range docs {
		src, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range wolfBlock.FindAllSubmatchIndex(src, -1) {
			n++
			line := strings.Count(string(src[:m[2]]), "\n") + 1
			name := filepath.Base(doc) + ":" + strconv.Itoa(line)
			f, err := scenario.Parse(name, src[m[2]:m[3]])
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			res := scenario.Run(f, boards.Get)
			if res.Err != nil {
				t.Errorf("%s: exit 2 at the example's line %d: %s", name, res.Err.Line, res.Err.Msg)
			}
			for _, fl := range res.Failures {
				t.Errorf("%s: the example's line %d: %s", name, fl.Line, fl.Msg)
			}
		}
	}
	if n < 2 {
		t.Errorf("found %d ```wolf examples in docs/*.md, want at least 2", n)
	}
}
