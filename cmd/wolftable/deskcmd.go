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
	ShortHelp: "賽事總台（執行 wolftable-desk，用法見 `wolftable desk help`）；`table add`：登記一桌，\n" +
		"印出它的憑證檔；`table renew`：為已登記的桌子換一份新憑證檔",
	Exec: func(args []string, stdout, stderr io.Writer) int { return execDesk(args, stderr) },
}
