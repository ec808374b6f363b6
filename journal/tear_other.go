//go:build !unix

package journal

import "os"

// tear injects a torn write on unix only (see tear_unix.go).
func tear(*os.File, int, []byte) {}
