package emulator_test

// The emulator's tests run it on a manual clock (Config.ManualClock): the
// firmware sees exactly the timings the test gives it, however loaded the
// machine is. The host speaks the protocol by hand on the pseudo-terminal
// and waits for bytes, not for time: after each step of the clock it reads
// everything the emulator has queued towards it (Stats.TxQueued), and
// before it the emulator has taken everything the host wrote
// (Stats.BytesIn). Wall-clock deadlines only bound a failure.

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

// patience bounds how long, on the wall clock, the host waits for the
// emulator to take or hand over bytes it has already counted.
const patience = 30 * time.Second

// host is a bare-bones host on the slave side of the emulator's
// pseudo-terminal, speaking the protocol by hand.
type host struct {
	t    *testing.T
	e    *emulator.Emulator
	f    *os.File
	dec  protocol.Decoder
	seq  uint8
	buf  []byte
	sent uint64 // bytes written, since dial
	in0  uint64 // the emulator's BytesIn at dial
	read uint64 // bytes read, since dial
	out0 uint64 // bytes the emulator had queued towards the host at dial (flushed)
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
	cfg.ManualClock = true
	e, err := emulator.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// waitFor waits on the wall clock until cond holds, failing the test after
// patience.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(patience); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, patience)
		}
	}
}

// queued is what the emulator has queued towards the host, to be written.
func queued(e *emulator.Emulator) uint64 {
	s := e.Stats()
	return s.TxQueued - s.TxDropped
}

func dial(t *testing.T, e *emulator.Emulator) *host {
	t.Helper()
	// What the bridge wrote before we came is written out, then dropped.
	waitFor(t, "the emulator's writes", func() bool { s := e.Stats(); return s.BytesOut+s.TxDropped == s.TxQueued })
	f, err := os.OpenFile(e.Path(), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	h := &host{t: t, e: e, f: f, in0: e.Stats().BytesIn, out0: queued(e)}
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
	h.sent += uint64(len(p))
}

func (h *host) send(m protocol.Message) uint8 {
	h.t.Helper()
	seq := h.seq
	h.seq++
	h.raw(protocol.Encode(m, seq))
	return seq
}

// step lets the emulator take what the host wrote, advances its clock by d
// and returns every frame it sent meanwhile, answering its pings.
func (h *host) step(d time.Duration) []rx {
	h.t.Helper()
	waitFor(h.t, "the emulator reading the host", func() bool { return h.e.Stats().BytesIn-h.in0 >= h.sent })
	if err := h.e.Advance(d); err != nil {
		h.t.Fatal(err)
	}
	want := queued(h.e) - h.out0
	deadline := time.Now().Add(patience)
	for h.read < want {
		h.f.SetReadDeadline(deadline)
		var b [4096]byte
		n, err := h.f.Read(b[:])
		h.buf = append(h.buf, b[:n]...)
		h.read += uint64(n)
		if err != nil {
			h.t.Fatalf("reading %d more bytes the emulator wrote: %v", want-h.read, err)
		}
	}
	var got []rx
	for len(h.buf) > 0 {
		n, f, err := h.dec.Feed(h.buf)
		h.buf = h.buf[n:]
		if err != nil || f.Type == 0 {
			continue
		}
		m, err := f.Message()
		if err != nil {
			h.t.Fatal(err)
		}
		if p, ok := m.(*protocol.Ping); ok {
			h.send(&protocol.Pong{Nonce: p.Nonce})
		}
		got = append(got, rx{f.Seq, m})
	}
	return got
}

// expect steps the clock a millisecond at a time until the bridge sends a
// frame ok accepts, and returns it; the test fails if none comes within
// limit of the emulator's clock.
func (h *host) expect(what string, limit time.Duration, ok func(rx) bool) rx {
	h.t.Helper()
	for waited := time.Duration(0); waited < limit; waited += emulator.TickInterval {
		for _, r := range h.step(emulator.TickInterval) {
			if ok(r) {
				return r
			}
		}
	}
	h.t.Fatalf("no %s within %v of the emulator's clock", what, limit)
	return rx{}
}

// keyEvents collects the KeyEvents the bridge sends during d of its clock,
// acking each and dropping retransmissions of those already seen.
func (h *host) keyEvents(d time.Duration) []protocol.KeyEvent {
	h.t.Helper()
	var evs []protocol.KeyEvent
	seen := map[protocol.KeyEvent]bool{}
	for waited := time.Duration(0); waited < d; waited += emulator.TickInterval {
		for _, r := range h.step(emulator.TickInterval) {
			if m, ok := r.msg.(*protocol.KeyEvent); ok {
				if !seen[*m] {
					seen[*m] = true
					evs = append(evs, *m)
				}
				h.send(&protocol.Ack{Seq: r.seq})
			}
		}
	}
	return evs
}

func (h *host) hello() *protocol.Hello {
	h.t.Helper()
	h.send(&protocol.HostHello{Protocol: protocol.ProtocolVersion, Seats: 12, Software: "emulator_test"})
	r := h.expect("Hello", 100*time.Millisecond, func(r rx) bool { _, ok := r.msg.(*protocol.Hello); return ok })
	return r.msg.(*protocol.Hello)
}

func isKey(seat uint8, key protocol.Key, edge protocol.Edge) func(rx) bool {
	return func(r rx) bool {
		ke, ok := r.msg.(*protocol.KeyEvent)
		return ok && ke.Seat == seat && ke.Key == key && ke.Edge == edge
	}
}

// TestKeyAckedOnce: OnKeyAcked reports each KeyEvent the host acks, once
// however often the host acks it, and never one it has not acked.
func TestKeyAckedOnce(t *testing.T) {
	acked := make(chan protocol.KeyEvent, 8)
	e := start(t, emulator.Config{OnKeyAcked: func(ev protocol.KeyEvent, _ time.Time) { acked <- ev }})
	h := dial(t, e)
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
	h.keyEvents(300 * time.Millisecond)   // the emulator takes both acks; nothing more is sent
	select {
	case ev := <-acked:
		if ev != *first.msg.(*protocol.KeyEvent) {
			t.Fatalf("acked %+v, want %+v", ev, first.msg)
		}
	default:
		t.Fatal("the ack was not reported")
	}
	if s := e.Stats(); s.KeyEventsAcked != 1 || len(acked) != 0 {
		t.Fatalf("%d acks counted, %d more reported; want 1 and 0", s.KeyEventsAcked, len(acked))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
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

func TestHello(t *testing.T) {
	e := start(t, emulator.Config{Seats: 14, PrivateLEDs: true, Firmware: protocol.Version{Major: 2, Minor: 3, Patch: 4}})
	if target, err := os.Readlink(e.Path()); err != nil || target != e.TTY() {
		t.Fatalf("link %s -> %q, %v; want -> %s", e.Path(), target, err, e.TTY())
	}
	h := dial(t, e)
	got := h.hello()
	want := protocol.Hello{
		Firmware: protocol.Version{Major: 2, Minor: 3, Patch: 4}, Protocol: protocol.ProtocolVersion,
		Seats: 14, KeysPerSeat: uint8(protocol.NumSeatKeys), Caps: protocol.CapPedal | protocol.CapPrivateLED,
	}
	if *got != want {
		t.Errorf("Hello = %+v, want %+v", *got, want)
	}
}

// TestResetReason: a host that speaks version 2 learns why the emulated
// bridge started: at plug-in, power-on, unless Config.ResetReason says
// otherwise.
func TestResetReason(t *testing.T) {
	for _, c := range []struct {
		cfg, want protocol.ResetReason
	}{{0, protocol.ResetPowerOn}, {protocol.ResetWatchdog, protocol.ResetWatchdog}} {
		e := start(t, emulator.Config{ResetReason: c.cfg})
		h := dial(t, e)
		h.raw(protocol.EncodeVersion(&protocol.HostHello{Protocol: protocol.Version2, Seats: 12}, h.seq, protocol.Version2))
		h.seq++
		h.send(&protocol.StatsRequest{})
		r := h.expect("Stats", 100*time.Millisecond, func(r rx) bool { _, ok := r.msg.(*protocol.Stats); return ok })
		if got := r.msg.(*protocol.Stats).ResetReason; got != c.want {
			t.Errorf("Config.ResetReason %v: Stats say %v, want %v", c.cfg, got, c.want)
		}
	}
}

func TestKeyRetransmittedUntilAcked(t *testing.T) {
	e := start(t, emulator.Config{})
	h := dial(t, e)
	h.hello()
	must(t, e.Press(7, protocol.KeyOK))
	first := h.expect("seat 7 OK down", 50*time.Millisecond, isKey(7, protocol.KeyOK, protocol.EdgeDown))
	again := h.expect("its retransmission", 200*time.Millisecond, isKey(7, protocol.KeyOK, protocol.EdgeDown))
	if again.seq != first.seq || *again.msg.(*protocol.KeyEvent) != *first.msg.(*protocol.KeyEvent) {
		t.Errorf("retransmission %d %+v differs from the first %d %+v", again.seq, again.msg, first.seq, first.msg)
	}
	if c := first.msg.(*protocol.KeyEvent).Counter; c != 1 {
		t.Errorf("counter %d, want 1", c)
	}
	h.send(&protocol.Ack{Seq: first.seq})
	h.step(emulator.TickInterval) // the bridge takes the ack
	must(t, e.Release(7, protocol.KeyOK))
	evs := h.keyEvents(400 * time.Millisecond)
	if len(evs) != 1 || evs[0].Seat != 7 || evs[0].Key != protocol.KeyOK || evs[0].Edge != protocol.EdgeUp || evs[0].Counter != 1 {
		t.Errorf("after the ack got %+v, want just seat 7 OK up, counter 1", evs)
	}
	s := e.Stats()
	if s.KeyEventsSent != 2 || s.KeyRetransmits != 1 {
		t.Errorf("stats: %d sent, %d retransmits; want 2 and 1 (the ack came before the second resend)", s.KeyEventsSent, s.KeyRetransmits)
	}
}

func TestLights(t *testing.T) {
	e := start(t, emulator.Config{Seats: 6})
	h := dial(t, e)
	h.hello()
	l := &protocol.Lights{Seats: 6}
	l.Seat[0] = protocol.SeatLight{G: 255, Brightness: 255}
	l.Seat[2] = protocol.SeatLight{R: 255, Brightness: 255}
	l.Seat[5] = protocol.SeatLight{B: 200, Brightness: 128}
	seq := h.send(l)
	h.expect("Ack", 10*time.Millisecond, func(r rx) bool { a, ok := r.msg.(*protocol.Ack); return ok && a.Seq == seq })
	want := []emulator.RGB{{G: 255}, {}, {R: 255}, {}, {}, {B: 100}}
	if got := e.Lights(); !equalRGB(got, want) {
		t.Fatalf("lights %v, want %v", got, want)
	}
	must(t, e.SetDeadLED(3, true))
	if got := e.Lights()[2]; got != (emulator.RGB{}) {
		t.Errorf("dead LED shows %v", got)
	}
	if s := e.Stats(); s.LightsIn != 1 {
		t.Errorf("LightsIn %d, want 1", s.LightsIn)
	}
}

// A contact that chatters for 3 ms on press and on release is one press,
// dated when the chatter began.
func TestBouncyKeyIsOnePress(t *testing.T) {
	e := start(t, emulator.Config{})
	h := dial(t, e)
	h.hello()
	must(t, e.SetKeyFault(3, protocol.Key5, emulator.KeyBouncy))
	must(t, e.Tap(3, protocol.Key5))
	evs := h.keyEvents(300 * time.Millisecond)
	if len(evs) != 2 || evs[0].Edge != protocol.EdgeDown || evs[1].Edge != protocol.EdgeUp || evs[0].Counter != 1 || evs[1].Counter != 1 {
		t.Fatalf("bouncy tap gave %+v, want one press (down and up, counter 1)", evs)
	}
	// The press is dated within a scan of the finger, the release within a
	// scan of TapHold later: not when either bounce ended.
	held := time.Duration(evs[1].Micros-evs[0].Micros) * time.Microsecond
	if held < emulator.TapHold-emulator.TickInterval || held > emulator.TapHold+emulator.TickInterval {
		t.Errorf("press held %v by its timestamps, want %v (the bounce must not shift either edge)", held, emulator.TapHold)
	}
}

func TestFaults(t *testing.T) {
	e := start(t, emulator.Config{})
	h := dial(t, e)
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

func TestPedal(t *testing.T) {
	e := start(t, emulator.Config{})
	h := dial(t, e)
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
	// The firmware dates each edge at the scan that saw it: on the manual
	// clock, within a scan of the gesture's own timing.
	for _, c := range []struct {
		name     string
		from, to int
		want     time.Duration
	}{{"first press", 0, 1, emulator.PedalDoubleHold}, {"gap", 1, 2, emulator.PedalDoubleGap}, {"second press", 2, 3, emulator.PedalDoubleHold}} {
		got := time.Duration(evs[c.to].Micros-evs[c.from].Micros) * time.Microsecond
		if got < c.want-emulator.TickInterval || got > c.want+emulator.TickInterval {
			t.Errorf("%s %v by the timestamps, want %v", c.name, got, c.want)
		}
	}

	noPedal := start(t, emulator.Config{NoPedal: true})
	if err := noPedal.Pedal(ctx, emulator.PedalShort); !errors.Is(err, emulator.ErrNoPedal) {
		t.Errorf("Pedal without a pedal: %v", err)
	}
}

func TestUnplugReplug(t *testing.T) {
	e := start(t, emulator.Config{Seats: 6})
	h := dial(t, e)
	h.hello()
	l := &protocol.Lights{Seats: 6}
	l.Seat[0] = protocol.SeatLight{G: 255, Brightness: 255}
	seq := h.send(l)
	h.expect("Ack", 10*time.Millisecond, func(r rx) bool { a, ok := r.msg.(*protocol.Ack); return ok && a.Seq == seq })
	if got := e.Lights()[0]; got.G != 255 {
		t.Fatalf("seat 1 shows %v, want green", got)
	}
	oldTTY := e.TTY()

	must(t, e.Unplug())
	if _, err := os.Lstat(e.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("link still there after Unplug: %v", err)
	}
	h.f.SetReadDeadline(time.Now().Add(patience))
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
	h2 := dial(t, e)
	h2.hello()
	if got := e.Lights()[0]; got != (emulator.RGB{}) {
		t.Errorf("rebooted bridge shows %v on seat 1, want dark", got)
	}
	must(t, e.Press(1, protocol.Key1))
	r := h2.expect("a press after the reboot", 50*time.Millisecond, isKey(1, protocol.Key1, protocol.EdgeDown))
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
	h := dial(t, e)
	tio, err := unix.IoctlGetTermios(int(h.fd()), unix.TCGETS)
	must(t, err)
	tio.Cflag = tio.Cflag&^unix.CBAUD | unix.B1200
	tio.Ispeed, tio.Ospeed = unix.B1200, unix.B1200
	must(t, unix.IoctlSetTermios(int(h.fd()), unix.TCSETS, tio))
	must(t, e.Advance(20*emulator.TickInterval)) // the firmware looks at the line every 10 turns
	if s := e.Stats(); s.Plugged || s.BootloaderTouches != 1 {
		t.Errorf("after 1200 baud: plugged %v, %d touches; want unplugged, 1", s.Plugged, s.BootloaderTouches)
	}
}

func TestHang(t *testing.T) {
	e := start(t, emulator.Config{})
	h := dial(t, e)
	h.hello()
	e.Hang(true)
	before := e.Stats()
	if rs := h.step(600 * time.Millisecond); len(rs) != 0 {
		t.Errorf("hung bridge sent %+v", rs)
	}
	if s := e.Stats(); s.FramesOut != before.FramesOut || s.Ticks != before.Ticks {
		t.Errorf("hung for 600 ms, the firmware ran %d turns and wrote %d frames", s.Ticks-before.Ticks, s.FramesOut-before.FramesOut)
	}
	e.Hang(false)
	h.expect("a Ping once running again", 300*time.Millisecond, func(r rx) bool { _, ok := r.msg.(*protocol.Ping); return ok })
}

func TestInjectHost(t *testing.T) {
	e := start(t, emulator.Config{})
	h := dial(t, e)
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

// The manual clock moves only with Advance, in whole turns, and a wall
// clock emulator refuses Advance.
func TestManualClock(t *testing.T) {
	e := start(t, emulator.Config{})
	t0, ticks := e.Now(), e.Stats().Ticks
	must(t, e.Advance(25*time.Millisecond+500*time.Microsecond))
	if d, n := e.Now().Sub(t0), e.Stats().Ticks-ticks; d != 25*time.Millisecond || n != 25 {
		t.Errorf("Advance(25.5ms): the clock moved %v in %d turns, want 25ms in 25", d, n)
	}
	wall, err := emulator.Start(context.Background(), emulator.Config{Link: filepath.Join(t.TempDir(), "wall"), Logger: slog.New(slog.DiscardHandler)})
	must(t, err)
	defer wall.Close()
	if err := wall.Advance(time.Millisecond); !errors.Is(err, emulator.ErrWallClock) {
		t.Errorf("Advance on the wall clock: %v", err)
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
