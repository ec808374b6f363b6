// Package machine is a stand-in for TinyGo's machine package (target pico,
// -serial=usb) for the firmware's compile check: the declarations
// cmd/pico uses, with the signatures of TinyGo v0.33.0. It is never run.
package machine

// machine.go
const (
	KHz = 1000
	MHz = 1000_000
)

type PinMode uint8

type PinConfig struct {
	Mode PinMode
}

type Pin uint8

func (p Pin) High() {}
func (p Pin) Low()  {}

// machine_rp2040_gpio.go
const (
	PinOutput PinMode = iota
	PinInput
	PinInputPulldown
	PinInputPullup
	PinAnalog
	PinUART
	PinPWM
	PinI2C
	PinSPI
	PinPIO0
	PinPIO1
)

func (p Pin) Configure(config PinConfig) {}
func (p Pin) Set(value bool)             {}
func (p Pin) Get() bool                  { return false }

// machine_rp2040_pins.go
const (
	GPIO0  Pin = 0
	GPIO1  Pin = 1
	GPIO2  Pin = 2
	GPIO3  Pin = 3
	GPIO4  Pin = 4
	GPIO5  Pin = 5
	GPIO6  Pin = 6
	GPIO7  Pin = 7
	GPIO8  Pin = 8
	GPIO9  Pin = 9
	GPIO10 Pin = 10
	GPIO11 Pin = 11
	GPIO12 Pin = 12
	GPIO13 Pin = 13
	GPIO14 Pin = 14
	GPIO15 Pin = 15
	GPIO16 Pin = 16
	GPIO17 Pin = 17
	GPIO18 Pin = 18
	GPIO19 Pin = 19
	GPIO20 Pin = 20
	GPIO21 Pin = 21
	GPIO22 Pin = 22
	GPIO23 Pin = 23
	GPIO24 Pin = 24
	GPIO25 Pin = 25
	GPIO26 Pin = 26
	GPIO27 Pin = 27
	GPIO28 Pin = 28
	GPIO29 Pin = 29
)

// board_pico.go
const (
	// Onboard LED
	LED Pin = GPIO25
)

// machine_rp2040_clocks.go
func CPUFrequency() uint32 {
	return 125 * MHz
}

// serial.go
type UARTConfig struct {
	BaudRate uint32
	TX       Pin
	RX       Pin
	RTS      Pin
	CTS      Pin
}

// usb.go
type Serialer interface {
	WriteByte(c byte) error
	Write(data []byte) (n int, err error)
	Configure(config UARTConfig) error
	Buffered() int
	ReadByte() (byte, error)
	DTR() bool
	RTS() bool
}

// serial-usb.go (build tags baremetal && serial.usb)
var Serial Serialer

// watchdog.go
type WatchdogConfig struct {
	TimeoutMillis uint32
}

// machine_rp2040_watchdog.go
var Watchdog = &watchdogImpl{}

const WatchdogMaxTimeout = (0x00ffffff / 1000) / 2

type watchdogImpl struct {
	loadValue uint32
}

func (wd *watchdogImpl) Configure(config WatchdogConfig) error { return nil }
func (wd *watchdogImpl) Start() error                          { return nil }
func (wd *watchdogImpl) Update()                               {}
