package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	sd "github.com/coreos/go-systemd/v22/daemon"

	"wolftable/config"
	"wolftable/console"
	"wolftable/daemon"
	"wolftable/drivers/gpio"
	"wolftable/drivers/serial"
	"wolftable/engine"
	"wolftable/hw"
	"wolftable/hw/remedy"
	"wolftable/hw/virtual"
	"wolftable/internal/cliflag"
)

// openTable opens the configured table: the virtual table (a terminal, or
// plain lines on stdin), the Pi's GPIO, or the seat-panel bridge.
func openTable(ctx context.Context, c *config.Config, stdout io.Writer, log *slog.Logger) (hw.Table, func(string), error) {
	t := c.Table
	show := func(string) {}
	switch t.Mode {
	case hw.ModeGPIO:
		tab, err := gpio.Open(t, gpio.Deps{})
		return tab, show, err
	case hw.ModeSerial:
		tab, err := serial.Open(ctx, serial.Config{Port: t.Serial.Port, VID: fmt.Sprintf("%04x", t.Serial.VID), PID: fmt.Sprintf("%04x", t.Serial.PID),
			Baud: t.Serial.Baud, Seats: t.Seats, Software: "wolftable " + version, Pedal: t.Pedal.Timing,
			Brightness: t.Brightness, WaitLink: -1, Logger: log, HoldAcks: true})
		return tab, show, err
	}
	if virtual.IsTerminal(int(os.Stdin.Fd())) && virtual.IsTerminal(int(os.Stdout.Fd())) {
		vt, err := virtual.OpenTerminal(os.Stdin, os.Stdout, virtual.WithSeats(t.Seats), tableScript(stdout))
		if err != nil {
			return nil, nil, err
		}
		return vt, vt.Show, nil
	}
	vt, err := virtual.New(os.Stdin, stdout, virtual.WithSeats(t.Seats), virtual.WithStyle(virtual.Plain))
	return vt, show, err
}

func randomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return uint64(time.Now().UnixNano())
	}
	return binary.LittleEndian.Uint64(b[:])
}

// waitToStart waits for the dealt game's start: the pedal, the console's
// 開始本局 (dealtDone, answered once the game runs) or a game the judge
// starts on the console (req); with a manual deal, only the latter.
func waitToStart(ctx context.Context, c *config.Config, tg *tableGame, con *console.Server, host *gameHost, table hw.Table, stdout io.Writer) (req *hostRequest, dealtDone chan error, err error) {
	if c.Game.Deal == "manual" {
		fmt.Fprintln(stdout, "serve: waiting for the judge to enter the deal on the console")
	} else {
		fmt.Fprintf(stdout, "serve: %s dealt; press the pedal to start (or 開始本局 on the console: the same)\n", tg.board.Name)
		if con != nil {
			con.Dealt(console.GameSpec{Board: tg.board, Deal: tg.deal, Bottom: tg.bottom, Seed: tg.seed}, host.StartDealt)
		}
	}
	if con != nil {
		defer con.Dealt(console.GameSpec{}, nil) // no longer waiting, whatever starts now
	}
	for {
		req, err = waitForPedal(ctx, table, host.requests)
		if err != nil {
			return nil, nil, err
		}
		if req != nil && req.dealt { // the console's 下一步: the pedal
			return nil, req.done, nil
		}
		if req != nil || c.Game.Deal != "manual" {
			return req, nil, nil
		}
	}
}

// waitForPedal waits for the judge's short pedal press (the dealt game
// starts on it) or a game the judge starts on the console; it keeps the
// table's other events out of the game.
func waitForPedal(ctx context.Context, t hw.Table, requests <-chan hostRequest) (*hostRequest, error) {
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case r := <-requests:
			return &r, nil
		case ev, ok := <-t.Events():
			if !ok {
				return nil, errors.New("the table closed its events")
			}
			ev.Receipt.Done() // between games a seat's key is no input
			if ev.Kind == hw.EventPedal && ev.Pedal == hw.PedalShort {
				return nil, nil
			}
		}
	}
}

// cmdServe is the daemon a venue installs: the configured table, board,
// voice and journal; games one after another; a game interrupted by a power
// cut resumes from its journal. Under systemd it reports READY and pings the
// watchdog from the daemon's own loop.
func cmdServe(args []string, stdout, stderr io.Writer) int {
	fs := cliflag.New("serve", "usage:\n"+serveUsage, stderr)
	path := fs.String("config", "", "config file (default "+defaultConfigPath+" if present)")
	once := fs.Bool("once", false, "exit after one game")
	autostart := fs.Bool("autostart", false, "start each game at once instead of waiting for the pedal")
	mute := fs.Bool("mute", false, "no voice: the transcript only")
	gf := addGameFlags(fs, "deal and engine seed (0 = a fresh random seed per game; tests and demos)",
		"every seat a random player and the pedal pressed by itself (demos, soak and crash tests); implies --autostart")
	df := addDeskFlags(fs)
	if pos, err := cliflag.Interspersed(fs, args); err != nil || len(pos) > 0 {
		if err == nil {
			fmt.Fprintf(stderr, "serve: unexpected argument %q\n", pos[0])
		}
		return 2
	}
	if err := gf.check(); err != nil {
		fmt.Fprintln(stderr, "serve:", err)
		return 2
	}
	speed := gf.speed
	*autostart = *autostart || *gf.bots
	log := slog.New(remedy.Handler(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))) // a device error says what to do
	c, err := loadConfig(*path)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	pedal := daemon.PedalMap{}
	for _, p := range []struct {
		dst *engine.PedalPress
		v   string
	}{{&pedal.Short, c.Pedal.Short}, {&pedal.Long, c.Pedal.Long}, {&pedal.Double, c.Pedal.Double}} {
		*p.dst, _ = config.PedalAction(p.v) // validated by config
	}
	for _, kv := range []struct{ flag, conf *string }{{df.url, &c.Desk.URL}, {df.table, &c.Desk.Table}, {df.creds, &c.Desk.Creds}} {
		if *kv.flag != "" {
			*kv.conf = *kv.flag
		}
	}
	pub, err := startDesk(c.Desk.URL, c.Desk.Table, c.Desk.Creds, c.Journal.Dir, log, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "serve:", err)
		return 2
	}
	defer stopDesk(pub, 5*time.Second, stdout) // what is left goes at the next start
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	table, show, err := openTable(ctx, c, stdout, log)
	if err != nil {
		fmt.Fprintln(stderr, "serve: table:", remedy.Explain(err)) // SPI off, no permission…: what to do, then the raw error
		return 1
	}
	table = explainLinkDown(table, stdout)
	defer table.Close() // lights off
	host := newGameHost()
	cs := consoleSetupFrom(c, *speed)
	var lv *lateVoice
	if !*mute {
		lv = &lateVoice{}
	}
	if c.Console.Listen != "off" {
		cs.studio = openStudio(ctx, c, lv, log, stdout) // the console's voice studio
	}
	con, stopConsole, err := startConsoleWith(ctx, cs, host, stdout, log)
	if err != nil {
		fmt.Fprintln(stderr, "serve: console:", err)
		return 1
	}
	defer stopConsole()
	if con != nil {
		table = watchPedal(table, con.PedalHeld) // a long press lets the judge's PIN past the throttle
		noticeRefusals(pub, con.Notice, c.Journal.Dir, stdout)
	}
	tr := &transcript{w: stdout, speed: *speed, cues: false} // gameRun sets each game's start
	// The voice pack decodes in the background (seconds on a Pi): the table
	// is ready and a resumed game goes on at once; the voice joins when ready.
	var key ed25519.PrivateKey // the table's signing key: each game's end record is signed with it
	var judge daemon.Voice
	if lv != nil {
		judge = lv
		go func() { lv.set(openTableVoice(ctx, c, log, stdout)) }()
	}
	cat, err := c.Boards() // the built-in boards and the venue's: new games and resumed journals
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	for _, sk := range cat.Skipped {
		log.Warn("boards: a file of the venue's folder is not a board file; skipped", "file", sk.File, "reason", sk.Reason)
	}
	for {
		b, err := c.Board()
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		seed := *gf.seed
		if seed == 0 {
			seed = randomSeed()
		}
		deal, bottom := engine.DealCards(b, seed)
		tg, err := newOrResumed(c.Journal.Dir, c.Journal.Resume, b, seed, deal, bottom, c.Table.Seats, *speed, stdout, cat.Get)
		if err != nil {
			fmt.Fprintln(stderr, "serve:", err)
			return 1
		}
		if key == nil { // read after the first journal is on the disk: a kill at start loses nothing
			if key, err = tableKey(c.Journal.Dir, stdout); err != nil {
				tg.close()
				fmt.Fprintln(stderr, "serve:", err)
				return 1
			}
		}
		tg.key = key
		if tg.notice != "" {
			log.Warn("an unfinished journal could not be resumed: moved aside, a new game is dealt", "notice", tg.notice)
			if con != nil {
				con.Notice(tg.notice)
			}
		}
		var req *hostRequest
		var dealtDone chan error // the console's start of the dealt game, answered once it runs
		if tg.resumed == "" && (!*autostart || c.Game.Deal == "manual") {
			if req, dealtDone, err = waitToStart(ctx, c, tg, con, host, table, stdout); err != nil {
				tg.close()
				return 0
			}
		}
		spec := console.GameSpec{Board: tg.board, Deal: tg.deal, Bottom: tg.bottom, Seed: tg.seed}
		onConsole := func(daemon.Event) {}
		if req != nil {
			tg.close() // the dealt game never started: drop its journal
			if tg.writer != nil {
				os.Remove(tg.writer.Path())
			}
			tg, err = gameFromConsole(c.Journal.Dir, req.ng, c.Table.Seats)
			if err != nil {
				req.done <- err
				continue
			}
			tg.key = key
			onConsole = req.ng.OnEvent
		} else if con != nil {
			onConsole = con.Attach(spec, tg.game)
			tg.replayTo(onConsole) // a resumed game's history, up to the power cut
			if tg.notice != "" {
				con.Notice(tg.notice) // the new game's view starts without it
			} else if pub != nil {
				if n := refusedNotice(c.Journal.Dir); n != "" {
					con.Notice(n) // records the desk refused, until resent
				}
			}
		}
		wdCtx, wdStop := context.WithCancel(ctx)
		gr := &gameRun{tg: tg, table: table, flags: gf, pedal: pedal, voice: judge, log: log, host: host, tr: tr, desk: pub,
			console: onConsole,
			listeners: []func(daemon.Event){func(e daemon.Event) {
				if e.Effect != nil && e.Effect.Kind == engine.EffSay {
					show(e.Text)
				}
			}},
			started: func(d *daemon.Daemon) {
				go watchdog(wdCtx, d, log)
				if req != nil {
					go func(done chan error) { d.Alive(ctx); done <- nil }(req.done) // answers once Run is serving
				}
				if dealtDone != nil {
					go func(done chan error) { d.Alive(ctx); done <- nil }(dealtDone)
				}
			}}
		w, err := gr.run(ctx)
		wdStop()
		tg.close()
		if ctx.Err() != nil {
			log.Info("stopping: the journal is closed; the game resumes on the next start")
			return 0
		}
		if err != nil {
			fmt.Fprintln(stderr, "serve:", err)
			return 1
		}
		fmt.Fprintf(stdout, "result: %s\n", w)
		if line, notice, ok := tg.endLines(w); ok {
			fmt.Fprintln(stdout, line) // the judge copies the fingerprint onto the score sheet
			if con != nil {
				con.Notice(notice)
			}
		}
		if *once {
			return 0
		}

	}
}

// watchdog pings systemd's watchdog while the daemon's loop answers.
func watchdog(ctx context.Context, d *daemon.Daemon, log *slog.Logger) {
	every, err := sd.SdWatchdogEnabled(false)
	if err != nil || every == 0 {
		return
	}
	t := time.NewTicker(every / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			pctx, cancel := context.WithTimeout(ctx, every/3)
			err := d.Alive(pctx)
			cancel()
			if err != nil {
				log.Error("the daemon's loop does not answer; no watchdog ping", "err", err)
				continue
			}
			sd.SdNotify(false, sd.SdNotifyWatchdog)
		}
	}
}

var serveCommand = &cliflag.Command{
	Name: "serve",
	ShortUsage: "serve [--config FILE] [--once] [--autostart] [--mute]\n" +
		"  [--speed N] [--seed N] [--clock HH:MM] [--bots]\n" +
		"  [--desk URL --table NAME --desk-creds FILE]",
	ShortHelp: "the table daemon (systemd: Type=notify); --once: one game; --autostart: start\n" +
		"without the pedal; --mute: no voice; tests and demos: faster timers, a fixed\n" +
		"deal, the wall clock, random players; --desk: report to the tournament desk\n" +
		"(config [desk])",
	Exec: cmdServe,
}

// serveUsage is serve's usage: it lists every flag of the command
// (TestUsageListsEveryFlag).
const serveUsage = `  wolftable serve [--config FILE]       the table daemon (systemd: Type=notify)
        [--once] [--autostart] [--mute]  one game; start without the pedal; no voice
        [--speed N] [--seed N] [--clock HH:MM] [--bots]
                                        tests and demos: faster timers, a fixed deal,
                                        the wall clock, random players
        [--desk URL --table NAME --desk-creds FILE]
                                        report to the tournament desk (config [desk])
`
