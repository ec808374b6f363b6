package journal

import (
	"os"
	"os/exec"
	"testing"
)

// TestTearOnlyInTestBuild: the product binary ignores
// WOLFTABLE_JOURNAL_TEAR_AT (issue 13 item 8): a process built without the
// tag wolftable_tear writes a whole game with the variable set and is not
// killed. Before the build tag, the child died by SIGKILL at record 3.
func TestTearOnlyInTestBuild(t *testing.T) {
	if os.Getenv("WOLFTABLE_TEAR_CHILD") == "1" {
		p := playJournal(t, t.TempDir(), "seer-witch-hunter-idiot", 7, true)
		if p == nil {
			t.Fatal("no game")
		}
		return
	}
	if tearBuild {
		t.Skip("built with the tag wolftable_tear: the injector is meant to be here")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTearOnlyInTestBuild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "WOLFTABLE_TEAR_CHILD=1", "WOLFTABLE_JOURNAL_TEAR_AT=3")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child writing a journal with WOLFTABLE_JOURNAL_TEAR_AT=3: %v\n%s", err, out)
	}
}
