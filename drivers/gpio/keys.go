package gpio

import (
	"errors"
	"fmt"
	"time"

	pgpio "periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/devices/v3/mcp23xxx"

	"wolftable/hw"
)

// MCP23017 registers (IOCON.BANK = 0, the power-on default).
const (
	regGPIOA = 0x12 // GPIOA, then GPIOB in a sequential read
)

// debouncer holds a level until a new one has lasted hold.
type debouncer struct {
	stable bool      // the level reported
	seen   bool      // the level last sampled
	since  time.Time // when seen was first sampled
}

// sample feeds the level at now; it reports whether the stable level changed.
func (d *debouncer) sample(level bool, now time.Time, hold time.Duration) bool {
	if level != d.seen {
		d.seen, d.since = level, now
	}
	if d.seen != d.stable && now.Sub(d.since) >= hold {
		d.stable = d.seen
		return true
	}
	return false
}

// expander is one MCP23017 and its mapped keys.
type expander struct {
	addr uint16
	dev  *i2c.Dev
	keys []mappedKey
}

type mappedKey struct {
	bit  uint16 // 1 << pin: GPA0..GPA7 are bits 0..7, GPB0..GPB7 bits 8..15
	seat int
	key  hw.Key
	deb  debouncer
}

// keyScanner polls the expanders and debounces every mapped key.
type keyScanner struct {
	expanders []*expander
	hold      time.Duration
	buf       [2]byte
}

// openKeys sets the mapped pins of every expander as inputs with pull-ups
// through mcp23xxx. The returned function releases the mcp23xxx devices
// (their pins leave periph's gpioreg); it is never nil.
func openKeys(bus i2c.Bus, g *hw.GPIOConfig) (*keyScanner, func() error, error) {
	var devs []*mcp23xxx.Dev
	release := func() error {
		var errs []error
		for _, d := range devs {
			errs = append(errs, d.Close())
		}
		devs = nil
		return errors.Join(errs...)
	}
	ks := &keyScanner{hold: g.KeyDebounce}
	for _, x := range g.Expanders {
		dev, err := mcp23xxx.NewI2C(bus, mcp23xxx.MCP23017, x.Address)
		if err != nil {
			return nil, release, fmt.Errorf("按鍵擴充晶片 %#x（%s 上）設定失敗，請檢查它的接線與位址：%w", x.Address, bus, err)
		}
		devs = append(devs, dev)
		e := &expander{addr: x.Address, dev: &i2c.Dev{Bus: bus, Addr: x.Address}}
		for _, k := range x.Keys {
			pin := dev.Pins[k.Pin/8][k.Pin%8]
			if err := pin.In(pgpio.PullUp, pgpio.NoEdge); err != nil {
				return nil, release, fmt.Errorf("按鍵擴充晶片 %#x 的腳位 %v（%d號 %v）設定失敗：%w", x.Address, k.Pin, k.Seat, k.Key, err)
			}
			e.keys = append(e.keys, mappedKey{bit: 1 << k.Pin, seat: k.Seat, key: k.Key})
		}
		ks.expanders = append(ks.expanders, e)
	}
	return ks, release, nil
}

// scan reads every expander once; it returns the keys whose debounced level
// changed, and the errors of the expanders that did not answer.
func (ks *keyScanner) scan(now time.Time) (evs []hw.KeyEvent, failed []error) {
	for _, e := range ks.expanders {
		if err := e.dev.Tx([]byte{regGPIOA}, ks.buf[:]); err != nil {
			failed = append(failed, fmt.Errorf("按鍵擴充晶片 %#x 沒有回應（請檢查它的接線與位址）：%w", e.addr, err))
			continue
		}
		levels := uint16(ks.buf[0]) | uint16(ks.buf[1])<<8
		for i := range e.keys {
			k := &e.keys[i]
			down := levels&k.bit == 0 // keys close to ground
			if k.deb.sample(down, now, ks.hold) {
				edge := hw.Up
				if down {
					edge = hw.Down
				}
				evs = append(evs, hw.KeyEvent{Seat: k.seat, Key: k.key, Edge: edge, At: now})
			}
		}
	}
	return evs, failed
}
