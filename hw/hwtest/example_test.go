package hwtest_test

import (
	"fmt"

	"wolftable/hw"
	"wolftable/hw/hwtest"
)

// A test drives code that consumes a hw.Table: it injects a seat's vote and
// reads back the lights the code set.
func Example() {
	table := hwtest.New(12)
	defer table.Close()

	// The code under test would run here, reading table.Events() and
	// calling table.SetLights.
	_ = table.Press(7, hw.Key9, hw.KeyOK)
	lights := make([]hw.SeatLight, 12)
	for ev := range table.Events() {
		if ev.Kind == hw.EventKey && ev.Key.Key == hw.KeyOK && ev.Key.Edge == hw.Down {
			lights[ev.Key.Seat-1] = hw.SeatLight{Color: hw.Red}
			break
		}
	}
	_ = table.SetLights(lights)

	fmt.Println(table.Lights()[6].Color, len(table.History()))
	// Output: red 1
}
