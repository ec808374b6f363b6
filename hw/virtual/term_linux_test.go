//go:build linux

package virtual

import (
	"testing"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

func TestMakeRaw(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	fd := int(tty.Fd())
	if !IsTerminal(fd) {
		t.Fatal("a pty is not a terminal")
	}
	before, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	restore, err := MakeRaw(fd)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if raw.Lflag&(unix.ICANON|unix.ECHO) != 0 || raw.Iflag&unix.ICRNL != 0 {
		t.Errorf("not raw: lflag %#x iflag %#x", raw.Lflag, raw.Iflag)
	}
	if raw.Lflag&unix.ISIG == 0 {
		t.Error("ISIG cleared: Ctrl-C would no longer interrupt")
	}
	if raw.Cc[unix.VMIN] != 1 || raw.Cc[unix.VTIME] != 0 {
		t.Errorf("VMIN %d VTIME %d", raw.Cc[unix.VMIN], raw.Cc[unix.VTIME])
	}
	if err := restore(); err != nil {
		t.Fatal(err)
	}
	after, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if *after != *before {
		t.Errorf("not restored:\n%+v\nwant\n%+v", after, before)
	}

	// Raw mode reads single keys: Enter arrives as '\r', unechoed.
	if _, err := MakeRaw(fd); err != nil {
		t.Fatal(err)
	}
	if _, err := ptmx.Write([]byte("s3\r")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	n, err := tty.Read(buf)
	if err != nil || string(buf[:n]) != "s3\r" {
		t.Errorf("read %q, %v; want \"s3\\r\"", buf[:n], err)
	}

	if _, err := MakeRaw(-1); err == nil {
		t.Error("MakeRaw(-1) worked")
	}
}
