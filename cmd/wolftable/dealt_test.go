package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"wolftable/console"
)

// TestServeConsoleStartsDealtGame (issue 31 item 1): serve deals a game
// and waits for the pedal; the console shows that game and its short
// press (開始本局) starts it, the same as the pedal: the dealt game, with
// its deal, not another.
func TestServeConsoleStartsDealtGame(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real process")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	const pin = "246810"
	cfg := filepath.Join(dir, "config.toml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`[journal]
dir = %q
[console]
listen = "127.0.0.1:0"
tls_listen = "off"
pin_hash = %q
`, filepath.Join(dir, "journals"), console.HashPIN(pin))), 0o644)
	os.MkdirAll(filepath.Join(dir, "journals"), 0o755)
	srv := exec.Command(bin, "serve", "--config", cfg, "--mute", "--seed", "9")
	out := &lockedBuffer{}
	srv.Stdout, srv.Stderr = out, out
	stdin, err := srv.StdinPipe() // the virtual table reads it
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		srv.Process.Kill()
		srv.Wait()
	}()
	var addr string
	untilProgress(t, srv.Process.Pid, out, 30*time.Second, "serve did not deal", func() bool {
		if m := regexp.MustCompile(`主控台：http://([0-9.:]+)/`).FindStringSubmatch(out.String()); m != nil {
			addr = m[1]
		}
		return addr != "" && strings.Contains(out.String(), "dealt; press the pedal")
	})
	do := judgeClient(t, "http://"+addr, pin)
	var st console.JudgeState
	state := func() {
		t.Helper()
		code, b := do("GET", "/api/judge/state", "")
		st = console.JudgeState{}
		if code != 200 || json.Unmarshal(b, &st) != nil {
			t.Fatalf("state: %d %s", code, b)
		}
	}
	state()
	if st.Dealt == nil || st.Game != nil || st.Dealt.Seed != "9" {
		t.Fatalf("while serve waits for the pedal: dealt %+v, game %+v", st.Dealt, st.Game)
	}
	dealt := st.Dealt
	if code, b := do("POST", "/api/judge/pedal", `{"press":"short"}`); code != 200 {
		t.Fatalf("the console's short press: %d %s\nserve:\n%s", code, b, out.String())
	}
	untilProgress(t, srv.Process.Pid, out, 30*time.Second, "the game did not start", func() bool {
		return strings.Contains(out.String(), "天黑請閉眼")
	})
	state()
	if st.Dealt != nil || st.Game == nil || st.Game.Seed != dealt.Seed || fmt.Sprint(st.Game.Deal) != fmt.Sprint(dealt.Deal) {
		t.Fatalf("after the short press: dealt %+v, game %+v, want the dealt game %+v", st.Dealt, st.Game, dealt)
	}
}

// judgeClient logs the judge in to the console at base with pin and
// returns a request function that sends the session and CSRF token.
func judgeClient(t *testing.T, base, pin string) func(method, path, body string) (int, []byte) {
	jar, _ := cookiejar.New(nil)
	cl := &http.Client{Jar: jar, Timeout: 20 * time.Second}
	var csrf string
	do := func(method, path, body string) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if csrf != "" {
			req.Header.Set("X-CSRF-Token", csrf)
		}
		resp, err := cl.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	code, b := do("POST", "/api/login", `{"pin":"`+pin+`"}`)
	var login struct{ CSRF string }
	if code != 200 || json.Unmarshal(b, &login) != nil || login.CSRF == "" {
		t.Fatalf("login: %d %s", code, b)
	}
	csrf = login.CSRF
	return do
}
