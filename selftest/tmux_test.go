package selftest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInteractiveTmux runs `wolftable selftest` on the virtual table in a
// detached tmux session, as the technician would at a terminal: the
// interactive table (OpenTerminal, /dev/tty, raw mode) draws the lights and
// the prompts, and the test plays the technician with send-keys, reading the
// screen with capture-pane. The technician finds seat 3's lights wrong and
// gives up on seat 2's key 7; everything else passes.
func TestInteractiveTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the tmux test")
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	t.Parallel()
	dir := t.TempDir()
	// The child's sound device: an emulated card read here.
	card, err := StartSoundCard(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer card.Close()
	conf := filepath.Join(dir, "wolftable.toml")
	if err := os.WriteFile(conf, []byte("[table]\nseats = 12\nmode = \"virtual\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "report.json")
	exitFile := filepath.Join(dir, "exit")
	args, _ := json.Marshal(TableOptions{Config: conf, Reports: []string{report}, Soak: 10 * time.Second, Wait: 30 * time.Second})
	script := fmt.Sprintf("%q -test.run='^$'; echo $? > %q; sleep 60", os.Args[0], exitFile)

	sock := filepath.Join(dir, "tmux.sock")
	helper := string(args)
	run := func(a ...string) (string, error) {
		cmd := exec.Command(tmux, append([]string{"-S", sock, "-f", "/dev/null"}, a...)...)
		cmd.Env = append(os.Environ(), "TERM=xterm-256color", helperEnv+"="+helper, "ALSA_CONFIG_PATH="+card.Config())
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("new-session", "-d", "-s", "st", "-x", "160", "-y", "45", "sh", "-c", script); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { run("kill-server") })

	screen := func() string {
		// With the scrollback: the report is longer than the window.
		out, err := run("capture-pane", "-p", "-S", "-200", "-t", "st")
		if err != nil {
			return ""
		}
		return out
	}
	// until polls the screen until ok accepts it (what says what is
	// awaited). It fails once the screen has stayed the same for 20 s: the
	// child is stuck or gone. The deadline is on the child's progress, not
	// on the machine's speed.
	until := func(what string, ok func(screen string) bool) string {
		t.Helper()
		var last string
		still := time.Now()
		for {
			s := screen()
			if ok(s) {
				return s
			}
			if s != last {
				last, still = s, time.Now()
			} else if time.Since(still) > 20*time.Second {
				t.Fatalf("the screen never showed %s, and has not changed for 20 s:\n%s", what, s)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitFor := func(what string) string {
		t.Helper()
		return until(fmt.Sprintf("%q", what), func(s string) bool { return strings.Contains(s, what) })
	}
	keys := func(k ...string) {
		t.Helper()
		if out, err := run(append([]string{"send-keys", "-t", "st"}, k...)...); err != nil {
			t.Fatalf("send-keys %q: %v\n%s", k, err, out)
		}
	}

	s := waitFor("請踩踏板：短按")
	if !strings.Contains(s, "wolftable · 虛擬桌子 · 12 個座位") {
		t.Fatalf("the virtual table is not drawn:\n%s", s)
	}
	keys("Space")
	waitFor("請踩踏板：長按")
	keys("l")
	waitFor("請踩踏板：雙擊")
	keys("p")

	// lightOf reads seat n's colour off the table's light row.
	lightOf := func(screen string, n int) string {
		for _, l := range strings.Split(screen, "\n") {
			if strings.HasPrefix(l, " 燈號 ") {
				f := strings.Fields(strings.TrimPrefix(l, " 燈號 "))
				if n-1 < len(f) {
					return strings.TrimSuffix(f[n-1], "*")
				}
			}
		}
		return ""
	}
	for seat := 1; seat <= 12; seat++ {
		waitFor(fmt.Sprintf("%d號：請看它依次亮 紅、綠、藍、滅、私人指示燈", seat))
		if seat == 1 {
			// The walk shows on the table: seat 1 goes red, then green
			// with its private indicator ('*'). It goes round until it is
			// answered (or --wait runs out: then it never showed).
			for _, want := range []string{"紅", "綠*"} {
				s = until(fmt.Sprintf("seat 1's light %q", want), func(s string) bool {
					if strings.Contains(s, "1號：不通過") {
						t.Fatalf("seat 1's light never showed %q during its walk:\n%s", want, s)
					}
					for _, l := range strings.Split(s, "\n") {
						if strings.HasPrefix(l, " 燈號 ") {
							if f := strings.Fields(strings.TrimPrefix(l, " 燈號 ")); len(f) > 0 {
								return f[0] == want
							}
						}
					}
					return false
				})
			}
			if other := lightOf(s, 2); other != "暗" {
				t.Errorf("seat 2 is %q during seat 1's walk", other)
			}
		}
		if seat == 3 {
			keys("l") // the technician saw something wrong
		} else {
			keys("Space")
		}
	}
	for seat := 1; seat <= 12; seat++ {
		waitFor(fmt.Sprintf("%d號：%d號，請依次按下所有按鍵", seat, seat))
		keys("s", fmt.Sprint(seat))
		if seat == 1 {
			keys("Enter") // with 12 seats, "s1" waits for a second digit
		}
		waitFor(fmt.Sprintf("正在替 %d 號輸入", seat))
		digits := "0123456789"
		if seat == 2 {
			digits = "012345689" // 7 does nothing on this table
		}
		keys(digits)
		keys("Enter", "BSpace", "u", "d", "w", "h", "b")
		if seat == 2 {
			waitFor("2號：✓ BOOM 16/17，下一個 7")
			keys("Space") // give up on 7
		}
	}
	waitFor("聽到三聲上升的嗶聲了嗎？")
	if card.Peak() < 0.05 {
		t.Errorf("the test line did not reach the sound card (peak %.3f)", card.Peak())
	}
	keys("Space")

	// The table closes, the terminal comes back and shows the report.
	s = waitFor("wolftable 自我檢測：不通過（2 個問題）")
	var code []byte
	until("the exit status (in its file)", func(string) bool {
		code, err = os.ReadFile(exitFile)
		return err == nil && len(code) > 0
	})
	if strings.TrimSpace(string(code)) != "1" {
		t.Errorf("exit status %q, want 1", code)
	}
	f, err := os.Open(report)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	var probs []string
	for _, p := range rep.Problems {
		probs = append(probs, p.String())
	}
	want := []string{
		"seat 3 lights: 技術人員看到異常：紅、綠、藍、滅、私人指示燈",
		"seat 2 key 7: 沒有收到（缺）",
	}
	if strings.Join(probs, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s\nscreen:\n%s", strings.Join(probs, "\n"), strings.Join(want, "\n"), s)
	}
	for _, c := range rep.Components {
		want := Pass
		if c.Name == CompLights || c.Name == CompKeys {
			want = Fail
		}
		if c.Status != want {
			t.Errorf("%s: %s, want %s", c.Name, c.Status, want)
		}
	}
	if rep.Seat(2).Keys.Detail != "16/17 個鍵；缺 7；已踩踏板放棄" {
		t.Errorf("seat 2 keys: %q", rep.Seat(2).Keys.Detail)
	}
	if rep.Mode != "virtual" || rep.Technician != (Human{}).Name() {
		t.Errorf("mode %q technician %q", rep.Mode, rep.Technician)
	}
}
