package selftest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/host/v3"

	"wolftable/drivers/gpio"
	"wolftable/hw"
)

// VirtualTarget is the virtual table (hw/virtual) or any other hw.Table
// opened by the caller: there is no hardware link to check.
type VirtualTarget struct {
	Table  hw.Table
	Detail string // e.g. "virtual table (interactive)"
}

var _ Target = (*VirtualTarget)(nil)

// Mode implements Target.
func (v *VirtualTarget) Mode() string { return string(hw.ModeVirtual) }

// CheckLink implements Target.
func (v *VirtualTarget) CheckLink(context.Context) (Features, []Check, bool) {
	n := v.Table.Seats()
	keys := make([][]hw.Key, n)
	for i := range keys {
		keys[i] = hw.Keys()
	}
	f := Features{Table: v.Detail, Seats: n, Private: true, Pedal: true, Keys: keys}
	return f, []Check{{Name: "table", Status: Pass, Detail: v.Detail + "：沒有硬體連線可測"}}, true
}

// Open implements Target.
func (v *VirtualTarget) Open(context.Context) (hw.Table, error) { return v.Table, nil }

// AfterOpen implements Target.
func (v *VirtualTarget) AfterOpen(context.Context, hw.Table) []Check { return nil }

// Finish implements Target.
func (v *VirtualTarget) Finish(hw.Table) []Check { return nil }

// GPIOTarget is a table on the Pi's own pins (drivers/gpio).
type GPIOTarget struct {
	Config *hw.Config // mode gpio
	Soak   time.Duration
	// Deps are passed to gpio.Open; with Deps.I2C set the expanders are
	// probed on it, otherwise on the bus the config names (host.Init).
	Deps gpio.Deps
}

var _ Target = (*GPIOTarget)(nil)

// Mode implements Target.
func (g *GPIOTarget) Mode() string { return string(hw.ModeGPIO) }

// CheckLink implements Target: the I2C bus opens and every expander
// answers at its address; the pedal's pin exists.
func (g *GPIOTarget) CheckLink(ctx context.Context) (Features, []Check, bool) {
	c := g.Config
	f := Features{Table: fmt.Sprintf("Pi 的腳位（GPIO）：燈串在 %s，按鍵在 I2C 匯流排 %s", c.GPIO.SPI, c.GPIO.I2C), Seats: c.Seats,
		Private: c.GPIO.PrivateLED, Pedal: c.Pedal.Pin != "" || g.Deps.Pedal != nil}
	if !f.Pedal {
		f.NoPedal = "設定檔沒有踏板腳位（`[pedal] pin`）：請寫上踏板接的腳位"
	}
	f.Keys = make([][]hw.Key, c.Seats)
	for _, x := range c.GPIO.Expanders {
		for _, k := range x.Keys {
			if k.Seat >= 1 && k.Seat <= c.Seats {
				f.Keys[k.Seat-1] = append(f.Keys[k.Seat-1], k.Key)
			}
		}
	}
	for i := range f.Keys {
		slices.Sort(f.Keys[i])
	}
	var checks []Check
	needHost := g.Deps.SPI == nil || (len(c.GPIO.Expanders) > 0 && g.Deps.I2C == nil) || (c.Pedal.Pin != "" && g.Deps.Pedal == nil)
	if needHost {
		if _, err := host.Init(); err != nil {
			return f, append(checks, Check{Name: "host", Status: Fail, Detail: "主機的腳位驅動（periph）無法啟動：" + err.Error()}), false
		}
	}
	if len(c.GPIO.Expanders) > 0 {
		bus := g.Deps.I2C
		if bus == nil {
			bc, err := i2creg.Open(c.GPIO.I2C)
			if err != nil {
				return f, append(checks, Check{Name: "i2c bus", Status: Fail, Detail: fmt.Sprintf("I2C 匯流排 %q 打不開：%v", c.GPIO.I2C, err)}), false
			}
			defer bc.Close()
			bus = bc
		}
		checks = append(checks, Check{Name: "i2c bus", Status: Pass, Detail: fmt.Sprintf("%s 已打開", bus)})
		checks = append(checks, ProbeExpanders(bus, c.GPIO.Expanders)...)
	} else {
		checks = append(checks, Check{Name: "expanders", Status: Skip, Detail: "設定檔沒有按鍵擴充晶片（[[gpio.expanders]]）"})
	}
	if c.Pedal.Pin != "" && g.Deps.Pedal == nil {
		if p := gpioreg.ByName(c.Pedal.Pin); p == nil {
			checks = append(checks, Check{Name: "pedal pin", Status: Fail, Detail: fmt.Sprintf("沒有叫 %q 的 GPIO 腳位：請檢查設定檔 [pedal] pin", c.Pedal.Pin)})
		} else {
			checks = append(checks, Check{Name: "pedal pin", Status: Pass, Detail: p.Name()})
		}
	}
	ok := true
	for _, ch := range checks {
		ok = ok && ch.Status.OK()
	}
	return f, checks, ok
}

// ProbeExpanders reads each MCP23017's GPIOA/GPIOB registers at its
// address: the expanders that do not answer fail, by address.
func ProbeExpanders(bus i2c.Bus, xs []hw.Expander) []Check {
	var checks []Check
	for _, x := range xs {
		name := fmt.Sprintf("expander %#x", x.Address)
		d := &i2c.Dev{Bus: bus, Addr: x.Address}
		var buf [2]byte
		if err := d.Tx([]byte{0x12}, buf[:]); err != nil {
			var seats []string
			for _, k := range x.Keys {
				seats = append(seats, fmt.Sprintf("%d號 %v", k.Seat, k.Key))
			}
			checks = append(checks, Check{Name: name, Status: Fail, Detail: fmt.Sprintf("沒有回應，請檢查它的接線與位址（它的按鍵：%s）：%v", strings.Join(seats, "、"), err)})
			continue
		}
		checks = append(checks, Check{Name: name, Status: Pass, Detail: fmt.Sprintf("有回應；接了 %d 個按鍵", len(x.Keys))})
	}
	return checks
}

// Open implements Target.
// The driver's error follows a Chinese sentence, raw (what a technician
// would search for).
func (g *GPIOTarget) Open(context.Context) (hw.Table, error) {
	tb, err := gpio.Open(g.Config, g.Deps)
	if err != nil {
		return tb, fmt.Errorf("這台 Pi 的腳位打不開，請檢查設定檔 [gpio] 與接線：%w", err)
	}
	return tb, nil
}

// AfterOpen implements Target: the lights are written back to back for
// the soak; the table's link events (an expander that stops answering)
// are counted by the runner.
func (g *GPIOTarget) AfterOpen(ctx context.Context, tb hw.Table) []Check {
	if g.Soak <= 0 {
		return nil
	}
	n := tb.Seats()
	start := time.Now()
	frames, fails := 0, 0
	var firstErr error
	for i := 0; time.Since(start) < g.Soak && ctx.Err() == nil; i++ {
		frame := make([]hw.SeatLight, n)
		for s := range frame {
			frame[s] = hw.SeatLight{Color: hw.Color(1 + (i+s)%3), Brightness: uint8(16 + (i*7+s*13)%240)}
		}
		if err := tb.SetLights(frame); err != nil {
			fails++
			if firstErr == nil {
				firstErr = err
			}
		}
		frames++
	}
	tb.SetLights(make([]hw.SeatLight, n))
	took := time.Since(start)
	c := Check{Name: "soak", Status: Pass, Detail: fmt.Sprintf("全速燈號幀 %v：寫出 %d（每秒 %.0f 幀），%d 幀失敗",
		g.Soak, frames, float64(frames)/took.Seconds(), fails)}
	if fails > 0 {
		c.Status = Fail
		c.Detail += "：" + firstErr.Error()
	}
	return []Check{c}
}

// Finish implements Target.
func (g *GPIOTarget) Finish(hw.Table) []Check { return nil }
