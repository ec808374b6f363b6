//go:build wolftable_tear

package desk

import (
	"os"
	"syscall"
)

// beforeMark is the test hook of the outbox (built with -tags
// wolftable_tear, as the journal's tear injector): with
// WOLFTABLE_DESK_DIE_BEFORE_MARK set, the process kills itself with
// SIGKILL after the desk's PubAck and before the ".sent" marker is
// written: the record must then arrive once after the table's restart.
func beforeMark() {
	if os.Getenv("WOLFTABLE_DESK_DIE_BEFORE_MARK") != "" {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
}
