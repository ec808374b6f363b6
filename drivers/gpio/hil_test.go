//go:build hil

// The HIL tests: the driver as the Pi runs it (Open with no Deps: host.Init,
// gpioreg, i2creg, spireg, periph's gpioioctl, i2c-dev and spidev drivers)
// against a real Linux kernel whose GPIO line, I2C bus and SPI port are the
// simulated table of scripts/hil/kmod (see internal/hilsim). They run in the
// HIL VM:
//
//	GOARCH=arm64 go test -tags hil -exec "$PWD/scripts/hil/exec" ./drivers/gpio
//
// (make hil) and skip anywhere else. Every wait is bounded by the driver's
// progress (its polls), not by the clock: a slow VM only takes longer.
package gpio

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"wolftable/hw"
	"wolftable/internal/hilsim"
)

// hilPedal is the simulated pedal's line.
const hilPedal = "GPIO17"

// hilAddrs are the VM's expanders.
var hilAddrs = []uint16{0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27}

// hilKey is one key of the full table: where it is wired.
type hilKey struct {
	addr uint16
	pin  hw.ExpanderPin
	seat int
	key  hw.Key
}

// hilKeys are the full table's keys: 18 seats, 7 keys each, on the 8
// expanders in seat order (126 of their 128 pins). Seat s has the 7 keys
// from the s-th of hw.Keys() on, so every kind of key is wired somewhere.
func hilKeys() []hilKey {
	all := hw.Keys()
	var ks []hilKey
	for seat := 1; seat <= hw.MaxSeats; seat++ {
		for j := range 7 {
			g := len(ks)
			ks = append(ks, hilKey{addr: hilAddrs[g/16], pin: hw.ExpanderPin(g % 16), seat: seat, key: all[(seat+j)%len(all)]})
		}
	}
	return ks
}

// hilConfigText is the full table's config file, as a venue writes it:
// the Pi's names for the port, the bus and the pedal's pin.
func hilConfigText(extra string) string {
	var b strings.Builder
	b.WriteString("[table]\nseats = 18\nmode = \"gpio\"\n")
	// Wide pedal windows: the driver dates a sample by its poll's tick, which
	// a starved VM takes late; a 150 ms tap must not look long, nor a 150 ms
	// gap end a double press.
	b.WriteString("[pedal]\npin = \"GPIO17\"\npull = \"up\"\nactive = \"low\"\nlong = \"1200ms\"\ndouble = \"800ms\"\n")
	b.WriteString("[gpio]\nspi = \"SPI0.0\"\ni2c = \"0\"\nprivate_led = true\n")
	b.WriteString(extra)
	byAddr := map[uint16][]string{}
	for _, k := range hilKeys() {
		byAddr[k.addr] = append(byAddr[k.addr], fmt.Sprintf("%v = \"%d %v\"", k.pin, k.seat, k.key))
	}
	for _, a := range hilAddrs {
		fmt.Fprintf(&b, "[[gpio.expanders]]\naddress = %#x\nkeys = { %s }\n", a, strings.Join(byAddr[a], ", "))
	}
	return b.String()
}

func hilConfig(t *testing.T, extra string) *hw.Config {
	t.Helper()
	cfg, err := hw.ParseConfig([]byte(hilConfigText(extra)))
	if err != nil {
		t.Fatalf("config: %v\n%s", err, hilConfigText(extra))
	}
	return cfg
}

// hilRig is the table opened on the simulated hardware, and the events it
// reported.
type hilRig struct {
	t    *testing.T
	sim  *hilsim.Sim
	cfg  *hw.Config
	tb   *Table
	evs  []hw.Event // every event so far
	seen int        // evs[:seen] have been looked at
}

// hilSim is the simulated table, powered on afresh; the test skips outside
// the VM.
func hilSim(t *testing.T) *hilsim.Sim {
	t.Helper()
	if !hilsim.In() {
		t.Skip("not in the HIL VM: make hil (scripts/hil/exec) runs it")
	}
	sim := hilsim.New()
	if err := sim.Reset(); err != nil {
		t.Fatal(err)
	}
	return sim
}

// openHIL opens the table as the daemon does: gpio.Open(cfg, Deps{}).
func openHIL(t *testing.T, sim *hilsim.Sim, cfg *hw.Config) *hilRig {
	t.Helper()
	tb, err := Open(cfg, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	r := &hilRig{t: t, sim: sim, cfg: cfg, tb: tb}
	t.Cleanup(func() { r.close() })
	r.until("the link-up event", 50, func() bool { return len(r.evs) > 0 })
	if ev := r.evs[0]; ev.Kind != hw.EventLink || !ev.Link.Up {
		t.Fatalf("first event: %+v, want link up", ev)
	}
	r.seen = 1
	return r
}

func (r *hilRig) close() {
	if r.tb == nil {
		return
	}
	if err := r.tb.Close(); err != nil {
		r.t.Errorf("Close: %v", err)
	}
	r.tb = nil
}

// drain takes the events the table has sent so far.
func (r *hilRig) drain() {
	for {
		select {
		case ev, ok := <-r.tb.Events():
			if !ok {
				return
			}
			r.evs = append(r.evs, ev)
		default:
			return
		}
	}
}

// polls is the driver's progress: how often it has read the pedal's line
// (once per poll).
func (r *hilRig) polls() (uint64, error) {
	l, err := r.sim.Line(hilPedal)
	return l.Reads, err
}

// until waits, taking events, until cond holds; it fails the test if the
// driver polled budget times without it.
func (r *hilRig) until(what string, budget uint64, cond func() bool) {
	r.t.Helper()
	err := hilsim.Progress(context.Background(), r.polls, budget, 10*time.Second, func() (bool, error) {
		r.drain()
		return cond(), nil
	})
	if err != nil {
		r.t.Fatalf("%s: %v; events: %s", what, err, eventList(r.evs[r.seen:]))
	}
}

// settle waits for n more polls, taking the events they bring.
func (r *hilRig) settle(n uint64) {
	r.t.Helper()
	start, err := r.polls()
	if err != nil {
		r.t.Fatal(err)
	}
	r.until(fmt.Sprintf("%d polls", n), n+10, func() bool {
		now, err := r.polls()
		return err == nil && now >= start+n
	})
}

// scriptsDone waits until every expander has played its script, then two
// more polls: the events of the last step have been sent.
func (r *hilRig) scriptsDone() {
	r.t.Helper()
	r.until("the key scripts", 1000, func() bool {
		xs, err := r.sim.Expanders()
		if err != nil {
			r.t.Fatal(err)
		}
		for _, x := range xs {
			if x.Step < x.Steps {
				return false
			}
		}
		return true
	})
	r.settle(2)
}

// pedalDone waits until the pedal's script has played, then n more polls.
func (r *hilRig) pedalDone(n uint64) {
	r.t.Helper()
	r.until("the pedal script", 2000, func() bool {
		l, err := r.sim.Line(hilPedal)
		return err == nil && l.Step == l.Steps
	})
	r.settle(n)
}

// diag is the simulated hardware's state, for a failure's message.
func (r *hilRig) diag() string {
	var b strings.Builder
	xs, err := r.sim.Expanders()
	for _, x := range xs {
		fmt.Fprintf(&b, "\n  expander %#x: gppu %04x closed %04x nak %v polls %d step %d/%d", x.Addr, x.GPPU, x.Closed, x.NAK, x.Polls, x.Step, x.Steps)
	}
	l, err2 := r.sim.Line(hilPedal)
	fmt.Fprintf(&b, "\n  pedal: %+v", l)
	if err := errors.Join(err, err2); err != nil {
		fmt.Fprintf(&b, "\n  %v", err)
	}
	return b.String()
}

// take returns the events not looked at yet.
func (r *hilRig) take() []hw.Event {
	r.drain()
	evs := r.evs[r.seen:]
	r.seen = len(r.evs)
	return evs
}

func eventList(evs []hw.Event) string {
	if len(evs) == 0 {
		return "none"
	}
	var s []string
	for _, ev := range evs {
		switch ev.Kind {
		case hw.EventKey:
			s = append(s, fmt.Sprintf("seat %d %v %v", ev.Key.Seat, ev.Key.Key, ev.Key.Edge))
		case hw.EventPedal:
			s = append(s, "pedal "+ev.Pedal.String())
		case hw.EventLink:
			s = append(s, fmt.Sprintf("link up=%v %s", ev.Link.Up, ev.Link.Detail))
		default:
			s = append(s, fmt.Sprintf("%+v", ev))
		}
	}
	return strings.Join(s, "; ")
}
