package gpio

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	pgpio "periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"

	"wolftable/hw"
)

// Deps are the buses and the pin the table uses, and its clock. Each one
// left nil is opened from the periph.io registries by its config name
// (gpio.spi, gpio.i2c, pedal.pin) after host.Init, and closed by Close;
// those given are the caller's to close.
type Deps struct {
	SPI   spi.Port    // the WS2812 chain's port
	I2C   i2c.Bus     // the expanders' bus (not needed without expanders)
	Pedal pgpio.PinIn // the pedal's pin (not needed when pedal.pin is "")

	// Tick drives the polling: each value received is one scan of the keys
	// and the pedal at that time. Nil means a time.Ticker every gpio.poll.
	// Tests send the times they want, and nothing sleeps.
	Tick <-chan time.Time

	Logger *slog.Logger // nil: slog.Default()
}

// Table implements hw.Table on the Pi's SPI, I2C and GPIO.
type Table struct {
	seats  int
	events chan hw.Event
	log    *slog.Logger
	cancel context.CancelFunc
	wg     sync.WaitGroup
	closes []func() error // in order, at Close

	lights *lights

	// Used by the poll loop only.
	keys      *keyScanner
	pedal     *pedalReader
	linkUp    bool
	linkCause string

	mu     sync.Mutex
	closed bool
}

var _ hw.Table = (*Table)(nil)

// Open opens the table described by cfg (mode "gpio"): it connects the
// lights (all off), sets up the expanders' pins and the pedal's pin, reports
// a link-up event, and starts polling.
func Open(cfg *hw.Config, d Deps) (t *Table, err error) {
	if cfg == nil {
		return nil, errors.New("gpio: no config")
	}
	if cfg.Mode != hw.ModeGPIO {
		return nil, fmt.Errorf("gpio: config mode is %q, not %q", cfg.Mode, hw.ModeGPIO)
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("gpio: %w", err)
	}
	g := &cfg.GPIO
	needKeys := len(g.Expanders) > 0
	needPedal := cfg.Pedal.Pin != "" || d.Pedal != nil
	if d.SPI == nil || (needKeys && d.I2C == nil) || (cfg.Pedal.Pin != "" && d.Pedal == nil) {
		if _, err := host.Init(); err != nil {
			return nil, fmt.Errorf("gpio: periph host init: %w", err)
		}
	}
	t = &Table{
		seats:  cfg.Seats,
		events: make(chan hw.Event, 64),
		log:    d.Logger,
		linkUp: true,
	}
	if t.log == nil {
		t.log = slog.Default()
	}
	// On failure, undo what was opened so far.
	defer func() {
		if err != nil {
			t.closeAll()
			t = nil
		}
	}()

	port := d.SPI
	if port == nil {
		pc, err := spireg.Open(g.SPI)
		if err != nil {
			return t, fmt.Errorf("gpio: 燈串：設定檔 [gpio] spi 的 SPI 埠 %q 打不開%s：%w", g.SPI, portHint(), err)
		}
		t.closes = append(t.closes, pc.Close)
		port = pc
	}
	if t.lights, err = openLights(port, cfg); err != nil {
		return t, err
	}
	t.closes = append([]func() error{t.lights.halt}, t.closes...)

	var bus i2c.Bus
	if needKeys {
		bus = d.I2C
		if bus == nil {
			bc, err := i2creg.Open(g.I2C)
			if err != nil {
				return t, fmt.Errorf("gpio: 按鍵：設定檔 [gpio] i2c 的 I2C 匯流排 %q 打不開%s：%w", g.I2C, busHint(), err)
			}
			t.closes = append(t.closes, bc.Close)
			bus = bc
		}
		ks, closeKeys, err := openKeys(bus, g)
		t.closes = append(t.closes, closeKeys)
		if err != nil {
			return t, err
		}
		t.keys = ks
	}

	if needPedal {
		pin := d.Pedal
		if pin == nil {
			p := gpioreg.ByName(cfg.Pedal.Pin)
			if p == nil {
				return t, fmt.Errorf("gpio: 踏板：設定檔 [pedal] pin 的腳位 %q 不存在%s", cfg.Pedal.Pin, pinHint())
			}
			pin = p
		}
		if t.pedal, err = openPedal(pin, &cfg.Pedal); err != nil {
			return t, err
		}
	}

	tick := d.Tick
	var ticker *time.Ticker
	if tick == nil {
		ticker = time.NewTicker(g.Poll)
		tick = ticker.C
	}
	t.emit(context.Background(), hw.Event{Kind: hw.EventLink, At: time.Now(), Link: hw.Link{Up: true, Detail: describe(cfg, port, bus)}})
	ctx, cancel := context.WithCancel(context.Background())
	t.cancel = cancel
	t.wg.Go(func() {
		if ticker != nil {
			defer ticker.Stop()
		}
		t.poll(ctx, tick)
	})
	return t, nil
}

// The hints below name what this machine has, for a technician who typed
// the wrong name in the config (they read Chinese; see docs/wiring.md).

// pinHint lists a few registered pin names.
func pinHint() string {
	var names []string
	for _, p := range gpioreg.All() {
		names = append(names, p.Name())
		if len(names) == 8 {
			names = append(names, "…")
			break
		}
	}
	if len(names) == 0 {
		return "（這台機器沒有登記任何 GPIO 腳位：這是 Raspberry Pi 嗎？）"
	}
	return "（這台機器的腳位：" + strings.Join(names, ", ") + "）"
}

// busHint lists the I2C buses by the numbers the config takes.
func busHint() string {
	var names []string
	for _, r := range i2creg.All() {
		if r.Number >= 0 {
			names = append(names, fmt.Sprintf("%q（%s）", fmt.Sprint(r.Number), r.Name))
		} else {
			names = append(names, fmt.Sprintf("%q", r.Name))
		}
	}
	if len(names) == 0 {
		return "（這台機器沒有 I2C 匯流排：Pi 的 I2C 開了嗎？config.txt 要有 dtparam=i2c_arm=on）"
	}
	return "（這台機器的 I2C 匯流排：" + strings.Join(names, ", ") + "）"
}

// portHint lists the SPI ports by the names the config takes.
func portHint() string {
	var names []string
	for _, r := range spireg.All() {
		n := r.Name
		if len(r.Aliases) > 0 {
			n = r.Aliases[0]
		}
		names = append(names, fmt.Sprintf("%q", n))
	}
	if len(names) == 0 {
		return "（這台機器沒有 SPI 埠：Pi 的 SPI 開了嗎？config.txt 要有 dtparam=spi=on）"
	}
	return "（這台機器的 SPI 埠：" + strings.Join(names, ", ") + "）"
}

func describe(cfg *hw.Config, port spi.Port, bus i2c.Bus) string {
	s := fmt.Sprintf("gpio: %d seats; lights on %s", cfg.Seats, port)
	if bus != nil {
		var addrs []string
		for _, x := range cfg.GPIO.Expanders {
			addrs = append(addrs, fmt.Sprintf("%#x", x.Address))
		}
		s += fmt.Sprintf("; keys on %s (%s)", bus, strings.Join(addrs, " "))
	}
	if cfg.Pedal.Pin != "" {
		s += "; pedal on " + cfg.Pedal.Pin
	}
	return s
}

// Seats implements hw.Table.
func (t *Table) Seats() int { return t.seats }

// Events implements hw.Table.
func (t *Table) Events() <-chan hw.Event { return t.events }

// ErrClosed is returned by a Table used after Close.
var ErrClosed = errors.New("gpio: table closed")

// SetLights implements hw.Table. It writes the whole chain at once.
func (t *Table) SetLights(l []hw.SeatLight) error {
	if len(l) != t.seats {
		return fmt.Errorf("gpio: SetLights: %d lights for %d seats", len(l), t.seats)
	}
	t.mu.Lock()
	closed := t.closed
	t.mu.Unlock()
	if closed {
		return ErrClosed
	}
	return t.lights.set(l)
}

// Close implements hw.Table: it stops polling, turns the lights off,
// releases the expanders and closes what Open opened. Closing twice is
// harmless.
func (t *Table) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	t.mu.Unlock()
	t.cancel()
	t.wg.Wait()
	err := t.closeAll()
	close(t.events)
	return err
}

func (t *Table) closeAll() error {
	var errs []error
	for _, f := range t.closes {
		errs = append(errs, f())
	}
	t.closes = nil
	return errors.Join(errs...)
}

// poll scans the keys and the pedal on every tick until ctx is done.
func (t *Table) poll(ctx context.Context, tick <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case now, ok := <-tick:
			if !ok {
				return
			}
			t.scan(ctx, now)
		}
	}
}

// scan is one poll at time now.
func (t *Table) scan(ctx context.Context, now time.Time) {
	if t.keys != nil {
		evs, failed := t.keys.scan(now)
		for _, ev := range evs {
			t.emit(ctx, hw.Event{Kind: hw.EventKey, At: now, Key: ev})
		}
		t.setLink(ctx, now, failed)
	}
	if t.pedal != nil {
		for _, p := range t.pedal.scan(now) {
			t.emit(ctx, hw.Event{Kind: hw.EventPedal, At: now, Pedal: p})
		}
	}
	if err := t.lights.pulse(now); err != nil {
		t.log.Warn("gpio: lights", "err", err)
	}
}

// setLink reports the expanders' link going down or coming back.
func (t *Table) setLink(ctx context.Context, now time.Time, failed []error) {
	if len(failed) > 0 {
		cause := errors.Join(failed...).Error()
		cause = strings.ReplaceAll(cause, "\n", "；")
		if t.linkUp || cause != t.linkCause {
			if t.linkUp {
				t.log.Warn("gpio: keys: expanders not answering", "err", cause)
			}
			t.linkUp, t.linkCause = false, cause
			t.emit(ctx, hw.Event{Kind: hw.EventLink, At: now, Link: hw.Link{Up: false, Detail: cause}})
		}
		return
	}
	if !t.linkUp {
		t.linkUp, t.linkCause = true, ""
		t.log.Info("gpio: keys: expanders answering again")
		t.emit(ctx, hw.Event{Kind: hw.EventLink, At: now, Link: hw.Link{Up: true, Detail: "按鍵擴充晶片全部恢復回應"}})
	}
}

// emit delivers an event; it only waits for room while the table is open.
func (t *Table) emit(ctx context.Context, ev hw.Event) {
	select {
	case t.events <- ev:
		return
	default:
	}
	select {
	case t.events <- ev:
	case <-ctx.Done():
	}
}
