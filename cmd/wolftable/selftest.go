package main

import (
	"io"
	"os"

	"wolftable/hw/virtual"
	"wolftable/internal/cliflag"

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
		Table:         []virtual.Option{tableScript(stdout)},
	})
}

var selftestCommand = &cliflag.Command{
	Name:       "selftest",
	ShortUsage: "selftest [--config F] [--report F] | --emulate [--fault KIND:SEAT[:KEY]]...",
	ShortHelp:  "the technician's hardware self-test (wolftable selftest -h)",
	Exec:       cmdSelftest,
}
