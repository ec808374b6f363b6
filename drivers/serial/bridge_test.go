package serial_test

// Acceptance tests: the driver against the emulated bridge, through a real
// pseudo-terminal.

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"wolftable/drivers/serial"
	"wolftable/firmware-bridge/emulator"
	"wolftable/firmware-bridge/protocol"
	"wolftable/hw"
)

var quiet = slog.New(slog.DiscardHandler)

func startEmulator(t testing.TB, cfg emulator.Config) *emulator.Emulator {
	t.Helper()
	if cfg.Link == "" {
		cfg.Link = filepath.Join(t.TempDir(), "bridge")
	}
	if cfg.Logger == nil {
		cfg.Logger = quiet
	}
	e, err := emulator.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func open(t testing.TB, cfg serial.Config) *serial.Table {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = quiet
	}
	tb, err := serial.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// setup is an emulated bridge and the driver on it, the link up.
func setup(t testing.TB, ecfg emulator.Config, dcfg serial.Config) (*emulator.Emulator, *serial.Table) {
	t.Helper()
	e := startEmulator(t, ecfg)
	dcfg.Port = e.Path()
	tb := open(t, dcfg)
	ev := next(t, tb, time.Second, "link up", func(ev hw.Event) bool { return ev.Kind == hw.EventLink })
	if !ev.Link.Up {
		t.Fatalf("first event: link %+v, want up", ev.Link)
	}
	return e, tb
}

// next returns the first event accepted by ok, failing the test after
// timeout.
func next(t testing.TB, tb *serial.Table, timeout time.Duration, what string, ok func(hw.Event) bool) hw.Event {
	t.Helper()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case ev, open := <-tb.Events():
			if !open {
				t.Fatalf("events closed while waiting for %s", what)
			}
			if ok(ev) {
				return ev
			}
		case <-timer.C:
			t.Fatalf("no %s within %v", what, timeout)
		}
	}
}

// keyEvents returns the key events delivered during d.
func keyEvents(tb *serial.Table, d time.Duration) []hw.KeyEvent {
	var got []hw.KeyEvent
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		select {
		case ev := <-tb.Events():
			if ev.Kind == hw.EventKey {
				got = append(got, ev.Key)
			}
		case <-timer.C:
			return got
		}
	}
}

func isKey(seat int, key hw.Key, edge hw.Edge) func(hw.Event) bool {
	return func(ev hw.Event) bool {
		return ev.Kind == hw.EventKey && ev.Key.Seat == seat && ev.Key.Key == key && ev.Key.Edge == edge
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A key pressed on seat 7 arrives once, as seat 7's key, even when the
// bridge resends it because the host's ack was lost.
func TestKeyArrivesOnce(t *testing.T) {
	var (
		hangOnce sync.Once
		em       *emulator.Emulator
		emReady  = make(chan struct{})
	)
	e, tb := setup(t, emulator.Config{
		// Lose the host's ack of the first KeyEvent: the firmware hangs just
		// after sending it, so the bridge will send it again.
		OnKeySent: func(ev protocol.KeyEvent, retransmit bool, at time.Time) {
			if ev.Seat == 7 && ev.Edge == protocol.EdgeDown {
				hangOnce.Do(func() { <-emReady; em.Hang(true) })
			}
		},
	}, serial.Config{Seats: 12})
	em = e
	close(emReady)

	pressed := time.Now()
	must(t, e.Press(7, protocol.KeyOK))
	ev := next(t, tb, time.Second, "seat 7 OK down", func(ev hw.Event) bool { return ev.Kind == hw.EventKey })
	if ev.Key.Seat != 7 || ev.Key.Key != hw.KeyOK || ev.Key.Edge != hw.Down {
		t.Fatalf("got %+v, want seat 7 OK down", ev.Key)
	}
	if ev.Key.At.Before(pressed) || ev.Key.At.After(time.Now()) {
		t.Errorf("event dated %v, pressed at %v, now %v", ev.Key.At, pressed, time.Now())
	}
	time.Sleep(50 * time.Millisecond) // the ack is lost in the hung firmware
	e.Hang(false)
	must(t, e.Release(7, protocol.KeyOK))
	rest := keyEvents(tb, 2*time.Second) // generous: under load the resend of the press comes late
	if len(rest) != 1 || rest[0].Seat != 7 || rest[0].Key != hw.KeyOK || rest[0].Edge != hw.Up {
		t.Errorf("after the press: %+v, want only seat 7 OK up", rest)
	}
	if s := e.Stats(); s.KeyRetransmits == 0 {
		t.Error("the bridge never resent the press: the test lost nothing")
	}
	if s := tb.Stats(); s.Duplicates == 0 {
		t.Errorf("driver dropped no duplicate: %+v", s)
	}
}

func TestLightsReachLEDs(t *testing.T) {
	e, tb := setup(t, emulator.Config{Seats: 8}, serial.Config{Seats: 8, Brightness: 200})
	lights := make([]hw.SeatLight, 8)
	lights[0] = hw.SeatLight{Color: hw.Green}
	lights[2] = hw.SeatLight{Color: hw.Red, Brightness: 255}
	lights[4] = hw.SeatLight{Color: hw.Blue, Brightness: 51}
	lights[7] = hw.SeatLight{Color: hw.Off, Brightness: 255}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	must(t, tb.SetLightsAcked(ctx, lights))
	want := []emulator.RGB{{G: 200}, {}, {R: 255}, {}, {B: 51}, {}, {}, {}}
	if got := e.Lights(); !equalRGB(got, want) {
		t.Errorf("LEDs %v, want %v", got, want)
	}

	lights[1] = hw.SeatLight{Color: hw.Green, Brightness: 255}
	must(t, tb.SetLights(lights))
	want[1] = emulator.RGB{G: 255}
	if err := e.WaitLights(ctx, func(got []emulator.RGB) bool { return equalRGB(got, want) }); err != nil {
		t.Errorf("LEDs %v, want %v", e.Lights(), want)
	}

	if err := tb.SetLights(lights[:7]); err == nil {
		t.Error("7 lights for 8 seats: no error")
	}
	if err := tb.SetLights(append(lights[:7:7], hw.SeatLight{Color: 9})); err == nil {
		t.Error("colour 9: no error")
	}
}

func equalRGB(a, b []emulator.RGB) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// noisyTaps taps a key on every seat in turn, n taps, while writing total
// random bytes (fixed seed) towards the host in chunks, one every gap, and
// returns the key events the driver delivered, the taps' events in order,
// and the number of other events.
func noisyTaps(t *testing.T, e *emulator.Emulator, tb *serial.Table, n, total, chunk int, gap time.Duration) (got, want []hw.KeyEvent) {
	t.Helper()
	type tap struct {
		seat int
		key  protocol.Key
	}
	var taps []tap
	for i := range n {
		taps = append(taps, tap{seat: 1 + i%12, key: protocol.Key(i % protocol.NumSeatKeys)})
		k, _ := hw.ParseKey(taps[i].key.String())
		want = append(want, hw.KeyEvent{Seat: taps[i].seat, Key: k, Edge: hw.Down}, hw.KeyEvent{Seat: taps[i].seat, Key: k, Edge: hw.Up})
	}

	var wg sync.WaitGroup
	wg.Add(2)
	errs := make(chan error, 2)
	go func() { // the noise
		defer wg.Done()
		rng := rand.New(rand.NewPCG(2026, 1))
		buf := make([]byte, chunk)
		for sent := 0; sent < total; sent += chunk {
			for i := range buf {
				buf[i] = byte(rng.Uint32())
			}
			if err := e.InjectHost(buf); err != nil {
				errs <- err
				return
			}
			time.Sleep(gap)
		}
	}()
	go func() { // the real keys, meanwhile
		defer wg.Done()
		for _, tp := range taps {
			if err := e.Tap(tp.seat, tp.key); err != nil {
				errs <- err
				return
			}
		}
	}()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	timer := time.NewTimer(time.Minute)
	defer timer.Stop()
	for collecting := true; collecting; {
		select {
		case ev := <-tb.Events():
			switch ev.Kind {
			case hw.EventKey:
				got = append(got, ev.Key)
			case hw.EventLink:
				// Noise that destroys a second's worth of heartbeats rightly
				// makes the driver reconnect; keys must survive that too.
				t.Logf("link event during the noise: %+v", ev.Link)
			case hw.EventPedal:
				t.Errorf("phantom pedal press %v", ev.Pedal)
			}
		case <-timer.C:
			collecting = false
		case <-done:
			done = nil
			timer.Reset(serial.KeyWait + 500*time.Millisecond) // the last retransmissions
		}
	}
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	s, es := tb.Stats(), e.Stats()
	t.Logf("driver decoder %+v; %d duplicates, %d held back, %d late, %d synthesized; bridge sent %d key events, %d retransmits; %d bytes injected, %d dropped",
		s.Decoder, s.Duplicates, s.HeldBack, s.Late, s.Synthesized, es.KeyEventsSent, es.KeyRetransmits, es.Injected, es.TxDropped)
	if es.Injected != uint64(total) {
		t.Errorf("injected %d bytes, want %d", es.Injected, total)
	}
	if es.TxDropped != 0 {
		t.Errorf("%d bytes never reached the host", es.TxDropped)
	}
	if s.Decoder.CRCErrors+s.Decoder.Malformed+s.Decoder.Overruns == 0 {
		t.Error("the decoder rejected nothing: was the noise on the line?")
	}
	return got, want
}

type keyID struct {
	seat int
	key  hw.Key
}

// checkKeys checks that got has exactly want's events, each key's in
// want's order (down, up, down, up…); it returns how many events are out
// of want's overall order.
func checkKeys(t *testing.T, got, want []hw.KeyEvent) (misplaced int) {
	t.Helper()
	perKey := func(evs []hw.KeyEvent) map[keyID][]hw.Edge {
		m := map[keyID][]hw.Edge{}
		for _, e := range evs {
			id := keyID{e.Seat, e.Key}
			m[id] = append(m[id], e.Edge)
		}
		return m
	}
	g, w := perKey(got), perKey(want)
	for id, edges := range w {
		if !slices.Equal(g[id], edges) {
			t.Errorf("seat %d %v: edges %v, want %v", id.seat, id.key, g[id], edges)
		}
	}
	for id, edges := range g {
		if _, ok := w[id]; !ok {
			t.Errorf("phantom: seat %d %v %v", id.seat, id.key, edges)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d key events, want %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if got[i].Seat != want[i].Seat || got[i].Key != want[i].Key || got[i].Edge != want[i].Edge {
			misplaced++
		}
	}
	return misplaced
}

// One MiB of random bytes on the line, between real key frames, makes no
// phantom key and loses no real one. The noise comes in 2 KiB bursts every
// 4 ms, so most of the bridge's frames are glued to noise and lost (the
// bridge resends them): far worse than any working line.
func TestGarbageOnTheLine(t *testing.T) {
	e, tb := setup(t, emulator.Config{}, serial.Config{Seats: 12})
	got, want := noisyTaps(t, e, tb, 40, 1<<20, 2048, 4*time.Millisecond)
	if n := checkKeys(t, got, want); n > 0 {
		// Order across keys is kept only while a lost KeyEvent gets through
		// within serial.GapWait; at this loss rate it may not. Each key's
		// own edges stay in order (checked above), an edge that did not get
		// through within serial.KeyWait being supplied by the driver.
		t.Logf("%d of %d events out of order across keys; %d edges supplied", n, len(want), tb.Stats().Synthesized)
	}
}

// Occasional noise bursts (1 MiB in 16 bursts of 64 KiB) lose a frame now
// and then; the events still come in the order the keys were pressed.
func TestNoiseKeepsOrder(t *testing.T) {
	e, tb := setup(t, emulator.Config{}, serial.Config{Seats: 12})
	got, want := noisyTaps(t, e, tb, 30, 1<<20, 64<<10, 150*time.Millisecond)
	if n := checkKeys(t, got, want); n > 0 {
		// Order is kept while a lost KeyEvent comes back within
		// serial.GapWait; on a loaded machine it may take longer, and the
		// driver counts it.
		if late := tb.Stats().Late; late == 0 {
			t.Errorf("%d of %d events out of order, none reported late", n, len(want))
		} else {
			t.Logf("%d of %d events out of order: %d frames came back later than GapWait", n, len(want), late)
		}
	}
	if n := tb.Stats().Synthesized; n != 0 {
		t.Errorf("%d key edges were lost for good and supplied", n)
	}
}

// Pulling the cable and plugging it back reconnects within 2 s and puts the
// lights back on the rebooted bridge.
func TestUnplugReplug(t *testing.T) {
	e, tb := setup(t, emulator.Config{}, serial.Config{Seats: 12})
	lights := make([]hw.SeatLight, 12)
	for i := range lights {
		lights[i] = hw.SeatLight{Color: hw.Green}
	}
	lights[3].Color = hw.Red
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	must(t, tb.SetLightsAcked(ctx, lights))
	must(t, e.Tap(5, protocol.Key5)) // press 1 of seat 5's 5 before the reboot
	next(t, tb, time.Second, "seat 5 key 5 up", isKey(5, hw.Key5, hw.Up))

	must(t, e.Unplug())
	down := next(t, tb, 2*time.Second, "link down", func(ev hw.Event) bool { return ev.Kind == hw.EventLink })
	if down.Link.Up {
		t.Fatalf("link event %+v, want down", down.Link)
	}
	time.Sleep(300 * time.Millisecond)
	must(t, e.Replug())
	replugged := time.Now()
	up := next(t, tb, 2*time.Second, "link up", func(ev hw.Event) bool { return ev.Kind == hw.EventLink })
	if !up.Link.Up {
		t.Fatalf("link event %+v, want up", up.Link)
	}
	wait, cancel2 := context.WithDeadline(context.Background(), replugged.Add(2*time.Second))
	defer cancel2()
	err := e.WaitLights(wait, func(got []emulator.RGB) bool {
		return got[3] == emulator.RGB{R: 255} && got[0] == emulator.RGB{G: 255}
	})
	if err != nil {
		t.Fatalf("lights not restored within 2 s of the replug: %v", e.Lights())
	}
	t.Logf("reconnected and lights restored %v after the replug", time.Since(replugged).Round(time.Millisecond))

	// The rebooted bridge counts presses from 1 again: a new press, not a
	// retransmission.
	must(t, e.Tap(5, protocol.Key5))
	next(t, tb, time.Second, "seat 5 key 5 down after the reboot", isKey(5, hw.Key5, hw.Down))
}

// Nothing from the bridge for a second: the driver reopens the port, and
// reconnects once the bridge answers again.
func TestMissedHeartbeats(t *testing.T) {
	e, tb := setup(t, emulator.Config{}, serial.Config{Seats: 12})
	e.Hang(true)
	hung := time.Now()
	down := next(t, tb, 2*time.Second, "link down", func(ev hw.Event) bool { return ev.Kind == hw.EventLink })
	if down.Link.Up || !strings.Contains(down.Link.Detail, "heartbeat") {
		t.Fatalf("link %+v, want down for missed heartbeats", down.Link)
	}
	if d := time.Since(hung); d < serial.SilenceTimeout || d > serial.SilenceTimeout+time.Second {
		t.Errorf("link down %v after the bridge fell silent, want about %v", d, serial.SilenceTimeout)
	}
	e.Hang(false)
	next(t, tb, 2*time.Second, "link up", func(ev hw.Event) bool { return ev.Kind == hw.EventLink && ev.Link.Up })
}

// A contact that bounces (10 transitions in 3 ms) on press and on release
// is one press.
func TestBouncyKeyIsOnePress(t *testing.T) {
	e, tb := setup(t, emulator.Config{}, serial.Config{Seats: 12})
	must(t, e.SetKeyFault(9, protocol.KeyHand, emulator.KeyBouncy))
	for range 3 {
		must(t, e.Tap(9, protocol.KeyHand))
	}
	got := keyEvents(tb, 300*time.Millisecond)
	if len(got) != 6 {
		t.Fatalf("three bouncy taps gave %d events, want 6: %+v", len(got), got)
	}
	for i, k := range got {
		edge := hw.Down
		if i%2 == 1 {
			edge = hw.Up
		}
		if k.Seat != 9 || k.Key != hw.KeyHand || k.Edge != edge {
			t.Errorf("event %d: %+v, want seat 9 HAND %v", i, k, edge)
		}
	}
}

// The pedal's gestures come out classified. The classification is checked
// against the edges' own timestamps: on a machine so loaded that the
// emulator's scan runs late, a gesture may not keep its timing, and is
// tried again.
func TestPedal(t *testing.T) {
	e, tb := setup(t, emulator.Config{}, serial.Config{Seats: 12, RawPedal: true})
	ctx := context.Background()
	for _, p := range []struct {
		gesture emulator.PedalPress
		want    hw.PedalPress
	}{{emulator.PedalShort, hw.PedalShort}, {emulator.PedalDouble, hw.PedalDouble}, {emulator.PedalLong, hw.PedalLong}} {
		for attempt := 1; ; attempt++ {
			must(t, e.Pedal(ctx, p.gesture))
			var edges []hw.KeyEvent
			ev := next(t, tb, 2*time.Second, "pedal "+p.want.String(), func(ev hw.Event) bool {
				if ev.Kind == hw.EventKey && ev.Key.Seat == 0 {
					edges = append(edges, ev.Key)
				}
				return ev.Kind == hw.EventPedal
			})
			// What the edges, as dated, make of it.
			c := hw.PedalClassifier{T: hw.DefaultPedalTiming()}
			implied, ok := hw.PedalPress(0), false
			for _, k := range edges {
				if implied, ok = c.Edge(k.Edge == hw.Down, k.At); ok {
					break
				}
			}
			if !ok && len(edges) > 0 {
				implied, ok = c.Poll(edges[len(edges)-1].At.Add(time.Hour))
			}
			if !ok || ev.Pedal != implied {
				t.Errorf("%v gesture: driver says %v, its edges %v say %v (%v)", p.gesture, ev.Pedal, edges, implied, ok)
				break
			}
			if ev.Pedal == p.want {
				break
			}
			if attempt == 3 {
				t.Errorf("%v gesture came out %v three times (the machine may be too loaded for real time)", p.gesture, ev.Pedal)
				break
			}
			t.Logf("%v gesture came out %v: its timing was lost (loaded machine?); again", p.gesture, ev.Pedal)
			time.Sleep(hw.DefaultPedalTiming().Double) // let a pending short press out
			keyEvents(tb, 100*time.Millisecond)
		}
	}
}

func TestSeatMismatch(t *testing.T) {
	e := startEmulator(t, emulator.Config{Seats: 12})
	_, err := serial.Open(context.Background(), serial.Config{Port: e.Path(), Seats: 10, Logger: quiet})
	var he *serial.HandshakeError
	if !errors.As(err, &he) || !strings.Contains(err.Error(), "12 seats") {
		t.Fatalf("Open 10 seats on a 12-seat bridge: %v, want a HandshakeError", err)
	}
}

func TestNoBridge(t *testing.T) {
	start := time.Now()
	_, err := serial.Open(context.Background(), serial.Config{
		Port: filepath.Join(t.TempDir(), "nothing"), Seats: 12, WaitLink: 600 * time.Millisecond, Logger: quiet,
	})
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open on a missing port: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Open took %v", d)
	}
}

// Open never sets 1200 baud, which reboots the RP2040 into its bootloader.
func TestNever1200Baud(t *testing.T) {
	e := startEmulator(t, emulator.Config{})
	_, err := serial.Open(context.Background(), serial.Config{Port: e.Path(), Baud: 1200, Logger: quiet})
	var ce *serial.ConfigError
	if !errors.As(err, &ce) {
		t.Errorf("Baud 1200: %v, want a ConfigError", err)
	}
	_, err = serial.Probe(context.Background(), serial.Config{Port: e.Path(), Baud: 1200, Logger: quiet})
	if !errors.As(err, &ce) {
		t.Errorf("Probe at 1200: %v, want a ConfigError", err)
	}
	time.Sleep(30 * time.Millisecond)
	if s := e.Stats(); s.BootloaderTouches != 0 || !s.Plugged {
		t.Errorf("bridge touched: %+v", s)
	}
}

func TestProbe(t *testing.T) {
	e := startEmulator(t, emulator.Config{Seats: 16, PrivateLEDs: true})
	info, err := serial.Probe(context.Background(), serial.Config{Port: e.Path(), Logger: quiet})
	must(t, err)
	// The emulator runs this module's firmware: protocol version 2, with
	// its reset reason (a power-on, as a plug-in is).
	if info.Seats != 16 || info.Protocol != protocol.LatestVersion || info.Firmware != emulator.DefaultFirmware ||
		strings.Join(info.Capabilities(), ",") != "private-led,pedal" || info.Port != e.Path() || info.LastReset != protocol.ResetPowerOn {
		t.Errorf("Probe = %+v", info)
	}
}

func TestCloseTurnsLightsOff(t *testing.T) {
	e := startEmulator(t, emulator.Config{Seats: 6})
	tb, err := serial.Open(context.Background(), serial.Config{Port: e.Path(), Logger: quiet})
	must(t, err)
	if tb.Seats() != 6 {
		t.Errorf("Seats() = %d, want the bridge's 6", tb.Seats())
	}
	lights := make([]hw.SeatLight, 6)
	for i := range lights {
		lights[i].Color = hw.Blue
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	must(t, tb.SetLightsAcked(ctx, lights))
	must(t, tb.Close())
	if got := e.Lights(); !equalRGB(got, make([]emulator.RGB, 6)) {
		t.Errorf("after Close the LEDs show %v", got)
	}
	if err := tb.SetLights(lights); !errors.Is(err, serial.ErrClosed) {
		t.Errorf("SetLights after Close: %v", err)
	}
	if _, open := <-tb.Events(); open {
		// drain: the channel must end
		for range tb.Events() {
		}
	}
}

// With a negative WaitLink, Open returns at once and the table comes up
// when the bridge appears.
func TestBackgroundConnect(t *testing.T) {
	link := filepath.Join(t.TempDir(), "bridge")
	tb := open(t, serial.Config{Port: link, Seats: 12, WaitLink: -1})
	down := next(t, tb, time.Second, "link down", func(ev hw.Event) bool { return ev.Kind == hw.EventLink })
	if down.Link.Up {
		t.Fatalf("first event %+v, want down", down.Link)
	}
	lights := make([]hw.SeatLight, 12)
	lights[11].Color = hw.Red
	must(t, tb.SetLights(lights)) // before the bridge is there
	e := startEmulator(t, emulator.Config{Link: link})
	next(t, tb, 2*time.Second, "link up", func(ev hw.Event) bool { return ev.Kind == hw.EventLink && ev.Link.Up })
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	must(t, e.WaitLights(ctx, func(got []emulator.RGB) bool { return got[11] == emulator.RGB{R: 255} }))
}
