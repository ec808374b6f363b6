package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"wolftable/boards"
)

// TestSimEveryBoard plays `wolftable sim --bots` (the daemon, its timers and
// the random players) on every board with a few seeds: each game ends with
// a result, never a panic or a stuck game, and across the seeds of each
// board both sides win.
func TestSimEveryBoard(t *testing.T) {
	if testing.Short() {
		t.Skip("plays many games")
	}
	all, err := boards.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range all {
		wins := map[string]int{}
		// up to 40 seeds: two wolves who must kill all of 8 seats (cupid-8-001
		// under seed 001's rules) win about one game in twelve
		for seed := 1; seed <= 40 && (wins["好人"] == 0 || wins["狼人"] == 0 || seed <= 3); seed++ {
			var out, errb bytes.Buffer
			code := run([]string{"sim", "--bots", "--no-tui", "--voice", "off", "--speed", "5000", "--board", b.ID, "--seed", fmt.Sprint(seed)}, &out, &errb)
			if code != 0 {
				t.Fatalf("%s seed %d: exit %d\n%s", b.ID, seed, code, errb.String())
			}
			r := resultLine(out.Bytes())
			if r == "" {
				t.Fatalf("%s seed %d: no result line\n%s", b.ID, seed, lastLines(out.String(), 10))
			}
			wins[r]++
		}
		if wins["好人"] == 0 || wins["狼人"] == 0 {
			t.Errorf("%s: 40 seeds did not reach both results: %v", b.ID, wins)
		}
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}
