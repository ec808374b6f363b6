package main

import (
	"io"
	"os"
	"strings"

	"wolftable/internal/hans"
)

// scriptEnv overrides the desk's script for its command line output
// (hant or hans), as it does the table's.
const scriptEnv = "WOLFTABLE_SCRIPT"

// deskScript is the script of a desk command's output: $WOLFTABLE_SCRIPT,
// else --script, else the script of the --config file; hant when none
// says.
func deskScript(args []string) hans.Script {
	if v := os.Getenv(scriptEnv); v != "" {
		if sc, err := hans.ParseScript(v); err == nil {
			return sc
		}
	}
	value := func(name string) string {
		for i, a := range args {
			if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
				return v
			}
			if (a == "--"+name || a == "-"+name) && i+1 < len(args) {
				return args[i+1]
			}
		}
		return ""
	}
	if v := value("script"); v != "" {
		if sc, err := hans.ParseScript(v); err == nil {
			return sc
		}
	}
	if fc, err := readFileConfig(value("config")); err == nil && fc.Script != "" {
		if sc, err := hans.ParseScript(fc.Script); err == nil {
			return sc
		}
	}
	return hans.Traditional
}

// run runs the desk command of args with its output in the desk's
// script: in hans, stdout and stderr are converted as they are written.
func run(args []string, stdout, stderr io.Writer) int {
	sc := deskScript(args)
	if sc != hans.Simplified {
		return runIn(args, stdout, stderr)
	}
	so, se := hans.NewWriter(stdout, sc), hans.NewWriter(stderr, sc)
	defer func() {
		_ = so.(*hans.Writer).Flush()
		_ = se.(*hans.Writer).Flush()
	}()
	return runIn(args, so, se)
}
