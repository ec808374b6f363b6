package main

import (
	"bufio"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/console"
	"wolftable/desk"
	"wolftable/engine"
	"wolftable/journal"
)

// TestSeatDrawEndToEnd (issue 29 item 3): a desk with 12 registered
// players, round 1 open at T1 with its seating plan locked; the table
// (serve, bots at the seats, the deal left to the judge) asks the desk for
// its roster on the judge's console, draws the seats at random and starts
// the game; the game's signed journal names the drawn player of every
// seat, and the desk credits every seat to that player.
func TestSeatDrawEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	bin := buildBinary(t)
	root := t.TempDir()
	data, jdir, creds := deskWithLockedPlan(t, root)
	d := startDeskProc(t, bin, "--data", data, "--nats", "127.0.0.1:0", "--http", "127.0.0.1:0")
	defer d.stop(t)
	const pin = "135791"
	cfg := filepath.Join(root, "T1", "config.toml")
	body := fmt.Sprintf("[game]\nboard = \"seer-witch-hunter-idiot\"\ndeal = \"manual\"\n[journal]\ndir = %q\n"+
		"[console]\nlisten = \"127.0.0.1:0\"\ntls_listen = \"off\"\npin_hash = %q\n[desk]\nurl = %q\ntable = \"T1\"\ncreds = %q\n",
		jdir, console.HashPIN(pin), d.nats, creds)
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	sv := startServe(t, bin, "serve", "--config", cfg, "--once", "--bots", "--mute", "--speed", "400", "--seed", "7", "--clock", "20:00")
	jc := drawJudge(t, "http://"+sv.console, pin)
	drawn := drawFromDesk(t, jc, sv.cmd.Process.Pid)
	jc.post("/api/judge/start", map[string]any{"board": "seer-witch-hunter-idiot"})
	sv.wait(t)
	files := journalFiles(jdir)
	if len(files) != 1 {
		t.Fatalf("journals %v", files)
	}
	j, err := journal.Read(files[0])
	if err != nil || !j.Finished() {
		t.Fatalf("%s: %v", files[0], err)
	}
	if fmt.Sprint(j.Header.Draw) != fmt.Sprint(drawn) || j.Header.DrawManual {
		t.Fatalf("the journal's draw %+v, the console drew %+v", j.Header.Draw, drawn)
	}
	var games []desk.Game
	untilProgress(t, d.cmd.Process.Pid, noOutput{}, 30*time.Second, "the desk did not store the game", func() bool {
		getJSON(t, d.http+"api/public/games", &games)
		return len(games) > 0
	})
	d.stop(t)
	st, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	held := st.Games()
	if len(held) != 1 || held[0].Round != 1 || !held[0].SignatureOK {
		t.Fatalf("the desk holds %+v", held)
	}
	for i, s := range held[0].Seats {
		if s.PlayerID != drawn[i].PlayerID || s.Player != drawn[i].Name {
			t.Errorf("seat %d credited to %s (%s), drawn %+v", s.Seat, s.Player, s.PlayerID, drawn[i])
		}
	}
}

// deskWithLockedPlan makes a desk's data under root: table T1 (its key in
// its journals folder), players P01…P12 (選手01…), round 1 open at T1 with
// its plan locked. It returns the desk's data, T1's journals folder and
// its credentials file.
func deskWithLockedPlan(t *testing.T, root string) (data, jdir, creds string) {
	t.Helper()
	data, jdir = filepath.Join(root, "desk"), filepath.Join(root, "T1", "journals")
	os.MkdirAll(jdir, 0o750)
	key, _, err := journal.LoadOrCreateKey(journal.KeyPathFor(jdir))
	if err != nil {
		t.Fatal(err)
	}
	if creds, err = desk.AddTable(data, "T1", key.Public().(ed25519.PublicKey), ""); err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&csv, "P%02d,選手%02d,,\n", i, i)
	}
	if _, _, err := desk.ImportPlayers(data, []byte(csv.String())); err != nil {
		t.Fatal(err)
	}
	st, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.OpenRound([]string{"T1"}, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ProposeRoundPlan(1, 12); err != nil {
		t.Fatal(err)
	}
	if _, err := st.LockPlan(1); err != nil {
		t.Fatal(err)
	}
	return data, jdir, creds
}

// serveProc is a running serve with its console's address.
type serveProc struct {
	cmd     *exec.Cmd
	stdin   io.Closer
	lines   chan string
	out     strings.Builder
	errOut  strings.Builder
	console string // host:port
}

// startServe starts bin with args and waits for its console's address.
func startServe(t *testing.T, bin string, args ...string) *serveProc {
	t.Helper()
	sv := &serveProc{cmd: exec.Command(bin, args...), lines: make(chan string, 256)}
	sv.stdin, _ = sv.cmd.StdinPipe() // the virtual table's keys: none
	stdout, _ := sv.cmd.StdoutPipe()
	sv.cmd.Stderr = &sv.errOut
	if err := sv.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sv.stdin.Close(); sv.cmd.Process.Kill() })
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			sv.lines <- sc.Text()
		}
		close(sv.lines)
	}()
	addr := regexp.MustCompile(`主控台：http://([0-9.:]+)/`)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	cpu, still := procCPU(sv.cmd.Process.Pid), time.Now()
	for sv.console == "" {
		select {
		case l, ok := <-sv.lines:
			if !ok {
				t.Fatalf("serve ended:\n%s\n%s", sv.out.String(), sv.errOut.String())
			}
			sv.out.WriteString(l + "\n")
			if m := addr.FindStringSubmatch(l); m != nil {
				sv.console = m[1]
			}
			still = time.Now()
		case <-tick.C: // no address, and serve has done nothing for 30 s
			if c := procCPU(sv.cmd.Process.Pid); c != cpu {
				cpu, still = c, time.Now()
			} else if time.Since(still) > 30*time.Second {
				t.Fatalf("no console address, and serve has done nothing for 30 s:\n%s", sv.out.String())
			}
		}
	}
	return sv
}

// wait waits for serve's end (--once) and its result line.
func (sv *serveProc) wait(t *testing.T) {
	t.Helper()
	result := ""
	for l := range sv.lines {
		sv.out.WriteString(l + "\n")
		if strings.HasPrefix(l, "result: ") {
			result = l
		}
	}
	if err := sv.cmd.Wait(); err != nil || result == "" {
		t.Fatalf("serve: %v\n%s\n%s", err, lastLines(sv.out.String(), 20), sv.errOut.String())
	}
}

// drawFromDesk takes the desk's roster on the console (asking again while
// the table's link to the desk comes up) and draws the seats at random.
func drawFromDesk(t *testing.T, jc *drawClient, serve int) []journal.Drawn {
	t.Helper()
	var v console.DrawView
	untilProgress(t, serve, noOutput{}, 30*time.Second, "the desk's roster never came", func() bool {
		code, b := jc.try("/api/judge/draw/roster", map[string]string{"from": "desk"})
		if code != http.StatusOK && code != http.StatusBadGateway {
			t.Fatalf("the desk's roster: %d %s", code, b)
		}
		return code == http.StatusOK && json.Unmarshal(b, &v) == nil
	})
	if len(v.Roster) != 12 || v.From != "desk" || v.Round != 1 {
		t.Fatalf("the desk's roster: %+v", v)
	}
	json.Unmarshal(jc.post("/api/judge/draw", map[string]any{}), &v)
	if len(v.Draw) != 12 {
		t.Fatalf("the draw: %+v", v)
	}
	return v.Draw
}

// TestTakeDrawDealtAndResumed: the dealt game the pedal starts takes the
// console's draw into its journal's header (the journal written again,
// one file), and the game resumed from that journal
// after a restart keeps it (gameSpec); a draw of another size is not
// taken and the judge is told.
func TestTakeDrawDealtAndResumed(t *testing.T) {
	dir := t.TempDir()
	b, err := boards.Get("seer-witch-hunter-idiot")
	if err != nil {
		t.Fatal(err)
	}
	deal, bottom := engine.DealCards(b, 3)
	tg, err := newOrResumed(dir, false, b, 3, deal, bottom, 12, 1, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	var id string
	const pin = "112233"
	con, err := console.New(console.Options{Table: newGameHost(), PINHash: console.HashPIN(pin), Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer con.Close()
	ts := httptest.NewServer(con)
	defer ts.Close()
	post := drawJudge(t, ts.URL, pin).post
	var names strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&names, "桌邊%d\n", i)
	}
	post("/api/judge/draw/roster", map[string]any{"text": names.String()})
	var v console.DrawView
	json.Unmarshal(post("/api/judge/draw", map[string]any{}), &v)
	takeDraw(tg, con, io.Discard)
	h := tg.writer.Header()
	id = h.GameID
	if fmt.Sprint(h.Draw) != fmt.Sprint(v.Draw) || len(h.Draw) != 12 {
		t.Fatalf("the dealt game's header: draw %+v id %s, want %+v id %s", h.Draw, h.GameID, v.Draw, id)
	}
	tg.close()
	if files := journalFiles(dir); len(files) != 1 {
		t.Fatalf("journals %v", files)
	}
	again, err := newOrResumed(dir, true, b, 4, deal, bottom, 12, 1, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer again.close()
	if spec := gameSpec(again); again.writer.Header().GameID != id || fmt.Sprint(spec.Draw) != fmt.Sprint(v.Draw) {
		t.Fatalf("the resumed game %s: draw %+v", again.writer.Header().GameID, spec.Draw)
	}

	// a draw of four for a game of twelve: not taken
	post("/api/judge/draw/clear", map[string]any{})
	other, err := newOrResumed(t.TempDir(), false, b, 5, deal, bottom, 12, 1, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.close()
	con2, _ := console.New(console.Options{Table: newGameHost(), PINHash: console.HashPIN(pin), Log: slog.New(slog.DiscardHandler)})
	defer con2.Close()
	ts2 := httptest.NewServer(con2)
	defer ts2.Close()
	post2 := drawJudge(t, ts2.URL, pin).post
	post2("/api/judge/draw/roster", map[string]any{"text": "甲\n乙\n丙\n丁"})
	post2("/api/judge/draw", map[string]any{})
	takeDraw(other, con2, io.Discard)
	if len(other.writer.Header().Draw) != 0 {
		t.Fatalf("a 4-seat draw in a 12-seat game: %+v", other.writer.Header().Draw)
	}
}

// drawClient is a judge logged in on a console.
type drawClient struct {
	t          *testing.T
	base, csrf string
	cl         *http.Client
}

// drawJudge logs in on the console at base.
func drawJudge(t *testing.T, base, pin string) *drawClient {
	jar, _ := cookiejar.New(nil)
	c := &drawClient{t: t, base: base, cl: &http.Client{Jar: jar, Timeout: 20 * time.Second}}
	var sess struct{ CSRF string }
	json.Unmarshal(c.post("/api/login", map[string]string{"pin": pin}), &sess)
	c.csrf = sess.CSRF
	return c
}

// try posts body as JSON: the status and the answer.
func (c *drawClient) try(path string, body any) (int, []byte) {
	c.t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", c.base+path, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", c.csrf)
	resp, err := c.cl.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// post is try, failing the test unless it is answered 200.
func (c *drawClient) post(path string, body any) []byte {
	c.t.Helper()
	code, out := c.try(path, body)
	if code != http.StatusOK {
		c.t.Fatalf("POST %s: %d %s", path, code, out)
	}
	return out
}

// TestServeDealtGameDrawnAndResumed: serve deals a game and waits; the
// judge types the roster, draws, and starts the dealt game with the
// console's 開始本局 (the pedal): its journal (one, the dealt one made
// again) has the draw; serve is stopped mid-game and started again: the
// resumed game keeps the draw (the console shows it as the game's).
func TestServeDealtGameDrawnAndResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real process")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	const pin = "246810"
	cfg := filepath.Join(dir, "config.toml")
	jdir := filepath.Join(dir, "journals")
	os.WriteFile(cfg, []byte(fmt.Sprintf("[journal]\ndir = %q\nresume = true\n[console]\nlisten = \"127.0.0.1:0\"\ntls_listen = \"off\"\npin_hash = %q\n",
		jdir, console.HashPIN(pin))), 0o644)
	os.MkdirAll(jdir, 0o755)
	run := func(wait string) (*exec.Cmd, *lockedBuffer, func(method, path, body string) (int, []byte)) {
		srv := exec.Command(bin, "serve", "--config", cfg, "--mute", "--seed", "9")
		out := &lockedBuffer{}
		srv.Stdout, srv.Stderr = out, out
		stdin, _ := srv.StdinPipe()
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { stdin.Close(); srv.Process.Kill(); srv.Wait() })
		var addr string
		untilProgress(t, srv.Process.Pid, out, 30*time.Second, "serve did not "+wait, func() bool {
			if m := regexp.MustCompile(`主控台：http://([0-9.:]+)/`).FindStringSubmatch(out.String()); m != nil {
				addr = m[1]
			}
			return addr != "" && strings.Contains(out.String(), wait)
		})
		return srv, out, judgeClient(t, "http://"+addr, pin)
	}
	srv, out, do := run("dealt; press the pedal")
	var names strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&names, "P%02d,選手%02d\n", i, i)
	}
	body, _ := json.Marshal(map[string]string{"text": names.String()})
	if code, b := do("POST", "/api/judge/draw/roster", string(body)); code != 200 {
		t.Fatalf("roster: %d %s", code, b)
	}
	code, b := do("POST", "/api/judge/draw", `{}`)
	var v console.DrawView
	if code != 200 || json.Unmarshal(b, &v) != nil || len(v.Draw) != 12 {
		t.Fatalf("draw: %d %s", code, b)
	}
	if code, b := do("POST", "/api/judge/pedal", `{"press":"short"}`); code != 200 {
		t.Fatalf("開始本局: %d %s\n%s", code, b, out.String())
	}
	untilProgress(t, srv.Process.Pid, out, 30*time.Second, "the game did not start", func() bool {
		return strings.Contains(out.String(), "天黑請閉眼")
	})
	files := journalFiles(jdir)
	if len(files) != 1 {
		t.Fatalf("journals %v", files)
	}
	if j, err := journal.Read(files[0]); err != nil || fmt.Sprint(j.Header.Draw) != fmt.Sprint(v.Draw) {
		t.Fatalf("the dealt game's journal: %v, draw %+v, want %+v", err, j.Header.Draw, v.Draw)
	}
	srv.Process.Signal(syscall.SIGTERM)
	srv.Wait()
	srv, out, do = run("主控台")
	var again console.DrawView
	untilProgress(t, srv.Process.Pid, out, 30*time.Second, "the resumed game on the console", func() bool {
		code, b := do("GET", "/api/judge/draw", "")
		return code == 200 && json.Unmarshal(b, &again) == nil && len(again.Game) > 0
	})
	if fmt.Sprint(again.Game) != fmt.Sprint(v.Draw) || !again.Started {
		t.Fatalf("the resumed game's draw %+v (started %v), drawn %+v", again.Game, again.Started, v.Draw)
	}
}
