package serial_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"wolftable/drivers/serial"
	"wolftable/firmware-bridge/emulator"
	"wolftable/firmware-bridge/protocol"
	"wolftable/hw"
)

// The driver on an emulated bridge: seat 7 taps OK, and the table lights
// seat 1 green.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "bridge")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	quiet := slog.New(slog.DiscardHandler)

	bridge, err := emulator.Start(ctx, emulator.Config{Link: filepath.Join(dir, "tty"), Seats: 12, Logger: quiet})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer bridge.Close()

	table, err := serial.Open(ctx, serial.Config{Port: bridge.Path(), Seats: 12, Logger: quiet})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer table.Close()
	fmt.Println("link up:", (<-table.Events()).Link.Up)

	bridge.Tap(7, protocol.KeyOK)
	for range 2 {
		ev := <-table.Events()
		fmt.Printf("seat %d %v %v\n", ev.Key.Seat, ev.Key.Key, ev.Key.Edge)
	}

	lights := make([]hw.SeatLight, table.Seats())
	lights[0].Color = hw.Green
	if err := table.SetLightsAcked(ctx, lights); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("seat 1 shows %+v\n", bridge.Lights()[0])
	// Output:
	// link up: true
	// seat 7 OK down
	// seat 7 OK up
	// seat 1 shows {R:0 G:255 B:0}
}
