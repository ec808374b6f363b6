package main

import (
	"flag"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"wolftable/internal/cliflag"
)

// TestUsageListsEveryFlag: every flag of every subcommand is in the usage
// text that subcommand prints (issue 13 item 5: `wolftable help` missed four
// of sim's flags and seven of serve's). Each subcommand is run with -h: it
// makes its flag set with cliflag.New, defines its flags and stops.
func TestUsageListsEveryFlag(t *testing.T) {
	type made struct {
		fs    *flag.FlagSet
		usage func() string
	}
	var mu sync.Mutex
	var sets []made
	hook := func(fs *flag.FlagSet, usage func() string) {
		mu.Lock()
		sets = append(sets, made{fs, usage})
		mu.Unlock()
	}
	cliflag.Made.Store(&hook)
	defer cliflag.Made.Store(nil)
	commands := [][]string{
		{"sim"}, {"serve"}, {"config", "check"}, {"console", "pin"}, {"console", "cert"}, {"selftest"},
		{"bridge", "emulate"}, {"bridge", "probe"}, {"bridge", "watch"}, {"bridge", "lights"},
		{"voice", "script"}, {"voice", "check"}, {"voice", "say"}, {"voice", "export"}, {"voice", "generate"},
		{"scenario", "run"}, {"scenario", "check"}, {"boards"}, {"record", "resend"},
	}
	flags := 0
	for _, c := range commands {
		mu.Lock()
		sets = nil
		mu.Unlock()
		run(append(append([]string(nil), c...), "-h"), io.Discard, io.Discard)
		mu.Lock()
		got := sets
		mu.Unlock()
		if len(got) == 0 {
			t.Errorf("wolftable %s makes no flag set with cliflag.New", strings.Join(c, " "))
			continue
		}
		for _, m := range got {
			m.fs.VisitAll(func(*flag.Flag) { flags++ })
			if missing := cliflag.InUsage(m.fs, m.usage()); len(missing) > 0 {
				t.Errorf("wolftable %s: the usage text does not mention %s", strings.Join(c, " "), strings.Join(missing, " "))
			}
		}
	}
	if flags < 40 {
		t.Fatalf("only %d flags seen", flags)
	}
}

// TestMakefileNamesTheMainJob: the Makefile's first comment and the README
// name the same target as the main job (the Makefile said `make demo`, the
// README `make sim`).
func TestMakefileNamesTheMainJob(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(mk), "\n")
	m := regexp.MustCompile("`make ([a-z-]+)` runs the main job").FindStringSubmatch(first)
	r := regexp.MustCompile(`(?m)^make ([a-z-]+)\s+# the main job`).FindSubmatch(readme)
	if m == nil || r == nil {
		t.Fatalf("the main job is not named: Makefile %q, README %v", first, r)
	}
	if m[1] != string(r[1]) {
		t.Fatalf("the Makefile says `make %s` runs the main job, the README `make %s`", m[1], r[1])
	}
}
