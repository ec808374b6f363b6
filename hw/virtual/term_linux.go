//go:build linux

package virtual

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// IsTerminal reports whether fd is a terminal.
func IsTerminal(fd int) bool {
	_, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	return err == nil
}

// MakeRaw puts the terminal fd in raw mode for single-key input and returns
// a function that restores its previous mode. Unlike cfmakeraw it leaves
// ISIG on (Ctrl-C still interrupts the process) and OPOST on (the output
// is translated as usual); input is unbuffered and unechoed, and Enter
// reads as '\r'.
func MakeRaw(fd int) (restore func() error, err error) {
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return nil, fmt.Errorf("virtual: not a terminal: %w", err)
	}
	raw := *old
	raw.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	raw.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.IEXTEN
	raw.Cflag &^= unix.CSIZE | unix.PARENB
	raw.Cflag |= unix.CS8
	raw.Cc[unix.VMIN] = 1
	raw.Cc[unix.VTIME] = 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &raw); err != nil {
		return nil, fmt.Errorf("virtual: raw mode: %w", err)
	}
	return func() error {
		if err := unix.IoctlSetTermios(fd, unix.TCSETS, old); err != nil {
			return fmt.Errorf("virtual: restoring the terminal: %w", err)
		}
		return nil
	}, nil
}
