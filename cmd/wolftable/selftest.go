package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"strings"
	"time"
	"wolftable/hw/virtual"

	"wolftable/internal/cliflag"
	"wolftable/selftest"
)

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// cmdSelftest is `wolftable selftest`: the technician's test of the table
// (see selftest/README.md). It parses the flags; selftest.RunTable runs
// the test.
func cmdSelftest(args []string, stdout, stderr io.Writer) int {
	o, code := selftestArgs(args, stderr)
	if code >= 0 {
		return code
	}
	return selftest.RunTable(o, selftest.Env{
		Stdin:         os.Stdin,
		Stdout:        stdout,
		Stderr:        stderr,
		Software:      "wolftable " + version,
		DefaultConfig: defaultConfigPath,
		Table:         []virtual.Option{tableScript(stdout)},
	})
}

// selftestArgs parses selftest's command line; code is -1 when it is
// good, else the exit status (help, or a usage error said on stderr).
func selftestArgs(args []string, stderr io.Writer) (o selftest.TableOptions, code int) {
	fs := cliflag.New("wolftable selftest", selftest.Usage, stderr)
	fs.StringVar(&o.Config, "config", "", "config file")
	var reports, faults multiFlag
	fs.Var(&reports, "report", "write the report to FILE (.json: JSON)")
	fs.DurationVar(&o.Soak, "soak", 10*time.Second, "link soak duration")
	fs.DurationVar(&o.Wait, "wait", selftest.DefaultWait, "how long a prompt waits for the technician")
	only := fs.String("only", "", "components to test")
	fs.BoolVar(&o.Emulate, "emulate", false, "test the bridge emulator with a robot technician")
	fs.Var(&faults, "fault", "a fault of the emulated table")
	fs.IntVar(&o.Seats, "seats", 0, "seats of the emulated table (default: the config's)")
	fs.BoolVar(&o.SystemSpeaker, "system-speaker", false, "the emulated run plays on this machine's sound device")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, 0
		}
		return o, 2
	}
	if fs.NArg() > 0 {
		return o, selftest.UsageError(stderr, "unexpected argument %q", fs.Arg(0))
	}
	if o.Soak < 0 || o.Wait <= 0 {
		return o, selftest.UsageError(stderr, "--soak must be 0 or more, --wait more than 0")
	}
	if *only != "" {
		for _, c := range strings.Split(*only, ",") {
			o.Only = append(o.Only, strings.TrimSpace(c))
		}
	}
	for _, s := range faults {
		f, err := selftest.ParseFault(s)
		if err != nil {
			return o, selftest.UsageError(stderr, "%v", err)
		}
		o.Faults = append(o.Faults, f)
	}
	o.Reports = reports
	return o, -1
}

var selftestCommand = &cliflag.Command{
	Name:       "selftest",
	ShortUsage: "selftest [--config F] [--report F] | --emulate [--fault KIND:SEAT[:KEY]]...",
	ShortHelp:  "技術人員的硬體自我檢測（`wolftable selftest -h`）",
	Exec:       cmdSelftest,
}
