package main

import (
	"io"
	"os"
	"strings"

	"wolftable/config"
	"wolftable/internal/hans"
)

// scriptEnv overrides the config's [venue] script for a command's output
// (hant or hans): a laptop without the table's config, a test.
const scriptEnv = "WOLFTABLE_SCRIPT"

// venueScript is the script of a command's output: $WOLFTABLE_SCRIPT,
// else the [venue] script of the config the command reads (--config
// FILE, else the default path if present); hant when neither says.
func venueScript(args []string) hans.Script {
	if v := os.Getenv(scriptEnv); v != "" {
		if sc, err := hans.ParseScript(v); err == nil {
			return sc
		}
	}
	path := defaultConfigPath
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--config="); ok {
			path = v
		} else if (a == "--config" || a == "-config") && i+1 < len(args) {
			path = args[i+1]
		}
	}
	return config.ScriptOf(path)
}

// inScript runs a command with its output in the venue's script.
func inScript(args []string, stdout, stderr io.Writer, cmd func(stdout, stderr io.Writer) int) int {
	sc := venueScript(args)
	if sc != hans.Simplified {
		return cmd(stdout, stderr)
	}
	so, se := hans.NewWriter(stdout, sc), hans.NewWriter(stderr, sc)
	defer func() {
		_ = so.(*hans.Writer).Flush()
		_ = se.(*hans.Writer).Flush()
	}()
	return cmd(so, se)
}
