// Command wolftable is the tournament Werewolf table: one binary with
// subcommands (see `wolftable help`).
package main

import (
	"fmt"
	"io"
	"os"

	"wolftable/journal"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

const usage = usageHead + serveUsage + simUsage + usageTail

const usageHead = `wolftable — the tournament 狼人殺 table controller

usage:
  wolftable boards [--config F] [--dir DIR]
                                        list boards (id, name, players, composition; 〔本店〕 = the venue's)
  wolftable boards show ID [--config F] [--dir DIR]
                                        night order with timings, options
  wolftable boards check DIR            check a venue's boards folder (file:line of every problem)
  wolftable scenario run FILE [--json]  play a scenario; print the transcript or JSON lines
  wolftable scenario check DIR|FILE...  run every .wolf file; summary "N passed, M failed"
`

// serveUsage and simUsage are their commands' part of usage: each lists
// every flag of its command (TestUsageListsEveryFlag).
const serveUsage = `  wolftable serve [--config FILE]       the table daemon (systemd: Type=notify)
        [--once] [--autostart] [--mute]  one game; start without the pedal; no voice
        [--speed N] [--seed N] [--clock HH:MM] [--bots]
                                        tests and demos: faster timers, a fixed deal,
                                        the wall clock, random players
        [--desk URL --table NAME --desk-creds FILE]
                                        report to the tournament desk (config [desk])
`

const simUsage = `  wolftable sim [--bots] [--no-tui] [--speed N] [--seed N] [--clock HH:MM] [--board ID] [--boards-dir DIR]
        [--journal DIR] [--new] [--voice on|off|auto] [--cues=false] [--console ADDR]
        [--desk URL --table NAME --desk-creds FILE]
                                        a whole game on the simulated table; --desk reports it
                                        to the tournament desk (needs --journal)
`

const usageTail = `  wolftable desk --data DIR [--nats ADDR] [--http ADDR] [--config FILE] [--pack NAME|FILE]
                                        the tournament desk (runs wolftable-desk: its own usage)
  wolftable desk table add NAME --data DIR [--pubkey KEY|FILE]
                                        register a table; prints its credentials file
  wolftable desk table renew NAME --data DIR
                                        a new credentials file for a registered table
  wolftable bridge emulate --link PATH [--seats N]
                                        the seat-panel bridge's emulator behind a pty
  wolftable bridge probe --port PATH    handshake; print the bridge's hello as JSON
  wolftable bridge watch --port PATH    print key and pedal events as JSON lines
  wolftable bridge lights --port PATH 3=red 5=green all=off
                                        set lights and exit once acknowledged
  wolftable voice script [--format csv|md] | check DIR | say LINE [SEATS] | export DIR | generate DIR
                                        the judge's voice: recording checklist, pack check, audition
  wolftable selftest [--config F] [--report F] | --emulate [--fault KIND:SEAT[:KEY]]...
                                        the technician's hardware self-test
  wolftable record verify FILE [--pubkey KEY|FILE] [--unfinished] [--unsigned]
                                        check that a game journal proves its result
                                        (hash chain, replay, end record signed by the table's key)
  wolftable record show FILE [--format text|md|json]
                                        the game record (復盤) of a journal, with its fingerprint
  wolftable record list [DIR] [--page N] [--per N]
                                        the table's games, newest first, a page at a time
  wolftable record archive [DIR]        move the finished journals into DIR/archive/ (done at each start)
  wolftable record keygen | pubkey [--key FILE]
                                        the table's signing key; its public key for the organiser
  wolftable record resend [--config FILE] [--journal DIR] [FILE...]
                                        send the records the desk refused again, once fixed
  wolftable config check [--config FILE] [--no-paths]
                                        validate the configuration
  wolftable console pin [--config FILE] a new judge's PIN (printed once, only its hash kept)
  wolftable console cert [--config FILE]
                                        the HTTPS certificate's fingerprint (made if missing)
  wolftable version                     print the version
`

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
	switch args[0] {
	case "boards":
		return cmdBoards(args[1:], stdout, stderr)
	case "scenario":
		return cmdScenario(args[1:], stdout, stderr)
	case "sim":
		return cmdSim(args[1:], stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stdout, stderr)
	case "bridge":
		return cmdBridge(args[1:], stdout, stderr)
	case "voice":
		return cmdVoice(args[1:], stdout, stderr)
	case "selftest":
		return cmdSelftest(args[1:], stdout, stderr)
	case "desk":
		return execDesk(args[1:], stderr)
	case "record":
		if len(args) > 1 && args[1] == "resend" {
			return cmdRecordResend(args[2:], stdout, stderr)
		}
		return journal.Command(args[1:], stdout, stderr)
	case "config":
		return cmdConfig(args[1:], stdout, stderr)
	case "console":
		return cmdConsole(args[1:], stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "wolftable", version)
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "wolftable: unknown command %q\n\n%s", args[0], usage)
	return 2
}
