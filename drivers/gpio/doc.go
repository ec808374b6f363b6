// Package gpio drives the table from the Raspberry Pi's own pins (config
// mode "gpio"): the seats' number lights are a WS2812 chain on SPI, the
// seats' keys are on MCP23017 I/O expanders on I2C, and the judge's pedal is
// a switch on a GPIO. Open returns a hw.Table built from periph.io
// interfaces; tests pass fakes (spitest, i2ctest, a scripted pin) in Deps,
// and only a nil dependency makes Open call host.Init and open real
// hardware. Nothing touches hardware at package init.
//
// # Number lights: WS2812 over SPI
//
// The chain's data-in is wired to the SPI port's MOSI (SPI0.0: GPIO10, header
// pin 19) through a 3.3 V to 5 V level shifter (74AHCT125 or similar); the
// LEDs take 5 V from their own supply, grounds joined. periph.io's nrzled
// encodes each data bit as 4 SPI bits (1 = 1110, 0 = 1000), so the port must
// run at exactly 2.5 MHz (400 ns per SPI bit, 800 kHz per LED bit): Open
// refuses a port that cannot. On a Raspberry Pi set core_freq=250 (older
// models) so the SPI clock does not drift, and raise spidev.bufsize if the
// chain is long (each frame is 12 bytes per LED + 6).
//
// Along the chain come the seats' LED groups in config order
// (gpio.led_order): gpio.leds_per_seat LEDs showing the seat's colour
// (green, red, blue, off) at its brightness, then, with gpio.private_led,
// one private indicator LED (dim white while SeatLight.Private). A pulsing
// light (the current speaker) breathes between a quarter and full
// brightness once a second; the chain is rewritten at most 50 times a second
// while some light pulses, and otherwise only on SetLights.
//
// # Seat keys: MCP23017 on I2C
//
// Up to eight MCP23017 (addresses 0x20–0x27 set by A2 A1 A0) share the I2C
// bus (I2C1: SDA GPIO2, SCL GPIO3). Each key closes its expander pin to
// ground; Open enables the expander's internal 100 kΩ pull-up on every
// mapped pin (through periph.io's mcp23xxx driver) and leaves the others
// alone. The expanders are polled, not interrupt-driven (mcp23xxx does not
// implement WaitForEdge): every gpio.poll (5 ms, 200 Hz) one I2C transaction
// per expander reads GPIOA and GPIOB together (register 0x12, sequential
// read, IOCON at its power-on default). A key's level must hold for
// gpio.key_debounce (10 ms) before it counts: a contact that bounces within
// the window is one press. Each press is reported as a hw.KeyEvent down,
// then up. A key held when the table opens is reported as a press once it
// has held for the debounce time. 8 expanders × 16 pins = 128 keys: with 17
// keys per seat that is 7 seats, so a full table in this mode wires a subset
// of each panel's keys (the config's key map says which); full panels use
// the serial bridge.
//
// When an expander stops answering, the table reports a link-down event
// (hw.EventLink) and keeps polling; a link-up event follows when every
// expander answers again.
//
// # Pedal
//
// The pedal switch goes from a GPIO (pedal.pin, e.g. GPIO17, header pin 11)
// to ground with the pull-up on (pedal.pull = "up", pedal.active = "low"), or
// the other way round. It is sampled on the same poll as the keys, must hold
// its level for pedal.debounce (20 ms), and its debounced edges go through a
// hw.PedalClassifier (pedal.long, pedal.double) to become short, long and
// double presses (hw.EventPedal).
//
// # Datasheets
//
// WS2812B: https://cdn-shop.adafruit.com/datasheets/WS2812B.pdf
//
// MCP23017: https://ww1.microchip.com/downloads/en/devicedoc/20001952c.pdf
//
// Raspberry Pi SPI and I2C pins:
// https://www.raspberrypi.com/documentation/computers/raspberry-pi.html#gpio
//
// periph.io drivers: https://periph.io/device/ (nrzled, mcp23xxx).
package gpio
