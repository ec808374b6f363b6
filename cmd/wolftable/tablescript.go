package main

import (
	"io"

	"wolftable/hw/virtual"
	"wolftable/internal/hans"
)

// tableScript is the terminal table's script: the one of the command's
// output (inScript wraps stdout in a *hans.Writer for hans). The
// interactive table draws on the terminal itself, not through stdout, so
// it converts its words on its own.
func tableScript(stdout io.Writer) virtual.Option {
	if _, ok := stdout.(*hans.Writer); ok {
		return virtual.WithText(hans.Simplified.Text)
	}
	return virtual.WithText(nil)
}
