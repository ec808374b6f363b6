package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"wolftable/journal"
)

// soakDesk is the tournament desk of the soak. The table's credentials
// come from today's flow, all of it here so that it follows the desk's
// transport when that changes: the table's key (`record keygen`), the
// table registered with it (`desk table add NAME --pubkey`, which prints
// the credentials file) and the [desk] section that names both.
type soakDesk struct {
	bin, data   string
	creds       string
	nats, http  string // fixed after the first start: the table reconnects to them
	natsPort    string
	httpPort    string
	mu          sync.Mutex
	proc        *deskProc
	tableKeyDir string
}

const soakTable = "T1"

func startSoakDesk(t *testing.T, bin, root string) *soakDesk {
	d := &soakDesk{bin: bin, data: filepath.Join(root, "desk"), tableKeyDir: filepath.Join(root, "table")}
	key := journal.KeyPathFor(filepath.Join(d.tableKeyDir, "journals")) // the key serve signs with
	if err := os.MkdirAll(filepath.Join(d.tableKeyDir, "journals"), 0o750); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "record", "keygen", "--key", key).CombinedOutput(); err != nil {
		t.Fatalf("record keygen: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "desk", "table", "add", soakTable, "--data", d.data, "--pubkey", journal.PublicKeyPath(key)).Output()
	if err != nil {
		t.Fatalf("desk table add: %v", err)
	}
	d.creds = strings.TrimSpace(string(out))
	d.proc = startDeskProc(t, bin, d.args("0", "0")...)
	d.nats, d.http = d.proc.nats, d.proc.http
	d.natsPort = regexp.MustCompile(`:(\d+)$`).FindStringSubmatch(d.nats)[1]
	d.httpPort = regexp.MustCompile(`:(\d+)/$`).FindStringSubmatch(d.http)[1]
	return d
}

// args are the desk's on the given ports. The public views are as late
// as the audience feed (60 s by default): the day's check reads the
// public games list right after the last game, so the soak's desk
// publishes at once.
func (d *soakDesk) args(natsPort, httpPort string) []string {
	return []string{"--data", d.data, "--nats", "127.0.0.1:" + natsPort, "--http", "127.0.0.1:" + httpPort, "--feed-delay", "1ms"}
}

// configSection is the table's [desk] section.
func (d *soakDesk) configSection() string {
	return fmt.Sprintf("[desk]\nurl = %q\ntable = %q\ncreds = %q\n", d.nats, soakTable, d.creds)
}

// stop takes the desk away (SIGTERM), if it is up.
func (d *soakDesk) stop(t *testing.T) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.proc != nil {
		d.proc.stop(t)
		d.proc = nil
	}
}

// up brings the desk back on its ports, if it is away.
func (d *soakDesk) up(t *testing.T) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.proc == nil {
		d.proc = startDeskProc(t, d.bin, d.args(d.natsPort, d.httpPort)...)
	}
}

// floodCounts are what the console flood got.
type floodCounts struct {
	streams, maxStreams   atomic.Int64 // public live streams open now, most at once
	streamed              atomic.Int64 // state messages the streams received
	refused               atomic.Int64 // streams refused (503 past the limit) or cut by a restart
	wrongPIN, throttled   atomic.Int64 // 401 and 429 answers to wrong PINs
	logins, godViews, bad atomic.Int64 // the judge's good logins, god views read, other answers
}

// floodConsole holds 200 public live streams open (8 from each of 25
// loopback addresses: the console's per-address limit), tries a wrong PIN
// from another address every 100 ms, and logs the judge in and reads the
// god view every 2 s, each again after serve's restarts.
func (s *soak) floodConsole() {
	defer s.faults.Done()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for a := 0; a < 25; a++ {
		for k := 0; k < 8; k++ {
			wg.Add(1)
			go func() { defer wg.Done(); s.publicStream(ctx, fmt.Sprintf("127.0.1.%d", a+1)) }()
		}
	}
	rng := s.newRand(3)
	var judge time.Time // the judge logs in first, before the wrong PINs hold the throttle
	for {
		select {
		case <-s.stop:
			cancel()
			wg.Wait()
			return
		case <-time.After(100 * time.Millisecond):
		}
		if time.Since(judge) > 2*time.Second {
			judge = time.Now()
			s.judgeReads()
		}
		s.login(fmt.Sprintf("127.0.2.%d", 1+rng.IntN(250)), fmt.Sprintf("%06d", rng.IntN(1000000)))
	}
}

// client is an HTTP client whose connections come from the address from.
func client(from string, timeout time.Duration) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 2 * time.Second}
	return &http.Client{Timeout: timeout, Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
}

func (s *soak) publicStream(ctx context.Context, from string) {
	c := client(from, 0)
	f := &s.flood
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+s.con+"/api/public/events", nil)
		resp, err := c.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			if resp != nil {
				resp.Body.Close()
			}
			f.refused.Add(1)
			select {
			case <-ctx.Done():
			case <-time.After(300 * time.Millisecond):
			}
			continue
		}
		n := f.streams.Add(1)
		for m := f.maxStreams.Load(); n > m && !f.maxStreams.CompareAndSwap(m, n); m = f.maxStreams.Load() {
		}
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "event: state") {
				f.streamed.Add(1)
			}
		}
		resp.Body.Close()
		f.streams.Add(-1)
	}
}

func (s *soak) login(from, pin string) (*http.Response, error) {
	resp, err := client(from, 5*time.Second).Post("http://"+s.con+"/api/login", "application/json", strings.NewReader(fmt.Sprintf(`{"pin":%q}`, pin)))
	if err != nil {
		return nil, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	f := &s.flood
	switch {
	case pin == s.pin && resp.StatusCode == http.StatusOK:
	case resp.StatusCode == http.StatusUnauthorized:
		f.wrongPIN.Add(1)
	case resp.StatusCode == http.StatusTooManyRequests:
		f.throttled.Add(1)
	default:
		f.bad.Add(1)
	}
	return resp, nil
}

// judgeReads reads the god view with the judge's session, logging in
// (from the judge's own address) when there is none or it is refused.
// While the wrong PINs hold the global throttle the login waits: the
// session, kept across serve's restarts, is what lets the judge read on.
func (s *soak) judgeReads() {
	if len(s.session) == 0 {
		resp, err := s.login("127.0.0.1", s.pin)
		if err != nil || resp.StatusCode != http.StatusOK {
			return
		}
		s.flood.logins.Add(1)
		s.session = resp.Cookies()
	}
	req, _ := http.NewRequest("GET", "http://"+s.con+"/api/judge/state", nil)
	for _, c := range s.session {
		req.AddCookie(c)
	}
	r, err := client("127.0.0.1", 5*time.Second).Do(req)
	if err != nil {
		return
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	switch {
	case r.StatusCode == http.StatusOK && bytes.Contains(b, []byte(`"seats"`)):
		s.flood.godViews.Add(1)
	case r.StatusCode == http.StatusUnauthorized:
		s.session = nil
	default:
		s.flood.bad.Add(1)
	}
}
