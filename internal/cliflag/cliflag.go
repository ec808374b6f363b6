// Package cliflag holds the command line helpers the subcommands share.
package cliflag

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
)

// Interspersed parses fs's flags wherever they appear in args (before,
// between or after the positional arguments) and returns the positional
// arguments, in order.
func Interspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// New is a subcommand's flag set: errors and usage go to stderr, and the
// usage printed on a bad flag (or -h) is the command's own text. Every
// subcommand makes its flags with New, so a test can check that each flag
// is in its usage text (Made).
func New(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	if made := Made.Load(); made != nil {
		(*made)(fs, func() string { return usage })
	}
	return fs
}

// Made, when a test sets it, is called with every flag set New (or
// NewFunc) makes and what gives the usage text that goes with it, before
// the flags are defined (read them, and call usage, after the command
// returned).
var Made atomic.Pointer[func(fs *flag.FlagSet, usage func() string)]

// InUsage reports the flags of fs that usage does not mention as --name
// (or -name for a one-letter flag).
func InUsage(fs *flag.FlagSet, usage string) (missing []string) {
	fs.VisitAll(func(f *flag.Flag) {
		mark := "--" + f.Name
		if len(f.Name) == 1 {
			mark = "-" + f.Name
		}
		if !containsFlag(usage, mark) {
			missing = append(missing, mark)
		}
	})
	return missing
}

// containsFlag: mark occurs in usage not followed by another letter of a
// flag name ("--seed" is not in a text that only has "--seeds").
func containsFlag(usage, mark string) bool {
	for i := 0; ; {
		j := strings.Index(usage[i:], mark)
		if j < 0 {
			return false
		}
		end := i + j + len(mark)
		if end == len(usage) || !isNameByte(usage[end]) {
			return true
		}
		i = end
	}
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
