package gpio_test

import (
	"fmt"
	"log"
	"os"
	"time"

	"periph.io/x/conn/v3/spi/spitest"

	"wolftable/drivers/gpio"
	"wolftable/hw"
)

// ExampleOpen opens the table on the Pi's real buses, as the config file
// says (not run: it needs the hardware).
func ExampleOpen() {
	data, err := os.ReadFile("/etc/wolftable/table.toml")
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := hw.ParseConfig(data)
	if err != nil {
		log.Fatal(err)
	}
	table, err := gpio.Open(cfg, gpio.Deps{}) // host.Init, then SPI, I2C and the pedal's pin by name
	if err != nil {
		log.Fatal(err)
	}
	defer table.Close()
	for ev := range table.Events() {
		fmt.Printf("%+v\n", ev)
	}
}

// A test of code that lights the table records the SPI traffic with
// periph.io's spitest.
func ExampleOpen_recorded() {
	cfg := hw.DefaultConfig()
	cfg.Mode = hw.ModeGPIO
	cfg.Seats = 6
	port := &spitest.Record{}
	table, err := gpio.Open(cfg, gpio.Deps{SPI: port, Tick: make(chan time.Time)})
	if err != nil {
		log.Fatal(err)
	}
	lights := make([]hw.SeatLight, 6)
	lights[2] = hw.SeatLight{Color: hw.Red}
	if err := table.SetLights(lights); err != nil {
		log.Fatal(err)
	}
	if err := table.Close(); err != nil {
		log.Fatal(err)
	}
	// Open and Close write the chain off; SetLights wrote seat 3 red:
	// 3 reset bytes, 12 per LED (G, R, B; 4 SPI bits per bit), 3 latch bytes.
	w := port.Ops[1].W
	fmt.Printf("%d writes of %d bytes\n", len(port.Ops), len(w))
	fmt.Printf("seat 3: % x\n", w[3+2*12:3+3*12])
	// Output:
	// 3 writes of 78 bytes
	// seat 3: 88 88 88 88 8e 88 88 88 88 88 88 88
}
