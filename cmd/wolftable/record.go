package main

import (
	"io"

	"wolftable/internal/cliflag"
)

// recordCommand is `wolftable record …`: the game journals.
var recordCommand = &cliflag.Command{
	Name: "record",
	ShortUsage: "record verify FILE [--pubkey KEY|FILE] [--unfinished] [--unsigned]\n" +
		"record show FILE [--format text|md|json]\nrecord list [DIR] [--page N] [--per N]\nrecord archive [DIR]\n" +
		"record keygen | pubkey [--key FILE]\nrecord resend [--config FILE] [--journal DIR] [FILE...]",
	ShortHelp: "verify: that a game journal proves its result (hash chain, replay, end record\n" +
		"signed by the table's key); show: the game record (復盤) of a journal, with its\n" +
		"fingerprint; list: the table's games, newest first, a page at a time; archive:\n" +
		"move the finished journals into DIR/archive/ (done at each start); keygen, pubkey:\n" +
		"the table's signing key, its public key for the organiser; resend: send the\n" +
		"records the desk refused again, once fixed (wolftable record help: every flag)",
	Exec: func(args []string, stdout, stderr io.Writer) int {
		if len(args) > 0 && args[0] == "resend" {
			return cmdRecordResend(args[1:], stdout, stderr)
		}
		return recordArgs(args, stdout, stderr)
	},
}
