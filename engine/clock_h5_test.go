package engine

import "testing"

// TestClockRuleH5: under minute_digit_sum the first speaker is
// ((sum − 1) mod N) + 1 for every table size and minute (rules-more.md H5),
// and under minute_mod_n ((minute − 1) mod N) + 1; odd minutes go up, even
// minutes down (A8).
func TestClockRuleH5(t *testing.T) {
	all := func(int) bool { return true }
	for n := 6; n <= 18; n++ {
		for m := 0; m < 60; m++ {
			g := &Game{n: n, min: m}
			sum := m/10 + m%10
			for _, c := range []struct {
				rule string
				v    int
			}{{"minute_digit_sum", sum}, {"minute_mod_n", m}} {
				want := ((c.v-1)%n+n)%n + 1
				order := g.clockOrder(c.rule, all)
				if len(order) != n || order[0] != want {
					t.Fatalf("N=%d minute %02d %s: first %v, want %d", n, m, c.rule, order, want)
				}
				next := want%n + 1
				if m%2 == 0 {
					next = (want-2+n)%n + 1
				}
				if order[1] != next {
					t.Fatalf("N=%d minute %02d %s: second %d, want %d", n, m, c.rule, order[1], next)
				}
			}
		}
	}
}
