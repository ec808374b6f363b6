package cliflag

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// Command is one (sub)command of a binary, as a value (the shape of
// tailscale's cmd/tailscale/cli): its name, the one line of usage and help
// the parent's help lists, its flags, and what it does. The help text is
// generated from these values (Help, Usage), so it cannot drift from the
// flags a command defines.
type Command struct {
	// Name is the word that selects the command ("verify").
	Name string
	// ShortUsage is the command line after the binary's name, with the
	// positional arguments ("record verify FILE [flags]"); lines after the
	// first are more forms of it.
	ShortUsage string
	// ShortHelp is what the command does, in a line or two.
	ShortHelp string
	// LongHelp, when set, is printed after ShortHelp in the command's own
	// usage.
	LongHelp string
	// Flags, when set, defines the command's flags on fs; Exec then gets
	// the positional arguments only (flags may come anywhere among them)
	// and a bad flag or -h prints the generated usage (exit 2, 0 for -h).
	Flags func(fs *flag.FlagSet)
	// Define, instead of Flags and Exec, defines the command's flags on
	// fs and returns what runs it with them: its flag values live in the
	// one run (commands run at once share nothing). Exec gets the
	// positional arguments, as with Flags.
	Define func(fs *flag.FlagSet) (exec func(args []string, stdout, stderr io.Writer) int)
	// Exec runs the command with what follows its name (or, with Flags,
	// its positional arguments) and returns the exit status.
	Exec func(args []string, stdout, stderr io.Writer) int
	// Subcommands are chosen by the first argument; a Command with
	// subcommands and no Exec prints its usage (exit 2) when none is named.
	Subcommands []*Command
	// Hidden keeps the command out of its parent's help (aliases).
	Hidden bool
	// Aliases are more names that select the command ("--version").
	Aliases []string
}

// Run runs c with args (what follows its name); bin is the binary's name,
// for messages and usage.
func (c *Command) Run(bin string, args []string, stdout, stderr io.Writer) int {
	if len(c.Subcommands) > 0 && len(args) > 0 {
		if sub := c.find(args[0]); sub != nil {
			return sub.Run(bin, args[1:], stdout, stderr)
		}
		if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
			fmt.Fprint(stdout, c.Usage(bin))
			return 0
		}
	}
	if c.Exec == nil && c.Define == nil {
		if len(args) > 0 {
			fmt.Fprintf(stderr, "%s：沒有 %q 這個指令\n\n", strings.TrimSpace(bin+" "+c.Name), args[0])
		}
		fmt.Fprint(stderr, c.Usage(bin))
		return 2
	}
	if c.Flags == nil && c.Define == nil {
		return c.Exec(args, stdout, stderr)
	}
	exec := c.Exec
	var fs *flag.FlagSet
	fs = NewFunc(c.Name, stderr, func() string { return c.usageOf(bin, fs) })
	if c.Define != nil {
		exec = c.Define(fs)
	} else {
		c.Flags(fs)
	}
	pos, err := Interspersed(fs, args)
	if err == flag.ErrHelp {
		return 0
	}
	if err != nil {
		return 2
	}
	return exec(pos, stdout, stderr)
}

// flags is a flag set with c's flags defined, for its usage; nil when c
// has none.
func (c *Command) flags() *flag.FlagSet {
	if c.Flags == nil && c.Define == nil {
		return nil
	}
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	if c.Define != nil {
		c.Define(fs)
	} else {
		c.Flags(fs)
	}
	return fs
}

func (c *Command) find(name string) *Command { return Find(c.Subcommands, name) }

// Find is the command of cmds named name (or with name among its
// aliases), nil if none.
func Find(cmds []*Command, name string) *Command {
	for _, s := range cmds {
		if s.Name == name {
			return s
		}
		for _, a := range s.Aliases {
			if a == name {
				return s
			}
		}
	}
	return nil
}

// Usage is c's usage text: its usage lines and help, its flags (name,
// value, default and help, from its FlagSet) and its subcommands, each
// with its own usage lines, help and flags.
func (c *Command) Usage(bin string) string {
	return c.usageOf(bin, c.flags())
}

func (c *Command) usageOf(bin string, fs *flag.FlagSet) string {
	var b strings.Builder
	if c.ShortUsage != "" {
		b.WriteString("用法：\n")
		writeUsageLines(&b, bin, c.ShortUsage, "  ")
	}
	if c.ShortHelp != "" {
		writeIndented(&b, c.ShortHelp, "      ")
	}
	if c.LongHelp != "" {
		b.WriteString("\n")
		writeIndented(&b, c.LongHelp, "  ")
	}
	if fs != nil {
		writeFlags(&b, fs, "  ")
	}
	if subs := c.visible(); len(subs) > 0 {
		if c.ShortUsage == "" {
			b.WriteString("用法：\n")
		} else {
			b.WriteString("\n子指令：\n")
		}
		for _, s := range subs {
			s.writeSummary(&b, bin, "  ")
		}
	}
	return b.String()
}

// Help is the binary's help: the head, then every command's usage lines,
// help and flags, the subcommands' in turn.
func Help(bin, head string, cmds []*Command) string {
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("\n用法：\n")
	for _, c := range cmds {
		if !c.Hidden {
			c.writeSummary(&b, bin, "  ")
		}
	}
	return b.String()
}

// writeSummary writes c's usage lines, help and flags, then its
// subcommands', at indent.
func (c *Command) writeSummary(b *strings.Builder, bin, indent string) {
	if c.ShortUsage != "" {
		writeUsageLines(b, bin, c.ShortUsage, indent)
		writeIndented(b, c.ShortHelp, indent+"    ")
		if fs := c.flags(); fs != nil {
			writeFlags(b, fs, indent+"    ")
		}
	}
	for _, s := range c.visible() {
		s.writeSummary(b, bin, indent)
	}
}

func (c *Command) visible() []*Command {
	var out []*Command
	for _, s := range c.Subcommands {
		if !s.Hidden {
			out = append(out, s)
		}
	}
	return out
}

// writeUsageLines writes each line of usage after bin; a line that starts
// with a space continues the one before it.
func writeUsageLines(b *strings.Builder, bin, usage, indent string) {
	for _, l := range strings.Split(strings.TrimRight(usage, "\n"), "\n") {
		if strings.HasPrefix(l, " ") {
			fmt.Fprintf(b, "%s      %s\n", indent, strings.TrimSpace(l))
			continue
		}
		fmt.Fprintf(b, "%s%s %s\n", indent, bin, strings.TrimSpace(l))
	}
}

func writeIndented(b *strings.Builder, text, indent string) {
	if text == "" {
		return
	}
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if l == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString(indent + l + "\n")
	}
}

// writeFlags writes one entry a flag of fs: --name VALUE (default), then
// its help indented below it. VALUE is the back-quoted word of the help,
// as flag.UnquoteUsage reads it.
func writeFlags(b *strings.Builder, fs *flag.FlagSet, indent string) {
	fs.VisitAll(func(f *flag.Flag) {
		name, help := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		line := indent + dash + f.Name
		if name != "" {
			line += " " + name
		}
		if def := f.DefValue; def != "" && def != "false" && def != "0" && def != "[]" {
			line += "（預設 " + def + "）"
		}
		b.WriteString(line + "\n")
		writeIndented(b, help, indent+"      ")
	})
}

// NewFunc is New with a usage text made when it is printed (a generated
// usage reads the flags defined after New returned).
func NewFunc(name string, stderr io.Writer, usage func() string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage()) }
	if made := Made.Load(); made != nil {
		(*made)(fs, usage)
	}
	return fs
}
