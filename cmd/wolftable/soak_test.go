package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"wolftable/console"
)

// TestSoak is a tournament day on one table (issue 27 item 2): `serve
// --bots --speed 5000` on the emulated seat-panel bridge (`bridge emulate`
// behind a real pty, serve in serial mode) plays WOLFTABLE_SOAK_GAMES games
// (the short version, 100 games, is its own step of scripts/test, `make
// test`, with WOLFTABLE_SOAK=short; scripts/soak runs 2,000),
// while the bridge is unplugged and replugged every few seconds (hundreds
// of game-minutes at that speed) and its seats tap gesture keys, serve is
// killed with SIGKILL at random points and started again (the game
// resumes), the console is flooded (200 public live streams from 25
// addresses, wrong PINs, the judge logging in and reading the god view),
// and the desk goes away and comes back. It passes when every finished
// game's journal verifies and is signed by the table's key, every key
// event the bridge had acknowledged is in a journal exactly once (none
// twice, a kill between the journal and the ack included: checkInputs),
// the games per CPU minute of the last tenth are not below 0.9 of the
// first tenth's beyond the estimate's error (check), the RSS is flat (the last tenth's peak
// within 2 MB of the first tenth's) and every game is at the desk once. It
// prints its figures (with -v).
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	if os.Getenv("WOLFTABLE_SOAK") == "" && os.Getenv("WOLFTABLE_SOAK_GAMES") == "" {
		t.Skip("a day's soak: WOLFTABLE_SOAK=short (scripts/test runs it as its own step), or scripts/soak [GAMES]")
	}
	// The short version plays one deal (--seed 27) again and again, so that
	// its tenths of a few games each compare like with like; the long one
	// deals a fresh random game each time (WOLFTABLE_SOAK_SEED=0).
	games, seed := 100, uint64(27)
	if v := os.Getenv("WOLFTABLE_SOAK_GAMES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 10 {
			t.Fatalf("WOLFTABLE_SOAK_GAMES=%q: want a number of games, at least 10", v)
		}
		games, seed = n, 0
	}
	if v := os.Getenv("WOLFTABLE_SOAK_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("WOLFTABLE_SOAK_SEED=%q: want a number (0: a random deal each game)", v)
		}
		seed = n
	}
	bin := buildBinary(t)
	s := newSoak(t, bin, games)
	s.seed = seed
	defer s.cleanup()
	s.run()
	s.check()
}

// soak is the day's rig and what it measured.
type soak struct {
	t     *testing.T
	bin   string
	games int
	seed  uint64 // serve --seed: 0 deals a random game each time
	root  string
	jdir  string     // the table's journals
	rng   *rand.Rand // the day's seed (mu): newRand

	desk *soakDesk
	emu  *soakEmu
	con  string // the console's address
	pin  string
	conf string

	mu       sync.Mutex
	from     int // s.ended's index where the day starts (startDay); -1 before
	serve    *exec.Cmd
	exited   chan struct{} // closed when serve has exited
	serveOut *lockedBuffer
	ended    []gameEnd // every "result:" line, in order
	rss      []rssSample
	kills    int
	killedAt []time.Time
	resumed  int
	restarts []time.Time // when a killed serve was started again
	outages  int         // the desk's
	flood    floodCounts
	session  []*http.Cookie // the judge's (floodConsole's goroutine)
	stop     chan struct{}
	faults   sync.WaitGroup // the faults' goroutines, until stop
	wg       sync.WaitGroup // serve's output readers
}

// gameEnd is a game's end as serve reported it: when, and the process's
// CPU time (ns, procCPU) then.
type gameEnd struct {
	at  time.Time
	cpu int64
	pid int
}

type rssSample struct {
	game int // games ended before the sample
	kB   int64
}

func newSoak(t *testing.T, bin string, games int) *soak {
	root := t.TempDir()
	s := &soak{t: t, bin: bin, games: games, root: root, jdir: filepath.Join(root, "table", "journals"),
		rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 27)), stop: make(chan struct{}), pin: "246813", from: -1}
	s.desk = startSoakDesk(t, bin, root)
	s.emu = startSoakEmu(t, bin, filepath.Join(root, "bridge"))
	s.con = freeAddr(t)
	s.conf = filepath.Join(root, "config.toml")
	body := fmt.Sprintf(`[table]
mode = "serial"
seats = 12
[serial]
port = %q
[journal]
dir = %q
[console]
listen = %q
tls_listen = "off"
pin_hash = %q
`, s.emu.link, s.jdir, s.con, console.HashPIN(s.pin)) + s.desk.configSection()
	if err := os.WriteFile(s.conf, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

// orphanKilled makes a child die with the test (a test that times out
// panics without running its cleanups).
func orphanKilled() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }

// freeAddr is a loopback address with a port free now (the console's,
// the same after every restart).
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func (s *soak) cleanup() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	s.mu.Lock()
	if s.serve != nil {
		s.serve.Process.Kill()
	}
	s.mu.Unlock()
	s.faults.Wait()
	s.wg.Wait()
	s.emu.close()
	s.desk.stop(s.t)
}

var resultRE = regexp.MustCompile(`(?m)^result: `)

// startServe starts serve and follows its output: each "result:" line is
// a game's end.
func (s *soak) startServe() {
	cmd := exec.Command(s.bin, "serve", "--config", s.conf, "--bots", "--mute", "--speed", "5000", "--seed", fmt.Sprint(s.seed))
	cmd.SysProcAttr = orphanKilled()
	pr, pw := io.Pipe()
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	pid := cmd.Process.Pid
	exited := make(chan struct{})
	s.mu.Lock()
	s.serve, s.serveOut, s.exited = cmd, out, exited
	s.mu.Unlock()
	go func() { cmd.Wait(); pw.Close(); close(exited) }()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			l := sc.Text()
			if len(l) < 400 {
				out.Write([]byte(l + "\n"))
			}
			switch {
			case resultRE.MatchString(l):
				cpu := procCPU(pid)
				s.mu.Lock()
				s.ended = append(s.ended, gameEnd{at: time.Now(), cpu: cpu, pid: pid})
				s.mu.Unlock()
			case strings.HasPrefix(l, "resuming journal "):
				s.mu.Lock()
				s.resumed++
				s.mu.Unlock()
			}
		}
		io.Copy(io.Discard, pr)
	}()
}

// newRand is a random source of the goroutine stream's own, drawn from
// the day's seed.
func (s *soak) newRand(stream uint64) *rand.Rand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return rand.New(rand.NewPCG(s.rng.Uint64(), stream))
}

// fault reports whether the fault name (kill, plug, flood, desk) is on:
// all are, unless WOLFTABLE_SOAK_FAULTS lists the ones to run (to look
// into one of them; the test then fails for the missing ones).
func (s *soak) fault(name string) bool {
	v, ok := os.LookupEnv("WOLFTABLE_SOAK_FAULTS")
	return !ok || strings.Contains(","+v+",", ","+name+",")
}

// ends is how many games of the day have ended: the day starts once the
// console flood is at full strength, so that its first tenth and its last
// are played under the same load.
func (s *soak) ends() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.from < 0 {
		return 0
	}
	return len(s.ended) - s.from
}

// day is the day's games' ends.
func (s *soak) day() []gameEnd {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.from < 0 {
		return nil
	}
	return append([]gameEnd(nil), s.ended[s.from:min(len(s.ended), s.from+s.games)]...)
}

// startDay starts the day's count once the flood is at full strength.
func (s *soak) startDay() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.from < 0 && (!s.fault("flood") || s.flood.maxStreams.Load() >= 200) {
		s.from = len(s.ended)
	}
}

// run plays the day: serve with its faults until s.games games ended.
func (s *soak) run() {
	s.startServe()
	s.faults.Add(1)
	go s.sampleRSS()
	for name, f := range map[string]func(){"plug": s.bridgeFaults, "flood": s.floodConsole, "desk": s.deskOutages} {
		if s.fault(name) {
			s.faults.Add(1)
			go f()
		}
	}
	// kill -9 at random points: about 10 in a day, at least 2, each at a
	// random moment of a game (or between two)
	every := max(4, s.games/10)
	rng := s.newRand(4)
	next := every/2 + rng.IntN(every)
	progress, played := time.Now(), 0
	for s.ends() < s.games {
		time.Sleep(20 * time.Millisecond)
		s.startDay()
		s.mu.Lock()
		n := len(s.ended)
		s.mu.Unlock()
		if n != played {
			progress, played = time.Now(), n
		}
		last := s.ends()
		if time.Since(progress) > 3*time.Minute {
			s.mu.Lock()
			out := s.serveOut.String()
			s.mu.Unlock()
			s.t.Fatalf("no game ended for 3 minutes (after %d):\n%s", played, lastLines(out, 30))
		}
		if last >= next && last < s.games-2 && s.fault("kill") {
			time.Sleep(time.Duration(rng.IntN(400)) * time.Millisecond) // mid-game, or at a game's end
			s.killServe()
			next = last + every/2 + rng.IntN(every)
		}
	}
	s.finish()
}

// killServe kills serve with SIGKILL and starts it again at once.
func (s *soak) killServe() {
	s.mu.Lock()
	cmd, exited := s.serve, s.exited
	s.kills++
	s.killedAt = append(s.killedAt, time.Now())
	s.mu.Unlock()
	cmd.Process.Kill()
	<-exited
	s.mu.Lock()
	s.restarts = append(s.restarts, time.Now())
	s.mu.Unlock()
	s.startServe()
}

// finish ends the day: the faults stop, the seats stop tapping and the
// bridge is plugged in, the desk is up and has every record, then serve
// is stopped with SIGTERM (the game in progress stays, unfinished, for
// the next start).
func (s *soak) finish() {
	close(s.stop)
	s.faults.Wait()
	s.emu.plugIn()
	s.desk.up(s.t)
	s.emu.quiet(s.t) // every tap acknowledged or dropped, nothing in flight
	time.Sleep(500 * time.Millisecond)
	deadline := time.Now().Add(2 * time.Minute)
	for pending := -1; pending != 0; time.Sleep(100 * time.Millisecond) {
		if pending = s.unsent(); pending != 0 && time.Now().After(deadline) {
			s.t.Fatalf("%d records never reached the desk", pending)
		}
	}
	s.mu.Lock()
	cmd, exited := s.serve, s.exited
	s.mu.Unlock()
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		s.t.Fatal("serve did not stop on SIGTERM")
	}
}

// procCPU is the CPU time a process's threads have run so far, in ns
// (/proc/PID/task/*/schedstat: the scheduler's own count, finer than
// /proc/PID/stat's clock ticks), or -1. A thread that ended is not
// counted: serve's threads live as long as the process.
func procCPU(pid int) int64 {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return -1
	}
	var sum int64
	for _, task := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, task.Name()))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			sum += n
		}
	}
	return sum
}

// procRSS is a process's VmRSS in kB, or -1.
func procRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return -1
}

func (s *soak) sampleRSS() {
	defer s.faults.Done()
	for {
		select {
		case <-s.stop:
			return
		case <-time.After(100 * time.Millisecond):
		}
		n := s.ends()
		s.mu.Lock()
		pid, started := s.serve.Process.Pid, s.from >= 0
		s.mu.Unlock()
		if kB := procRSS(pid); kB > 0 && started {
			s.mu.Lock()
			s.rss = append(s.rss, rssSample{n, kB})
			s.mu.Unlock()
		}
	}
}

// bridgeFaults unplugs and replugs the bridge every 2 to 5 s (down 0.2 to
// 1 s) and taps a seat's WAVE or HAND every 150 to 450 ms.
func (s *soak) bridgeFaults() {
	defer s.faults.Done()
	rng := s.newRand(1)
	nextPlug := time.Now().Add(time.Duration(2000+rng.IntN(3000)) * time.Millisecond)
	for {
		select {
		case <-s.stop:
			return
		case <-time.After(time.Duration(150+rng.IntN(300)) * time.Millisecond):
		}
		if time.Now().After(nextPlug) {
			s.emu.send("unplug")
			time.Sleep(time.Duration(200+rng.IntN(800)) * time.Millisecond)
			s.emu.send("replug")
			nextPlug = time.Now().Add(time.Duration(2000+rng.IntN(3000)) * time.Millisecond)
			continue
		}
		s.emu.send(fmt.Sprintf("tap %d %s", 1+rng.IntN(12), []string{"WAVE", "HAND"}[rng.IntN(2)]))
	}
}

// deskOutages stops the desk about every s.games/8 games (at least twice a
// day) and starts it again 1 to 3 s later.
func (s *soak) deskOutages() {
	defer s.faults.Done()
	rng := s.newRand(2)
	every := max(5, s.games/8)
	next := every/2 + rng.IntN(every)
	for {
		select {
		case <-s.stop:
			return
		case <-time.After(50 * time.Millisecond):
		}
		if s.ends() < next {
			continue
		}
		s.desk.stop(s.t)
		s.mu.Lock()
		s.outages++
		s.mu.Unlock()
		select {
		case <-s.stop:
		case <-time.After(time.Duration(1000+rng.IntN(2000)) * time.Millisecond):
		}
		s.desk.up(s.t)
		next = s.ends() + every/2 + rng.IntN(every)
	}
}

// soakEmu is `wolftable bridge emulate --acks`: the seats' panels.
type soakEmu struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	link    string
	mu      sync.Mutex
	acked   []ackedKey // every key event the host acknowledged, in order
	lines   chan string
	plug    bool
	replugs int
	unplugs []time.Time // when the bridge was unplugged: it reboots, forgetting the key event in flight
}

type ackedKey struct {
	Seat    int    `json:"seat"`
	Key     string `json:"key"`
	Edge    string `json:"edge"`
	Counter int    `json:"counter"`
	Micros  uint32 `json:"micros"`
	at      time.Time
}

func startSoakEmu(t *testing.T, bin, link string) *soakEmu {
	cmd := exec.Command(bin, "bridge", "emulate", "--link", link, "--seats", "12", "--acks")
	cmd.SysProcAttr = orphanKilled()
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	e := &soakEmu{cmd: cmd, in: in, link: link, lines: make(chan string, 16), plug: true}
	sc := bufio.NewScanner(out)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), "ready") {
		cmd.Process.Kill()
		t.Fatalf("emulator: %q", sc.Text())
	}
	go func() {
		for sc.Scan() {
			var a struct{ Acked *ackedKey }
			if json.Unmarshal(sc.Bytes(), &a) == nil && a.Acked != nil {
				a.Acked.at = time.Now()
				e.mu.Lock()
				e.acked = append(e.acked, *a.Acked)
				e.mu.Unlock()
				continue
			}
			select {
			case e.lines <- sc.Text():
			default:
			}
		}
	}()
	return e
}

func (e *soakEmu) send(cmd string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch cmd {
	case "unplug":
		e.plug = false
		e.unplugs = append(e.unplugs, time.Now())
	case "replug":
		e.plug = true
		e.replugs++
	}
	fmt.Fprintln(e.in, cmd)
}

func (e *soakEmu) plugIn() {
	e.mu.Lock()
	plugged := e.plug
	e.mu.Unlock()
	if !plugged {
		e.send("replug")
	}
}

// quiet waits until the bridge has no key event in flight: between two
// "stats" half a second apart (five retransmission periods) it sent no
// event, first or again.
func (e *soakEmu) quiet(t *testing.T) {
	type counts struct{ KeyEventsSent, KeyRetransmits uint64 }
	read := func() (counts, bool) {
		e.send("stats")
		select {
		case l := <-e.lines:
			var c counts
			return c, json.Unmarshal([]byte(l), &c) == nil
		case <-time.After(5 * time.Second):
			return counts{}, false
		}
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		a, ok1 := read()
		time.Sleep(500 * time.Millisecond)
		b, ok2 := read()
		if ok1 && ok2 && a == b {
			return
		}
	}
	t.Fatal("the bridge still has key events in flight after a minute")
}

func (e *soakEmu) plugs() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.replugs
}

func (e *soakEmu) ackedKeys() []ackedKey {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]ackedKey(nil), e.acked...)
}

func (e *soakEmu) close() {
	e.send("quit")
	e.in.Close()
	done := make(chan struct{})
	go func() { e.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		e.cmd.Process.Kill()
	}
}
