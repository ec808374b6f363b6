package main

import "wolftable/internal/cliflag"

// consoleCommand is `wolftable console pin|cert` (cmdConsole, console.go).
var consoleCommand = &cliflag.Command{
	Name:       "console",
	ShortUsage: "console pin [--config FILE]\nconsole cert [--config FILE]",
	ShortHelp:  "`pin`：新的法官 PIN（只印這一次，只保留它的雜湊）；\n`cert`：HTTPS 憑證的指紋（沒有就建立）",
	Exec:       cmdConsole,
}
