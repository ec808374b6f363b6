package virtual

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTmuxDemo runs cmd/virtualdemo in a detached 120x40 tmux session, types
// at it with send-keys and reads the screen with capture-pane: the real
// terminal path (OpenTerminal, /dev/tty, raw mode, Ctrl-C) end to end.
func TestTmuxDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the tmux test")
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH: cannot build the demo")
	}
	dir := t.TempDir()
	demo := filepath.Join(dir, "virtualdemo")
	build := exec.Command(goTool, "build", "-o", demo, "./cmd/virtualdemo")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the demo: %v\n%s", err, out)
	}

	sock := filepath.Join(dir, "tmux.sock")
	run := func(args ...string) (string, error) {
		cmd := exec.Command(tmux, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
		cmd.Env = append(os.Environ(), "TERM=xterm-256color")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("new-session", "-d", "-s", "demo", "-x", "120", "-y", "40", demo, "-seats", "12"); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { run("kill-server") })

	screen := func() string {
		out, err := run("capture-pane", "-p", "-t", "demo")
		if err != nil {
			return ""
		}
		return out
	}
	waitScreen := func(what string, ok func(string) bool) string {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			s := screen()
			if ok(s) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("the screen never showed %s:\n%s", what, s)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	contains := func(sub string) func(string) bool {
		return func(s string) bool { return strings.Contains(s, sub) }
	}
	keys := func(k ...string) {
		t.Helper()
		if out, err := run(append([]string{"send-keys", "-t", "demo"}, k...)...); err != nil {
			t.Fatalf("send-keys %q: %v\n%s", k, err, out)
		}
	}
	row := func(s, label string) string {
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, label) {
				return strings.TrimRight(l, " ")
			}
		}
		return ""
	}
	// the demo draws the table, then sets its lights: wait for both
	s := waitScreen("the table with the demo's lights", func(s string) bool {
		return contains("wolftable · 虛擬桌子 · 12 個座位 · 連線正常")(s) && strings.Count(row(s, " 燈號 "), "綠") == 12
	})
	if got := screenCell(row(s, " 座位 "), 1); got != "[ 1]" {
		t.Errorf("seat 1 is %q, want the pulsing \"[ 1]\":\n%s", got, s)
	}
	if got := row(s, " 燈號 "); strings.Count(got, "綠") != 12 {
		t.Errorf("light row %q: want 12 green seats", got)
	}

	// Seat 3 votes: choose it, press 9 then OK. The demo turns an OK's seat red.
	keys("s", "3")
	waitScreen("seat 3 chosen", contains("正在替 3 號輸入"))
	keys("9", "Enter")
	s = waitScreen("seat 3 red", func(s string) bool { return screenCell(row(s, " 燈號 "), 3) == "紅" })
	if got := screenCell(row(s, " 按鍵 "), 3); got != "OK" {
		t.Errorf("seat 3's last key %q, want OK:\n%s", got, s)
	}

	// Tab to seat 4, raise a hand: the demo turns it blue.
	keys("Tab", "h")
	s = waitScreen("seat 4 blue", func(s string) bool { return screenCell(row(s, " 燈號 "), 4) == "藍" })
	if got := screenCell(row(s, " 按鍵 "), 4); got != "舉手" {
		t.Errorf("seat 4's last key %q, want 舉手:\n%s", got, s)
	}

	// The pedal: a short press passes the pulse to seat 2.
	keys("Space")
	s = waitScreen("the pulse on seat 2", func(s string) bool { return screenCell(row(s, " 座位 "), 2) == "[ 2]" })
	if !strings.Contains(s, " 踏板   短按（第 1 次）") {
		t.Errorf("pedal line:\n%s", s)
	}
	// A long press: every light green again.
	keys("l")
	s = waitScreen("all green", func(s string) bool { return strings.Count(row(s, " 燈號 "), "綠") == 12 })
	if !strings.Contains(s, " 踏板   長按（第 2 次）") {
		t.Errorf("pedal line:\n%s", s)
	}

	// Ctrl-C interrupts the demo, which closes the table and exits.
	keys("C-c")
	deadline := time.Now().Add(15 * time.Second)
	for {
		if _, err := run("has-session", "-t", "demo"); err != nil {
			break // the session ended with the demo
		}
		if time.Now().After(deadline) {
			t.Fatalf("the demo did not exit on Ctrl-C:\n%s", screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// screenCell is seat's cell of a row of the table's screen, by columns:
// the labels and colours are two columns wide.
func screenCell(r string, seat int) string {
	start := 8 + (seat-1)*cellWidth
	var b strings.Builder
	col := 0
	for _, c := range r {
		if col >= start && col < start+cellWidth {
			b.WriteRune(c)
		}
		col += width(string(c))
	}
	return strings.TrimSpace(b.String())
}
