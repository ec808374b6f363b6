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
	data, jdir := filepath.Join(root, "desk"), filepath.Join(root, "T1", "journals")
	os.MkdirAll(jdir, 0o750)
	key, _, err := journal.LoadOrCreateKey(journal.KeyPathFor(jdir))
	if err != nil {
		t.Fatal(err)
	}
	creds, err := desk.AddTable(data, "T1", key.Public().(ed25519.PublicKey), "")
	if err != nil {
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
	serve := exec.Command(bin, "serve", "--config", cfg, "--once", "--bots", "--mute", "--speed", "400", "--seed", "7", "--clock", "20:00")
	stdin, _ := serve.StdinPipe() // the virtual table's keys: none
	defer stdin.Close()
	stdout, _ := serve.StdoutPipe()
	var errOut strings.Builder
	serve.Stderr = &errOut
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer serve.Process.Kill()
	lines := make(chan string, 256)
	var out strings.Builder
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	addr := ""
	for addr == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("serve ended:\n%s\n%s", out.String(), errOut.String())
			}
			out.WriteString(l + "\n")
			if m := regexp.MustCompile(`主控台：http://([0-9.:]+)/`).FindStringSubmatch(l); m != nil {
				addr = m[1]
			}
		case <-time.After(2 * time.Minute):
			t.Fatalf("no console address:\n%s", out.String())
		}
	}
	base := "http://" + addr
	jar, _ := cookiejar.New(nil)
	cookieClient := &http.Client{Jar: jar, Timeout: 20 * time.Second}
	csrf := ""
	post := func(path, payload string) []byte {
		t.Helper()
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(payload))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-CSRF-Token", csrf)
		resp, err := cookieClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("POST %s: %d %s", path, resp.StatusCode, b)
		}
		return b
	}
	var sess struct{ CSRF string }
	json.Unmarshal(post("/api/login", `{"pin":"`+pin+`"}`), &sess)
	csrf = sess.CSRF
	var v console.DrawView
	// the desk link comes up in the background: ask until it answers
	for end := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		req, _ := http.NewRequest("POST", base+"/api/judge/draw/roster", strings.NewReader(`{"from":"desk"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-CSRF-Token", csrf)
		resp, err := cookieClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			json.Unmarshal(b, &v)
			break
		}
		if resp.StatusCode != http.StatusBadGateway || time.Now().After(end) {
			t.Fatalf("the desk's roster: %d %s", resp.StatusCode, b)
		}
	}
	if len(v.Roster) != 12 || v.From != "desk" || v.Round != 1 {
		t.Fatalf("the desk's roster: %+v", v)
	}
	json.Unmarshal(post("/api/judge/draw", `{}`), &v)
	drawn := v.Draw
	if len(drawn) != 12 {
		t.Fatalf("the draw: %+v", v)
	}
	post("/api/judge/start", `{"board":"seer-witch-hunter-idiot"}`)
	result := ""
	for l := range lines {
		out.WriteString(l + "\n")
		if strings.HasPrefix(l, "result: ") {
			result = l
		}
	}
	if err := serve.Wait(); err != nil || result == "" {
		t.Fatalf("serve: %v\n%s\n%s", err, lastLines(out.String(), 20), errOut.String())
	}
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
	for end := time.Now().Add(30 * time.Second); len(games) == 0 && time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		getJSON(t, d.http+"api/public/games", &games)
	}
	d.stop(t)
	st, err = desk.OpenStore(data, nil)
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

// TestTakeDrawDealtAndResumed: the dealt game the pedal starts takes the
// console's draw into its journal's header (the journal written again,
// one file, the same game id), and the game resumed from that journal
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
	id := tg.writer.Header().GameID
	const pin = "112233"
	con, err := console.New(console.Options{Table: newGameHost(), PINHash: console.HashPIN(pin), Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer con.Close()
	ts := httptest.NewServer(con)
	defer ts.Close()
	post := drawJudge(t, ts.URL, pin)
	var names strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&names, "桌邊%d\n", i)
	}
	post("/api/judge/draw/roster", map[string]any{"text": names.String()})
	var v console.DrawView
	json.Unmarshal(post("/api/judge/draw", map[string]any{}), &v)
	if err := takeDraw(tg, con, io.Discard); err != nil {
		t.Fatal(err)
	}
	h := tg.writer.Header()
	if fmt.Sprint(h.Draw) != fmt.Sprint(v.Draw) || len(h.Draw) != 12 || h.GameID != id {
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
	post2 := drawJudge(t, ts2.URL, pin)
	post2("/api/judge/draw/roster", map[string]any{"text": "甲\n乙\n丙\n丁"})
	post2("/api/judge/draw", map[string]any{})
	if err := takeDraw(other, con2, io.Discard); err != nil || len(other.writer.Header().Draw) != 0 {
		t.Fatalf("a 4-seat draw in a 12-seat game: %v %+v", err, other.writer.Header().Draw)
	}
}

// drawJudge logs in on the console at base and returns a POST that
// fails the test unless it is answered 200.
func drawJudge(t *testing.T, base, pin string) func(path string, body any) []byte {
	jar, _ := cookiejar.New(nil)
	cl := &http.Client{Jar: jar, Timeout: 20 * time.Second}
	csrf := ""
	post := func(path string, body any) []byte {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(string(b)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-CSRF-Token", csrf)
		resp, err := cl.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("POST %s: %d %s", path, resp.StatusCode, out)
		}
		return out
	}
	var sess struct{ CSRF string }
	json.Unmarshal(post("/api/login", map[string]string{"pin": pin}), &sess)
	csrf = sess.CSRF
	return post
}
