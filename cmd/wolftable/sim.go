package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"wolftable/boards"
	"wolftable/console"
	"wolftable/daemon"
	"wolftable/engine"
	"wolftable/hw"
	"wolftable/hw/virtual"
)

// headlessTable is a table with no hardware and no screen: it keeps the
// lights and takes no keys (sim --no-tui with --bots).
type headlessTable struct {
	mu     sync.Mutex
	seats  int
	lights []hw.SeatLight
	events chan hw.Event
}

func newHeadless(n int) *headlessTable {
	return &headlessTable{seats: n, events: make(chan hw.Event)}
}

func (t *headlessTable) Seats() int { return t.seats }
func (t *headlessTable) SetLights(l []hw.SeatLight) error {
	t.mu.Lock()
	t.lights = l
	t.mu.Unlock()
	return nil
}
func (t *headlessTable) Events() <-chan hw.Event { return t.events }
func (t *headlessTable) Close() error            { return nil }

var colorWord = map[hw.Color]string{hw.Off: "·", hw.Green: "G", hw.Red: "R", hw.Blue: "B"}

// transcript prints what the table does as plain text lines.
type transcript struct {
	w     io.Writer
	start time.Time
	speed float64
	cues  bool
}

func (t *transcript) stamp(at time.Time) string {
	if t.start.IsZero() {
		t.start = at // the game's clock counts from its first event
	}
	d := time.Duration(float64(at.Sub(t.start)) * t.speed)
	return fmt.Sprintf("%02d:%02d:%02d", int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60)
}

func (t *transcript) on(e daemon.Event) {
	if e.Link != nil {
		fmt.Fprintf(t.w, "%s  〔連線〕up=%v %s\n", t.stamp(e.At), e.Link.Up, e.Link.Detail)
		return
	}
	if e.Input != nil {
		if e.Err != nil && e.Source != daemon.SourceBot && e.Source != "timer" && e.Source != daemon.SourceBotJudge {
			fmt.Fprintf(t.w, "%s  〔拒絕〕%s: %v\n", t.stamp(e.At), e.Source, e.Err)
		}
		return
	}
	x := e.Effect
	if x == nil {
		return
	}
	ts := t.stamp(e.At)
	switch x.Kind {
	case engine.EffSay:
		fmt.Fprintf(t.w, "%s  法官：%s\n", ts, e.Text)
	case engine.EffCue:
		if t.cues {
			fmt.Fprintf(t.w, "%s    〔手勢〕%s\n", ts, e.Text)
		}
	case engine.EffLight:
		if x.Light == engine.LightOff {
			fmt.Fprintf(t.w, "%s    〔燈〕%d號 滅\n", ts, x.Seat)
		}
	case engine.EffRecord:
		r := x.Record
		switch r.Type {
		case engine.RecDeath:
			fmt.Fprintf(t.w, "%s    〔出局〕%d號（%s，%s）\n", ts, r.Seat, r.Cause, r.When)
		case engine.RecVote:
			var parts []string
			for _, v := range r.Ballots.Votes {
				parts = append(parts, fmt.Sprintf("%d→%d", v.Voter, v.Target))
			}
			fmt.Fprintf(t.w, "%s    〔票型〕%s：%s\n", ts, r.Kind, strings.Join(parts, " "))
		case engine.RecSheriff:
			fmt.Fprintf(t.w, "%s    〔警長〕%d\n", ts, r.Seat)
		case engine.RecResult:
			fmt.Fprintf(t.w, "%s    〔結果〕%s\n", ts, r.Result)
		}
	}
}

func cmdSim(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bots := fs.Bool("bots", false, "every seat is a random player and the pedal is pressed automatically")
	speed := fs.Float64("speed", 1, "timers run N times faster")
	seed := fs.Uint64("seed", 0, "seed for the deal and the engine (0 = from the clock)")
	board := fs.String("board", "seer-witch-hunter-idiot", "board id or name")
	noTUI := fs.Bool("no-tui", false, "plain transcript on stdout (for logs and tests)")
	cues := fs.Bool("cues", true, "show the judge's night cues in the transcript")
	jdir := fs.String("journal", "", "journal directory: every input is journaled; an unfinished game there is resumed")
	voiceMode := fs.String("voice", "auto", "the judge's voice: on, off, or auto (on at --speed 1)")
	consoleAddr := fs.String("console", "", "serve the judge console on ADDR (e.g. 127.0.0.1:8080)")
	fresh := fs.Bool("new", false, "start a new game even if the journal directory has an unfinished one")
	wallFlag := fs.String("clock", "", "the judge's wall clock reads HH:MM when the game starts and runs at --speed (the clock rule reads it; default: the real clock)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *speed <= 0 || *speed > 10000 {
		fmt.Fprintln(stderr, "sim: --speed must be in (0, 10000]")
		return 2
	}
	b, err := boards.Get(*board)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if r, bad := b.Unimplemented(); bad {
		fmt.Fprintf(stderr, "sim: board %s: role %s not implemented yet\n", b.ID, r.Name())
		return 2
	}
	wall, err := parseWallClock(*wallFlag)
	if err != nil {
		fmt.Fprintln(stderr, "sim:", err)
		return 2
	}
	s := *seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	tg, err := newOrResumed(*jdir, !*fresh, b, s, engine.Deal(b, s), b.Players, *speed, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "sim:", err)
		return 2
	}
	defer tg.close()
	if *jdir != "" { // the end record is signed with the table's key
		if tg.key, err = tableKey(*jdir, stdout); err != nil {
			fmt.Fprintln(stderr, "sim:", err)
			return 2
		}
	}
	g, b, s := tg.game, tg.board, tg.seed
	fmt.Fprintf(stdout, "wolftable sim: %s %s, seed %d, speed %gx\n", b.ID, b.Name, s, *speed)
	var dealt []string
	for i, r := range tg.deal {
		dealt = append(dealt, fmt.Sprintf("%d:%s", i+1, r.Name()))
	}
	fmt.Fprintf(stdout, "deal: %s\n", strings.Join(dealt, " "))
	var judge daemon.Voice
	switch v := *voiceMode; {
	case v == "on" || (v == "auto" && *speed == 1):
		judge = openVoice(context.Background(), "", 1, slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})), stdout)
	case v == "off" || v == "auto":
		fmt.Fprintf(stdout, "voice: off (at --speed %g; --voice on to hear it)\n", *speed)
	default:
		fmt.Fprintln(stderr, "sim: --voice is on, off or auto")
		return 2
	}
	tr := &transcript{w: stdout, speed: *speed, cues: *cues}
	if r := tg.restored; r != nil && !r.Start.IsZero() {
		tr.start = r.Start // the game's clock counts from its start
	}
	var table hw.Table
	onEvent := tr.on
	switch {
	case *noTUI && *bots:
		table = newHeadless(b.Players)
	case *noTUI:
		// plain lines on stdin: "3 OK", "7 9 OK", "pedal short"
		vt, err := virtual.New(os.Stdin, stdout, virtual.WithSeats(b.Players), virtual.WithStyle(virtual.Plain))
		if err != nil {
			fmt.Fprintln(stderr, "sim:", err)
			return 2
		}
		table = vt
	default:
		if !virtual.IsTerminal(int(os.Stdin.Fd())) || !virtual.IsTerminal(int(os.Stdout.Fd())) {
			fmt.Fprintln(stderr, "sim: stdin/stdout is not a terminal: use --no-tui for a plain transcript")
			return 2
		}
		vt, err := virtual.OpenTerminal(os.Stdin, os.Stdout, virtual.WithSeats(b.Players))
		if err != nil {
			fmt.Fprintln(stderr, "sim:", err)
			return 2
		}
		table = vt
		tui := &transcript{w: io.Discard, start: tr.start, speed: *speed, cues: *cues}
		onEvent = func(e daemon.Event) {
			if e.Effect != nil && (e.Effect.Kind == engine.EffSay || (e.Effect.Kind == engine.EffCue && *cues)) {
				prefix := ""
				if e.Effect.Kind == engine.EffCue {
					prefix = "〔手勢〕"
				}
				vt.Show(tui.stamp(e.At) + "  " + prefix + e.Text)
			}
		}
	}
	defer table.Close()
	host := newGameHost()
	onConsole := func(daemon.Event) {}
	if *consoleAddr != "" {
		con, stopConsole, err := startConsole(context.Background(), *consoleAddr, "", *speed, host, stdout,
			slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
		if err != nil {
			fmt.Fprintln(stderr, "sim: console:", err)
			return 2
		}
		defer stopConsole()
		onConsole = con.Attach(console.GameSpec{Board: b, Deal: tg.deal, Seed: s}, g)
		go func() { // sim runs one game: new games are for serve
			for r := range host.requests {
				r.done <- errors.New("sim runs one game; start games with wolftable serve")
			}
		}()
	}
	chained := onEvent
	onEvent = func(e daemon.Event) { onConsole(e); chained(e) }
	var botCfg *daemon.BotConfig
	if *bots {
		botCfg = &daemon.BotConfig{Seed: s}
	}
	d, err := daemon.New(daemon.Config{Game: g, Table: table, Speed: *speed,
		Journal: tg.journal(), Restored: tg.restored, Voice: judge,
		Log:     slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		OnEvent: onEvent, Bots: botCfg, Wall: wall})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	host.set(d)
	if err := d.Run(ctx); err != nil {
		table.Close()
		fmt.Fprintln(stderr, "sim:", err)
		return 1
	}
	table.Close()
	_, w := g.Over()
	fmt.Fprintf(stdout, "result: %s\n", w)
	if line, _, ok := tg.endLines(string(w)); ok {
		fmt.Fprintln(stdout, line)
	}
	return 0
}

// parseWallClock reads --clock HH:MM ("" = the real clock: nil).
func parseWallClock(s string) (*daemon.WallTime, error) {
	if s == "" {
		return nil, nil
	}
	var h, m int
	if n, err := fmt.Sscanf(s, "%d:%d", &h, &m); err != nil || n != 2 || h < 0 || h > 23 || m < 0 || m > 59 {
		return nil, fmt.Errorf("--clock %q: want HH:MM, e.g. 20:15", s)
	}
	return &daemon.WallTime{Hour: h, Minute: m}, nil
}
