package main

import (
	"context"
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
			takeDraw(tg, con, stdout) // the console's seat draw into the dealt game's header
			return nil, req.done, nil
		}
		if req == nil && c.Game.Deal != "manual" {
			takeDraw(tg, con, stdout)
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

// serveOptions are serve's flags.
type serveOptions struct {
	path                  string
	once, autostart, mute bool
	gf                    *gameFlags
	df                    *deskFlags
}

// serveArgs parses serve's command line; code is -1 when it is good, else
// the exit status.
func serveArgs(args []string, stderr io.Writer) (o serveOptions, code int) {
	fs := cliflag.New("serve", "usage:\n"+serveUsage, stderr)
	fs.StringVar(&o.path, "config", "", "config file (default "+defaultConfigPath+" if present)")
	fs.BoolVar(&o.once, "once", false, "exit after one game")
	fs.BoolVar(&o.autostart, "autostart", false, "start each game at once instead of waiting for the pedal")
	fs.BoolVar(&o.mute, "mute", false, "no voice: the transcript only")
	o.gf = addGameFlags(fs, "deal and engine seed (0 = a fresh random seed per game; tests and demos)",
		"every seat a random player and the pedal pressed by itself (demos, soak and crash tests); implies --autostart")
	o.df = addDeskFlags(fs)
	if pos, err := cliflag.Interspersed(fs, args); err != nil || len(pos) > 0 {
		if err == nil {
			fmt.Fprintf(stderr, "serve: unexpected argument %q\n", pos[0])
		}
		return o, 2
	}
	if err := o.gf.check(); err != nil {
		fmt.Fprintln(stderr, "serve:", err)
		return o, 2
	}
	o.autostart = o.autostart || *o.gf.bots
	return o, -1
}

// cmdServe is the daemon a venue installs: the configured table, board,
// voice and journal; games one after another; a game interrupted by a power
// cut resumes from its journal. Under systemd it reports READY and pings the
// watchdog from the daemon's own loop.
func cmdServe(args []string, stdout, stderr io.Writer) int {
	o, code := serveArgs(args, stderr)
	if code >= 0 {
		return code
	}
	log := slog.New(remedy.Handler(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))) // a device error says what to do
	c, err := loadConfig(o.path)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	for _, kv := range []struct{ flag, conf *string }{{o.df.url, &c.Desk.URL}, {o.df.table, &c.Desk.Table}, {o.df.creds, &c.Desk.Creds}} {
		if *kv.flag != "" {
			*kv.conf = *kv.flag
		}
	}
	s := newSession("serve", c.Journal.Dir, stdout, stderr, log)
	defer s.close()
	if err := s.openDesk(c.Desk.URL, c.Desk.Table, c.Desk.Creds, 5*time.Second); err != nil {
		return s.fail(2, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	show, code := s.openServe(ctx, c, o)
	if code != 0 {
		return code
	}
	return s.serveGames(ctx, c, o, show)
}

// openServe opens serve's table, console (with the voice studio) and
// voice, and reads the boards; show puts the judge's line on the table's
// screen (the virtual table's). code is the exit status when one fails.
func (s *session) openServe(ctx context.Context, c *config.Config, o serveOptions) (show func(string), code int) {
	table, show, err := openTable(ctx, c, s.stdout, s.log)
	if err != nil {
		return nil, s.fail(1, "table:", remedy.Explain(err)) // SPI off, no permission…: what to do, then the raw error
	}
	s.setTable(explainLinkDown(table, s.stdout))
	cs := consoleSetupFrom(c, *o.gf.speed).withRoster(deskRosterOf(s.desk)) // the seat draw's roster: the desk's
	var lv *lateVoice
	if !o.mute {
		lv = &lateVoice{}
	}
	if c.Console.Listen != "off" {
		cs.studio = openStudio(ctx, c, lv, s.log, s.stdout) // the console's voice studio
	}
	if err := s.openConsole(ctx, cs, s.stdout); err != nil {
		return nil, s.fail(1, "console:", err)
	}
	if s.con != nil {
		s.table = watchPedal(s.table, s.con.PedalHeld) // a long press lets the judge's PIN past the throttle
		noticeRefusals(s.desk, s.con.Notice, c.Journal.Dir, s.stdout)
	}
	s.tr = &transcript{w: s.stdout, speed: *o.gf.speed, cues: false} // gameRun sets each game's start
	// The voice pack decodes in the background (seconds on a Pi): the table
	// is ready and a resumed game goes on at once; the voice joins when ready.
	if lv != nil {
		s.voice = lv
		go func() { lv.set(openTableVoice(ctx, c, s.log, s.stdout)) }()
	}
	if s.cat, err = c.Boards(); err != nil { // new games and resumed journals
		fmt.Fprintln(s.stderr, err)
		return nil, 2
	}
	for _, sk := range s.cat.Skipped {
		s.log.Warn("boards: a file of the venue's folder is not a board file; skipped", "file", sk.File, "reason", sk.Reason)
	}
	return show, 0
}

// serveGames plays games one after another (one with --once) until ctx
// is done; it returns the exit status.
func (s *session) serveGames(ctx context.Context, c *config.Config, o serveOptions, show func(string)) int {
	for {
		tg, code := s.nextGame(c, o)
		if tg == nil {
			return code
		}
		var req *hostRequest
		var dealtDone chan error // the console's start of the dealt game, answered once it runs
		if tg.resumed == "" && (!o.autostart || c.Game.Deal == "manual") {
			var err error
			if req, dealtDone, err = waitToStart(ctx, c, tg, s.con, s.host, s.table, s.stdout); err != nil {
				tg.close()
				return 0
			}
		}
		onConsole := func(daemon.Event) {}
		if req != nil {
			tg.close() // the dealt game never started: drop its journal
			if tg.writer != nil {
				os.Remove(tg.writer.Path())
			}
			var err error
			tg, err = gameFromConsole(c.Journal.Dir, req.ng, c.Table.Seats)
			if err != nil {
				req.done <- err
				continue
			}
			tg.key = s.key
			onConsole = req.ng.OnEvent
		} else if s.con != nil {
			onConsole = s.attach(tg)
			s.gameNotice(tg)
		}
		if code, ok := s.serveGame(ctx, c, o, tg, req, dealtDone, onConsole, show); !ok || o.once {
			return code
		}
	}
}

// nextGame is the game to play: the unfinished journal's, resumed, or a
// new deal of the configured board (signed with the table's key, read
// after the first journal is on the disk: a kill at start loses nothing).
// It is nil when it cannot be, with the exit status.
func (s *session) nextGame(c *config.Config, o serveOptions) (*tableGame, int) {
	b, err := c.Board()
	if err != nil {
		fmt.Fprintln(s.stderr, err)
		return nil, 2
	}
	seed := *o.gf.seed
	if seed == 0 {
		seed = randomSeed()
	}
	deal, bottom := engine.DealCards(b, seed)
	tg, err := newOrResumed(c.Journal.Dir, c.Journal.Resume, b, seed, deal, bottom, c.Table.Seats, *o.gf.speed, s.stdout, s.cat.Get)
	if err != nil {
		return nil, s.fail(1, err)
	}
	if s.key == nil {
		if err := s.readKey(); err != nil {
			tg.close()
			return nil, s.fail(1, err)
		}
	}
	tg.key = s.key
	if tg.notice != "" {
		s.log.Warn("an unfinished journal could not be resumed: moved aside, a new game is dealt", "notice", tg.notice)
		if s.con != nil {
			s.con.Notice(tg.notice)
		}
	}
	return tg, 0
}

// gameNotice is what the console says as the game's view opens: why the
// unfinished journal was not resumed, or the records the desk refused,
// until resent.
func (s *session) gameNotice(tg *tableGame) {
	if tg.notice != "" {
		s.con.Notice(tg.notice) // the new game's view starts without it
	} else if s.desk != nil {
		if n := refusedNotice(s.jdir); n != "" {
			s.con.Notice(n)
		}
	}
}

// serveGame plays tg and prints its result; ok is false when serve stops
// (ctx done: the game resumes on the next start, or an error), with the
// exit status.
func (s *session) serveGame(ctx context.Context, c *config.Config, o serveOptions, tg *tableGame, req *hostRequest, dealtDone chan error,
	onConsole func(daemon.Event), show func(string)) (code int, ok bool) {
	pedal := daemon.PedalMap{}
	for _, p := range []struct {
		dst *engine.PedalPress
		v   string
	}{{&pedal.Short, c.Pedal.Short}, {&pedal.Long, c.Pedal.Long}, {&pedal.Double, c.Pedal.Double}} {
		*p.dst, _ = config.PedalAction(p.v) // validated by config
	}
	wdCtx, wdStop := context.WithCancel(ctx)
	gr := &gameRun{tg: tg, table: s.table, flags: o.gf, pedal: pedal, voice: s.voice, log: s.log, host: s.host, tr: s.tr, desk: s.desk,
		console: onConsole,
		listeners: []func(daemon.Event){func(e daemon.Event) {
			if e.Effect != nil && e.Effect.Kind == engine.EffSay {
				show(e.Text)
			}
		}},
		started: func(d *daemon.Daemon) {
			go watchdog(wdCtx, d, s.log)
			for _, done := range []chan error{dealtDone, reqDone(req)} {
				if done != nil {
					go func() { d.Alive(ctx); done <- nil }() // answers once Run is serving
				}
			}
		}}
	w, err := gr.run(ctx)
	wdStop()
	tg.close()
	if ctx.Err() != nil {
		s.log.Info("stopping: the journal is closed; the game resumes on the next start")
		return 0, false
	}
	if err != nil {
		return s.fail(1, err), false
	}
	if notice := s.printResult(tg, w); notice != "" && s.con != nil {
		s.con.Notice(notice)
	}
	return 0, true
}

// reqDone is the console's request's answer channel, nil without one.
func reqDone(req *hostRequest) chan error {
	if req == nil {
		return nil
	}
	return req.done
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
	ShortHelp: "桌子的常駐服務（`systemd`：`Type=notify`）；`--once`：只打一局；`--autostart`：不等踏板就開始；\n" +
		"`--mute`：不出聲；測試與展示用：加快計時（--speed）、固定發牌（--seed）、法官的時鐘（--clock）、\n" +
		"隨機玩家（--bots）；`--desk`：向賽事總台回報（設定檔 `[desk]`）",
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
