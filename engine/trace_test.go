package engine_test

import "testing"

// sameTrace fails unless two public traces (lines, lights and timers with
// their times, as the A15 tests of each role build them) are the same, and
// names the first entry where they part.
func sameTrace(t *testing.T, name string, a, b []string) {
	t.Helper()
	if len(a) < 5 {
		t.Fatalf("%s: a trace of %d entries: nothing to compare", name, len(a))
	}
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			t.Fatalf("%s: the public traces differ at entry %d (A15):\n  a: %s\n  b: %s", name, i+1, x, y)
		}
	}
}
