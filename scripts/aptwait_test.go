// Package scripts holds the tests of the shell scripts beside it.
package scripts

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// holdLock takes a POSIX write lock on path, as apt and dpkg do on theirs.
func holdLock(t *testing.T, path string) (release func()) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &lk); err != nil {
		t.Fatal(err)
	}
	return func() { f.Close() } // closing drops the lock
}

func aptWait(t *testing.T, locks string, seconds int) (code int, stderr string, took time.Duration) {
	t.Helper()
	cmd := exec.Command("./apt-wait", strconv.Itoa(seconds))
	cmd.Env = append(os.Environ(), "WOLFTABLE_APT_LOCKS="+locks)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	start := time.Now()
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatal(err)
	}
	return code, errb.String(), time.Since(start)
}

// TestAptWait (issue 31 item 7): while another apt holds its lock,
// scripts/setup's apt-wait says so, naming the process, and waits; it goes
// on once the lock is free, and gives up after its limit with what to do.
func TestAptWait(t *testing.T) {
	if _, err := os.Stat("/proc/locks"); err != nil {
		t.Skip("no /proc/locks")
	}
	dir := t.TempDir()
	lock := filepath.Join(dir, "lock-frontend")
	other := filepath.Join(dir, "lock")
	os.WriteFile(other, nil, 0o644)
	locks := other + " " + lock + " " + filepath.Join(dir, "absent")

	if code, msg, _ := aptWait(t, locks, 5); code != 0 || msg != "" {
		t.Fatalf("no lock held: exit %d %q, want 0 and silence", code, msg)
	}

	release := holdLock(t, lock)
	code, msg, took := aptWait(t, locks, 2)
	pid := "pid " + strconv.Itoa(os.Getpid())
	if code != 1 || took < 2*time.Second || !strings.Contains(msg, "waiting up to 2 s") || !strings.Contains(msg, "still busy after 2 s") ||
		!strings.Contains(msg, pid) || !strings.Contains(msg, "run scripts/setup again") {
		t.Fatalf("a lock held throughout: exit %d after %v, stderr:\n%s", code, took, msg)
	}

	go func() { time.Sleep(1500 * time.Millisecond); release() }()
	code, msg, took = aptWait(t, locks, 60)
	if code != 0 || took < time.Second || !strings.Contains(msg, "waiting up to 60 s") || !strings.Contains(msg, "apt is free again") {
		t.Fatalf("a lock released after 1.5 s: exit %d after %v, stderr:\n%s", code, took, msg)
	}

	if code, msg, _ := aptWait(t, locks, -1); code != 2 || !strings.Contains(msg, "whole number") {
		t.Errorf("a bad limit: exit %d %q", code, msg)
	}
}
