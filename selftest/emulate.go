package selftest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"wolftable/firmware-bridge/emulator"
	"wolftable/firmware-bridge/protocol"
	"wolftable/hw"
)

// Bench is the emulated table of `wolftable selftest --emulate`: the bridge
// firmware's emulator behind a real pseudo-terminal (with private LEDs and
// the pedal), the faults it was given, and, unless the speaker is the
// machine's own, an emulated sound card. The serial driver opens its Path
// like a real bridge.
type Bench struct {
	Emu    *emulator.Emulator
	Card   *SoundCard // nil: the machine's own sound device
	Faults []Fault

	dir  string
	link string
	lag  Lag // the robot's waits are counted in the host's running time

	mu      sync.Mutex
	sent    map[sentKey]int // key event frames the firmware sent (not retransmissions)
	changed chan struct{}   // closed, and replaced, on each
}

type sentKey struct {
	seat int
	key  protocol.Key
	edge protocol.Edge
}

// BenchConfig describes the emulated table.
type BenchConfig struct {
	Seats  int     // 6…18
	Faults []Fault // what is broken
	// SystemSpeaker plays on the machine's own sound device instead of an
	// emulated card (the robot cannot hear it then).
	SystemSpeaker bool
	Logger        *slog.Logger
	// Lag measures the host's stalls, which lengthen the robot's waits (a
	// finger waiting for a click, an eye for a light); nil: none measured.
	Lag Lag
}

// soundPointed is set once a bench has pointed this process's ALSA at its
// own configuration. ALSA reads it when the process first opens the sound
// device and the device stays open until the process ends, so a second
// bench's card would never hear the test line: its technician would
// report a good speaker as silent. A second such bench is refused.
var soundPointed sync.Once

// errSoundPointed is the second bench's refusal.
var errSoundPointed = errors.New("selftest: emulate: this process's sound already goes to an earlier emulated bench; run each emulated self-test in its own process")

// StartBench starts the emulated table in a new temporary directory. For
// the emulated card (or the no-speaker fault) it points this process's
// ALSA at its own configuration (ALSA_CONFIG_PATH): it must run before the
// process opens the sound device, and only once in a process.
func StartBench(ctx context.Context, c BenchConfig) (*Bench, error) {
	if c.Seats < hw.MinSeats || c.Seats > hw.MaxSeats {
		return nil, fmt.Errorf("selftest: emulate: %d seats is out of range %d..%d", c.Seats, hw.MinSeats, hw.MaxSeats)
	}
	for _, f := range c.Faults {
		if f.Kind.needsSeat() && (f.Seat < 1 || f.Seat > c.Seats) {
			return nil, fmt.Errorf("selftest: fault %v: the table has seats 1..%d", f, c.Seats)
		}
	}
	if !c.SystemSpeaker && !pointSound() {
		return nil, errSoundPointed
	}
	dir, err := os.MkdirTemp("", "wolftable-selftest-")
	if err != nil {
		return nil, err
	}
	b := &Bench{Faults: c.Faults, dir: dir, link: filepath.Join(dir, "bridge"),
		sent: map[sentKey]int{}, changed: make(chan struct{}), lag: c.Lag}
	if b.lag == nil {
		b.lag = noLag{}
	}
	logger := c.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	b.Emu, err = emulator.Start(ctx, emulator.Config{
		Link: b.link, Seats: c.Seats, PrivateLEDs: true, Logger: logger,
		OnKeySent: b.onKeySent,
	})
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("selftest: emulate: %w", err)
	}
	noSpeaker := false
	for _, f := range c.Faults {
		err = nil
		switch f.Kind {
		case FaultDeadLED:
			err = b.Emu.SetDeadLED(f.Seat, true)
		case FaultMissingKey:
			err = b.Emu.SetKeyFault(f.Seat, protoKey(f.Key), emulator.KeyMissing)
		case FaultStuckKey:
			err = b.Emu.SetKeyFault(f.Seat, protoKey(f.Key), emulator.KeyStuck)
		case FaultBouncyKey:
			// The emulator's bouncy contact chatters for 3 ms, which the
			// firmware's 5 ms debounce absorbs (that is what the debounce
			// is for). A key the technician must replace is a worn one
			// whose contact closes again after the debounce has taken the
			// release: one touch, two presses, dated by the bridge.
			err = b.Emu.SetKeyFault(f.Seat, protoKey(f.Key), emulator.KeyWorn)
		case FaultNoLink:
			err = b.Emu.Unplug()
		case FaultNoSpeaker:
			noSpeaker = true
		}
		if err != nil {
			b.Close()
			return nil, fmt.Errorf("selftest: fault %v: %w", f, err)
		}
	}
	switch {
	case noSpeaker:
		conf := filepath.Join(dir, "asound-nodevice.conf")
		if err := os.WriteFile(conf, []byte(alsaNoDevice), 0o600); err != nil {
			b.Close()
			return nil, err
		}
		os.Setenv("ALSA_CONFIG_PATH", conf)
	case !c.SystemSpeaker:
		if b.Card, err = StartSoundCard(dir); err != nil {
			b.Close()
			return nil, err
		}
		os.Setenv("ALSA_CONFIG_PATH", b.Card.Config())
	}
	return b, nil
}

// pointSound claims this process's sound for a bench: false if an earlier
// bench has it.
func pointSound() bool {
	first := false
	soundPointed.Do(func() { first = true })
	return first
}

// Path is where the serial driver opens the emulated bridge.
func (b *Bench) Path() string { return b.link }

// Close stops the emulator and removes the directory. The emulated sound
// card keeps reading until the process ends: the process's sound device
// cannot be closed.
func (b *Bench) Close() error {
	b.Emu.Close()
	return os.RemoveAll(b.dir)
}

func (b *Bench) onKeySent(ev protocol.KeyEvent, retransmit bool, _ time.Time) {
	if retransmit {
		return
	}
	b.mu.Lock()
	b.sent[sentKey{int(ev.Seat), ev.Key, ev.Edge}]++
	close(b.changed)
	b.changed = make(chan struct{})
	b.mu.Unlock()
}

// waitSent waits until the firmware has sent seat's key's edge more than n
// times, or d of the host's running time passes (a missing or stuck key
// never sends).
func (b *Bench) waitSent(ctx context.Context, k sentKey, n int, d time.Duration) bool {
	wctx, cancel := patient(b.lag, d).context(ctx)
	defer cancel()
	for {
		b.mu.Lock()
		got, ch := b.sent[k], b.changed
		b.mu.Unlock()
		if got > n {
			return true
		}
		select {
		case <-ch:
		case <-wctx.Done():
			return false
		}
	}
}

func (b *Bench) sentCount(k sentKey) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sent[k]
}

// touchWait bounds how long a finger waits for a key to click, in the
// host's running time.
const touchWait = 300 * time.Millisecond

// Touch is a finger on seat's key: pressed until the firmware has sent the
// press (a key that never clicks is given touchWait), then lifted until it
// has sent the release. A worn contact (KeyWorn) closes once more by
// itself as the finger leaves it.
func (b *Bench) Touch(ctx context.Context, seat int, key hw.Key) error {
	k := protoKey(key)
	down := sentKey{seat, k, protocol.EdgeDown}
	n := b.sentCount(down)
	if err := b.Emu.Press(seat, k); err != nil {
		return err
	}
	b.waitSent(ctx, down, n, touchWait)
	up := sentKey{seat, k, protocol.EdgeUp}
	n = b.sentCount(up)
	if err := b.Emu.Release(seat, k); err != nil {
		return err
	}
	b.waitSent(ctx, up, n, touchWait)
	return ctx.Err()
}

func protoKey(k hw.Key) protocol.Key {
	pk, _ := protocol.ParseKey(k.String())
	return pk
}

// Robot is the emulated run's technician: it presses the emulator's keys
// and pedal, reads its LEDs back, listens at the emulated sound card, and
// answers on the pedal as a person would. It knows nothing of the faults.
type Robot struct {
	b *Bench

	mu     sync.Mutex
	wrong  map[int][]seenWrong // seat → what looked wrong
	judged map[int]bool
}

var (
	_ Technician = (*Robot)(nil)
	_ Noter      = (*Robot)(nil)
)

// NewRobot returns the technician of bench b.
func NewRobot(b *Bench) *Robot {
	return &Robot{b: b, wrong: map[int][]seenWrong{}, judged: map[int]bool{}}
}

// Name implements Technician.
func (*Robot) Name() string {
	return "機器人（模擬：按模擬器的鍵與踏板，讀回它的燈號，聽模擬的音效卡）"
}

// Pace implements Technician.
func (*Robot) Pace() Pace {
	// Touch returns once the firmware has sent every edge: little is
	// still on its way when PressKeys returns.
	return Pace{Dwell: 0, Answer: 5 * time.Second, Settle: 500 * time.Millisecond, Quiet: 50 * time.Millisecond}
}

// lookWait bounds how long the robot watches for a light to come on, in
// the host's running time.
const lookWait = 300 * time.Millisecond

// colorOf names an LED's colour as the eye would.
func colorOf(c emulator.RGB) string {
	switch {
	case c == emulator.RGB{}:
		return "off"
	case c.R > 0 && c.G == 0 && c.B == 0:
		return "red"
	case c.G > 0 && c.R == 0 && c.B == 0:
		return "green"
	case c.B > 0 && c.R == 0 && c.G == 0:
		return "blue"
	}
	return fmt.Sprintf("rgb(%d,%d,%d)", c.R, c.G, c.B)
}

// LookAt implements Technician: the LEDs must show want, number lights and
// private indicators, every seat.
func (rb *Robot) LookAt(ctx context.Context, seat int, want []hw.SeatLight) error {
	rb.mu.Lock()
	judged := rb.judged[seat]
	rb.mu.Unlock()
	if judged {
		return nil
	}
	match := func(l []emulator.RGB) bool {
		if len(l) != len(want) {
			return false
		}
		for i := range l {
			if colorOf(l[i]) != want[i].Color.String() {
				return false
			}
		}
		return true
	}
	lctx, cancel := patient(rb.b.lag, lookWait).context(ctx)
	rb.b.Emu.WaitLights(lctx, match)
	cancel()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	step := want[seat-1].Color.String()
	if want[seat-1].Private {
		step = "private"
	}
	var seen []string
	for i, l := range rb.b.Emu.Lights() {
		if got, w := colorOf(l), want[i].Color.String(); got != w {
			seen = append(seen, fmt.Sprintf("座位 %d 顯示%s", i+1, zhLight(got)))
		}
	}
	// The private indicators: on where wanted, off elsewhere.
	look := patient(rb.b.lag, lookWait)
	for {
		var bad []string
		priv := rb.b.Emu.PrivateLights()
		for i := range want {
			on := i < len(priv) && priv[i] != emulator.RGB{}
			if on != want[i].Private {
				state := "滅"
				if on {
					state = "亮"
				}
				bad = append(bad, fmt.Sprintf("座位 %d 的私人指示燈%s", i+1, state))
			}
		}
		if len(bad) == 0 || look.over() {
			seen = append(seen, bad...)
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if len(seen) > 0 {
		rb.mu.Lock()
		for _, o := range seen {
			rb.wrong[seat] = append(rb.wrong[seat], seenWrong{step, o})
		}
		rb.mu.Unlock()
	}
	return nil
}

// seenWrong is something the robot saw wrong at a step of a lights walk.
type seenWrong struct{ step, what string }

// JudgeLights implements Technician: a short press if every step looked
// right, a long one if not.
func (rb *Robot) JudgeLights(ctx context.Context, seat int) error {
	rb.mu.Lock()
	rb.judged[seat] = true
	bad := len(rb.wrong[seat]) > 0
	rb.mu.Unlock()
	p := emulator.PedalShort
	if bad {
		p = emulator.PedalLong
	}
	return rb.b.Emu.Pedal(ctx, p)
}

// LightsNote implements Noter.
func (rb *Robot) LightsNote(seat int) string {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	if len(rb.wrong[seat]) == 0 {
		return ""
	}
	// "座位 5 顯示滅（步驟：紅、綠、藍、私人指示燈）"
	var order []string
	steps := map[string][]string{}
	for _, w := range rb.wrong[seat] {
		if _, ok := steps[w.what]; !ok {
			order = append(order, w.what)
		}
		if !slices.Contains(steps[w.what], w.step) {
			steps[w.what] = append(steps[w.what], w.step)
		}
	}
	var parts []string
	for _, what := range order {
		zh := make([]string, len(steps[what]))
		for i, st := range steps[what] {
			zh[i] = zhLight(st)
		}
		parts = append(parts, what+"（步驟："+strings.Join(zh, "、")+"）")
	}
	return "機器人看到：" + strings.Join(parts, "；")
}

// PressPedal implements Technician.
func (rb *Robot) PressPedal(ctx context.Context, p hw.PedalPress) error {
	ep := emulator.PedalShort
	switch p {
	case hw.PedalLong:
		ep = emulator.PedalLong
	case hw.PedalDouble:
		ep = emulator.PedalDouble
	}
	return rb.b.Emu.Pedal(ctx, ep)
}

// PressKeys implements Technician: each key touched once, in order.
func (rb *Robot) PressKeys(ctx context.Context, seat int, keys []hw.Key) error {
	for _, k := range keys {
		if err := rb.b.Touch(ctx, seat, k); err != nil {
			return err
		}
	}
	return nil
}

// Listen implements Technician: it answers yes if the emulated card played
// something loud enough since the test line started. On the machine's own
// sound device it cannot hear, and answers yes: the device's own checks
// stand.
func (rb *Robot) Listen(ctx context.Context) error {
	heard := true
	if c := rb.b.Card; c != nil {
		heard = false
		for listen := patient(rb.b.lag, 1500*time.Millisecond); !listen.over() && ctx.Err() == nil; {
			if c.Peak() > 0.05 {
				heard = true
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	p := emulator.PedalShort
	if !heard {
		p = emulator.PedalLong
	}
	return rb.b.Emu.Pedal(ctx, p)
}
