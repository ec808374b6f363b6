//go:build !unix || !wolftable_tear

package journal

import "os"

// tearBuild: the fault injector of tear_inject.go is not in this build (it
// needs the build tag wolftable_tear, on unix): WOLFTABLE_JOURNAL_TEAR_AT
// does nothing.
const tearBuild = false

func tear(*os.File, int, []byte) {}
