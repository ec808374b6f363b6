package selftest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	wvoice "wolftable/audio/voice"
	"wolftable/config"
	"wolftable/drivers/gpio"
	"wolftable/drivers/serial"
	"wolftable/firmware-bridge/emulator"
	"wolftable/hw"
	"wolftable/hw/remedy"
	"wolftable/hw/virtual"
)

// Usage is the command's help.
const Usage = `用法：
  wolftable selftest [--config FILE] [--report FILE]... [--soak 10s] [--wait 2m] [--only LIST]
        技術人員在桌邊檢測設定中的桌子：連線、踏板（短按、長按、連按兩下）、
        每個座位的燈（紅、綠、藍、熄、私密；每個座位在踏板上確認：短按 = 對，
        長按 = 不對）、每個座位的按鍵（依序每鍵按一次；踏板略過沒反應的鍵）
        與喇叭（短按 = 聽到了）
  wolftable selftest --emulate [--fault KIND[:SEAT[:KEY]]]... [--seats N] [--soak 10s] [--report FILE]...
        同樣的檢測，對象換成真實偽終端後面的橋接板韌體模擬器，由機器人
        技術人員操作，供持續整合與展示。可模擬的故障：
          dead-led:SEAT  missing-key:SEAT:KEY  bouncy-key:SEAT:KEY
          stuck-key:SEAT:KEY  no-link  no-speaker

  --report FILE     另把報告寫入 FILE：檔名以 .json 結尾為 JSON，
                    否則為文字（可重複）
  --soak D          連線耐久測試：以全速送燈號 D 這麼久（預設 10s；0 略過）
  --wait D          每個提示等技術人員多久（預設 2m）
  --only LIST       只測這些，以逗號分隔：` + "`link,pedal,lights,keys,speaker`" + `
                    （連線一定會檢查：必須連得上桌子）
  --system-speaker  （--emulate）改用本機的音效裝置播放，
                    不用模擬的音效卡
  --config FILE     設定檔（預設 /etc/wolftable/config.toml，存在時）
  --seats N         （--emulate）模擬桌的座位數（預設依設定檔）

  結束碼：全部通過為 0，有任何一項不通過為 1，用法或設定錯誤為 2。
`

// Env is what RunTable takes from the process.
type Env struct {
	Stdin          *os.File  // the virtual table's keyboard
	Stdout, Stderr io.Writer // progress and the report; warnings
	Software       string    // e.g. "wolftable 0.1.0"
	DefaultConfig  string    // read if --config is not given and it exists
	// Table are more options of the interactive virtual table: the
	// venue's script (virtual.WithText), which stdout's writer has but the
	// table, drawing on the terminal itself, has not.
	Table []virtual.Option
}

// terminalOf is the file under w (through writers that convert, such as
// the venue's script's, and have an Unwrap), or nil.
func terminalOf(w io.Writer) *os.File {
	for w != nil {
		if f, ok := w.(*os.File); ok {
			return f
		}
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			return nil
		}
		w = u.Unwrap()
	}
	return nil
}

// TableOptions are what `wolftable selftest`'s flags set (cmd/wolftable
// parses them).
type TableOptions struct {
	// Config is the config file (--config); "" reads Env.DefaultConfig
	// when it exists, else the default config.
	Config string
	// Reports are files the report is also written to: JSON for a name
	// ending in .json, text otherwise.
	Reports []string
	// Soak is the link soak's length (0 skips it); Wait how long a prompt
	// waits for the technician (0: DefaultWait).
	Soak, Wait time.Duration
	// Only are the components to test (Components); none: all.
	Only []string
	// Emulate tests the bridge firmware's emulator with a robot
	// technician; Faults, Seats (0: the config's) and SystemSpeaker go
	// with it.
	Emulate       bool
	Faults        []Fault
	Seats         int
	SystemSpeaker bool
}

// UsageError is how RunTable and cmd/wolftable report a bad option: the
// message, then Usage; it returns the exit status, 2.
func UsageError(stderr io.Writer, format string, a ...any) int {
	fmt.Fprintf(stderr, "wolftable selftest："+format+"\n\n%s", append(a, Usage)...)
	return 2
}

// validate reports the first bad option of o, as UsageError does; 0 when
// they are all good.
func (o TableOptions) validate(stderr io.Writer) int {
	if o.Soak < 0 || o.Wait < 0 {
		return UsageError(stderr, "--soak 要 0 或以上，--wait 要大於 0")
	}
	for _, c := range o.Only {
		if !slices.Contains(Components(), c) {
			return UsageError(stderr, "--only：沒有 %q 這個項目（%s）", c, strings.Join(Components(), ","))
		}
	}
	if !o.Emulate && (len(o.Faults) > 0 || o.Seats != 0 || o.SystemSpeaker) {
		return UsageError(stderr, "--fault、--seats 與 --system-speaker 只能配 --emulate 使用")
	}
	for _, r := range o.Reports {
		if err := checkWritable(r); err != nil {
			return UsageError(stderr, "--report %s：%v", r, err)
		}
	}
	return 0
}

// loadConfig is o.Config's config, or env's default's, or the default.
func (o TableOptions) loadConfig(env Env) (*config.Config, error) {
	switch {
	case o.Config != "":
		return config.Load(o.Config, true)
	case env.DefaultConfig != "":
		return config.Load(env.DefaultConfig, false)
	}
	return config.Default(), nil
}

// tableRun is one run of RunTable: what it opened, to close at its end.
type tableRun struct {
	o        TableOptions
	env      Env
	stdout   io.Writer // locked: the plain virtual table writes from its own goroutine
	logger   *slog.Logger
	opts     Options
	progress func(string)
	bench    *Bench
	vt       *virtual.Table
	tcfg     hw.Config
	closers  []func()
}

// RunTable is `wolftable selftest`: the test of the configured table (or
// of the emulator, o.Emulate) with o. It returns the exit status: 0 if
// everything passed, 1 if anything failed, 2 for a usage or
// configuration error.
func RunTable(o TableOptions, env Env) int {
	if env.Stdin == nil {
		env.Stdin = os.Stdin
	}
	if env.Software == "" {
		env.Software = "wolftable"
	}
	if o.Wait == 0 {
		o.Wait = DefaultWait
	}
	stderr := env.Stderr
	if code := o.validate(stderr); code != 0 {
		return code
	}
	c, err := o.loadConfig(env)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	r := &tableRun{o: o, env: env, stdout: &lockedWriter{w: env.Stdout}, tcfg: *c.Table}
	linkSoak := o.Soak
	if !r.enabled(CompLink) {
		linkSoak = 0
	}
	r.logger = slog.New(remedy.Handler(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))) // a device error says what to do
	// One measure of the host's stalls for every wait of the run: the
	// runner's, the link's, the robot's, the speaker's.
	lag := StartLagMeter(ctx)
	defer lag.Stop()
	defer r.close() // before the lag meter stops
	r.opts = Options{Only: o.Only, Software: env.Software, Soak: linkSoak, Lag: lag}
	r.progress = func(line string) { fmt.Fprintln(r.stdout, line) }
	if code := r.target(ctx, linkSoak, lag); code != 0 {
		return code
	}
	r.opts.Progress = r.progress
	if r.enabled(CompSpeaker) {
		r.speaker(c, lag)
	}
	who := "技術人員在桌邊操作"
	if o.Emulate {
		who = "機器人技術人員（模擬）"
	}
	r.progress(fmt.Sprintf("wolftable 自我檢測：%s，%d 個座位，%s", modeWord(r.opts.Target.Mode()), r.tcfg.Seats, who))
	rep := Run(ctx, r.opts)
	if r.vt != nil {
		r.vt.Close() // Run closed it already; this gives the terminal back if it did not open
	}
	return r.report(rep)
}

func (r *tableRun) enabled(comp string) bool {
	return len(r.o.Only) == 0 || slices.Contains(r.o.Only, comp)
}

// close closes what the run opened, the last first.
func (r *tableRun) close() {
	for i := len(r.closers) - 1; i >= 0; i-- {
		r.closers[i]()
	}
}

// target sets the run's target and technician: the emulator's, the
// configured table's, or the virtual table's; non-zero is the exit status.
func (r *tableRun) target(ctx context.Context, linkSoak time.Duration, lag *LagMeter) int {
	tcfg, stderr := &r.tcfg, r.env.Stderr
	switch {
	case r.o.Emulate:
		return r.emulated(ctx, linkSoak, lag)
	case tcfg.Mode == hw.ModeSerial:
		r.opts.Target = serialTarget(tcfg, r.env.Software, r.logger, linkSoak, lag)
	case tcfg.Mode == hw.ModeGPIO:
		r.opts.Target = &GPIOTarget{Config: tcfg, Soak: linkSoak, Deps: gpioDeps(r.logger)}
	default:
		r.opts.Soak = 0 // no hardware link to soak
		var err error
		out := terminalOf(r.env.Stdout)
		if out != nil && virtual.IsTerminal(int(r.env.Stdin.Fd())) && virtual.IsTerminal(int(out.Fd())) {
			r.vt, err = virtual.OpenTerminal(r.env.Stdin, out, append([]virtual.Option{virtual.WithSeats(tcfg.Seats)}, r.env.Table...)...)
			if err == nil {
				r.progress = r.vt.Show
				r.opts.VirtualKeys = true
				// The table owns the screen: warnings go to the report only.
				r.logger = slog.New(slog.DiscardHandler)
			}
			r.opts.Target = &VirtualTarget{Table: r.vt, Detail: "虛擬桌（互動）"}
		} else {
			r.vt, err = virtual.New(r.env.Stdin, r.stdout, virtual.WithSeats(tcfg.Seats), virtual.WithStyle(virtual.Plain))
			r.opts.Target = &VirtualTarget{Table: r.vt, Detail: "虛擬桌（由標準輸入逐行操作）"}
		}
		if err != nil {
			fmt.Fprintln(stderr, "wolftable selftest: virtual table:", err)
			return 1
		}
	}
	r.opts.Technician = Human{Wait: r.o.Wait}
	return 0
}

// emulated sets the emulator's bench as the run's target, with the robot
// technician.
func (r *tableRun) emulated(ctx context.Context, linkSoak time.Duration, lag *LagMeter) int {
	tcfg, stderr := &r.tcfg, r.env.Stderr
	n := tcfg.Seats
	if r.o.Seats != 0 {
		n = r.o.Seats
	}
	bench, err := StartBench(ctx, BenchConfig{Seats: n, Faults: r.o.Faults, SystemSpeaker: r.o.SystemSpeaker, Logger: r.logger, Lag: lag})
	if err != nil {
		fmt.Fprintln(stderr, "wolftable selftest:", err)
		return 2
	}
	r.bench = bench
	r.closers = append(r.closers, func() { bench.Close() })
	// The emulated bridge runs on this host: its main loop falling
	// behind its 1 kHz is the host's stall.
	lag.Watch(func() (uint64, bool) {
		st := bench.Emu.Stats()
		return st.Ticks, st.Plugged && !st.Hung
	}, emulator.TickInterval)
	tcfg.Mode, tcfg.Seats = hw.ModeSerial, n
	tcfg.Serial = hw.SerialConfig{Port: bench.Path(), Baud: hw.DefaultBaud}
	if !robotCanPress(tcfg.Pedal.Timing) {
		fmt.Fprintf(stderr, "wolftable selftest: the config's pedal timing (long %v, double %v) does not fit the emulator's gestures; the emulated run uses the default\n",
			tcfg.Pedal.Timing.Long, tcfg.Pedal.Timing.Double)
		tcfg.Pedal.Timing = hw.DefaultPedalTiming()
	}
	r.opts.Target = serialTarget(tcfg, r.env.Software, r.logger, linkSoak, lag)
	r.opts.Technician = NewRobot(bench)
	r.opts.Emulated = true
	for _, f := range r.o.Faults {
		r.opts.Faults = append(r.opts.Faults, f.String())
	}
	return 0
}

// speaker opens the speaker with the prompts' clips of the configured
// pack (or of the default one); without one the prompts are shown only.
func (r *tableRun) speaker(c *config.Config, lag *LagMeter) {
	stderr := r.env.Stderr
	var ids []string
	for seat := 1; seat <= c.Table.Seats; seat++ {
		seq, _ := wvoice.Sequence(keysPromptLine, []int{seat})
		ids = append(ids, seq...)
	}
	voice, err := wvoice.LoadClips(c.Voice.Pack, ids)
	if err != nil {
		fmt.Fprintf(stderr, "wolftable selftest: %v (prompts are shown only)\n", err)
		voice = nil
	}
	sp, err := OpenSpeaker(voice, r.logger)
	if err != nil {
		fmt.Fprintln(stderr, "wolftable selftest:", err)
		return
	}
	r.closers = append(r.closers, func() { sp.Close() })
	sp.SetVolume(c.Voice.Volume)
	sp.Lag = lag
	if r.bench != nil && r.bench.Card != nil {
		sp.OnPlay = r.bench.Card.Reset
	}
	r.opts.Sound = sp
}

// report prints rep and writes it to the report files; it returns the
// exit status.
func (r *tableRun) report(rep *Report) int {
	var text bytes.Buffer
	rep.WriteText(&text)
	fmt.Fprint(r.stdout, "\n"+text.String())
	status := 0
	if !rep.Passed {
		status = 1
	}
	for _, path := range r.o.Reports {
		if err := writeReport(rep, path); err != nil {
			fmt.Fprintln(r.env.Stderr, "wolftable selftest:", err)
			status = 1
		} else {
			fmt.Fprintf(r.stdout, "報告已寫入 %s\n", path)
		}
	}
	return status
}

// robotCanPress reports whether the emulator's pedal gestures classify as
// meant under timing t.
func robotCanPress(t hw.PedalTiming) bool {
	margin := 50 * time.Millisecond
	return t.Long > emulator.PedalShortHold+margin && t.Long < emulator.PedalLongHold-2*margin &&
		t.Double > emulator.PedalDoubleGap+margin
}

func serialTarget(c *hw.Config, software string, logger *slog.Logger, soak time.Duration, lag Lag) *SerialTarget {
	cfg := serial.ConfigFromHW(c)
	cfg.Software = software
	if len(cfg.Software) > 32 {
		cfg.Software = cfg.Software[:32]
	}
	cfg.Logger = logger
	return &SerialTarget{Config: cfg, Soak: soak, Lag: lag}
}

func checkWritable(path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

func writeReport(r *Report, path string) error {
	var b bytes.Buffer
	var err error
	if strings.HasSuffix(strings.ToLower(path), ".json") {
		err = r.WriteJSON(&b)
	} else {
		err = r.WriteText(&b)
	}
	if err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func gpioDeps(logger *slog.Logger) gpio.Deps { return gpio.Deps{Logger: logger} }

// lockedWriter serialises writes.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
