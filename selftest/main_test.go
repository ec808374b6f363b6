package selftest

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// helperEnv makes the test binary run `wolftable selftest` with the
// options (JSON TableOptions) it holds, instead of the tests: the emulated runs each
// need a process of their own (the sound device is opened once per
// process, and its ALSA configuration read then).
const helperEnv = "WOLFTABLE_SELFTEST_HELPER"

func TestMain(m *testing.M) {
	if h := os.Getenv(helperEnv); h != "" {
		var o TableOptions
		if err := json.Unmarshal([]byte(h), &o); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			os.Exit(3)
		}
		os.Exit(RunTable(o, Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Software: "wolftable (selftest test binary)"}))
	}
	os.Exit(m.Run())
}
