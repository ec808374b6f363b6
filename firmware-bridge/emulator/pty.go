package emulator

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// line is one pseudo-terminal: the master the Emulator reads and writes, and
// the slave the host opens.
type line struct {
	master *os.File // non-blocking, so Close interrupts a pending Read and writes can time out
	slave  *os.File // held open so the line stays up between host sessions and keeps its settings
	tty    string   // the slave's device path, /dev/pts/N
}

// openLine creates a pseudo-terminal in raw mode at 115200 baud, as a USB
// CDC port appears to a host.
func openLine() (*line, error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("emulator: open pty: %w", err)
	}
	// pty.Open has put the master in blocking mode (it used m.Fd()); a
	// blocking Read cannot be interrupted by Close. Take a non-blocking
	// duplicate that the runtime's poller manages.
	fd, err := unix.Dup(int(m.Fd()))
	m.Close()
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("emulator: dup pty master: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		s.Close()
		return nil, fmt.Errorf("emulator: pty master: %w", err)
	}
	l := &line{master: os.NewFile(uintptr(fd), "/dev/ptmx"), slave: s, tty: s.Name()}
	if err := l.makeRaw(); err != nil {
		l.close()
		return nil, err
	}
	return l, nil
}

// makeRaw sets the line to raw 8N1 at 115200 baud: no echo, no line editing,
// no translation, so that the firmware's bytes reach the host unchanged even
// before the host sets the line up.
func (l *line) makeRaw() error {
	fd := int(l.slave.Fd())
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return fmt.Errorf("emulator: get termios: %w", err)
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON | unix.IXOFF
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB | unix.CBAUD
	t.Cflag |= unix.CS8 | unix.CREAD | unix.CLOCAL | unix.B115200
	t.Ispeed, t.Ospeed = unix.B115200, unix.B115200
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, t); err != nil {
		return fmt.Errorf("emulator: set termios: %w", err)
	}
	return nil
}

// baud returns the line's output speed as a termios constant (unix.B115200…).
func (l *line) baud() (uint32, error) {
	t, err := unix.IoctlGetTermios(int(l.slave.Fd()), unix.TCGETS)
	if err != nil {
		return 0, err
	}
	return t.Cflag & unix.CBAUD, nil
}

func (l *line) close() {
	l.master.Close()
	l.slave.Close()
}

// linkTo points the symlink at path to target, replacing an existing
// symlink atomically. It refuses to replace anything else.
func linkTo(path, target string) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink == 0 {
		return fmt.Errorf("emulator: %s exists and is not a symlink", path)
	}
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp"+strconv.Itoa(os.Getpid()))
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return fmt.Errorf("emulator: link: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("emulator: link: %w", err)
	}
	return nil
}

// unlink removes the symlink at path if it still points to target.
func unlink(path, target string) {
	if got, err := os.Readlink(path); err == nil && got == target {
		os.Remove(path) // best effort: a link left behind is replaced by the next Replug
	}
}
