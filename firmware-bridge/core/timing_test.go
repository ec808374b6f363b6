package core_test

import (
	"testing"

	"wolftable/firmware-bridge/core"
)

func TestSettleCycles(t *testing.T) {
	for _, c := range []struct{ hz, ns, want uint32 }{
		{125_000_000, 100, 13}, // 12.5 cycles: rounded up
		{200_000_000, 100, 20},
		{133_000_000, 100, 14},
		{48_000_000, 100, 5},
		{200_000_000, 0, 0},
		{4_000_000_000, 1000, 4000},
	} {
		got := core.SettleCycles(c.hz, c.ns)
		if got != c.want {
			t.Errorf("SettleCycles(%d, %d) = %d, want %d", c.hz, c.ns, got, c.want)
		}
		if uint64(got)*1_000_000_000 < uint64(c.hz)*uint64(c.ns) {
			t.Errorf("SettleCycles(%d, %d) = %d cycles: shorter than %d ns", c.hz, c.ns, got, c.ns)
		}
	}
}
