package selftest

import (
	"bytes"
	"context"
	"errors"
	"flag"
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
	"wolftable/internal/cliflag"
)

// Usage is the command's help.
const Usage = `usage:
  wolftable selftest [--config FILE] [--report FILE]... [--soak 10s] [--wait 2m] [--only LIST]
        test the configured table with a technician at it: the link, the
        pedal (short, long, double), every seat's lights (red, green, blue,
        off, private; confirm each seat on the pedal: short = right, long =
        wrong), every seat's keys (press each key once, in order; the pedal
        gives up on the missing ones) and the speaker (short = heard)
  wolftable selftest --emulate [--fault KIND[:SEAT[:KEY]]]... [--seats N] [--soak 10s] [--report FILE]...
        the same against the bridge firmware's emulator behind a real pty,
        with a robot technician, for CI and demos. Faults:
          dead-led:SEAT  missing-key:SEAT:KEY  bouncy-key:SEAT:KEY
          stuck-key:SEAT:KEY  no-link  no-speaker

  --report FILE     also write the report to FILE: JSON if it ends in .json,
                    text otherwise (repeatable)
  --soak D          the link soak: full-rate light frames for D (default 10s; 0 skips it)
  --wait D          how long a prompt waits for the technician (default 2m)
  --only LIST       test only these, comma-separated: link,pedal,lights,keys,speaker
                    (the link is always checked: the table must be reached)
  --system-speaker  (--emulate) play on this machine's sound device instead
                    of an emulated sound card

  Exit status: 0 if everything passed, 1 if anything failed, 2 for a usage
  or configuration error.
`

// Env is what Command takes from the process.
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

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// Command is `wolftable selftest`. It returns the exit status.
func Command(args []string, env Env) int {
	if env.Stdin == nil {
		env.Stdin = os.Stdin
	}
	if env.Software == "" {
		env.Software = "wolftable"
	}
	// The plain virtual table writes to stdout from its own goroutine.
	stdout, stderr := &lockedWriter{w: env.Stdout}, env.Stderr
	fs := cliflag.New("wolftable selftest", Usage, stderr)
	cfgPath := fs.String("config", "", "config file")
	var reports, faults multiFlag
	fs.Var(&reports, "report", "write the report to FILE (.json: JSON)")
	soak := fs.Duration("soak", 10*time.Second, "link soak duration")
	wait := fs.Duration("wait", DefaultWait, "how long a prompt waits for the technician")
	only := fs.String("only", "", "components to test")
	emulate := fs.Bool("emulate", false, "test the bridge emulator with a robot technician")
	fs.Var(&faults, "fault", "a fault of the emulated table")
	seats := fs.Int("seats", 0, "seats of the emulated table (default: the config's)")
	systemSpeaker := fs.Bool("system-speaker", false, "the emulated run plays on this machine's sound device")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "wolftable selftest: "+format+"\n\n%s", append(a, Usage)...)
		return 2
	}
	if fs.NArg() > 0 {
		return usage("unexpected argument %q", fs.Arg(0))
	}
	if *soak < 0 || *wait <= 0 {
		return usage("--soak must be 0 or more, --wait more than 0")
	}
	var onlyList []string
	if *only != "" {
		for _, c := range strings.Split(*only, ",") {
			c = strings.TrimSpace(c)
			if !slices.Contains(Components(), c) {
				return usage("--only: unknown component %q (%s)", c, strings.Join(Components(), ","))
			}
			onlyList = append(onlyList, c)
		}
	}
	var fl []Fault
	for _, s := range faults {
		f, err := ParseFault(s)
		if err != nil {
			return usage("%v", err)
		}
		fl = append(fl, f)
	}
	if !*emulate && (len(fl) > 0 || *seats != 0 || *systemSpeaker) {
		return usage("--fault, --seats and --system-speaker go with --emulate")
	}
	for _, r := range reports {
		if err := checkWritable(r); err != nil {
			return usage("--report %s: %v", r, err)
		}
	}

	var c *config.Config
	var err error
	if *cfgPath != "" {
		c, err = config.Load(*cfgPath, true)
	} else if env.DefaultConfig != "" {
		c, err = config.Load(env.DefaultConfig, false)
	} else {
		c = config.Default()
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	enabled := func(comp string) bool { return len(onlyList) == 0 || slices.Contains(onlyList, comp) }
	linkSoak := *soak
	if !enabled(CompLink) {
		linkSoak = 0
	}
	logger := slog.New(remedy.Handler(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))) // a device error says what to do

	// One measure of the host's stalls for every wait of the run: the
	// runner's, the link's, the robot's, the speaker's.
	lag := StartLagMeter(ctx)
	defer lag.Stop()
	opts := Options{Only: onlyList, Software: env.Software, Soak: linkSoak, Lag: lag}
	progress := func(line string) { fmt.Fprintln(stdout, line) }
	var bench *Bench
	var vt *virtual.Table
	tcfg := *c.Table
	switch {
	case *emulate:
		n := tcfg.Seats
		if *seats != 0 {
			n = *seats
		}
		bench, err = StartBench(ctx, BenchConfig{Seats: n, Faults: fl, SystemSpeaker: *systemSpeaker, Logger: logger, Lag: lag})
		if err != nil {
			fmt.Fprintln(stderr, "wolftable selftest:", err)
			return 2
		}
		defer bench.Close()
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
		opts.Target = serialTarget(&tcfg, env.Software, logger, linkSoak, lag)
		opts.Technician = NewRobot(bench)
		opts.Emulated = true
		for _, f := range fl {
			opts.Faults = append(opts.Faults, f.String())
		}
	case tcfg.Mode == hw.ModeSerial:
		opts.Target = serialTarget(&tcfg, env.Software, logger, linkSoak, lag)
		opts.Technician = Human{Wait: *wait}
	case tcfg.Mode == hw.ModeGPIO:
		opts.Target = &GPIOTarget{Config: &tcfg, Soak: linkSoak, Deps: gpioDeps(logger)}
		opts.Technician = Human{Wait: *wait}
	default:
		opts.Soak = 0 // no hardware link to soak
		out := terminalOf(env.Stdout)
		if out != nil && virtual.IsTerminal(int(env.Stdin.Fd())) && virtual.IsTerminal(int(out.Fd())) {
			vt, err = virtual.OpenTerminal(env.Stdin, out, append([]virtual.Option{virtual.WithSeats(tcfg.Seats)}, env.Table...)...)
			if err == nil {
				progress = vt.Show
				opts.VirtualKeys = true
				// The table owns the screen: warnings go to the report only.
				logger = slog.New(slog.DiscardHandler)
			}
			opts.Target = &VirtualTarget{Table: vt, Detail: "虛擬桌（互動）"}
		} else {
			vt, err = virtual.New(env.Stdin, stdout, virtual.WithSeats(tcfg.Seats), virtual.WithStyle(virtual.Plain))
			opts.Target = &VirtualTarget{Table: vt, Detail: "虛擬桌（由標準輸入逐行操作）"}
		}
		if err != nil {
			fmt.Fprintln(stderr, "wolftable selftest: virtual table:", err)
			return 1
		}
		opts.Technician = Human{Wait: *wait}
	}
	opts.Progress = progress

	if enabled(CompSpeaker) {
		// the prompts' clips of the configured pack, or of the default one
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
		sp, err := OpenSpeaker(voice, logger)
		if err != nil {
			fmt.Fprintln(stderr, "wolftable selftest:", err)
		} else {
			defer sp.Close()
			sp.SetVolume(c.Voice.Volume)
			sp.Lag = lag
			if bench != nil && bench.Card != nil {
				sp.OnPlay = bench.Card.Reset
			}
			opts.Sound = sp
		}
	}

	who := "技術人員在桌邊操作"
	if *emulate {
		who = "機器人技術人員（模擬）"
	}
	progress(fmt.Sprintf("wolftable 自我檢測：%s，%d 個座位，%s", modeWord(opts.Target.Mode()), tcfg.Seats, who))
	rep := Run(ctx, opts)
	if vt != nil {
		vt.Close() // Run closed it already; this gives the terminal back if it did not open
	}

	var text bytes.Buffer
	rep.WriteText(&text)
	fmt.Fprint(stdout, "\n"+text.String())
	status := 0
	if !rep.Passed {
		status = 1
	}
	for _, path := range reports {
		if err := writeReport(rep, path); err != nil {
			fmt.Fprintln(stderr, "wolftable selftest:", err)
			status = 1
		} else {
			fmt.Fprintf(stdout, "報告已寫入 %s\n", path)
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
