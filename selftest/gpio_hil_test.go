//go:build hil

// The self-test in GPIO mode on a real Linux kernel: the HIL VM's
// simulated table (scripts/hil, internal/hilsim) behind the kernel's GPIO
// character device, i2c-dev and spidev, opened as on a Pi (GPIOTarget with
// no Deps: host.Init and the periph.io registries). Run by
//
//	GOARCH=arm64 go test -tags hil -exec "$PWD/scripts/hil/exec" ./selftest
//
// (make hil); skipped anywhere else.
package selftest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"wolftable/hw"
	"wolftable/internal/hilsim"
)

// hilSelftestConfig is a 7-seat GPIO table (the smallest board's): seats
// 1-4 on the expander at 0x20, 5-7 on 0x21, the keys OK and CLR each; the
// pedal on GPIO17; one LED and a private indicator per seat on SPI0.0.
func hilSelftestConfig(i2c string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[table]\nseats = 7\nmode = \"gpio\"\n")
	// wide pedal windows, as in drivers/gpio's HIL tests: a starved VM dates
	// the driver's samples late
	fmt.Fprintf(&b, "[pedal]\npin = \"GPIO17\"\nlong = \"1200ms\"\ndouble = \"800ms\"\n")
	fmt.Fprintf(&b, "[gpio]\nspi = \"SPI0.0\"\ni2c = %q\nprivate_led = true\n", i2c)
	keys := []string{"OK", "CLR"}
	for _, x := range []struct {
		addr        int
		first, last int
	}{{0x20, 1, 4}, {0x21, 5, 7}} {
		var m []string
		pin := 0
		for seat := x.first; seat <= x.last; seat++ {
			for _, k := range keys {
				m = append(m, fmt.Sprintf("%v = \"%d %s\"", hw.ExpanderPin(pin), seat, k))
				pin++
			}
		}
		fmt.Fprintf(&b, "[[gpio.expanders]]\naddress = %#x\nkeys = { %s }\n", x.addr, strings.Join(m, ", "))
	}
	return b.String()
}

// hilRun runs the self-test on the simulated table with the faults, only
// the components named (all if none), and sound as the speaker.
func hilRun(t *testing.T, faults []string, only []string, sound Sound) *Report {
	t.Helper()
	if !hilsim.In() {
		t.Skip("not in the HIL VM: make hil (scripts/hil/exec) runs it")
	}
	sim := hilsim.New()
	if err := sim.Reset(); err != nil {
		t.Fatal(err)
	}
	cfg, err := hw.ParseConfig([]byte(hilSelftestConfig("0")))
	if err != nil {
		t.Fatal(err)
	}
	var fl []Fault
	for _, s := range faults {
		f, err := ParseFault(s)
		if err != nil {
			t.Fatal(err)
		}
		fl = append(fl, f)
	}
	tech := newHILTech(t, sim, cfg, fl...)
	for _, f := range fl {
		switch f.Kind {
		case FaultNoLink:
			if err := sim.SetNAK(0x21, true); err != nil {
				t.Fatal(err)
			}
		case FaultStuckKey:
			addr, _, _ := tech.wired(f.Seat, f.Key)
			if err := sim.Keys(tech.withStuck(addr, []hilsim.Step{{}})); err != nil {
				t.Fatal(err)
			}
		}
	}
	target := &GPIOTarget{Config: cfg, Soak: 200 * time.Millisecond}
	var lines []string
	rep := Run(context.Background(), Options{Target: target, Technician: tech, Sound: sound, Only: only, Soak: target.Soak,
		Faults: faults, Progress: func(l string) { lines = append(lines, l) }})
	if testing.Verbose() || t.Failed() {
		t.Log("\n" + strings.Join(lines, "\n"))
	}
	return rep
}

func problems(rep *Report) string {
	var s []string
	for _, p := range rep.Problems {
		s = append(s, p.String())
	}
	return strings.Join(s, "\n")
}

// TestHILSelftestPasses: the whole self-test on the healthy table passes:
// the link (bus, both expanders, the pedal's pin, a soak of the real
// spidev), the pedal's three presses, every seat's lights read back from the
// chain, every seat's keys through the expanders.
func TestHILSelftestPasses(t *testing.T) {
	rep := hilRun(t, nil, nil, nil)
	if !rep.Passed {
		t.Fatalf("problems:\n%s", problems(rep))
	}
	var link []string
	for _, c := range rep.Component(CompLink).Checks {
		link = append(link, fmt.Sprintf("%s %s: %s", c.Status, c.Name, c.Detail))
	}
	got := strings.Join(link, "\n")
	for _, want := range []string{"pass i2c bus: I2C0 已打開", "pass expander 0x20: 有回應；接了 8 個按鍵",
		"pass expander 0x21: 有回應；接了 6 個按鍵", "pass pedal pin: GPIO17", "pass soak: 全速燈號幀 200ms"} {
		if !strings.Contains(got, want) {
			t.Errorf("link checks lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "寫出 0（") || !strings.Contains(got, "，0 幀失敗") {
		t.Errorf("soak: %s", got)
	}
	for _, c := range rep.Component(CompPedal).Checks {
		if c.Status != Pass {
			t.Errorf("pedal %s: %s %s", c.Name, c.Status, c.Detail)
		}
	}
	if n := len(rep.Component(CompPedal).Checks); n != 3 {
		t.Errorf("%d pedal checks, want short, long, double", n)
	}
	for seat := 1; seat <= 7; seat++ {
		s := rep.Seat(seat)
		if s.Lights.Status != Pass || s.Keys.Status != Pass || len(s.Keys.Expected) != 2 {
			t.Errorf("seat %d: lights %s %s; keys %s %s", seat, s.Lights.Status, s.Lights.Detail, s.Keys.Status, s.Keys.Detail)
		}
		for k, n := range s.Keys.Presses {
			if n != 1 {
				t.Errorf("seat %d key %s: %d presses", seat, k, n)
			}
		}
	}
}

// TestHILSelftestFaults: each fault of the simulated hardware is found and
// named on its seat, and nothing else is blamed: a dead LED, a missing, a
// bouncy and a stuck key in one run of the lights and keys; an expander
// that does not answer; a dead speaker.
func TestHILSelftestFaults(t *testing.T) {
	t.Run("seats", func(t *testing.T) {
		faults := []string{"dead-led:3", "missing-key:2:CLR", "bouncy-key:4:CLR", "stuck-key:6:CLR"}
		rep := hilRun(t, faults, []string{CompLights, CompKeys}, nil)
		if rep.Passed {
			t.Fatalf("passed with %v", faults)
		}
		want := "技術人員看到異常：紅、綠、藍、滅、私人指示燈（HIL technician saw: seat 3 showed off at red, green, blue, private; seat 3's private indicator off at private）"
		if l := rep.Seat(3).Lights; l.Status != Fail || l.Detail != want {
			t.Errorf("seat 3 lights: %s %q\nwant %q", l.Status, l.Detail, want)
		}
		if k := rep.Seat(2).Keys; k.Status != Fail || !slices.Equal(k.Missing, []string{"CLR"}) || len(k.Bouncy)+len(k.Stuck) > 0 {
			t.Errorf("seat 2 keys (missing CLR): %+v", k)
		}
		if k := rep.Seat(4).Keys; k.Status != Fail || !slices.Equal(k.Bouncy, []string{"CLR"}) || k.Presses["CLR"] != 2 || len(k.Missing)+len(k.Stuck) > 0 {
			t.Errorf("seat 4 keys (bouncy CLR): %+v", k)
		}
		if k := rep.Seat(6).Keys; k.Status != Fail || !slices.Equal(k.Stuck, []string{"CLR"}) || !strings.Contains(k.Detail, "CLR（一開始就按著）") {
			t.Errorf("seat 6 keys (stuck CLR): %+v", k)
		}
		blamed := map[string]bool{"lights 3": true, "keys 2": true, "keys 4": true, "keys 6": true}
		for _, p := range rep.Problems {
			if !blamed[fmt.Sprintf("%s %d", p.Component, p.Seat)] {
				t.Errorf("blamed: %s", p)
			}
		}
		for n := 1; n <= 7; n++ {
			s := rep.Seat(n)
			if !blamed[fmt.Sprintf("lights %d", n)] && s.Lights.Status != Pass {
				t.Errorf("seat %d lights: %s %s", n, s.Lights.Status, s.Lights.Detail)
			}
			if !blamed[fmt.Sprintf("keys %d", n)] && s.Keys.Status != Pass {
				t.Errorf("seat %d keys: %s %s", n, s.Keys.Status, s.Keys.Detail)
			}
		}
	})
	t.Run("no-link", func(t *testing.T) {
		rep := hilRun(t, []string{"no-link"}, nil, nil)
		p := rep.Problems
		if rep.Passed || len(p) == 0 || p[0].Component != CompLink || !strings.HasPrefix(p[0].Message, "擴充晶片 0x21：沒有回應") || !strings.Contains(p[0].Message, "：sysfs-i2c: remote I/O error") ||
			!strings.Contains(p[0].Message, "它的按鍵：5號 OK、5號 CLR、6號 OK") {
			t.Errorf("problems:\n%s", problems(rep))
		}
		for _, c := range []string{CompPedal, CompLights, CompKeys} {
			if s := rep.Component(c).Status; s != NotRun {
				t.Errorf("%s: %s, want not run", c, s)
			}
		}
	})
	t.Run("no-speaker", func(t *testing.T) {
		rep := hilRun(t, []string{"no-speaker"}, []string{CompLink, CompSpeaker}, deadSpeaker{})
		if s := rep.Component(CompSpeaker); rep.Passed || s.Status != Fail || len(s.Checks) == 0 || s.Checks[0].Name != "sound device" {
			t.Errorf("speaker: %+v", s)
		}
		if s := rep.Component(CompLink).Status; s != Pass || len(rep.Problems) != 1 {
			t.Errorf("link: %s; problems:\n%s", s, problems(rep))
		}
	})
}

// deadSpeaker is the sound device that is not there, as the real speaker
// reports it: the HIL VM has no ALSA (its test binary is built without
// cgo), so the speaker itself is not under test here; what is, is that a
// dead speaker fails the speaker alone on a healthy GPIO table.
type deadSpeaker struct{}

func (deadSpeaker) PlayTest(context.Context) []Check {
	return []Check{{Name: "sound device", Status: Fail, Detail: `oto/ALSA: ALSA error at snd_pcm_open: No such file or directory`}}
}
func (deadSpeaker) Say([]string) bool { return false }
func (deadSpeaker) Describe() string  { return "three rising beeps" }

// TestHILSelftestCommand: `wolftable selftest --only link` in GPIO mode
// from a config file: the CLI's own path (config.Load, GPIOTarget with the
// registries, the soak on the real spidev, the JSON report), passing; and a
// config naming an I2C bus the Pi does not have, failing on that bus.
func TestHILSelftestCommand(t *testing.T) {
	if !hilsim.In() {
		t.Skip("not in the HIL VM: make hil (scripts/hil/exec) runs it")
	}
	if err := hilsim.New().Reset(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		bus    string
		status int
		check  []string // all of them, in the link's checks
	}{
		{"0", 0, []string{"pass i2c bus: I2C0 已打開"}},
		// the remedy in Chinese first, then the driver's raw error
		{"7", 1, []string{"fail i2c bus: I2C 沒有開啟", `原始錯誤：I2C 匯流排 "7" 打不開`}},
	} {
		dir := t.TempDir()
		conf := filepath.Join(dir, "wolftable.toml")
		// the whole file, as config.Load wants it: the board of 7 players
		text := hilSelftestConfig(tc.bus) + "[game]\nboard = \"cupid-7-001\"\n"
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		report := filepath.Join(dir, "report.json")
		var out, errs strings.Builder
		status := RunTable(TableOptions{Config: conf, Only: []string{"link"}, Soak: 300 * time.Millisecond, Reports: []string{report}}, Env{Stdout: &out, Stderr: &errs})
		if status != tc.status {
			t.Errorf("i2c %q: exit %d, want %d\n%s%s", tc.bus, status, tc.status, out.String(), errs.String())
		}
		b, err := os.ReadFile(report)
		if err != nil {
			t.Fatal(err)
		}
		var rep Report
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		var checks []string
		for _, c := range rep.Component(CompLink).Checks {
			checks = append(checks, fmt.Sprintf("%s %s: %s", c.Status, c.Name, c.Detail))
		}
		got := strings.Join(checks, "\n")
		for _, want := range tc.check {
			if !strings.Contains(got, want) || rep.Mode != "gpio" {
				t.Errorf("i2c %q: mode %s, link checks:\n%s\nwant %q", tc.bus, rep.Mode, got, want)
			}
		}
	}
}
