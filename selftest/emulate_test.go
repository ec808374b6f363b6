package selftest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// cli runs `wolftable selftest` with o in a child process (this test
// binary, see TestMain) and returns its exit status, output and JSON report.
func cli(t *testing.T, o TableOptions) (int, string, *Report, time.Duration) {
	t.Helper()
	r := runCLI(t.TempDir(), o)
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.code, r.out, r.rep, r.took
}

type cliResult struct {
	code int
	out  string
	rep  *Report
	took time.Duration
	err  error
}

// runCLI is cli for any goroutine: the child writes its reports in dir.
func runCLI(dir string, o TableOptions) cliResult {
	jsonPath := filepath.Join(dir, "report.json")
	txtPath := filepath.Join(dir, "report.txt")
	o.Reports = append(o.Reports, jsonPath, txtPath)
	a, _ := json.Marshal(o)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+string(a))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	r := cliResult{took: time.Since(start)}
	r.out = out.String()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		r.err = fmt.Errorf("running the child: %w", err)
		return r
	}
	if strings.Contains(r.out, "DATA RACE") {
		r.err = fmt.Errorf("the child found a data race:\n%s", r.out)
		return r
	}
	f, err := os.Open(jsonPath)
	if err != nil {
		r.err = fmt.Errorf("no JSON report (exit %d): %w\n%s", r.code, err, r.out)
		return r
	}
	defer f.Close()
	if r.rep, err = ReadJSON(f); err != nil {
		r.err = err
		return r
	}
	txt, err := os.ReadFile(txtPath)
	if err != nil {
		r.err = err
		return r
	}
	if !strings.Contains(r.out, string(txt)) {
		r.err = fmt.Errorf("the text report file differs from the one printed:\n%s", txt)
	}
	return r
}

// TestEmulatedHealthy is the acceptance test's first half: the whole
// self-test against the emulated bridge behind a real pty, played by the
// robot technician, passes on a healthy 12-seat table, however busy the
// machine (what the host's stalls made late is a warning, logged). How
// long it takes is BenchmarkEmulatedRun's.
func TestEmulatedHealthy(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the emulated run takes 15 s")
	}
	code, out, rep, took := cli(t, TableOptions{Emulate: true, Soak: time.Second})
	t.Logf("healthy emulated run: exit %d in %v", code, took.Round(100*time.Millisecond))
	for _, w := range rep.Warnings {
		t.Logf("warning (a busy machine): %v", w)
	}
	if code != 0 || !rep.Passed || len(rep.Problems) != 0 {
		t.Fatalf("exit %d, passed %v, problems %+v\n%s", code, rep.Passed, rep.Problems, out)
	}
	if rep.Seats != 12 || len(rep.SeatResults) != 12 || !rep.Emulated || rep.Mode != "serial" {
		t.Errorf("report: %d seats, emulated %v, mode %s", rep.Seats, rep.Emulated, rep.Mode)
	}
	for _, c := range rep.Components {
		if c.Status != Pass {
			t.Errorf("component %s: %s", c.Name, c.Status)
		}
	}
	names := map[string]bool{}
	for _, c := range rep.Component(CompLink).Checks {
		names[c.Name] = true
	}
	for _, n := range []string{"bridge found", "hello", "heartbeat", "soak", "heartbeat, load", "counters", "raw contacts", "driver"} {
		if !names[n] {
			t.Errorf("link check %q missing: %+v", n, rep.Component(CompLink).Checks)
		}
	}
	for _, s := range rep.SeatResults {
		if s.Keys.Presses["BOOM"] != 1 || len(s.Keys.Presses) != 17 {
			t.Errorf("seat %d presses: %v", s.Seat, s.Keys.Presses)
		}
	}
}

// BenchmarkEmulatedRun times the healthy emulated self-test of 12 seats
// (TestEmulatedHealthy's), in a child process as the tests run it; it
// should take under 20 s on a quiet machine (the CI's budget).
func BenchmarkEmulatedRun(b *testing.B) {
	for b.Loop() {
		r := runCLI(b.TempDir(), TableOptions{Emulate: true, Soak: time.Second})
		if r.err != nil || r.code != 0 {
			b.Fatalf("exit %d, %v\n%s", r.code, r.err, r.out)
		}
	}
}

// TestEmulatedFaults is the acceptance test's second half: each fault kind
// fails the run (exit 1) and the report names the seat and key, or the
// component.
func TestEmulatedFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the emulated runs take 10 s each")
	}
	t.Parallel()
	cases := []struct {
		fault   string
		problem Problem // the one problem the report must have
		detail  string  // in its message
	}{
		{"dead-led:2", Problem{Component: CompLights, Seat: 2}, "座位 2 顯示滅"},
		{"missing-key:3:7", Problem{Component: CompKeys, Seat: 3, Key: "7"}, "沒有收到"},
		{"bouncy-key:4:OK", Problem{Component: CompKeys, Seat: 4, Key: "OK"}, "彈跳：按一下收到 2 次"},
		{"stuck-key:5:UP", Problem{Component: CompKeys, Seat: 5, Key: "UP"}, "卡住（一直按著）"},
		{"no-link", Problem{Component: CompLink}, "沒有裝置：橋接板插上了嗎？"},
		{"no-speaker", Problem{Component: CompSpeaker}, "oto/ALSA"},
	}
	// The runs go three at a time: they mostly wait on the emulated
	// hardware's human timings, but each is an emulator ticking at 1 kHz
	// and a race-checked driver, and too many at once on a small CI machine
	// make the link's round trips and the sound card's pace late.
	results := make([]cliResult, len(cases))
	var wg sync.WaitGroup
	slots := make(chan struct{}, 3)
	for i, c := range cases {
		dir := t.TempDir()
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			results[i] = runCLI(dir, TableOptions{Emulate: true, Soak: time.Second, Seats: 6, Faults: []Fault{mustFault(c.fault)}})
		})
	}
	wg.Wait()
	for i, c := range cases {
		t.Run(c.fault, func(t *testing.T) {
			r := results[i]
			if r.err != nil {
				t.Fatal(r.err)
			}
			code, out, rep, took := r.code, r.out, r.rep, r.took
			t.Logf("%s: exit %d in %v", c.fault, code, took.Round(100*time.Millisecond))
			if code != 1 || rep.Passed {
				t.Fatalf("exit %d, passed %v\n%s", code, rep.Passed, out)
			}
			if len(rep.Faults) != 1 || rep.Faults[0] != c.fault {
				t.Errorf("faults in the report: %v", rep.Faults)
			}
			// The fault's problem, and no other, however busy the machine:
			// what the host's stalls made late is a warning (logged).
			for _, w := range rep.Warnings {
				t.Logf("warning (a busy machine): %v", w)
			}
			found := -1
			for j, p := range rep.Problems {
				switch {
				case p.Component == c.problem.Component && p.Seat == c.problem.Seat && p.Key == c.problem.Key && strings.Contains(p.Message, c.detail):
					if found < 0 {
						found = j
					}
				case c.fault == "no-link" && p.Seat == 0 && strings.Contains(p.Message, "連不上桌子"):
				default:
					t.Errorf("unexpected problem %v", p)
				}
			}
			if found < 0 {
				t.Fatalf("no problem %+v with %q in %+v\n%s", c.problem, c.detail, rep.Problems, out)
			}
			if c.fault == "no-link" && rep.Component(CompSpeaker).Status != Pass {
				t.Errorf("no-link: the speaker is still tested: %s", rep.Component(CompSpeaker).Status)
			}
			want := componentWords[c.problem.Component] + "："
			if c.problem.Seat > 0 {
				want = fmt.Sprintf("%d號座位", c.problem.Seat)
				if c.problem.Key != "" {
					want += " 按鍵 " + c.problem.Key
				}
			}
			if !strings.Contains(out, fmt.Sprintf("%3d. %s", found+1, want)) {
				t.Errorf("the text report does not name %q:\n%s", want, out)
			}
		})
	}
}

// TestUsage: bad options are a usage error (exit 2, with the usage);
// the command line's own errors are cmd/wolftable's TestSelftestArgs.
func TestUsage(t *testing.T) {
	t.Parallel()
	for _, o := range []TableOptions{
		{Faults: []Fault{mustFault("dead-led:3")}},
		{Only: []string{"lights", "toaster"}},
		{Soak: -time.Second},
		{SystemSpeaker: true},
		{Reports: []string{"/nonexistent-folder/report.json"}},
		{Emulate: true, Seats: 30},
		{Emulate: true, Seats: 6, Faults: []Fault{mustFault("dead-led:9")}},
	} {
		var out, errb bytes.Buffer
		if code := RunTable(o, Env{Stdout: &out, Stderr: &errb}); code != 2 || errb.Len() == 0 {
			t.Errorf("%+v: exit %d, want 2\n%s%s", o, code, out.String(), errb.String())
		}
	}
}

func mustFault(s string) Fault {
	f, err := ParseFault(s)
	if err != nil {
		panic(err)
	}
	return f
}
