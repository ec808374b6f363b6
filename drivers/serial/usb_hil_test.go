//go:build hil

package serial_test

// The driver on a real USB CDC-ACM port, in the HIL VM (scripts/hil, make
// hil): the kernel's dummy_hcd joins a USB gadget with the Pico's IDs
// (g_serial, usb_f_acm: /dev/ttyGS0, the bridge's side) to its host
// side, where cdc-acm makes /dev/ttyACM0, as a Pico on a Pi's USB. The
// firmware emulator runs behind its pseudo-terminal and a relay carries the
// bytes between it and /dev/ttyGS0. What this adds to the pty tests: the
// bridge found by its USB IDs in sysfs, the line set up on a real ACM tty,
// and the cable pulled for real (the port disappears under the driver) and
// plugged back (it comes back, maybe under another name).

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"wolftable/drivers/serial"
	"wolftable/firmware-bridge/emulator"
	"wolftable/firmware-bridge/protocol"
	"wolftable/hw"
)

const (
	gadgetTTY = "/dev/ttyGS0"
	// the root hub's port the gadget is on: disabling it is the cable
	// pulled (the device leaves the bus), enabling it the cable plugged
	portDisable = "/sys/bus/usb/devices/1-0:1.0/usb1-port1/disable"
)

// usbBridge is the emulator on the gadget's end of the USB cable.
type usbBridge struct {
	t  *testing.T
	em *emulator.Emulator

	mu   sync.Mutex
	stop func() // ends the current relay
}

func startUSBBridge(t *testing.T) *usbBridge {
	t.Helper()
	if os.Getenv("HIL") != "1" {
		t.Skip("not in the HIL VM: make hil (scripts/hil/exec) runs it")
	}
	b := &usbBridge{t: t, em: startEmulator(t, emulator.Config{Seats: 12})}
	b.relay()
	t.Cleanup(func() {
		b.halt()
		if d, _ := os.ReadFile(portDisable); strings.TrimSpace(string(d)) != "0" {
			setPort(t, "0") // for the next test
		}
	})
	return b
}

// openGadget opens /dev/ttyGS0 raw, once the host has configured the
// device (until then it is not there to open).
func (b *usbBridge) openGadget() *os.File {
	b.t.Helper()
	var fd int
	var err error
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if fd, err = unix.Open(gadgetTTY, unix.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		b.t.Fatalf("open %s: %v", gadgetTTY, err)
	}
	if err := makeRaw(fd); err != nil {
		unix.Close(fd)
		b.t.Fatal(err)
	}
	return os.NewFile(uintptr(fd), gadgetTTY)
}

// makeRaw sets a tty to raw 8N1: the gadget's side starts with echo and
// line editing on.
func makeRaw(fd int) error {
	tm, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return err
	}
	tm.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON | unix.IXOFF
	tm.Oflag &^= unix.OPOST
	tm.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	tm.Cflag &^= unix.CSIZE | unix.PARENB
	tm.Cflag |= unix.CS8 | unix.CREAD | unix.CLOCAL
	tm.Cc[unix.VMIN], tm.Cc[unix.VTIME] = 1, 0
	return unix.IoctlSetTermios(fd, unix.TCSETS, tm)
}

// relay carries bytes between /dev/ttyGS0 and the emulator's current
// pseudo-terminal until halt.
func (b *usbBridge) relay() {
	gs := b.openGadget()
	fd, err := unix.Open(b.em.TTY(), unix.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	if err != nil {
		b.t.Fatalf("open the emulator's tty: %v", err)
	}
	pty := os.NewFile(uintptr(fd), b.em.TTY())
	done := make(chan struct{})
	var wg sync.WaitGroup
	pump := func(dst io.Writer, src *os.File) {
		defer wg.Done()
		buf := make([]byte, 4096)
		for {
			src.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
			n, err := src.Read(buf)
			if n > 0 {
				dst.Write(buf[:n])
			}
			select {
			case <-done:
				return
			default:
			}
			if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
				time.Sleep(10 * time.Millisecond) // the other side is gone for now
			}
		}
	}
	wg.Add(2)
	go pump(pty, gs)
	go pump(gs, pty)
	b.mu.Lock()
	b.stop = func() {
		close(done)
		wg.Wait()
		pty.Close()
		gs.Close()
	}
	b.mu.Unlock()
}

func (b *usbBridge) halt() {
	b.mu.Lock()
	stop := b.stop
	b.stop = nil
	b.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// unplug pulls the cable: the USB device leaves the bus (the host's
// ttyACM goes away) and the Pico loses power.
func (b *usbBridge) unplug() {
	b.t.Helper()
	setPort(b.t, "1")
	b.halt()
	must(b.t, b.em.Unplug())
}

// replug plugs it back: the Pico boots and the device enumerates again.
func (b *usbBridge) replug() {
	b.t.Helper()
	must(b.t, b.em.Replug())
	setPort(b.t, "0")
	b.relay()
}

// setPort disables ("1") or enables ("0") the gadget's hub port.
func setPort(t *testing.T, disable string) {
	t.Helper()
	if err := os.WriteFile(portDisable, []byte(disable), 0); err != nil {
		t.Fatalf("%s: %v", portDisable, err)
	}
}

// acmPorts lists the host's ACM ttys.
func acmPorts() string {
	es, _ := os.ReadDir("/dev")
	var names []string
	for _, e := range es {
		if strings.HasPrefix(e.Name(), "ttyACM") {
			names = append(names, "/dev/"+e.Name())
		}
	}
	return strings.Join(names, " ")
}

// TestHILBridgeOverUSB: the daemon's way to the bridge, with no port in the
// config: found by the Pico's USB IDs (2E8A:000A) in the kernel's sysfs,
// opened on /dev/ttyACM0, handshaken; a key pressed on seat 7 comes as seat
// 7's; the lights set are the LEDs the bridge shows.
func TestHILBridgeOverUSB(t *testing.T) {
	b := startUSBBridge(t)
	tb := open(t, serial.Config{Seats: 12, WaitLink: 20 * time.Second})
	if info := tb.Info(); !strings.Contains(info.String(), "/dev/ttyACM") {
		t.Errorf("bridge info %q: not on the ACM port (ports: %s)", info, acmPorts())
	}
	must(t, b.em.Tap(7, protocol.KeyOK))
	next(t, tb, 10*time.Second, "seat 7 OK down", isKey(7, hw.KeyOK, hw.Down))
	next(t, tb, 10*time.Second, "seat 7 OK up", isKey(7, hw.KeyOK, hw.Up))
	lights := make([]hw.SeatLight, 12)
	lights[2] = hw.SeatLight{Color: hw.Red, Brightness: 200}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	must(t, tb.SetLightsAcked(ctx, lights))
	if got := b.em.Lights()[2]; got != (emulator.RGB{R: 200}) {
		t.Errorf("seat 3's LED %+v, want red at 200", got)
	}
}

// TestHILBridgeUnplugged: the cable pulled under the driver takes the link
// down (the kernel removes the port it has open); plugged back, the driver
// finds the bridge by its USB IDs again, under its new name (another
// program still holds the old /dev/ttyACM0, as ModemManager may, so the
// kernel names it /dev/ttyACM1), the link comes up, the bridge (booted
// dark) gets the lights back, and its keys work.
func TestHILBridgeUnplugged(t *testing.T) {
	b := startUSBBridge(t)
	tb := open(t, serial.Config{Seats: 12, WaitLink: 20 * time.Second})
	lights := make([]hw.SeatLight, 12)
	lights[4] = hw.SeatLight{Color: hw.Blue, Brightness: 100}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	must(t, tb.SetLightsAcked(ctx, lights))

	if p := acmPorts(); p != "/dev/ttyACM0" {
		t.Fatalf("ports before the unplug: %q", p)
	}
	other, err := os.OpenFile("/dev/ttyACM0", os.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	must(t, err)
	defer other.Close()
	// Open may have reported a handshake that timed out on the way (a busy
	// VM): what counts comes after the cable is pulled.
	pulled := time.Now()
	b.unplug()
	down := next(t, tb, 10*time.Second, "link down", func(ev hw.Event) bool {
		return ev.Kind == hw.EventLink && !ev.Link.Up && !ev.At.Before(pulled)
	})
	if !strings.Contains(down.Link.Detail, "/dev/ttyACM0") {
		t.Errorf("link down: %q, want the port's error", down.Link.Detail)
	}
	t.Logf("unplugged: %s; ports now: %q", down.Link.Detail, acmPorts())
	plugged := time.Now()
	b.replug()
	up := next(t, tb, 20*time.Second, "link up", func(ev hw.Event) bool {
		return ev.Kind == hw.EventLink && ev.Link.Up && !ev.At.Before(plugged)
	})
	t.Logf("replugged: %s; ports now: %q", up.Link.Detail, acmPorts())
	if !strings.Contains(up.Link.Detail, "on /dev/ttyACM1") {
		t.Errorf("link up: %q, want it on /dev/ttyACM1 (ports: %s)", up.Link.Detail, acmPorts())
	}
	if err := b.em.WaitLights(ctx, func(l []emulator.RGB) bool { return l[4] == emulator.RGB{B: 100} }); err != nil {
		t.Errorf("the replugged bridge's lights: %v (%v), want seat 5 blue again", err, b.em.Lights())
	}
	must(t, b.em.Tap(2, protocol.KeyUp))
	next(t, tb, 10*time.Second, "seat 2 UP down after the replug", isKey(2, hw.KeyUp, hw.Down))
	if s := tb.Stats(); s.Connects != 2 {
		t.Errorf("stats: %d handshakes, want 2 (a reconnection)", s.Connects)
	}
}
