package main

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"log/slog"
	"time"

	"wolftable/boards"
	"wolftable/console"
	"wolftable/daemon"
	"wolftable/desk"
	"wolftable/engine"
	"wolftable/hw"
)

// session is what serve and sim open once and close once, around their
// games: the boards, the journals folder and the table's signing key, the
// desk, the judge's voice, the console and the table. Each open… adds
// what closes it; close runs those in reverse order (the console first,
// the desk last: what is left goes at the next start).
type session struct {
	name           string // "serve" or "sim": its messages begin with it
	stdout, stderr io.Writer
	log            *slog.Logger
	cat            *boards.Catalog // the built-in boards and the venue's
	jdir           string          // the journals folder ("" none: sim without --journal)
	key            ed25519.PrivateKey
	desk           *desk.Publisher
	voice          daemon.Voice
	con            *console.Server
	table          hw.Table
	host           *gameHost
	tr             *transcript
	closers        []func()
}

func newSession(name, jdir string, stdout, stderr io.Writer, log *slog.Logger) *session {
	return &session{name: name, jdir: jdir, stdout: stdout, stderr: stderr, log: log, host: newGameHost()}
}

// onClose adds f to what close runs (the last added first).
func (s *session) onClose(f func()) { s.closers = append(s.closers, f) }

// close closes what the session opened, once.
func (s *session) close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
}

// fail says a on stderr after the session's name and returns code, the
// exit status.
func (s *session) fail(code int, a ...any) int {
	fmt.Fprintln(s.stderr, append([]any{s.name + ":"}, a...)...)
	return code
}

// openDesk connects to the tournament desk at url (none when ""); close
// gives what is not acknowledged wait to go, else it stays in the outbox
// for the next start.
func (s *session) openDesk(url, table, creds string, wait time.Duration) error {
	pub, err := startDesk(url, table, creds, s.jdir, s.log, s.stdout)
	if err != nil {
		return err
	}
	s.desk = pub
	s.onClose(func() { stopDesk(pub, wait, s.stdout) })
	return nil
}

// readKey reads the table's signing key beside the journals folder (made
// at the first start): each game's end record is signed with it.
func (s *session) readKey() error {
	key, err := tableKey(s.jdir, s.stdout)
	s.key = key
	return err
}

// setTable makes t the session's table; close closes it (lights off).
func (s *session) setTable(t hw.Table) {
	s.table = t
	s.onClose(func() { t.Close() })
}

// openConsole starts the judge console with cs (none when it listens
// nowhere), its address and PIN said on out.
func (s *session) openConsole(ctx context.Context, cs consoleSetup, out io.Writer) error {
	con, stop, err := startConsoleWith(ctx, cs, s.host, out, s.log)
	if err != nil {
		return err
	}
	s.con = con
	s.onClose(stop)
	return nil
}

// attach shows tg on the console, a resumed game's history first; it
// returns what gets the game's events.
func (s *session) attach(tg *tableGame) func(daemon.Event) {
	onConsole := s.con.Attach(gameSpec(tg), tg.game)
	tg.replayTo(onConsole) // a resumed game's history, up to the power cut
	return onConsole
}

// printResult prints the game's result line ("result: 好人": machine-read
// by scripts/sim-boards, `make sim` and the tests, so it stays in this
// form) and the fingerprint line the judge copies onto the score sheet;
// it returns the console's notice of the end ("" when no end record was
// written).
func (s *session) printResult(tg *tableGame, w engine.Winner) (notice string) {
	fmt.Fprintf(s.stdout, "result: %s\n", w)
	line, notice, ok := tg.endLines(w)
	if ok {
		fmt.Fprintln(s.stdout, line)
	}
	return notice
}
