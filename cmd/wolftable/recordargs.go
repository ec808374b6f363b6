package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"wolftable/journal"
)

// recordUsage is `wolftable record help`.
const recordUsage = `usage:
  wolftable record verify FILE [--pubkey KEY|FILE] [--unfinished] [--unsigned] [--records] [--boards DIR]
      check the hash chain, the end record's signature against the table's
      public key (default ` + "`" + `/var/lib/wolftable/table.pub` + "`" + `, or --pubkey: the key the
      organiser registered for the table) and replay the game; exit 0 when
      the journal proves its result, 1 when it does not. A journal without
      an end record fails unless --unfinished (a game in progress); an
      unsigned end record (format 1 journals) fails unless --unsigned
  wolftable record show FILE [--format text|md|json] [--boards DIR]
      the game record (復盤): setup, every night's actions, every vote
      with its 票型, sheriff, deaths, exiles, penalties, result, durations,
      and the journal's fingerprint
  wolftable record keygen [--key FILE]
      make the table's signing key (default /var/lib/wolftable/table.key,
      mode 0600, and table.pub next to it); never overwrites one
  wolftable record pubkey [--key FILE]
      print the table's public key, for the organiser to register
` + recordFolderUsage + `  --boards DIR   a venue's boards folder (*.board) beside the embedded ones
                 (default /etc/wolftable/boards when it exists)
`

const recordFolderUsage = `  wolftable record list [DIR] [--page N] [--per N]
      the table's games, newest first, a page at a time (default 20 a page;
      DIR default ` + journal.DefaultDir + `): start, board, result, signature,
      the desk's answer and the journal's path. The game in progress and
      one to resume are at the top of DIR; finished games in DIR/archive/
  wolftable record archive [DIR]
      move every finished journal at the top of DIR into DIR/archive/YYYY-MM/
      (serve and sim do it at each start and each game's end; for a folder
      that holds thousands from an older version). Nothing is deleted
  record show and record verify find a journal by its file name alone
  in ` + journal.DefaultDir + ` and its archive
`

// recordArgs runs `wolftable record …` but resend: args are what follows
// "record" (a leading "record" is skipped too); it parses them and calls
// journal's verbs. It returns the exit status: 0 done, 1 the journal does
// not verify, replay or prove its result (or the key cannot be made or
// read), 2 bad usage.
func recordArgs(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "record" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, recordUsage)
		return 2
	}
	sub := args[0]
	if sub == "help" || sub == "-h" || sub == "--help" {
		fmt.Fprint(stdout, recordUsage)
		return 0
	}
	if sub == "list" || sub == "archive" {
		return recordFolderArgs(sub, args[1:], stdout, stderr)
	}
	if sub != "verify" && sub != "show" && sub != "keygen" && sub != "pubkey" {
		fmt.Fprintf(stderr, "record: unknown command %q\n%s", sub, recordUsage)
		return 2
	}
	return recordFileArgs(sub, args[1:], stdout, stderr)
}

// recordFileArgs runs `record verify|show|keygen|pubkey` with rest, what
// follows the verb.
func recordFileArgs(sub string, rest []string, stdout, stderr io.Writer) int {
	var file, keyPath string
	var vo journal.VerifyOptions
	var so journal.ShowOptions
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		value := func(name string) (string, bool) {
			if v, ok := strings.CutPrefix(a, name+"="); ok {
				return v, true
			}
			if a == name && i+1 < len(rest) {
				i++
				return rest[i], true
			}
			return "", false
		}
		if v, ok := value("--format"); ok && sub == "show" {
			so.Format = v
			continue
		}
		if v, ok := value("--boards"); ok && (sub == "show" || sub == "verify") {
			so.Boards, vo.Boards = v, v
			continue
		}
		if v, ok := value("--pubkey"); ok && sub == "verify" {
			vo.PublicKey = v
			continue
		}
		if v, ok := value("--key"); ok && (sub == "keygen" || sub == "pubkey") {
			keyPath = v
			continue
		}
		switch {
		case a == "--records" && sub == "verify":
			vo.Records = true
		case a == "--unfinished" && sub == "verify":
			vo.Unfinished = true
		case a == "--unsigned" && sub == "verify":
			vo.Unsigned = true
		case strings.HasPrefix(a, "-") && a != "-":
			fmt.Fprintf(stderr, "record %s: unknown or incomplete flag %s\n%s", sub, a, recordUsage)
			return 2
		case file == "" && (sub == "verify" || sub == "show"):
			file = a
		case sub == "keygen" || sub == "pubkey":
			fmt.Fprintf(stderr, "record %s: no arguments but --key FILE\n", sub)
			return 2
		default:
			fmt.Fprintf(stderr, "record %s: one file at a time\n", sub)
			return 2
		}
	}
	switch sub {
	case "keygen":
		return journal.Keygen(keyPath, stdout, stderr)
	case "pubkey":
		return journal.PrintPublicKey(keyPath, stdout, stderr)
	}
	if file == "" {
		fmt.Fprintf(stderr, "record %s: no FILE\n%s", sub, recordUsage)
		return 2
	}
	if sub == "verify" {
		return journal.VerifyFile(file, vo, stdout, stderr)
	}
	return journal.ShowFile(file, so, stdout, stderr)
}

// recordFolderArgs runs `record list` and `record archive`.
func recordFolderArgs(sub string, args []string, stdout, stderr io.Writer) int {
	dir, page, per := "", 1, 20
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, v, hasValue := strings.Cut(a, "=")
		if (name == "--page" || name == "--per") && sub == "list" {
			if !hasValue && i+1 < len(args) {
				i++
				v, hasValue = args[i], true
			}
			n, err := strconv.Atoi(v)
			if !hasValue || err != nil || n < 1 || n > 1000 {
				fmt.Fprintf(stderr, "record list: %s wants a number from 1 to 1000\n", name)
				return 2
			}
			if name == "--page" {
				page = n
			} else {
				per = n
			}
			continue
		}
		switch {
		case strings.HasPrefix(a, "-"):
			fmt.Fprintf(stderr, "record %s: unknown or incomplete flag %s\n%s", sub, a, recordUsage)
			return 2
		case dir == "":
			dir = a
		default:
			fmt.Fprintf(stderr, "record %s: one folder at a time\n", sub)
			return 2
		}
	}
	if sub == "archive" {
		return journal.ArchiveFolder(dir, stdout, stderr)
	}
	return journal.ListFolder(dir, page, per, stdout, stderr)
}
