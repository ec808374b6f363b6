// Package hilsim is the simulated table of the HIL VM (scripts/hil): the
// outside world of the Pi's drivers when they run on a real Linux kernel. It
// drives and reads three kernel modules of scripts/hil/kmod through sysfs:
//
//   - hil-i2c: bus i2c-0 with MCP23017 models (0x20–0x27); the seats' keys
//     are contacts to ground on their pins. Script closes and opens them,
//     one step per poll of the expander (a read of GPIOA/GPIOB), so a test
//     says "closed for 4 polls" and means it however slow the machine is.
//     SetNAK makes an expander stop answering.
//   - hil-gpio: a GPIO chip whose line GPIO17 is the pedal's switch; Drive
//     closes it to ground ("0") or opens it ("z"), one step per read of the
//     line. Its bias is what the driver asked for (pull-down at power-on, as
//     on a Pi).
//   - hil-spi: spidev0.0 on a controller that keeps its last transfer, which
//     DecodeWS2812 reads back as the LEDs' colours.
//
// In says whether the process runs in the VM. The tests behind the hil
// build tag skip outside it.
package hilsim

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// In reports whether this process runs in the HIL VM (its init sets HIL=1).
func In() bool { return os.Getenv("HIL") == "1" }

// The modules' sysfs directories.
const (
	i2cDir  = "sys/bus/i2c/devices/i2c-0"
	gpioDir = "sys/devices/platform/hil-gpio"
	spiDir  = "sys/class/spi_master/spi0"
)

// Sim is the simulated table.
type Sim struct {
	root string // "/" in the VM
}

// New returns the VM's simulated table.
func New() *Sim { return &Sim{root: "/"} }

func (s *Sim) path(dir, file string) string { return filepath.Join(s.root, dir, file) }

func (s *Sim) write(dir, file, text string) error {
	p := s.path(dir, file)
	if err := os.WriteFile(p, []byte(text), 0); err != nil {
		return fmt.Errorf("hilsim: writing %q to %s: %w", strings.TrimSpace(text), p, err)
	}
	return nil
}

func (s *Sim) read(dir, file string) (string, error) {
	b, err := os.ReadFile(s.path(dir, file))
	if err != nil {
		return "", fmt.Errorf("hilsim: %w", err)
	}
	return string(b), nil
}

// Reset powers the table off and on: expanders at their power-on registers
// with every contact open, the pedal's line at its power-on state (input,
// pull-down, switch open), the SPI port's record cleared.
func (s *Sim) Reset() error {
	return errors.Join(s.write(i2cDir, "hil_reset", "1"), s.write(gpioDir, "reset", "1"), s.write(spiDir, "hil_reset", "1"))
}

// Step is one step of an expander's contacts: the closed contacts (bit 0 =
// GPA0 … bit 15 = GPB7) for Polls polls, and at least Min from the first of
// them (the model's clock, to the millisecond); Polls 0 holds for good.
//
// A step long enough to count is given in both: its polls let the driver
// sample it, its time lets the debounce pass however fast the polls come.
// A step meant to be short (a bounce, a double press's gap) is given in few
// polls: a slow machine then stretches it by whole polls only.
type Step struct {
	Closed uint16
	Polls  int
	Min    time.Duration
}

// Script is the steps of one expander's contacts.
type Script struct {
	Addr  uint16
	Steps []Step
}

func (sc Script) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%#x", sc.Addr)
	for _, st := range sc.Steps {
		fmt.Fprintf(&b, " %04x%s", st.Closed, counts(st.Polls, st.Min))
	}
	return b.String()
}

// counts is a step's ":N[:MS]".
func counts(n int, min time.Duration) string {
	switch {
	case n <= 0:
		return ""
	case min > 0:
		return fmt.Sprintf(":%d:%d", n, min.Milliseconds())
	}
	return fmt.Sprintf(":%d", n)
}

// Keys arms the scripts together: each starts at its expander's next poll.
func (s *Sim) Keys(scripts ...Script) error {
	lines := make([]string, len(scripts))
	for i, sc := range scripts {
		lines[i] = sc.String()
	}
	return s.write(i2cDir, "hil_keys", strings.Join(lines, "\n")+"\n")
}

// SetNAK makes the expander at addr stop answering (nak) or answer again.
func (s *Sim) SetNAK(addr uint16, nak bool) error {
	v := 0
	if nak {
		v = 1
	}
	return s.write(i2cDir, "hil_nak", fmt.Sprintf("%#x %d\n", addr, v))
}

// Expanders returns every expander's state.
func (s *Sim) Expanders() ([]Expander, error) {
	text, err := s.read(i2cDir, "hil_state")
	if err != nil {
		return nil, err
	}
	return ParseExpanders(text)
}

// Expander returns the state of the expander at addr.
func (s *Sim) Expander(addr uint16) (Expander, error) {
	xs, err := s.Expanders()
	if err != nil {
		return Expander{}, err
	}
	for _, x := range xs {
		if x.Addr == addr {
			return x, nil
		}
	}
	return Expander{}, fmt.Errorf("hilsim: no expander at %#x", addr)
}

// Drive scripts the outside of line offset: each step's level ("0": the
// switch closed to ground, "1": to 3.3 V, "z": open) for Reads reads of the
// line and at least Min from the first (as Step); Reads 0 holds.
func (s *Sim) Drive(offset int, steps ...Drive) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d", offset)
	for _, st := range steps {
		fmt.Fprintf(&b, " %s%s", st.Level, counts(st.Reads, st.Min))
	}
	return s.write(gpioDir, "drive", b.String()+"\n")
}

// Drive is one step of a line's outside level.
type Drive struct {
	Level string // "0", "1" or "z"
	Reads int
	Min   time.Duration
}

// Line returns the state of the line named name.
func (s *Sim) Line(name string) (Line, error) {
	text, err := s.read(gpioDir, "state")
	if err != nil {
		return Line{}, err
	}
	ls, err := ParseLines(text)
	if err != nil {
		return Line{}, err
	}
	for _, l := range ls {
		if l.Name == name {
			return l, nil
		}
	}
	return Line{}, fmt.Errorf("hilsim: no line named %q", name)
}

// LastTransfer returns the SPI port's last transfer.
func (s *Sim) LastTransfer() (Transfer, error) {
	text, err := s.read(spiDir, "hil_last")
	if err != nil {
		return Transfer{}, err
	}
	return ParseTransfer(text)
}

// Progress waits until cond holds, polling every few milliseconds. It gives
// up when the table stops making progress: when progress (a counter the
// simulated hardware keeps, such as an expander's polls) has grown by more
// than budget since the start without cond, or has not moved at all for
// stall. A slow machine only makes it wait longer.
func Progress(ctx context.Context, progress func() (uint64, error), budget uint64, stall time.Duration, cond func() (bool, error)) error {
	start, err := progress()
	if err != nil {
		return err
	}
	last, lastAt := start, time.Now()
	for {
		ok, err := cond()
		if err != nil || ok {
			return err
		}
		n, err := progress()
		if err != nil {
			return err
		}
		switch {
		case n-start > budget:
			return fmt.Errorf("hilsim: not after %d polls", n-start)
		case n != last:
			last, lastAt = n, time.Now()
		case time.Since(lastAt) > stall:
			return fmt.Errorf("hilsim: the driver stopped polling (%d polls, none for %v)", n-start, stall)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
}
