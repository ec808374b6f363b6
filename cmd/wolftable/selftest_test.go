package main

import (
	"bytes"
	"strings"
	"testing"
)

// The selftest command itself is tested in package selftest (emulated runs
// in child processes, the interactive table under tmux); here only that the
// CLI entry point is wired to it.
func TestSelftestUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := cmdSelftest([]string{"--fault", "no-link"}, &out, &errb); code != 2 {
		t.Fatalf("--fault without --emulate: exit %d, want 2\n%s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "wolftable selftest --emulate") {
		t.Errorf("no usage:\n%s", errb.String())
	}
	errb.Reset()
	if code := cmdSelftest([]string{"--help"}, &out, &errb); code != 0 {
		t.Errorf("--help: exit %d", code)
	}
}
