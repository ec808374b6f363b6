package main

import (
	"context"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"wolftable/daemon"
	"wolftable/desk"
	"wolftable/engine"
)

// deskFlags are --desk, --table and --desk-creds of sim and serve: the
// tournament desk the table reports to (issue 16).
type deskFlags struct {
	url, table, creds *string
}

func addDeskFlags(fs *flag.FlagSet) *deskFlags {
	return &deskFlags{
		url:   fs.String("desk", "", "report to the tournament desk at URL (nats://HOST:PORT); needs --table and --desk-creds"),
		table: fs.String("table", "", "this table's name at the desk"),
		creds: fs.String("desk-creds", "", "the credentials file `wolftable desk table add` printed"),
	}
}

// startDesk starts the table's publisher when a desk is configured (nil
// otherwise: nothing connects). The journals folder is its outbox.
func startDesk(url, table, creds, journalDir string, log *slog.Logger, out io.Writer) (*desk.Publisher, error) {
	if url == "" {
		return nil, nil
	}
	if table == "" || creds == "" {
		return nil, fmt.Errorf("--desk needs --table and --desk-creds")
	}
	if journalDir == "" {
		return nil, fmt.Errorf("--desk needs a journal folder (--journal): the journals are the desk's records")
	}
	c, err := deskCreds(table, creds) // as config check reads them
	if err != nil {
		return nil, err
	}
	p, err := desk.Start(desk.PublisherConfig{URL: url, Creds: c, JournalDir: journalDir, Log: log})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "desk: reporting to %s as table %s\n", url, table)
	return p, nil
}

// stopDesk waits up to wait for the outbox to be acknowledged, then
// closes the publisher: what is left is sent at the next start.
func stopDesk(p *desk.Publisher, wait time.Duration, out io.Writer) {
	if p == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := p.Flush(ctx); err != nil {
		fmt.Fprintf(out, "desk: %v\n", err)
	}
	p.Close()
}

// deskStatus follows a game's public events and publishes the table's
// status: board, phase, the seats whose light is on, the sheriff, the
// link, penalties and the result; never a role or a night choice.
type deskStatus struct {
	mu  sync.Mutex
	pub *desk.Publisher
	s   desk.Status
	out map[int]bool
}

func newDeskStatus(pub *desk.Publisher, tg *tableGame) *deskStatus {
	ds := &deskStatus{pub: pub, out: map[int]bool{}}
	ds.s = desk.Status{Board: tg.board.ID, BoardName: tg.board.Name, Seats: tg.game.Players(), LinkUp: true}
	if tg.writer != nil {
		ds.s.Game = tg.writer.Header().GameID
	}
	if rs := tg.restored; rs != nil { // a resumed game: its lights so far
		for _, te := range tg.replayed {
			if te.In == nil {
				e := te.Effect
				ds.apply(&e)
			}
		}
	}
	ds.alive()
	return ds
}

func (ds *deskStatus) alive() {
	ds.s.Alive = ds.s.Alive[:0]
	for i := 1; i <= ds.s.Seats; i++ {
		if !ds.out[i] {
			ds.s.Alive = append(ds.s.Alive, i)
		}
	}
}

// apply takes one effect; true when the status changed.
func (ds *deskStatus) apply(x *engine.Effect) bool {
	switch x.Kind {
	case engine.EffLight:
		off := x.Light == engine.LightOff
		if ds.out[x.Seat] != off {
			ds.out[x.Seat] = off
			return true
		}
	case engine.EffRecord:
		r := x.Record
		if r == nil {
			return false
		}
		switch r.Type {
		case engine.RecPhase:
			ds.s.Phase = r.When
			return true
		case engine.RecSheriff:
			ds.s.Sheriff = r.Seat
			return true
		case engine.RecResult:
			ds.s.Result = r.Result
			return true
		}
	}
	return false
}

// start publishes the game's start and its first status.
func (ds *deskStatus) start() {
	ds.mu.Lock()
	s := ds.snapshot()
	ds.mu.Unlock()
	ds.pub.Event(desk.KindStart, desk.Event{Game: s.Game, Board: s.Board})
	ds.pub.Status(s)
}

func (ds *deskStatus) snapshot() desk.Status {
	ds.alive()
	s := ds.s
	s.Alive = append([]int(nil), ds.s.Alive...)
	return s
}

// on is the daemon's listener.
func (ds *deskStatus) on(e daemon.Event) {
	ds.mu.Lock()
	changed := false
	if e.Link != nil {
		changed = ds.s.LinkUp != e.Link.Up || ds.s.Link != e.Link.Detail
		ds.s.LinkUp, ds.s.Link = e.Link.Up, e.Link.Detail
	}
	var penalty *engine.Record
	if x := e.Effect; x != nil {
		changed = ds.apply(x) || changed
		if x.Kind == engine.EffRecord && x.Record != nil && x.Record.Type == engine.RecPenalty {
			penalty = x.Record
		}
	}
	s := ds.snapshot()
	ds.mu.Unlock()
	if penalty != nil {
		ds.pub.Event(desk.KindPenalty, desk.Event{Game: s.Game, Seat: penalty.Seat, Points: penalty.Points})
	}
	if changed {
		ds.pub.Status(s)
	}
}

// end publishes the game's end and sends its record (the journal, now
// closed, is in the outbox).
func (ds *deskStatus) end(tg *tableGame, result string) {
	ds.mu.Lock()
	ds.s.Result = result
	s := ds.snapshot()
	ds.mu.Unlock()
	e := desk.Event{Game: s.Game, Board: s.Board, Result: result}
	if tg.end != nil {
		e.Hash = hex.EncodeToString(tg.final[:])
	}
	ds.pub.Event(desk.KindEnd, e)
	ds.pub.Status(s)
	ds.pub.Kick()
}

// deskWait is how long sim waits at its end for the desk's
// acknowledgement (WOLFTABLE_DESK_WAIT, a duration; default 30 s).
func deskWait() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("WOLFTABLE_DESK_WAIT")); err == nil {
		return d
	}
	return 30 * time.Second
}

// execDesk runs the desk's own binary, wolftable-desk, from this binary's
// folder (the table's daemon does not link the NATS server): exec
// replaces this process, so signals reach the desk as they are.
func execDesk(args []string, stderr io.Writer) int {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "desk:", err)
		return 1
	}
	bin := filepath.Join(filepath.Dir(self), "wolftable-desk")
	if _, err := os.Stat(bin); err != nil {
		if p, perr := exec.LookPath("wolftable-desk"); perr == nil {
			bin = p
		} else {
			fmt.Fprintf(stderr, "desk: 找不到總台程式 wolftable-desk（%s）：請安裝它，或 go build ./cmd/wolftable-desk / %v\n", bin, err)
			return 1
		}
	}
	err = syscall.Exec(bin, append([]string{bin}, args...), os.Environ())
	fmt.Fprintln(stderr, "desk:", err)
	return 1
}
