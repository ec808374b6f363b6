package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestTmuxSimConsolePIN (issue 31 item 2): `wolftable sim --console` in a
// terminal (a detached 120x40 tmux session) shows the console's address
// and the judge's PIN inside the table's frame, which covers the screen,
// and that PIN logs in at that address. The screen is the test's artefact.
func TestTmuxSimConsolePIN(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the tmux test")
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	bin := buildBinary(t)
	sock := filepath.Join(dir, "tmux.sock")
	run := func(args ...string) (string, error) {
		cmd := exec.Command(tmux, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
		cmd.Env = append(os.Environ(), "TERM=xterm-256color")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("new-session", "-d", "-s", "sim", "-x", "120", "-y", "40", bin, "sim", "--bots", "--speed", "5", "--seed", "3",
		"--clock", "20:00", "--voice", "off", "--console", "127.0.0.1:0"); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { run("kill-server") })
	addrRE := regexp.MustCompile(`主控台：http://([0-9.:]+)/`)
	pinRE := regexp.MustCompile(`裁判 PIN：([0-9]{6})`)
	var screen string
	deadline := time.Now().Add(30 * time.Second)
	for {
		screen, _ = run("capture-pane", "-p", "-t", "sim")
		// the table drawn, its judge's lines under it: the frame has been redrawn since the console started
		if strings.Contains(screen, "wolftable ·") && strings.Contains(screen, "天黑請閉眼") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the table never showed:\n%s", screen)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := os.WriteFile(filepath.Join(t.ArtifactDir(), "sim-console.txt"), []byte(screen), 0o644); err != nil {
		t.Fatal(err)
	}
	a, p := addrRE.FindStringSubmatch(screen), pinRE.FindStringSubmatch(screen)
	if a == nil || p == nil {
		t.Fatalf("the console's address (%v) or the PIN (%v) is not on the screen:\n%s", a != nil, p != nil, screen)
	}
	resp, err := http.Post("http://"+a[1]+"/api/login", "application/json", strings.NewReader(`{"pin":"`+p[1]+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("the PIN on the screen does not log in: %d", resp.StatusCode)
	}
}
