package serial_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creack/pty"

	"wolftable/drivers/serial"
	"wolftable/firmware-bridge/emulator"
	"wolftable/firmware-bridge/protocol"
	"wolftable/hw"
)

// v1Bridge is a bridge whose firmware predates protocol version 2, on the
// far end of a pseudo-terminal: it answers version 1 frames as the old
// firmware did and drops version 2 ones, as its Decoder would (foreign).
type v1Bridge struct {
	master  *os.File
	foreign atomic.Int32 // version 2 frames dropped
	seq     uint8
}

func startV1Bridge(t *testing.T) (*v1Bridge, string) {
	t.Helper()
	master, tty, err := pty.Open()
	must(t, err)
	t.Cleanup(func() { master.Close(); tty.Close() })
	b := &v1Bridge{master: master}
	go b.serve()
	return b, tty.Name()
}

func (b *v1Bridge) send(m protocol.Message) {
	b.master.Write(protocol.Encode(m, b.seq))
	b.seq++
}

func (b *v1Bridge) serve() {
	var d protocol.Decoder
	buf := make([]byte, 4096)
	for {
		n, err := b.master.Read(buf)
		if err != nil {
			return
		}
		for p := buf[:n]; len(p) > 0; {
			k, f, err := d.Feed(p)
			p = p[k:]
			if err != nil || f.Type == 0 {
				continue
			}
			if f.Version != protocol.ProtocolVersion {
				b.foreign.Add(1)
				continue
			}
			m, _ := f.Message()
			switch m := m.(type) {
			case *protocol.HostHello:
				b.send(&protocol.Hello{Firmware: protocol.Version{Minor: 2}, Protocol: 1, Seats: m.Seats, KeysPerSeat: 17, Caps: protocol.CapPedal})
			case *protocol.Ping:
				b.send(&protocol.Pong{Nonce: m.Nonce})
			case *protocol.StatsRequest:
				b.send(&protocol.Stats{UptimeMillis: 60_000})
			case *protocol.Lights:
				b.send(&protocol.Ack{Seq: f.Seq})
			}
		}
	}
}

// TestVersion1Bridge: a bridge of the old firmware (protocol version 1
// only) links up with this host as before: the Hello and the 20-byte Stats
// of version 1, lights acked; the version 2 HostHello it drops.
func TestVersion1Bridge(t *testing.T) {
	b, path := startV1Bridge(t)
	tb := open(t, serial.Config{Port: path, Seats: 12})
	ev := next(t, tb, 5*time.Second, "link up", func(ev hw.Event) bool { return ev.Kind == hw.EventLink })
	if !ev.Link.Up {
		t.Fatalf("link %+v", ev.Link)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	must(t, tb.SetLightsAcked(ctx, make([]hw.SeatLight, 12)))
	for deadline := time.Now().Add(5 * time.Second); tb.Stats().Bridge.UptimeMillis == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no Stats from the version 1 bridge")
		}
	}
	if info := tb.Info(); info.Protocol != 1 || info.LastReset != protocol.ResetUnknown {
		t.Errorf("Info %+v, want protocol 1, reset unknown", info)
	}
	if b.foreign.Load() == 0 {
		t.Error("the host sent no version 2 HostHello")
	}
}

// TestKeysPerSeat (L6): a bridge whose panels have 16 keys (two 74HC165s,
// no BOOM) does not fit a table configured for 17: the technician is told
// in Chinese what to change; configured for 16 it links up.
func TestKeysPerSeat(t *testing.T) {
	e := startEmulator(t, emulator.Config{BitsPerSeat: 16})
	_, err := serial.Open(context.Background(), serial.Config{Port: e.Path(), Seats: 12, KeysPerSeat: 17, Logger: quiet})
	var he *serial.HandshakeError
	if !errors.As(err, &he) || !strings.Contains(he.Reason, "自爆鍵") || !strings.Contains(he.Reason, "keys_per_seat") ||
		!strings.Contains(he.Reason, "REGISTERS=3") || !strings.Contains(he.Reason, "16 keys per seat") {
		t.Fatalf("17 keys wanted of a 16-key bridge: %v", err)
	}
	t.Logf("%v", err)
	_, err = serial.Probe(context.Background(), serial.Config{Port: e.Path(), KeysPerSeat: 12, Logger: quiet})
	if !errors.As(err, &he) || !strings.Contains(he.Reason, "每座有 16 個鍵") {
		t.Errorf("12 keys wanted: %v", err)
	}
	tb := open(t, serial.Config{Port: e.Path(), Seats: 12, KeysPerSeat: 16})
	if info := tb.Info(); info.KeysPerSeat != 16 {
		t.Errorf("Info %+v", info)
	}
	if got := serial.ConfigFromHW(hw.DefaultConfig()).KeysPerSeat; got != 17 {
		t.Errorf("ConfigFromHW of the defaults: %d keys per seat, want 17", got)
	}
}

// TestKeyQueuedDuringOutage (M4): keys pressed while no host has the port
// open (the service restarting) reach the next session dated when they
// were pressed, not when the host came back.
func TestKeyQueuedDuringOutage(t *testing.T) {
	e := startEmulator(t, emulator.Config{})
	first := open(t, serial.Config{Port: e.Path(), Seats: 12})
	next(t, first, 5*time.Second, "link up", func(ev hw.Event) bool { return ev.Kind == hw.EventLink && ev.Link.Up })
	must(t, first.Close())

	var pressed []time.Time
	for _, seat := range []int{2, 5, 9} {
		pressed = append(pressed, time.Now())
		must(t, e.Tap(seat, protocol.KeyHand))
	}
	time.Sleep(1500 * time.Millisecond) // the host is away
	reconnect := time.Now()

	tb := open(t, serial.Config{Port: e.Path(), Seats: 12})
	for i, seat := range []int{2, 5, 9} {
		ev := next(t, tb, 5*time.Second, "the press made while the host was away", isKey(seat, hw.KeyHand, hw.Down))
		// The bridge's clock maps to the host's within a few ms; a press
		// dated at its arrival would be 1.5 s late.
		if late := ev.Key.At.Sub(pressed[i]); late < -50*time.Millisecond || late > emulator.TapHold+200*time.Millisecond {
			t.Errorf("seat %d pressed at %v, dated %v (the host came back at %v)", seat,
				pressed[i].Format("15:04:05.000"), ev.Key.At.Format("15:04:05.000"), reconnect.Format("15:04:05.000"))
		}
	}
}

// TestWatchdogResetReported (L10): a bridge that restarted on its watchdog
// says so, and the driver passes it on.
func TestWatchdogResetReported(t *testing.T) {
	e := startEmulator(t, emulator.Config{ResetReason: protocol.ResetWatchdog})
	info, err := serial.Probe(context.Background(), serial.Config{Port: e.Path(), Logger: quiet})
	must(t, err)
	if info.LastReset != protocol.ResetWatchdog {
		t.Errorf("Probe: LastReset %v, want watchdog", info.LastReset)
	}
	tb := open(t, serial.Config{Port: e.Path(), Seats: 12})
	for deadline := time.Now().Add(5 * time.Second); tb.Info().LastReset != protocol.ResetWatchdog; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("Info %+v, Stats %+v: no watchdog reset", tb.Info(), tb.Stats().Bridge)
		}
	}
}
