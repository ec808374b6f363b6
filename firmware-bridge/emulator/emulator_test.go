package emulator_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"wolftable/firmware-bridge/emulator"
	"wolftable/firmware-bridge/protocol"
)

// host is a bare-bones host on the slave side of the emulator's
// pseudo-terminal, speaking the protocol by hand.
type host struct {
	t   *testing.T
	f   *os.File
	dec protocol.Decoder
	seq uint8
	buf []byte
}

// rx is a frame the host received.
type rx struct {
	seq uint8
	msg protocol.Message
}

func start(t *testing.T, cfg emulator.Config) *emulator.Emulator {
	t.Helper()
	if cfg.Link == "" {
		cfg.Link = filepath.Join(t.TempDir(), "bridge")
	}
	cfg.Logger = slog.New(slog.DiscardHandler)
	e, err := emulator.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func dial(t *testing.T, path string) *host {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	h := &host{t: t, f: f}
	// Drop what the bridge wrote before we came (its heartbeats).
	if err := unix.IoctlSetInt(int(h.fd()), unix.TCFLSH, unix.TCIFLUSH); err != nil {
		t.Fatal(err)
	}
	h.raw([]byte{0})
	return h
}

func (h *host) fd() uintptr {
	var fd uintptr
	c, err := h.f.SyscallConn()
	if err != nil {
		h.t.Fatal(err)
	}
	c.Control(func(f uintptr) { fd = f })
	return fd
}

func (h *host) raw(p []byte) {
	h.t.Helper()
	if _, err := h.f.Write(p); err != nil {
		h.t.Fatal(err)
	}
}

func (h *host) send(m protocol.Message) uint8 {
	h.t.Helper()
	seq := h.seq
	h.seq++
	h.raw(protocol.Encode(m, seq))
	return seq
}

// next returns the next frame the bridge sends, or ok false after timeout.
func (h *host) next(timeout time.Duration) (rx, bool, error) {
	deadline := time.Now().Add(timeout)
	for {
		for len(h.buf) > 0 {
			n, f, err := h.dec.Feed(h.buf)
			h.buf = h.buf[n:]
			if err == nil && f.Type != 0 {
				m, err := f.Message()
				if err != nil {
					return rx{}, false, err
				}
				return rx{f.Seq, m}, true, nil
			}
		}
		h.f.SetReadDeadline(deadline)
		var b [512]byte
		n, err := h.f.Read(b[:])
		h.buf = append(h.buf, b[:n]...)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return rx{}, false, nil
		}
		if err != nil {
			return rx{}, false, err
		}
	}
}

// expect returns the first frame accepted by ok, answering the bridge's
// pings on the way, or fails the test after timeout.
func (h *host) expect(what string, timeout time.Duration, ok func(rx) bool) rx {
	h.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		r, got, err := h.next(time.Until(deadline))
		if err != nil {
			h.t.Fatalf("waiting for %s: %v", what, err)
		}
		if !got {
			h.t.Fatalf("no %s within %v", what, timeout)
		}
		if p, isPing := r.msg.(*protocol.Ping); isPing {
			h.send(&protocol.Pong{Nonce: p.Nonce})
		}
		if ok(r) {
			return r
		}
	}
}

// keyEvents collects the KeyEvents the bridge sends during d, acking each
// and dropping retransmissions of those already seen.
func (h *host) keyEvents(d time.Duration) []protocol.KeyEvent {
	h.t.Helper()
	var evs []protocol.KeyEvent
	seen := map[protocol.KeyEvent]bool{}
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		r, got, err := h.next(time.Until(deadline))
		if err != nil {
			h.t.Fatal(err)
		}
		if !got {
			break
		}
		switch m := r.msg.(type) {
		case *protocol.KeyEvent:
			if !seen[*m] {
				seen[*m] = true
				evs = append(evs, *m)
			}
			h.send(&protocol.Ack{Seq: r.seq})
		case *protocol.Ping:
			h.send(&protocol.Pong{Nonce: m.Nonce})
		}
	}
	return evs
}

func (h *host) hello() *protocol.Hello {
	h.t.Helper()
	h.send(&protocol.HostHello{Protocol: protocol.ProtocolVersion, Seats: 12, Software: "emulator_test"})
	r := h.expect("Hello", time.Second, func(r rx) bool { _, ok := r.msg.(*protocol.Hello); return ok })
	return r.msg.(*protocol.Hello)
}

func isKey(seat uint8, key protocol.Key, edge protocol.Edge) func(rx) bool {
	return func(r rx) bool {
		ke, ok := r.msg.(*protocol.KeyEvent)
		return ok && ke.Seat == seat && ke.Key == key && ke.Edge == edge
	}
}

func TestHello(t *testing.T) {
	e := start(t, emulator.Config{Seats: 14, PrivateLEDs: true, Firmware: protocol.Version{Major: 2, Minor: 3, Patch: 4}})
	if target, err := os.Readlink(e.Path()); err != nil || target != e.TTY() {
		t.Fatalf("link %s -> %q, %v; want -> %s", e.Path(), target, err, e.TTY())
	}
	h := dial(t, e.Path())
	got := h.hello()
	want := protocol.Hello{
		Firmware: protocol.Version{Major: 2, Minor: 3, Patch: 4}, Protocol: protocol.ProtocolVersion,
		Seats: 14, KeysPerSeat: uint8(protocol.NumSeatKeys), Caps: protocol.CapPedal | protocol.CapPrivateLED,
	}
	if *got != want {
		t.Errorf("Hello = %+v, want %+v", *got, want)
	}
}

func TestKeyRetransmittedUntilAcked(t *testing.T) {
	e := start(t, emulator.Config{})
	h := dial(t, e.Path())
	h.hello()
	if err := e.Press(7, protocol.KeyOK); err != nil {
		t.Fatal(err)
	}
	first := h.expect("seat 7 OK down", time.Second, isKey(7, protocol.KeyOK, protocol.EdgeDown))
	again := h.expect("its retransmission", time.Second, isKey(7, protocol.KeyOK, protocol.EdgeDown))
	if again.seq != first.seq || *again.msg.(*protocol.KeyEvent) != *first.msg.(*protocol.KeyEvent) {
		t.Errorf("retransmission %d %+v differs from the first %d %+v", again.seq, again.msg, first.seq, first.msg)
	}
	if c := first.msg.(*protocol.KeyEvent).Counter; c != 1 {
		t.Errorf("counter %d, want 1", c)
	}
	h.send(&protocol.Ack{Seq: first.seq})
	if err := e.Release(7, protocol.KeyOK); err != nil {
		t.Fatal(err)
	}
	evs := h.keyEvents(400 * time.Millisecond)
	want := protocol.KeyEvent{Seat: 7, Key: protocol.KeyOK, Edge: protocol.EdgeUp, Counter: 1}
	if len(evs) != 1 || evs[0].Seat != want.Seat || evs[0].Key != want.Key || evs[0].Edge != want.Edge || evs[0].Counter != 1 {
		t.Errorf("after the ack got %+v, want just %+v", evs, want)
	}
	s := e.Stats()
	if s.KeyEventsSent != 2 || s.KeyRetransmits < 1 {
		t.Errorf("stats: %d sent, %d retransmits; want 2 and ≥ 1", s.KeyEventsSent, s.KeyRetransmits)
	}
}

// TestKeyAckedOnce: OnKeyAcked reports each KeyEvent the host acks, once
// however often the host acks it, and never one it has not acked.
func TestKeyAckedOnce(t *testing.T) {
	acked := make(chan protocol.KeyEvent, 8)
	e := start(t, emulator.Config{OnKeyAcked: func(ev protocol.KeyEvent, _ time.Time) { acked <- ev }})
	h := dial(t, e.Path())
	h.hello()
	if err := e.Press(3, protocol.KeyWave); err != nil {
		t.Fatal(err)
	}
	first := h.expect("seat 3 WAVE down", time.Second, isKey(3, protocol.KeyWave, protocol.EdgeDown))
	h.expect("its retransmission", time.Second, isKey(3, protocol.KeyWave, protocol.EdgeDown))
	select {
	case ev := <-acked:
		t.Fatalf("%+v reported acked before the host acked it", ev)
	default:
	}
	h.send(&protocol.Ack{Seq: first.seq})
	h.send(&protocol.Ack{Seq: first.seq}) // a repeated ack
	select {
	case ev := <-acked:
		if ev != *first.msg.(*protocol.KeyEvent) {
			t.Fatalf("acked %+v, want %+v", ev, first.msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the ack was not reported")
	}
	h.keyEvents(300 * time.Millisecond) // nothing more is sent: lets the repeated ack through
	if s := e.Stats(); s.KeyEventsAcked != 1 || len(acked) != 0 {
		t.Fatalf("%d acks counted, %d more reported; want 1 and 0", s.KeyEventsAcked, len(acked))
	}
}

func TestLights(t *testing.T) {
	e := start(t, emulator.Config{Seats: 6})
	h := dial(t, e.Path())
	h.hello()
	l := &protocol.Lights{Seats: 6}
	l.Seat[0] = protocol.SeatLight{G: 255, Brightness: 255}
	l.Seat[2] = protocol.SeatLight{R: 255, Brightness: 255}
	l.Seat[5] = protocol.SeatLight{B: 200, Brightness: 128}
	seq := h.send(l)
	h.expect("Ack", time.Second, func(r rx) bool { a, ok := r.msg.(*protocol.Ack); return ok && a.Seq == seq })
	want := []emulator.RGB{{G: 255}, {}, {R: 255}, {}, {}, {B: 100}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := e.WaitLights(ctx, func(got []emulator.RGB) bool { return equalRGB(got, want) })
	if err != nil {
		t.Fatalf("lights %v, want %v", e.Lights(), want)
	}
	if err := e.SetDeadLED(3, true); err != nil {
		t.Fatal(err)
	}
	if got := e.Lights()[2]; got != (emulator.RGB{}) {
		t.Errorf("dead LED shows %v", got)
	}
	if s := e.Stats(); s.LightsIn != 1 {
		t.Errorf("LightsIn %d, want 1", s.LightsIn)
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

// A contact that chatters for 3 ms on press and on release is one press.
func TestBouncyKeyIsOnePress(t *testing.T) {
	e := start(t, emulator.Config{})
	h := dial(t, e.Path())
	h.hello()
	if err := e.SetKeyFault(3, protocol.Key5, emulator.KeyBouncy); err != nil {
		t.Fatal(err)
	}
	if err := e.Tap(3, protocol.Key5); err != nil {
		t.Fatal(err)
	}
	evs := h.keyEvents(300 * time.Millisecond)
	if len(evs) != 2 || evs[0].Edge != protocol.EdgeDown || evs[1].Edge != protocol.EdgeUp || evs[0].Counter != 1 || evs[1].Counter != 1 {
		t.Errorf("bouncy tap gave %+v, want one press (down and up, counter 1)", evs)
	}
}

func TestFaults(t *testing.T) {
	e := start(t, emulator.Config{})
	h := dial(t, e.Path())
	h.hello()
	must(t, e.SetKeyFault(2, protocol.KeyUp, emulator.KeyMissing))
	must(t, e.Tap(2, protocol.KeyUp))
	must(t, e.SetKeyFault(4, protocol.KeyWave, emulator.KeyStuck))
	evs := h.keyEvents(200 * time.Millisecond)
	if len(evs) != 1 || evs[0].Seat != 4 || evs[0].Key != protocol.KeyWave || evs[0].Edge != protocol.EdgeDown {
		t.Errorf("missing key tapped and stuck key: got %+v, want only seat 4 WAVE down", evs)
	}
	if err := e.Press(13, protocol.KeyOK); err == nil {
		t.Error("Press on seat 13 of 12: no error")
	}
	small := start(t, emulator.Config{BitsPerSeat: 16})
	var ke *emulator.KeyError
	if err := small.Press(1, protocol.KeyBoom); !errors.As(err, &ke) {
		t.Errorf("BOOM on a 16-bit panel: %v, want a KeyError", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestPedal(t *testing.T) {
	e := start(t, emulator.Config{})
	h := dial(t, e.Path())
	h.hello()
	ctx := context.Background()
	must(t, e.Pedal(ctx, emulator.PedalDouble))
	evs := h.keyEvents(200 * time.Millisecond)
	if len(evs) != 4 {
		t.Fatalf("double press gave %d events, want 4: %+v", len(evs), evs)
	}
	for i, ev := range evs {
		edge := protocol.EdgeDown
		if i%2 == 1 {
			edge = protocol.EdgeUp
		}
		if ev.Seat != 0 || ev.Key != protocol.KeyPedal || ev.Edge != edge || ev.Counter != uint16(i/2+1) {
			t.Errorf("event %d = %+v, want seat 0 PEDAL %v press %d", i, ev, edge, i/2+1)
		}
	}
	gap := time.Duration(evs[2].Micros-evs[1].Micros) * time.Microsecond
	if gap < emulator.PedalDoubleGap-10*time.Millisecond || gap > emulator.PedalDoubleGap+30*time.Millisecond {
		t.Errorf("gap between the presses %v, want about %v", gap, emulator.PedalDoubleGap)
	}

	noPedal := start(t, emulator.Config{NoPedal: true})
	if err := noPedal.Pedal(ctx, emulator.PedalShort); !errors.Is(err, emulator.ErrNoPedal) {
		t.Errorf("Pedal without a pedal: %v", err)
	}
}

func TestUnplugReplug(t *testing.T) {
	e := start(t, emulator.Config{Seats: 6})
	h := dial(t, e.Path())
	h.hello()
	l := &protocol.Lights{Seats: 6}
	l.Seat[0] = protocol.SeatLight{G: 255, Brightness: 255}
	h.send(l)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	must(t, e.WaitLights(ctx, func(got []emulator.RGB) bool { return got[0].G == 255 }))
	oldTTY := e.TTY()

	must(t, e.Unplug())
	if _, err := os.Lstat(e.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("link still there after Unplug: %v", err)
	}
	h.f.SetReadDeadline(time.Now().Add(time.Second))
	var b [64]byte
	for {
		_, err := h.f.Read(b[:])
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatal("host reads still block after Unplug")
		}
		if err == io.EOF || err != nil {
			break
		}
	}
	if got := e.Lights()[0]; got != (emulator.RGB{}) {
		t.Errorf("unplugged, seat 1 shows %v", got)
	}
	if err := e.Unplug(); !errors.Is(err, emulator.ErrUnplugged) {
		t.Errorf("second Unplug: %v", err)
	}

	must(t, e.Replug())
	if err := e.Replug(); !errors.Is(err, emulator.ErrPlugged) {
		t.Errorf("second Replug: %v", err)
	}
	if target, err := os.Readlink(e.Path()); err != nil || target != e.TTY() {
		t.Fatalf("after Replug link -> %q, %v; want %s", target, err, e.TTY())
	}
	if e.TTY() == oldTTY {
		t.Logf("the kernel reused %s", oldTTY)
	}
	h2 := dial(t, e.Path())
	h2.hello()
	if got := e.Lights()[0]; got != (emulator.RGB{}) {
		t.Errorf("rebooted bridge shows %v on seat 1, want dark", got)
	}
	must(t, e.Press(1, protocol.Key1))
	r := h2.expect("a press after the reboot", time.Second, isKey(1, protocol.Key1, protocol.EdgeDown))
	if c := r.msg.(*protocol.KeyEvent).Counter; c != 1 {
		t.Errorf("counter after reboot %d, want 1", c)
	}
	if s := e.Stats(); s.Plugs != 2 {
		t.Errorf("Plugs = %d, want 2", s.Plugs)
	}
}

// Opening the line at 1200 baud reboots the bridge into its bootloader.
func TestBootloaderTouch(t *testing.T) {
	e := start(t, emulator.Config{})
	h := dial(t, e.Path())
	tio, err := unix.IoctlGetTermios(int(h.fd()), unix.TCGETS)
	must(t, err)
	tio.Cflag = tio.Cflag&^unix.CBAUD | unix.B1200
	tio.Ispeed, tio.Ospeed = unix.B1200, unix.B1200
	must(t, unix.IoctlSetTermios(int(h.fd()), unix.TCSETS, tio))
	deadline := time.Now().Add(time.Second)
	for e.Plugged() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if s := e.Stats(); s.Plugged || s.BootloaderTouches != 1 {
		t.Errorf("after 1200 baud: plugged %v, %d touches; want unplugged, 1", s.Plugged, s.BootloaderTouches)
	}
}

func TestHang(t *testing.T) {
	e := start(t, emulator.Config{})
	h := dial(t, e.Path())
	h.hello()
	e.Hang(true)
	time.Sleep(20 * time.Millisecond)
	h.keyEvents(10 * time.Millisecond) // drain
	if r, got, err := h.next(600 * time.Millisecond); got || err != nil {
		t.Errorf("hung bridge sent %+v, %v", r, err)
	}
	e.Hang(false)
	h.expect("a Ping once running again", time.Second, func(r rx) bool { _, ok := r.msg.(*protocol.Ping); return ok })
}

func TestInjectHost(t *testing.T) {
	e := start(t, emulator.Config{})
	h := dial(t, e.Path())
	noise := []byte{0x13, 0x37, 0x00, 0xff, 0x00}
	must(t, e.InjectHost(noise))
	h.hello() // the decoder drops the noise
	if st := h.dec.Stats(); st.Malformed+st.CRCErrors == 0 {
		t.Errorf("host decoder saw no bad frame: %+v", st)
	}
	if s := e.Stats(); s.Injected != uint64(len(noise)) {
		t.Errorf("Injected = %d", s.Injected)
	}
}

func TestLinkRefusesToClobber(t *testing.T) {
	path := filepath.Join(t.TempDir(), "file")
	must(t, os.WriteFile(path, []byte("keep me"), 0o644))
	_, err := emulator.Start(context.Background(), emulator.Config{Link: path, Logger: slog.New(slog.DiscardHandler)})
	if err == nil {
		t.Fatal("Start over a regular file: no error")
	}
	if b, _ := os.ReadFile(path); string(b) != "keep me" {
		t.Errorf("file clobbered: %q", b)
	}
}

func TestCloseRemovesLink(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bridge")
	e, err := emulator.Start(context.Background(), emulator.Config{Link: path, Logger: slog.New(slog.DiscardHandler)})
	must(t, err)
	must(t, e.Close())
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("link still there after Close: %v", err)
	}
	if err := e.Replug(); !errors.Is(err, emulator.ErrClosed) {
		t.Errorf("Replug after Close: %v", err)
	}
}

func TestParsePedalPress(t *testing.T) {
	for _, p := range []emulator.PedalPress{emulator.PedalShort, emulator.PedalLong, emulator.PedalDouble} {
		got, err := emulator.ParsePedalPress(p.String())
		if err != nil || got != p {
			t.Errorf("ParsePedalPress(%q) = %v, %v", p.String(), got, err)
		}
	}
	if _, err := emulator.ParsePedalPress("triple"); err == nil {
		t.Error("triple: no error")
	}
}
