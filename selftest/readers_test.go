package selftest

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/spi/spitest"

	"wolftable/drivers/gpio"
	"wolftable/hw"
	"wolftable/internal/hans"
	"wolftable/internal/hans/hanstest"
)

// rawFakeErrors are the fakes' own error texts (the bus library's words,
// quoted raw after the Chinese sentence as a technician would search
// them): left out of the check.
var rawFakeErrors = []string{"i2c: no ACK"}

// TestNoEnglishForReadersGPIO (issue 31 item 8): the self-test's report
// on the Pi's own pins (GPIOTarget over fake buses, the path a real table
// takes) is Chinese where the technician reads it: the table's line, the
// link's details (bus, expanders, soak), an expander that does not answer,
// no pedal pin; in hans, nothing Traditional is left.
func TestNoEnglishForReadersGPIO(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		missing bool // expander 0x21 does not answer
		noPedal bool // no [pedal] pin
		unplug  bool // expander 0x21 stops answering during the test
		soak    time.Duration
	}{
		{name: "healthy", soak: 50 * time.Millisecond},
		{name: "expander missing", missing: true},
		{name: "no pedal", noPedal: true},
		{name: "expander unplugged", unplug: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := gpioTestConfig()
			bus := newMCPBus(0x20, 0x21)
			if tc.missing {
				bus = newMCPBus(0x20)
			}
			pin := &footPin{}
			clock := startScanClock(t, cfg.GPIO.Poll)
			deps := gpio.Deps{SPI: &spitest.Record{}, I2C: bus, Pedal: pin, Tick: clock.tick}
			if tc.unplug {
				deps.I2C = &droppingBus{mcpBus: bus, addr: 0x21, after: 5}
			}
			if tc.noPedal {
				cfg.Pedal.Pin, deps.Pedal = "", nil
			}
			target := &GPIOTarget{Config: cfg, Soak: tc.soak, Deps: deps}
			var only []string
			if tc.noPedal || tc.unplug { // the technician answers on the pedal: the lights would wait in vain
				only = []string{CompLink, CompPedal}
			}
			var progress strings.Builder
			rep := Run(context.Background(), Options{Target: target, Technician: &gpioTech{bus: bus, pedal: pin, cfg: cfg, clock: clock},
				Soak: tc.soak, Only: only, Progress: func(s string) { progress.WriteString(s + "\n") }})
			if tc.missing || tc.noPedal || tc.unplug {
				if rep.Passed {
					t.Fatal("passed")
				}
			} else if !rep.Passed {
				t.Fatalf("problems: %+v", rep.Problems)
			}
			var text strings.Builder
			if err := rep.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			all := text.String() + progress.String()
			if tc.unplug && !strings.Contains(all, "按鍵擴充晶片 0x21 沒有回應") {
				t.Errorf("the expander's going is not told:\n%s", all)
			}
			for _, l := range strings.Split(all, "\n") {
				for _, raw := range rawFakeErrors {
					l = strings.ReplaceAll(l, raw, "")
				}
				if en := hanstest.English(l, keyNames(hw.Keys())...); len(en) > 0 {
					t.Errorf("English %q in %q", en, l)
				}
			}
			if tr := hanstest.Traditional(hans.Simplified.Text(all)); tr != "" {
				t.Errorf("in hans, Traditional characters %q are left", tr)
			}
		})
	}
}

// droppingBus is a bus whose expander at addr stops answering after its
// first reads of the keys (the probe's and the driver's first scans): a
// cable pulled during the test.
type droppingBus struct {
	*mcpBus
	addr  uint16
	after int
}

func (d *droppingBus) Tx(addr uint16, w, r []byte) error {
	d.mu.Lock()
	gone := addr == d.addr && d.scans[addr] >= d.after
	d.mu.Unlock()
	if gone {
		return errors.New("i2c: no ACK")
	}
	return d.mcpBus.Tx(addr, w, r)
}

// TestTerminalOf: the self-test finds the terminal under the venue's
// script's writer (in hans the interactive virtual table fell back to
// plain lines: stdout was not an *os.File).
func TestTerminalOf(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "tty")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, sc := range []hans.Script{hans.Traditional, hans.Simplified} {
		if got := terminalOf(hans.NewWriter(f, sc)); got != f {
			t.Errorf("%s: terminalOf = %v, want the file", sc, got)
		}
	}
	if got := terminalOf(&strings.Builder{}); got != nil {
		t.Errorf("a builder: %v", got)
	}
}
