package emulator_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"wolftable/firmware-bridge/emulator"
	"wolftable/firmware-bridge/protocol"
)

// A host opens the emulated bridge's link like any serial port and shakes
// hands with the firmware.
func ExampleStart() {
	dir, _ := os.MkdirTemp("", "bridge")
	defer os.RemoveAll(dir)
	link := filepath.Join(dir, "tty")
	e, err := emulator.Start(context.Background(), emulator.Config{Link: link, Seats: 10, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()

	port, err := os.OpenFile(link, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer port.Close()
	port.Write([]byte{0})
	port.Write(protocol.Encode(&protocol.HostHello{Protocol: protocol.ProtocolVersion, Seats: 10, Software: "example"}, 0))

	var dec protocol.Decoder
	buf := make([]byte, 256)
	port.SetReadDeadline(time.Now().Add(time.Second))
	for {
		n, err := port.Read(buf)
		if err != nil {
			fmt.Println(err)
			return
		}
		for p := buf[:n]; len(p) > 0; {
			k, f, _ := dec.Feed(p)
			p = p[k:]
			if f.Type != protocol.TypeHello {
				continue // the bridge's heartbeats
			}
			m, _ := f.Message()
			h := m.(*protocol.Hello)
			fmt.Printf("firmware %v, %d seats, pedal %v\n", h.Firmware, h.Seats, h.Caps&protocol.CapPedal != 0)
			return
		}
	}
	// Output:
	// firmware 0.1.0, 10 seats, pedal true
}
