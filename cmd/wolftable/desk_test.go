package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"wolftable/desk"
	"wolftable/journal"
)

// deskProc is a running `wolftable desk`.
type deskProc struct {
	cmd        *exec.Cmd
	nats, http string
	out        *strings.Builder
	done       chan struct{}
}

func startDeskProc(t *testing.T, bin string, args ...string) *deskProc {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"desk"}, args...)...)
	cmd.SysProcAttr = orphanKilled()
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	d := &deskProc{cmd: cmd, out: &strings.Builder{}, done: make(chan struct{})}
	ready := make(chan struct{})
	var mu sync.Mutex
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			l := sc.Text()
			mu.Lock()
			d.out.WriteString(l + "\n")
			if u, ok := strings.CutPrefix(l, "desk: nats://"); ok {
				d.nats = "nats://" + u
			}
			if u, ok := strings.CutPrefix(l, "desk: http://"); ok {
				d.http = "http://" + u
				close(ready)
			}
			mu.Unlock()
		}
	}()
	go func() { cmd.Wait(); pw.Close(); close(d.done) }()
	select {
	case <-ready:
	case <-d.done:
		t.Fatalf("the desk stopped:\n%s", d.out.String())
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the desk did not say its addresses")
	}
	return d
}

func (d *deskProc) stop(t *testing.T) {
	t.Helper()
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(20 * time.Second):
		d.cmd.Process.Kill()
		t.Fatal("the desk did not stop on SIGTERM")
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
}

// TestDeskRound: the desk and 8 tables (`sim --bots` at high speed with
// --desk) play a round. The desk is stopped and started again mid-round;
// table T8 is killed (SIGKILL) after its game's record was acknowledged
// and before its .sent marker was written, then started again. Every
// finished game arrives exactly once, and the standings the desk serves
// equal a recompute from the stored records.
func TestDeskRound(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	bin := buildBinary(t)
	root := t.TempDir()
	data := filepath.Join(root, "desk")
	const n = 8
	creds := make([]string, n+1)
	for i := 1; i <= n; i++ {
		tdir := filepath.Join(root, fmt.Sprintf("T%d", i))
		os.MkdirAll(tdir, 0o750)
		if out, err := exec.Command(bin, "record", "keygen", "--key", filepath.Join(tdir, "table.key")).CombinedOutput(); err != nil {
			t.Fatalf("keygen: %v\n%s", err, out)
		}
		out, err := exec.Command(bin, "desk", "table", "add", fmt.Sprintf("T%d", i), "--data", data, "--pubkey", filepath.Join(tdir, "table.pub")).Output()
		if err != nil {
			t.Fatalf("table add: %v", err)
		}
		creds[i] = strings.TrimSpace(string(out))
	}
	d := startDeskProc(t, bin, "--data", data, "--nats", "127.0.0.1:0", "--http", "127.0.0.1:0", "--pack", "league")
	natsURL, httpURL := d.nats, d.http
	port := regexp.MustCompile(`:(\d+)$`).FindStringSubmatch(natsURL)[1]
	hport := regexp.MustCompile(`:(\d+)/$`).FindStringSubmatch(httpURL)[1]
	sim := func(i int, env ...string) *exec.Cmd {
		c := exec.Command(bin, "sim", "--bots", "--no-tui", "--speed", "400", "--seed", fmt.Sprint(40+i), "--clock", "20:00", "--voice", "off",
			"--journal", filepath.Join(root, fmt.Sprintf("T%d", i), "journals"),
			"--desk", natsURL, "--table", fmt.Sprintf("T%d", i), "--desk-creds", creds[i])
		c.Env = append(os.Environ(), env...)
		return c
	}
	type res struct {
		i   int
		out []byte
		err error
	}
	results := make(chan res, n)
	for i := 1; i <= n; i++ {
		var env []string
		if i == n {
			env = []string{"WOLFTABLE_DESK_DIE_BEFORE_MARK=1"}
		}
		c := sim(i, env...)
		go func() { out, err := c.CombinedOutput(); results <- res{i, out, err} }()
	}
	time.Sleep(1500 * time.Millisecond) // mid-round: the desk goes down and comes back
	d.stop(t)
	time.Sleep(500 * time.Millisecond)
	d = startDeskProc(t, bin, "--data", data, "--nats", "127.0.0.1:"+port, "--http", "127.0.0.1:"+hport, "--pack", "league")
	defer d.stop(t)
	for range n {
		r := <-results
		if r.i == n {
			if ee, ok := r.err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("T%d was to kill itself before its marker: %v\n%s", n, r.err, lastLines(string(r.out), 10))
			}
			continue
		}
		if r.err != nil || resultLine(r.out) == "" {
			t.Fatalf("T%d: %v\n%s", r.i, r.err, lastLines(string(r.out), 10))
		}
	}
	killed := journalFiles(filepath.Join(root, fmt.Sprintf("T%d", n), "journals"))
	if len(killed) != 1 {
		t.Fatalf("T%d's journals: %v", n, killed)
	}
	if _, err := os.Stat(killed[0] + desk.SentSuffix); err == nil {
		t.Fatalf("T%d has its marker: the kill came too late", n)
	}
	// T8 again: it sends its old record (the desk had it) and plays a new game.
	if out, err := sim(n).CombinedOutput(); err != nil || resultLine(out) == "" {
		t.Fatalf("T%d restarted: %v\n%s", n, err, lastLines(string(out), 10))
	}
	if mk, err := os.ReadFile(killed[0] + desk.SentSuffix); err != nil || !strings.Contains(string(mk), `"duplicate":true`) {
		t.Fatalf("T%d's first record, sent again after the kill, was not a duplicate at the desk: %s %v", n, mk, err)
	}
	// Every finished journal of every table, acknowledged, at the desk once.
	want := map[string]string{}
	for i := 1; i <= n; i++ {
		files := journalFiles(filepath.Join(root, fmt.Sprintf("T%d", i), "journals"))
		for _, f := range files {
			j, err := journal.Read(f)
			if err != nil || !j.Finished() {
				t.Fatalf("%s: %v, finished %v", f, err, err == nil && j.Finished())
			}
			if _, err := os.Stat(f + desk.SentSuffix); err != nil {
				t.Errorf("%s has no .sent marker", f)
			}
			h := j.Head()
			want[fmt.Sprintf("%x", h)] = fmt.Sprintf("T%d", i)
		}
	}
	var games []struct {
		Table       string `json:"table"`
		Hash        string `json:"hash"`
		SignatureOK bool   `json:"signature_ok"`
	}
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		getJSON(t, httpURL+"api/public/games", &games)
		if len(games) >= len(want) || time.Now().After(end) {
			break
		}
	}
	if len(games) != len(want) || len(want) != n+1 {
		t.Fatalf("the desk has %d games, the tables finished %d (want %d):\n%s", len(games), len(want), n+1, d.out.String())
	}
	for _, g := range games {
		if want[g.Hash] != g.Table || !g.SignatureOK {
			t.Fatalf("game %+v is not a table's finished journal", g)
		}
		delete(want, g.Hash)
	}
	var live struct {
		Pack string     `json:"pack"`
		Rows []desk.Row `json:"rows"`
	}
	getJSON(t, httpURL+"api/public/standings", &live)
	st, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	re, err := st.Recompute()
	if err != nil {
		t.Fatal(err)
	}
	pack, _ := desk.LoadPack("league")
	if got := desk.Standings(pack, re); !reflect.DeepEqual(got, live.Rows) || live.Pack != pack.ID() {
		t.Fatalf("the desk's standings (%s) differ from a recompute from the stored records", live.Pack)
	}
	var refused []desk.Refusal
	getJSON(t, httpURL+"api/public/refused", &refused)
	if len(refused) != 0 {
		t.Fatalf("refused: %+v", refused)
	}
	t.Logf("%d games at the desk, once each; %d standings rows; top: %+v", len(games), len(live.Rows), live.Rows[0])
}

// TestDeskRefusalShown (issue 27 item 3): a table whose records the desk
// refuses (its registered key is another) hears it: sim prints the desk's
// reason in Chinese, the journal is marked .refused, not .sent; once the
// organiser registers the right key, `wolftable record resend` puts it
// back and the next run sends it, with its new game: both stored. The
// old table printed nothing and marked the refused record sent.
func TestDeskRefusalShown(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	bin := buildBinary(t)
	root := t.TempDir()
	data, tdir := filepath.Join(root, "desk"), filepath.Join(root, "T1")
	os.MkdirAll(tdir, 0o750)
	for _, k := range []string{"table.key", "other.key"} {
		if out, err := exec.Command(bin, "record", "keygen", "--key", filepath.Join(tdir, k)).CombinedOutput(); err != nil {
			t.Fatalf("keygen: %v\n%s", err, out)
		}
	}
	out, err := exec.Command(bin, "desk", "table", "add", "T1", "--data", data, "--pubkey", filepath.Join(tdir, "other.pub")).Output()
	if err != nil {
		t.Fatalf("table add: %v", err)
	}
	creds := strings.TrimSpace(string(out))
	d := startDeskProc(t, bin, "--data", data, "--nats", "127.0.0.1:0", "--http", "127.0.0.1:0")
	defer d.stop(t)
	jdir := filepath.Join(tdir, "journals")
	sim := func(seed int) string {
		out, err := exec.Command(bin, "sim", "--bots", "--no-tui", "--speed", "400", "--seed", fmt.Sprint(seed), "--voice", "off",
			"--journal", jdir, "--desk", d.nats, "--table", "T1", "--desk-creds", creds).CombinedOutput()
		if err != nil || resultLine(out) == "" {
			t.Fatalf("sim: %v\n%s", err, lastLines(string(out), 10))
		}
		return string(out)
	}
	first := sim(71)
	if !strings.Contains(first, "總台拒收本桌紀錄") || !strings.Contains(first, "簽章金鑰不符") {
		t.Fatalf("sim did not say the desk refused its record:\n%s", lastLines(first, 10))
	}
	files := journalFiles(jdir)
	if len(files) != 1 {
		t.Fatalf("journals: %v", files)
	}
	if _, err := os.Stat(files[0] + desk.SentSuffix); err == nil {
		t.Fatal("the refused record is marked sent")
	}
	if _, err := os.Stat(files[0] + desk.RefusedSuffix); err != nil {
		t.Fatalf("no .refused marker: %v", err)
	}
	pub, _ := os.ReadFile(filepath.Join(tdir, "table.pub"))
	if err := os.WriteFile(filepath.Join(data, "tables", "T1.pub"), pub, 0o644); err != nil { // the organiser's fix
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "record", "resend", "--journal", jdir).CombinedOutput(); err != nil || !strings.Contains(string(out), "已放回待送") {
		t.Fatalf("record resend: %v\n%s", err, out)
	}
	sim(72)
	files = journalFiles(jdir)
	for _, f := range files {
		if _, err := os.Stat(f + desk.SentSuffix); err != nil {
			t.Errorf("%s is not marked sent after the resend", filepath.Base(f))
		}
	}
	var games []struct{ Table string }
	getJSON(t, d.http+"api/public/games", &games)
	if len(games) != 2 {
		t.Errorf("the desk has %d games, want 2", len(games))
	}
}

// TestRefusedNotice: the judge console's notice of refused records names
// each journal, its fingerprint (the score sheet's) and the desk's reason.
func TestRefusedNotice(t *testing.T) {
	dir := t.TempDir()
	if n := refusedNotice(dir); n != "" {
		t.Errorf("a notice without refusals: %q", n)
	}
	var h [32]byte
	h[0] = 0xab
	mk, _ := json.Marshal(desk.RefusedMarker{Hash: fmt.Sprintf("%x", h), Reason: "簽章金鑰不符"})
	os.WriteFile(filepath.Join(dir, "g1.wtj"), []byte("x"), 0o640)
	os.WriteFile(filepath.Join(dir, "g1.wtj"+desk.RefusedSuffix), mk, 0o640)
	n := refusedNotice(dir)
	for _, want := range []string{"總台拒收", "g1.wtj", journal.Fingerprint(h), "簽章金鑰不符", "wolftable record resend"} {
		if !strings.Contains(n, want) {
			t.Errorf("the notice %q does not say %q", n, want)
		}
	}
}

// TestConfigCheckDeskCreds: `config check` refuses what serve refuses at
// its start in [desk]: a credentials file of the old format (a password),
// another table's, a missing one; it takes this table's.
func TestConfigCheckDeskCreds(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "desk")
	good, err := desk.AddTable(data, "T1", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	other, _ := desk.AddTable(data, "T2", nil, "")
	old := filepath.Join(dir, "old.creds")
	os.WriteFile(old, []byte("table = 'T1'\nuser = 'table-T1'\npassword = 'abc'\nsubject = 'wolftable.table.T1'\n"), 0o600)
	for _, c := range []struct {
		creds string
		code  int
		says  string
	}{{good, 0, ""}, {old, 1, "舊格式"}, {other, 1, "T2"}, {filepath.Join(dir, "none.creds"), 1, "none.creds"}} {
		conf := filepath.Join(dir, "config.toml")
		os.WriteFile(conf, []byte(fmt.Sprintf("[journal]\ndir = %q\n[desk]\nurl = \"nats://192.0.2.5:4222\"\ntable = \"T1\"\ncreds = %q\n", dir, c.creds)), 0o644)
		var out, errb strings.Builder
		code := run([]string{"config", "check", "--config", conf}, &out, &errb)
		if code != c.code || !strings.Contains(errb.String(), c.says) {
			t.Errorf("%s: exit %d, want %d; %s", filepath.Base(c.creds), code, c.code, errb.String())
		}
	}
}

// TestDeskNotFoundSaysMakeBuild (issue 29 item 8): `wolftable desk`
// without wolftable-desk beside it or on the PATH says how to build it,
// make build.
func TestDeskNotFoundSaysMakeBuild(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var errb strings.Builder
	if code := execDesk([]string{"--data", t.TempDir()}, &errb); code != 1 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(errb.String(), "make build") || !strings.Contains(errb.String(), "找不到總台程式") {
		t.Fatalf("the message: %s", errb.String())
	}
}
