package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"time"

	"wolftable/bots"
	"wolftable/daemon"
	"wolftable/daemon/play"
	"wolftable/desk"
	"wolftable/engine"
	"wolftable/hw"
)

// gameFlags are the flags serve and sim share: how a game runs.
type gameFlags struct {
	speed *float64
	seed  *uint64
	bots  *bool
	clock *string
	wall  *daemon.WallTime // --clock, read by check
}

// addGameFlags defines --speed, --seed, --bots and --clock on fs; the
// help of --seed and --bots is the command's own.
func addGameFlags(fs *flag.FlagSet, seedHelp, botsHelp string) *gameFlags {
	return &gameFlags{
		speed: fs.Float64("speed", 1, "timers run N times faster (tests and demos)"),
		seed:  fs.Uint64("seed", 0, seedHelp),
		bots:  fs.Bool("bots", false, botsHelp),
		clock: fs.String("clock", "", "the judge's wall clock reads HH:MM when a game starts and runs at --speed (the clock rule reads it; default: the real clock)"),
	}
}

// check validates --speed and reads --clock.
func (f *gameFlags) check() error {
	if *f.speed <= 0 || *f.speed > 10000 {
		return fmt.Errorf("--speed must be in (0, 10000]")
	}
	w, err := parseWallClock(*f.clock)
	f.wall = w
	return err
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

// warnLog is the logger of sim and the console it serves: warnings and
// errors on stderr.
func warnLog(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// gameRun is one game on a table as serve and sim run it: the daemon
// assembled around the table game, with the bots when --bots, the
// transcript, the console and the command's own listeners.
type gameRun struct {
	tg    *tableGame
	table hw.Table
	flags *gameFlags
	pedal daemon.PedalMap
	voice daemon.Voice
	log   *slog.Logger
	host  *gameHost
	// tr is the transcript: its clock counts from the game's first event,
	// or from its start when the game is resumed.
	tr *transcript
	// listeners get every event: the console's first, then the
	// transcript, then these.
	console   func(daemon.Event)
	listeners []func(daemon.Event)
	// started, if set, runs once the daemon is the host's, before Run.
	started func(d *daemon.Daemon)
	// desk, if set, gets the table's public status, the game's start,
	// penalties and end, and its record once the journal is closed.
	desk *desk.Publisher
}

// run plays the game until it ends or ctx is done; the winner is WinNone
// when the game did not end.
func (r *gameRun) run(ctx context.Context) (engine.Winner, error) {
	r.tr.start = time.Time{}
	if rs := r.tg.restored; rs != nil && !rs.Start.IsZero() {
		r.tr.start = rs.Start
	}
	var player play.Player
	if *r.flags.bots {
		player = &bots.TablePlayer{Seed: r.tg.seed}
	}
	onConsole := r.console
	if onConsole == nil {
		onConsole = func(daemon.Event) {}
	}
	listeners := r.listeners
	var ds *deskStatus
	if r.desk != nil {
		ds = newDeskStatus(r.desk, r.tg)
		listeners = append(append([]func(daemon.Event){}, listeners...), ds.on)
		ds.start()
	}
	var keys []string // a key event journaled before a kill, and sent again by the bridge, is dropped
	if r.tg.writer != nil {
		keys = journaledKeys(filepath.Dir(r.tg.writer.Path()))
	}
	d, err := daemon.New(daemon.Config{Game: r.tg.game, Table: r.table, Speed: *r.flags.speed, Pedal: r.pedal,
		Log: r.log, Voice: r.voice, Journal: r.tg.journal(), Restored: r.tg.restored, Player: player, Wall: r.flags.wall,
		KeysJournaled: keys,
		OnEvent: func(e daemon.Event) {
			onConsole(e)
			r.tr.on(e)
			for _, l := range listeners {
				l(e)
			}
		}})
	if err != nil {
		return engine.WinNone, err
	}
	r.host.set(d)
	defer r.host.set(nil)
	if r.started != nil {
		r.started(d)
	}
	if err := d.Run(ctx); err != nil {
		return engine.WinNone, err
	}
	over, w := r.tg.game.Over()
	if over {
		r.tg.archive(r.log) // before the desk's Kick: the outbox finds it queued
	}
	if ds != nil && over {
		ds.end(r.tg, string(w))
	}
	return w, nil
}
