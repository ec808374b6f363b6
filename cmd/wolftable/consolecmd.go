package main

import "wolftable/internal/cliflag"

// consoleCommand is `wolftable console pin|cert` (cmdConsole, console.go).
var consoleCommand = &cliflag.Command{
	Name:       "console",
	ShortUsage: "console pin [--config FILE]\nconsole cert [--config FILE]",
	ShortHelp:  "pin: a new judge's PIN (printed once, only its hash kept);\ncert: the HTTPS certificate's fingerprint (made if missing)",
	Exec:       cmdConsole,
}
