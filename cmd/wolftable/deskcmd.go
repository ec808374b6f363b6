package main

import (
	"io"

	"wolftable/internal/cliflag"
)

// deskCommand is `wolftable desk …`: it runs wolftable-desk (execDesk,
// deskclient.go), which has its own usage.
var deskCommand = &cliflag.Command{
	Name: "desk",
	ShortUsage: "desk --data DIR [--nats ADDR] [--http ADDR] [--config FILE] [--pack NAME|FILE]\n" +
		"desk table add NAME --data DIR [--pubkey KEY|FILE]\ndesk table renew NAME --data DIR",
	ShortHelp: "the tournament desk (runs wolftable-desk: its own usage); table add: register a\n" +
		"table, prints its credentials file; table renew: a new credentials file for a\nregistered table",
	Exec: func(args []string, stdout, stderr io.Writer) int { return execDesk(args, stderr) },
}
