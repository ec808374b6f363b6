// Package cliflag holds the command line helpers the subcommands share.
package cliflag

import "flag"

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
