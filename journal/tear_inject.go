//go:build unix && wolftable_tear

package journal

import (
	"os"
	"strconv"
	"syscall"
)

// tearAt is the fault the crash tests of cmd/wolftable inject into a real
// process: with WOLFTABLE_JOURNAL_TEAR_AT=N in the environment, the process
// dies in the middle of writing record N (1 = the first after the header):
// the first half of its frame reaches the disk, then SIGKILL. It is the
// power cut the torn-tail rule is for, at the worst moment, on purpose.
// Unset it costs one comparison per record. It is compiled only with the
// build tag wolftable_tear (the crash tests build their binary with it); the
// product binary has tear_none.go and ignores the variable.
const tearBuild = true

var tearAt = func() int {
	n, err := strconv.Atoi(os.Getenv("WOLFTABLE_JOURNAL_TEAR_AT"))
	if err != nil || n < 1 {
		return 0
	}
	return n
}()

// tear dies half-way through writing frame as record index, if asked to.
func tear(f *os.File, index int, frame []byte) {
	if tearAt == 0 || index != tearAt {
		return
	}
	f.Write(frame[:len(frame)/2])
	f.Sync()
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {} // SIGKILL is not delivered synchronously everywhere
}

// With WOLFTABLE_ARCHIVE_DIE_AT=N (1…5, archiveStep) the process dies
// with SIGKILL after step N of Archive: the crash tests' kill between the
// end record and a finished journal's arrival in the archive.
func init() {
	n, err := strconv.Atoi(os.Getenv("WOLFTABLE_ARCHIVE_DIE_AT"))
	if err != nil || n < 1 || n > int(archiveSteps) {
		return
	}
	archiveHook = func(s archiveStep) error {
		if s == archiveStep(n) {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		return nil
	}
}
