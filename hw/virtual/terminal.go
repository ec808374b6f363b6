package virtual

import (
	"fmt"
	"os"
)

// OpenTerminal opens the virtual table on a process's standard streams
// (usually os.Stdin and os.Stdout). When both are terminals it opens
// /dev/tty (a handle of its own, so Close can stop the reader), puts the
// terminal in raw mode (MakeRaw) and draws the Interactive style; Close
// restores the terminal. Otherwise it uses the Plain style on in and out.
// Options after the style still apply; WithStyle(Plain) forces Plain.
func OpenTerminal(in, out *os.File, opts ...Option) (*Table, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	if o.style == Plain || !IsTerminal(int(in.Fd())) || !IsTerminal(int(out.Fd())) {
		return New(in, out, append(opts, WithStyle(Plain))...)
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("virtual: %w", err)
	}
	// Not tty.Fd(): it would put the file in blocking mode, and Close could
	// no longer interrupt a Read.
	rc, err := tty.SyscallConn()
	if err != nil {
		tty.Close()
		return nil, fmt.Errorf("virtual: %w", err)
	}
	var restore func() error
	if cerr := rc.Control(func(fd uintptr) { restore, err = MakeRaw(int(fd)) }); cerr != nil {
		err = cerr
	}
	if err != nil {
		tty.Close()
		return nil, err
	}
	closeTTY := func() error {
		err := restore()
		if cerr := tty.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("virtual: %w", cerr)
		}
		return err
	}
	t, err := New(tty, out, append(opts, WithStyle(Interactive), withOnClose(closeTTY))...)
	if err != nil {
		closeTTY()
		return nil, err
	}
	return t, nil
}
