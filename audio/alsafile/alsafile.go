// Package alsafile is a sound card made of a FIFO, for tests and for the
// self-test's emulated run: ALSA is configured (by a file of our own; the
// machine's configuration is never read) with a default PCM of type file
// over null, so the real oto/ALSA path runs and what it plays arrives, as
// raw 32-bit float frames, in a FIFO that the caller reads at a device's
// pace.
package alsafile

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// Config is an ALSA configuration whose default PCM writes into fifo; by
// names who wrote it (a comment at its top).
func Config(fifo, by string) string {
	return fmt.Sprintf(`# Written by %s.
pcm.!default {
	type file
	slave.pcm "null"
	file "%s"
	format "raw"
}
pcm.null {
	type null
}
`, by, fifo)
}

// fSetPipeSize is fcntl's F_SETPIPE_SZ (Linux).
const fSetPipeSize = 1031

// OpenFIFO makes the FIFO at path and opens it for reading, O_RDWR: the
// open does not wait for a writer, and reads never see EOF before oto opens
// the device. pipeBytes > 0 shrinks (or grows) the pipe to that size; the
// smallest is a page, and a small pipe paces the writer like a card's buffer.
func OpenFIFO(path string, pipeBytes int) (*os.File, error) {
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		return nil, fmt.Errorf("mkfifo: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	if pipeBytes <= 0 {
		return f, nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, err
	}
	var serr error
	rc.Control(func(fd uintptr) {
		if _, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, fSetPipeSize, uintptr(pipeBytes)); e != 0 {
			serr = e
		}
	})
	if serr != nil {
		f.Close()
		return nil, fmt.Errorf("F_SETPIPE_SZ: %w", serr)
	}
	return f, nil
}

// Use writes config as dir/asound.conf and points this process's ALSA at
// it (ALSA_CONFIG_PATH), and HOME at dir so that no ~/.asoundrc is read.
// For tests: ALSA reads its configuration once per process.
func Use(dir, config string) error {
	path := filepath.Join(dir, "asound.conf")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		return err
	}
	if err := os.Setenv("ALSA_CONFIG_PATH", path); err != nil {
		return err
	}
	return os.Setenv("HOME", dir)
}
