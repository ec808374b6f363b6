package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScenarioCheckRejectReason: `wolftable scenario check` fails a
// rejection case refused at its line for another reason than its header
// names, and a header without a reason (issue 13 item 7).
func TestScenarioCheckRejectReason(t *testing.T) {
	src, err := os.ReadFile("../../scenarios/rejected/guard-same-player-two-nights.wolf")
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(src), "\n")
	line := strings.Fields(first)[2]
	dir := t.TempDir()
	for header, want := range map[string]int{
		"# reject-line: " + line + " ErrRule":      0,
		"# reject-line: " + line + " ErrBadTarget": 1,
		"# reject-line: " + line + " parse":        1,
		"# reject-line: " + line:                   1,
	} {
		file := filepath.Join(dir, "case.wolf")
		if err := os.WriteFile(file, []byte(header+"\n"+rest), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if got := run([]string{"scenario", "check", file}, &out, &errb); got != want {
			t.Errorf("%s: exit %d, want %d\n%s%s", header, got, want, out.String(), errb.String())
		}
	}
}
