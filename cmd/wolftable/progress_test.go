package main

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// untilProgress polls ok until it holds. It fails the test only once the
// process pid has neither written to out nor used any CPU for idle: a
// deadline on the process's progress, not on the machine's speed (a busy
// machine makes it slow, not still).
func untilProgress(t *testing.T, pid int, out interface{ String() string }, idle time.Duration, what string, ok func() bool) {
	t.Helper()
	lastOut, lastCPU := len(out.String()), procCPU(pid)
	still := time.Now()
	for !ok() {
		if n, c := len(out.String()), procCPU(pid); n != lastOut || c != lastCPU {
			lastOut, lastCPU, still = n, c, time.Now()
		} else if time.Since(still) > idle {
			t.Fatalf("%s: nothing came, and the process has done nothing for %v:\n%s", what, idle, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// noOutput is untilProgress's output for a process whose output the test
// does not read: its CPU time alone is the progress.
type noOutput struct{}

func (noOutput) String() string { return "" }

func TestProcCPU(t *testing.T) {
	t.Parallel()
	before := procCPU(os.Getpid())
	if before < 0 {
		t.Fatal("no CPU time for this process")
	}
	for start := time.Now(); procCPU(os.Getpid()) == before; {
		if time.Since(start) > time.Minute {
			t.Fatal("a busy loop used no CPU time")
		}
		for i := 0; i < 1e6; i++ {
			_ = strconv.Itoa(i)
		}
	}
	if procCPU(-1) != -1 {
		t.Error("a process that does not exist has CPU time")
	}
}
