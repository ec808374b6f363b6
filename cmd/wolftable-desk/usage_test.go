package main

import (
	"flag"
	"io"
	"strings"
	"sync"
	"testing"

	"wolftable/internal/cliflag"
)

// TestHelpListsEveryFlag: the desk's commands make their flags with
// cliflag, and every flag is in the usage they print (generated from the
// command values) and in `wolftable desk help`.
func TestHelpListsEveryFlag(t *testing.T) {
	var mu sync.Mutex
	var sets []*flag.FlagSet
	var usages []func() string
	hook := func(fs *flag.FlagSet, usage func() string) {
		mu.Lock()
		sets, usages = append(sets, fs), append(usages, usage)
		mu.Unlock()
	}
	cliflag.Made.Store(&hook)
	defer cliflag.Made.Store(nil)
	cmds := [][]string{{}, {"table", "add"}, {"table", "renew"}, {"table", "rekey"}, {"table", "remove"}, {"table", "list"},
		{"players", "import"}, {"players", "list"}, {"tls"}, {"pin"}, {"venue-config"}}
	for _, c := range cmds {
		var code int
		if len(c) == 0 {
			code = startCommand.Run(bin, []string{"-h"}, io.Discard, io.Discard) // the start's own -h (run's -h is the help)
		} else {
			code = run(append(append([]string(nil), c...), "-h"), io.Discard, io.Discard)
		}
		if code != 0 {
			t.Errorf("desk %v -h: exit %d", c, code)
		}
	}
	if len(sets) != len(cmds) {
		t.Fatalf("%d flag sets made with cliflag for %d commands", len(sets), len(cmds))
	}
	help := usage()
	flags := 0
	for i, fs := range sets {
		fs.VisitAll(func(*flag.Flag) { flags++ })
		if missing := cliflag.InUsage(fs, usages[i]()); len(missing) > 0 {
			t.Errorf("desk %v: its usage does not mention %s", cmds[i], strings.Join(missing, " "))
		}
		if missing := cliflag.InUsage(fs, help); len(missing) > 0 {
			t.Errorf("desk %v: the help does not mention %s", cmds[i], strings.Join(missing, " "))
		}
	}
	if flags < 25 {
		t.Fatalf("only %d flags seen", flags)
	}
}
