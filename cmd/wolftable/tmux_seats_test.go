package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTmuxSeats: `wolftable sim --bots` on venue boards of 7 and 11 seats,
// in a detached 120x40 tmux session: the virtual table draws every seat's
// light, key and number and the judge's lines under them. The screens are
// the test's artefacts (go test -run TmuxSeats -artifacts -outputdir DIR
// keeps seats-N.txt, tmux capture-pane with and without colours).
func TestTmuxSeats(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the tmux test")
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	bin := buildBinary(t)
	venue, err := filepath.Abs(venueDir)
	if err != nil {
		t.Fatal(err)
	}
	art := t.ArtifactDir()
	for _, n := range []int{7, 11} {
		sock := filepath.Join(dir, fmt.Sprintf("tmux-%d.sock", n))
		run := func(args ...string) (string, error) {
			cmd := exec.Command(tmux, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
			cmd.Env = append(os.Environ(), "TERM=xterm-256color")
			out, err := cmd.CombinedOutput()
			return string(out), err
		}
		if out, err := run("new-session", "-d", "-s", "sim", "-x", "120", "-y", "40", bin, "sim", "--bots", "--speed", "20", "--seed", "3",
			"--clock", "20:00", "--voice", "off", "--boards-dir", venue, "--board", fmt.Sprintf("house-seats-%d", n)); err != nil {
			t.Fatalf("tmux new-session: %v\n%s", err, out)
		}
		screen := ""
		deadline := time.Now().Add(30 * time.Second)
		for {
			screen, _ = run("capture-pane", "-p", "-t", "sim")
			if strings.Contains(screen, fmt.Sprintf("虛擬桌子 · %d 個座位", n)) && strings.Contains(screen, "法官") ||
				strings.Contains(screen, fmt.Sprintf("虛擬桌子 · %d 個座位", n)) && strings.Contains(screen, "狼人") {
				break
			}
			if time.Now().After(deadline) {
				run("kill-server")
				t.Fatalf("%d seats: the table never showed:\n%s", n, screen)
			}
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond) // let the first lines and lights land
		screen, _ = run("capture-pane", "-p", "-t", "sim")
		colour, _ := run("capture-pane", "-p", "-e", "-t", "sim")
		run("kill-server")
		if err := os.WriteFile(filepath.Join(art, fmt.Sprintf("seats-%d.txt", n)), []byte(screen), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(art, fmt.Sprintf("seats-%d.ansi", n)), []byte(colour), 0o644); err != nil {
			t.Fatal(err)
		}
		var seatRow string
		for _, l := range strings.Split(screen, "\n") {
			if strings.HasPrefix(l, " 座位 ") {
				seatRow = l
			}
		}
		if !strings.Contains(seatRow, fmt.Sprintf("%2d", n)) || strings.Contains(seatRow, fmt.Sprintf("%2d]", n+1)) || strings.Contains(seatRow, fmt.Sprintf(" %d ", n+1)) {
			t.Errorf("%d seats: seat row %q", n, seatRow)
		}
		t.Logf("%d seats:\n%s", n, screen)
	}
}
