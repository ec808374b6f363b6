//go:build !linux

package virtual

import "errors"

// IsTerminal reports whether fd is a terminal. Only Linux is supported; on
// other systems it reports false and the table falls back to Plain.
func IsTerminal(fd int) bool { return false }

// MakeRaw is only implemented on Linux.
func MakeRaw(fd int) (restore func() error, err error) {
	return nil, errors.New("virtual: raw terminal mode is only implemented on Linux")
}
