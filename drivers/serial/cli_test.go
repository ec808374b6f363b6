package serial_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// wolftable builds the wolftable binary into a temporary directory, or
// WOLFTABLE_BIN names a binary to use instead.
func wolftable(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the wolftable binary")
	}
	if bin := os.Getenv("WOLFTABLE_BIN"); bin != "" {
		return bin
	}
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	bin := filepath.Join(t.TempDir(), "wolftable")
	build := exec.Command("go", "build", "-o", bin, "./cmd/wolftable")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// lineReader reads lines from a process's output. Its waits are bounded
// by the process's progress: a wait fails once no line came and the
// process used no CPU for the idle bound (a busy machine makes it slow,
// not still).
type lineReader struct {
	t     *testing.T
	lines chan string
	pid   int
}

func readLines(t *testing.T, r io.Reader, pid int) *lineReader {
	lr := &lineReader{t: t, lines: make(chan string, 100), pid: pid}
	go func() {
		defer close(lr.lines)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			lr.lines <- sc.Text()
		}
	}()
	return lr
}

// cpuTicks is the CPU time pid has used, in clock ticks (-1: unknown).
func cpuTicks(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return -1
	}
	u, _ := strconv.ParseInt(f[11], 10, 64) // utime, field 14
	s, _ := strconv.ParseInt(f[12], 10, 64) // stime, field 15
	return u + s
}

// until returns the first line accepted by ok; it fails once idle passes
// with no line and no CPU used by the process.
func (lr *lineReader) until(what string, idle time.Duration, ok func(string) bool) string {
	lr.t.Helper()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	cpu, still := cpuTicks(lr.pid), time.Now()
	for {
		select {
		case l, open := <-lr.lines:
			if !open {
				lr.t.Fatalf("output ended before %s", what)
			}
			if ok(l) {
				return l
			}
			still = time.Now()
		case <-tick.C:
			if c := cpuTicks(lr.pid); c != cpu {
				cpu, still = c, time.Now()
			} else if time.Since(still) > idle {
				lr.t.Fatalf("no %s, and the process did nothing for %v", what, idle)
			}
		}
	}
}

// TestCLI runs bridge emulate, probe, lights and watch as processes.
func TestCLI(t *testing.T) {
	bin := wolftable(t)
	link := filepath.Join(t.TempDir(), "bridge")

	emu := exec.Command(bin, "bridge", "emulate", "--link", link, "--seats", "12")
	stdin, err := emu.StdinPipe()
	must(t, err)
	stdout, err := emu.StdoutPipe()
	must(t, err)
	var emuErr bytes.Buffer
	emu.Stderr = &emuErr
	must(t, emu.Start())
	t.Cleanup(func() { emu.Process.Kill(); emu.Wait() })
	out := readLines(t, stdout, emu.Process.Pid)
	if got := out.until("ready", 5*time.Second, func(string) bool { return true }); got != "ready "+link {
		t.Fatalf("emulate said %q, want %q", got, "ready "+link)
	}
	say := func(cmd string) {
		t.Helper()
		if _, err := io.WriteString(stdin, cmd+"\n"); err != nil {
			t.Fatal(err)
		}
	}

	// probe
	probe, err := exec.Command(bin, "bridge", "probe", "--port", link).Output()
	if err != nil {
		t.Fatalf("probe: %v", err)
	}
	var hello struct {
		Firmware     string   `json:"firmware"`
		Protocol     int      `json:"protocol"`
		Seats        int      `json:"seats"`
		Capabilities []string `json:"capabilities"`
		LastReset    string   `json:"last_reset"`
	}
	if err := json.Unmarshal(probe, &hello); err != nil || hello.Firmware != "0.1.0" || hello.Protocol != 2 ||
		hello.Seats != 12 || strings.Join(hello.Capabilities, ",") != "pedal" || hello.LastReset != "power-on" ||
		bytes.Count(probe, []byte("\n")) != 1 {
		t.Errorf("probe printed %q (%v)", probe, err)
	}

	if out, err := exec.Command(bin, "bridge", "probe", "--port", link, "--keys", "16").CombinedOutput(); err == nil || !strings.Contains(string(out), "keys_per_seat") {
		t.Errorf("probe --keys 16 of a 17-key bridge: %v\n%s", err, out)
	}

	// lights
	if out, err := exec.Command(bin, "bridge", "lights", "--port", link, "3=red", "5=green", "all=off").CombinedOutput(); err != nil {
		t.Fatalf("lights: %v\n%s", err, out)
	}
	say("lights")
	var leds map[string]struct{ R, G, B int }
	l := out.until("lights JSON", 2*time.Second, func(l string) bool { return strings.HasPrefix(l, "{") })
	if err := json.Unmarshal([]byte(l), &leds); err != nil || len(leds) != 12 {
		t.Fatalf("lights printed %q (%v)", l, err)
	}
	for seat, c := range leds {
		want := struct{ R, G, B int }{}
		switch seat {
		case "3":
			want.R = 255
		case "5":
			want.G = 255
		}
		if c != want {
			t.Errorf("seat %s shows %+v, want %+v", seat, c, want)
		}
	}
	if !strings.HasPrefix(l, `{"1":{"r":0,"g":0,"b":0},"2":`) {
		t.Errorf("lights JSON not in seat order: %s", l)
	}
	if err := exec.Command(bin, "bridge", "lights", "--port", link, "3=purple").Run(); err == nil {
		t.Error("lights 3=purple: exit 0")
	}

	// watch
	watch := exec.Command(bin, "bridge", "watch", "--port", link)
	wout, err := watch.StdoutPipe()
	must(t, err)
	werr, err := watch.StderrPipe()
	must(t, err)
	must(t, watch.Start())
	t.Cleanup(func() { watch.Process.Kill(); watch.Wait() })
	readLines(t, werr, watch.Process.Pid).until("link up", 5*time.Second, func(l string) bool { return strings.HasPrefix(l, "連線已接上") })
	say("tap 7 OK")
	say("pedal short")
	events := readLines(t, wout, watch.Process.Pid)
	for _, want := range []string{
		`{"seat":7,"key":"OK","edge":"down"}`,
		`{"seat":7,"key":"OK","edge":"up"}`,
		`{"seat":0,"key":"PEDAL","edge":"down"}`,
		`{"seat":0,"key":"PEDAL","edge":"up"}`,
		`{"seat":0,"key":"PEDAL","pedal":"short"}`,
	} {
		if got := events.until(want, 3*time.Second, func(string) bool { return true }); got != want {
			t.Errorf("watch printed %s, want %s", got, want)
		}
	}
	must(t, watch.Process.Signal(syscall.SIGINT))
	waitExit(t, watch, "watch", 3*time.Second, true)

	say("quit")
	waitExit(t, emu, "emulate", 3*time.Second, true)
	if _, err := os.Lstat(link); !os.IsNotExist(err) {
		t.Errorf("link left behind: %v", err)
	}
	if t.Failed() {
		t.Logf("emulate stderr:\n%s", emuErr.String())
	}
}

// TestCLIProbeNoBridge: probe fails when nothing answers within 3 s.
func TestCLIProbeNoBridge(t *testing.T) {
	bin := wolftable(t)
	master, tty, err := pty.Open() // a line with nobody on the other end
	must(t, err)
	defer master.Close()
	defer tty.Close()
	start := time.Now()
	cmd := exec.Command(bin, "bridge", "probe", "--port", tty.Name())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	go io.Copy(io.Discard, master)
	err = cmd.Run()
	if err == nil {
		t.Fatal("probe on a silent line: exit 0")
	}
	if d := time.Since(start); d < 2500*time.Millisecond || d > 5*time.Second {
		t.Errorf("probe gave up after %v, want about 3 s", d)
	}
	if !strings.Contains(stderr.String(), "no Hello") {
		t.Errorf("probe said %q", stderr.String())
	}
	if err := exec.Command(bin, "bridge", "probe", "--port", filepath.Join(t.TempDir(), "none")).Run(); err == nil {
		t.Error("probe on a missing port: exit 0")
	}
}

func waitExit(t *testing.T, cmd *exec.Cmd, name string, timeout time.Duration, wantOK bool) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if wantOK && err != nil {
			t.Errorf("%s: %v", name, err)
		}
	case <-time.After(timeout):
		cmd.Process.Kill()
		t.Errorf("%s did not exit within %v", name, timeout)
	}
}
