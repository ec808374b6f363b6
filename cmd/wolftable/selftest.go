package main

import (
	"io"
	"os"

	"wolftable/selftest"
)

// cmdSelftest is `wolftable selftest`: the technician's test of the table
// (see selftest/README.md).
func cmdSelftest(args []string, stdout, stderr io.Writer) int {
	return selftest.Command(args, selftest.Env{
		Stdin:         os.Stdin,
		Stdout:        stdout,
		Stderr:        stderr,
		Software:      "wolftable " + version,
		DefaultConfig: defaultConfigPath,
	})
}
