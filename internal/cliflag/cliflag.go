// Package cliflag holds the command line helpers the subcommands share.
package cliflag

import (
	"flag"
	"fmt"
	"io"
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
// usage printed on a bad flag is the command's own text.
func New(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	return fs
}
