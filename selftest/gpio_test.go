package selftest

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	pgpio "periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/pin"
	"periph.io/x/conn/v3/spi/spitest"

	"wolftable/drivers/gpio"
	"wolftable/hw"
)

// mcpBus is an I2C bus of MCP23017s as registers: sequential reads and
// writes from the addressed register; GPIOA/GPIOB (0x12, 0x13) read the
// pins, low where a key is closed.
type mcpBus struct {
	mu      sync.Mutex
	regs    map[uint16]*[0x16]byte
	pressed map[uint16]uint16
	scans   map[uint16]int // reads of GPIOA/GPIOB: the driver's polls
}

func newMCPBus(addrs ...uint16) *mcpBus {
	b := &mcpBus{regs: map[uint16]*[0x16]byte{}, pressed: map[uint16]uint16{}, scans: map[uint16]int{}}
	for _, a := range addrs {
		r := &[0x16]byte{}
		r[0x00], r[0x01] = 0xFF, 0xFF // IODIR: inputs at power-on
		b.regs[a] = r
	}
	return b
}

func (b *mcpBus) String() string                  { return "I2C-fake" }
func (b *mcpBus) SetSpeed(physic.Frequency) error { return nil }
func (b *mcpBus) Tx(addr uint16, w, r []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	regs := b.regs[addr]
	if regs == nil {
		return errors.New("i2c: no ACK")
	}
	if len(w) == 0 {
		return errors.New("i2c: no register")
	}
	reg := int(w[0])
	for i, v := range w[1:] {
		regs[(reg+i)%len(regs)] = v
	}
	levels := ^b.pressed[addr]
	if reg == 0x12 && len(r) > 0 {
		b.scans[addr]++
	}
	for i := range r {
		switch rr := (reg + i) % len(regs); rr {
		case 0x12:
			r[i] = byte(levels)
		case 0x13:
			r[i] = byte(levels >> 8)
		default:
			r[i] = regs[rr]
		}
	}
	return nil
}

// set closes or opens a pin and holds it for n of the driver's polls (a
// finger holds a key until it clicks, however late the polls come), or
// until ctx is done.
func (b *mcpBus) set(ctx context.Context, addr uint16, pin hw.ExpanderPin, closed bool, n int) {
	b.mu.Lock()
	if closed {
		b.pressed[addr] |= 1 << pin
	} else {
		b.pressed[addr] &^= 1 << pin
	}
	until := b.scans[addr] + n
	b.mu.Unlock()
	for ctx.Err() == nil {
		b.mu.Lock()
		done := b.scans[addr] >= until
		b.mu.Unlock()
		if done {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// scanClock drives the gpio driver's scans (gpio.Deps.Tick) on a clock of
// its own: each scan is one poll period after the last on it, however long
// the real time between. A press held for so long on this clock is that
// long to the driver's debounce and pedal timing, on a busy machine too.
type scanClock struct {
	tick chan time.Time

	mu    sync.Mutex
	now   time.Time
	moved chan struct{} // closed, and replaced, at each scan
}

func startScanClock(t *testing.T, poll time.Duration) *scanClock {
	c := &scanClock{tick: make(chan time.Time), now: time.Now(), moved: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	go func() {
		defer close(done)
		for {
			c.mu.Lock()
			next := c.now.Add(poll)
			c.mu.Unlock()
			select {
			case <-ctx.Done():
				return
			case c.tick <- next:
			}
			c.mu.Lock()
			c.now = next
			close(c.moved)
			c.moved = make(chan struct{})
			c.mu.Unlock()
			time.Sleep(time.Millisecond) // the scans need not be back to back
		}
	}()
	return c
}

// wait waits until the clock has moved on by d (or ctx is done).
func (c *scanClock) wait(ctx context.Context, d time.Duration) {
	c.mu.Lock()
	until := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		now, moved := c.now, c.moved
		c.mu.Unlock()
		if !now.Before(until) {
			return
		}
		select {
		case <-moved:
		case <-ctx.Done():
			return
		}
	}
}

// footPin is the pedal's GPIO: high (pull-up) until the foot is on it.
type footPin struct {
	mu   sync.Mutex
	down bool
}

var _ pgpio.PinIn = (*footPin)(nil)

func (p *footPin) String() string                  { return "GPIO17" }
func (p *footPin) Halt() error                     { return nil }
func (p *footPin) Name() string                    { return "GPIO17" }
func (p *footPin) Number() int                     { return 17 }
func (p *footPin) Function() string                { return string(p.Func()) }
func (p *footPin) Func() pin.Func                  { return pgpio.IN }
func (p *footPin) In(pgpio.Pull, pgpio.Edge) error { return nil }
func (p *footPin) WaitForEdge(time.Duration) bool  { return false }
func (p *footPin) Pull() pgpio.Pull                { return pgpio.PullUp }
func (p *footPin) DefaultPull() pgpio.Pull         { return pgpio.PullUp }
func (p *footPin) Read() pgpio.Level {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !pgpio.Level(p.down)
}

// gpioTech is a technician at a GPIO table of fakes: its fingers close the
// expanders' pins and its foot pulls the pedal's pin low.
type gpioTech struct {
	bus   *mcpBus
	pedal *footPin
	cfg   *hw.Config
	clock *scanClock // the driver's scans
}

func (g *gpioTech) Name() string { return "測試用的技術人員（GPIO）" }
func (g *gpioTech) Pace() Pace {
	return Pace{Answer: 3 * time.Second, Settle: 300 * time.Millisecond, Quiet: 50 * time.Millisecond}
}
func (g *gpioTech) LookAt(context.Context, int, []hw.SeatLight) error { return nil }
func (g *gpioTech) JudgeLights(ctx context.Context, _ int) error {
	return g.PressPedal(ctx, hw.PedalShort)
}
func (g *gpioTech) Listen(ctx context.Context) error { return g.PressPedal(ctx, hw.PedalShort) }

// foot puts the foot down or lifts it for d of the driver's scans.
func (g *gpioTech) foot(ctx context.Context, down bool, d time.Duration) {
	g.pedal.mu.Lock()
	g.pedal.down = down
	g.pedal.mu.Unlock()
	g.clock.wait(ctx, d)
}

func (g *gpioTech) PressPedal(ctx context.Context, p hw.PedalPress) error {
	switch p {
	case hw.PedalShort:
		g.foot(ctx, true, 150*time.Millisecond)
	case hw.PedalLong:
		g.foot(ctx, true, 1200*time.Millisecond)
	case hw.PedalDouble:
		g.foot(ctx, true, 100*time.Millisecond)
		g.foot(ctx, false, 150*time.Millisecond)
		g.foot(ctx, true, 100*time.Millisecond)
	}
	g.foot(ctx, false, 50*time.Millisecond)
	return ctx.Err()
}

func (g *gpioTech) PressKeys(ctx context.Context, seat int, keys []hw.Key) error {
	for _, k := range keys {
		for _, x := range g.cfg.GPIO.Expanders {
			for _, kp := range x.Keys {
				if kp.Seat == seat && kp.Key == k {
					// 10 ms of debounce at 5 ms polls: 3 polls; 5 to be sure
					g.bus.set(ctx, x.Address, kp.Pin, true, 5)
					g.bus.set(ctx, x.Address, kp.Pin, false, 5)
				}
			}
		}
	}
	return nil
}

// gpioConfig: 6 seats; expander 0x20 has seat 1's OK and UP and seat 2's
// OK, expander 0x21 seat 3's OK.
func gpioTestConfig() *hw.Config {
	c := hw.DefaultConfig()
	c.Mode, c.Seats = hw.ModeGPIO, 6
	c.GPIO.Expanders = []hw.Expander{
		{Address: 0x20, Keys: []hw.KeyPin{{Pin: 0, Seat: 1, Key: hw.KeyOK}, {Pin: 1, Seat: 1, Key: hw.KeyUp}, {Pin: 15, Seat: 2, Key: hw.KeyOK}}},
		{Address: 0x21, Keys: []hw.KeyPin{{Pin: 0, Seat: 3, Key: hw.KeyOK}}},
	}
	return c
}

// TestGPIOTable runs the self-test on the gpio driver over fake buses: the
// expanders answer, the soak writes the SPI port, the keys the config maps
// and the pedal go through the driver's polling and debouncing.
func TestGPIOTable(t *testing.T) {
	t.Parallel()
	cfg := gpioTestConfig()
	bus := newMCPBus(0x20, 0x21)
	pin := &footPin{}
	port := &spitest.Record{}
	clock := startScanClock(t, cfg.GPIO.Poll)
	target := &GPIOTarget{Config: cfg, Soak: 100 * time.Millisecond, Deps: gpio.Deps{SPI: port, I2C: bus, Pedal: pin, Tick: clock.tick}}
	rep := Run(context.Background(), Options{Target: target, Technician: &gpioTech{bus: bus, pedal: pin, cfg: cfg, clock: clock}, Soak: target.Soak})
	if !rep.Passed {
		t.Fatalf("problems: %+v", rep.Problems)
	}
	var link []string
	for _, c := range rep.Component(CompLink).Checks {
		link = append(link, c.Name+": "+c.Detail)
	}
	got := strings.Join(link, "\n")
	for _, want := range []string{"i2c bus: I2C-fake 已打開", "expander 0x20: 有回應；接了 3 個按鍵", "expander 0x21: 有回應；接了 1 個按鍵", "soak: 全速燈號幀 100ms"} {
		if !strings.Contains(got, want) {
			t.Errorf("link checks lack %q:\n%s", want, got)
		}
	}
	if k := rep.Seat(1).Keys; k.Status != Pass || strings.Join(k.Expected, " ") != "OK UP" || k.Presses["UP"] != 1 {
		t.Errorf("seat 1 keys: %+v", k)
	}
	if k := rep.Seat(4).Keys; k.Status != Skip || k.Detail != "這個座位沒有接按鍵" {
		t.Errorf("seat 4 keys: %+v", k)
	}
}

func TestGPIOExpanderMissing(t *testing.T) {
	t.Parallel()
	cfg := gpioTestConfig()
	bus := newMCPBus(0x20) // 0x21 does not answer
	pin := &footPin{}
	clock := startScanClock(t, cfg.GPIO.Poll)
	target := &GPIOTarget{Config: cfg, Deps: gpio.Deps{SPI: &spitest.Record{}, I2C: bus, Pedal: pin, Tick: clock.tick}}
	rep := Run(context.Background(), Options{Target: target, Technician: &gpioTech{bus: bus, pedal: pin, cfg: cfg, clock: clock}})
	if rep.Passed || len(rep.Problems) == 0 {
		t.Fatal("passed with an expander missing")
	}
	if p := rep.Problems[0]; p.Component != CompLink || !strings.HasPrefix(p.Message, "擴充晶片 0x21：沒有回應") || !strings.Contains(p.Message, "它的按鍵：3號 OK") {
		t.Errorf("first problem: %+v", p)
	}
	if rep.Component(CompKeys).Status != NotRun {
		t.Errorf("keys: %s", rep.Component(CompKeys).Status)
	}
}
