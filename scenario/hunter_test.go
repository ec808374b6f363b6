package scenario_test

import (
	"os"
	"strings"
	"testing"

	"wolftable/scenario"
)

// TestHunterStepLeftOutAfterHisShot: under night.skip_dead_revealed_hunter
// the 獵人 step is left out of night 2 once the exiled hunter has shot; the
// same game under the default keeps it (A3, A15).
func TestHunterStepLeftOutAfterHisShot(t *testing.T) {
	const file = "../scenarios/roles/hunter-step-left-out-after-his-shot.wolf"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	opens := func(src string) int {
		t.Helper()
		f, err := scenario.Parse(file, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		res := scenario.Run(f, getBoard)
		if res.ExitStatus() != 0 {
			t.Fatalf("exit %d: %v %v", res.ExitStatus(), res.Err, res.Failures)
		}
		n := 0
		for _, e := range res.Events {
			if e.Type == "say" && e.Line == "night.hunter.open" {
				n++
			}
		}
		return n
	}
	if n := opens(string(src)); n != 1 {
		t.Errorf("option on: the 獵人 step opened %d times over two nights, want 1 (night 1 only)", n)
	}
	off := strings.Replace(string(src), "option night.skip_dead_revealed_hunter=on", "", 1)
	if off == string(src) {
		t.Fatal("the scenario no longer sets the option")
	}
	if n := opens(off); n != 2 {
		t.Errorf("default: the 獵人 step opened %d times over two nights, want 2", n)
	}
}
