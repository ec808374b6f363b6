package main

import (
	"io"

	"wolftable/audio/voice"
)

// cmdVoice runs `wolftable voice …`: the recording checklist (script), the
// venue pack check (check), auditioning a line (say), and the embedded
// default pack (export, generate). See voice.Command.
func cmdVoice(args []string, stdout, stderr io.Writer) int {
	return voice.Command(args, stdout, stderr)
}
