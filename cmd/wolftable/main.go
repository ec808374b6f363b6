// Command wolftable is the tournament Werewolf table: one binary with
// subcommands (see `wolftable help`).
package main

import (
	"fmt"
	"io"
	"os"

	"wolftable/internal/cliflag"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// head is the first line of `wolftable help`; the rest is generated from
// the commands' values (each in its command's file).
const head = "wolftable — 狼人殺比賽桌控制器\n"

// commands are wolftable's subcommands, in the order help lists them.
func commands() []*cliflag.Command {
	return []*cliflag.Command{boardsCommand, scenarioCommand, serveCommand, simCommand, deskCommand,
		bridgeCommand, voiceCommand, selftestCommand, recordCommand, configCommand, consoleCommand, versionCommand}
}

// usage is `wolftable help`, generated from commands; the commands whose
// flags are not yet declared in their values give it to cliflag.New.
var usage string

func init() { usage = cliflag.Help("wolftable", head, commands()) }

var versionCommand = &cliflag.Command{
	Name:       "version",
	Aliases:    []string{"--version"},
	ShortUsage: "version",
	ShortHelp:  "印出版本",
	Exec: func(args []string, stdout, stderr io.Writer) int {
		fmt.Fprintln(stdout, "wolftable", version)
		return 0
	},
}

func main() {
	if len(os.Args) > 1 && (os.Args[1] == "serve" || os.Args[1] == "sim") {
		limitMemory() // the process, not run(): the tests call run in theirs
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	return inScript(args, stdout, stderr, func(stdout, stderr io.Writer) int { return runIn(args, stdout, stderr) })
}

// runIn runs the command of args; run writes its output in the venue's
// script (script.go).
func runIn(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if c := cliflag.Find(commands(), args[0]); c != nil {
		return c.Run("wolftable", args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "wolftable: unknown command %q\n\n%s", args[0], usage)
	return 2
}
