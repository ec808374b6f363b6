package virtual_test

import (
	"fmt"
	"log"
	"os"
	"strings"

	"wolftable/hw"
	"wolftable/hw/virtual"
)

// The plain style reads one command per line, for logs and scripted runs.
func Example_plain() {
	input := strings.NewReader("3 OK\n7 9 OK\npedal short\n")
	table, err := virtual.New(input, os.Stdout, virtual.WithSeats(12), virtual.WithStyle(virtual.Plain))
	if err != nil {
		log.Fatal(err)
	}
	var votes []int
	for ev := range table.Events() {
		if ev.Kind == hw.EventLink && !ev.Link.Up {
			break // the input ended: the table wrote every line before this event
		}
		if ev.Kind == hw.EventKey && ev.Key.Key == hw.KeyOK && ev.Key.Edge == hw.Down {
			votes = append(votes, ev.Key.Seat)
		}
	}
	fmt.Println("OK from seats", votes)
	if err := table.Close(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// seat 3: OK
	// seat 7: 9 OK
	// pedal: short
	// 虛擬桌：輸入已結束
	// OK from seats [3 7]
	// 虛擬桌已關閉：燈全熄
}

// OpenTerminal draws the table on a terminal and reads single keys; on
// anything else it falls back to the plain style (not run: it needs a
// terminal).
func ExampleOpenTerminal() {
	table, err := virtual.OpenTerminal(os.Stdin, os.Stdout, virtual.WithSeats(12))
	if err != nil {
		log.Fatal(err)
	}
	defer table.Close() // gives the terminal back
	lights := make([]hw.SeatLight, 12)
	for i := range lights {
		lights[i].Color = hw.Green
	}
	lights[0].Pulse = true
	if err := table.SetLights(lights); err != nil {
		log.Fatal(err)
	}
	for ev := range table.Events() {
		_ = ev // map to engine inputs
	}
}
