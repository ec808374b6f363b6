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
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"wolftable/daemon"
	"wolftable/desk"
	"wolftable/engine"
	"wolftable/internal/cliflag"
	"wolftable/journal"
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

// checkDeskCreds is `config check`'s look at [desk]: the credentials file
// reads (the current format: an NKEY and the desk's pin; an old one with a
// password is refused with its remedy) and is this table's, as serve
// requires before it starts (nil when no desk is configured).
func checkDeskCreds(url, table, creds string) error {
	if url == "" {
		return nil
	}
	c, err := desk.ReadCreds(creds)
	if err != nil {
		return fmt.Errorf("desk.creds: %v", err)
	}
	if c.Table != table {
		return fmt.Errorf("desk.creds: 憑證 %s 是桌子 %s 的，不是 desk.table = %q / the credentials are table %s's", creds, c.Table, table, c.Table)
	}
	return nil
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
	c, err := desk.ReadCreds(creds)
	if err != nil {
		return nil, err
	}
	if c.Table != table {
		return nil, fmt.Errorf("the credentials %s are table %s's, not %s's", creds, c.Table, table)
	}
	p, err := desk.Start(desk.PublisherConfig{URL: url, Creds: c, JournalDir: journalDir, Log: log,
		OnRefused: func(path, reason string) { fmt.Fprintln(out, refusedLine(path, reason)) }})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "desk: reporting to %s as table %s\n", url, table)
	if ref, err := desk.RefusedJournals(journalDir); err == nil {
		for _, f := range sortedKeys(ref) {
			fmt.Fprintln(out, refusedLine(f, ref[f].Reason))
		}
	}
	return p, nil
}

// refusedLine is what sim and serve print of a record the desk refused.
func refusedLine(path, reason string) string {
	return fmt.Sprintf("總台拒收本桌紀錄 %s：%s（修正後執行 wolftable record resend %s 重送）", filepath.Base(path), reason, filepath.Base(path))
}

// refusedNotice is the judge console's notice of the records the desk
// refused ("" when none): each with its fingerprint, which is also the
// score sheet's.
func refusedNotice(journalDir string) string {
	ref, err := desk.RefusedJournals(journalDir)
	if err != nil || len(ref) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("總台拒收本桌紀錄：")
	for i, f := range sortedKeys(ref) {
		if i > 0 {
			b.WriteString("；")
		}
		fp := ""
		if h, err := hex.DecodeString(ref[f].Hash); err == nil && len(h) == 32 {
			fp = "（指紋 " + journal.Fingerprint([32]byte(h)) + "）"
		}
		fmt.Fprintf(&b, "%s%s：%s", filepath.Base(f), fp, ref[f].Reason)
	}
	b.WriteString("。修正後執行 wolftable record resend 重送。")
	return b.String()
}

// noticeRefusals shows the judge's console the desk's refusals: each new
// one as it comes, printed as well (serve). serve notices the ones already
// marked after each game's attach (a new game's view starts without them).
func noticeRefusals(pub *desk.Publisher, notice func(string), journalDir string, out io.Writer) {
	if pub == nil || notice == nil {
		return
	}
	pub.OnRefused(func(path, reason string) {
		fmt.Fprintln(out, refusedLine(path, reason))
		if n := refusedNotice(journalDir); n != "" {
			notice(n)
		}
	})
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// cmdRecordResend is `wolftable record resend [--config F] [--journal DIR]
// [FILE...]`: the journals the desk refused go back in the outbox (all of
// them without FILE); a running table sends them within 30 s, else at its
// next start.
func cmdRecordResend(args []string, stdout, stderr io.Writer) int {
	fs := cliflag.New("record resend", resendUsage, stderr)
	path := fs.String("config", "", "config file (default "+defaultConfigPath+" if present): its journal folder")
	dir := fs.String("journal", "", "the journal folder (default: the config's)")
	files, err := cliflag.Interspersed(fs, args)
	if err != nil {
		return 2
	}
	if *dir == "" {
		c, err := loadConfig(*path)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		*dir = c.Journal.Dir
	}
	back, err := desk.Resend(*dir, files)
	for _, f := range back {
		fmt.Fprintf(stdout, "已放回待送：%s\n", f)
	}
	if err != nil {
		fmt.Fprintln(stderr, "record resend:", err)
		return 1
	}
	if len(back) == 0 {
		fmt.Fprintln(stdout, "沒有被總台拒收的紀錄")
		return 0
	}
	fmt.Fprintf(stdout, "%d 份紀錄放回待送：執行中的本桌會在 30 秒內重送，否則在下次啟動時\n", len(back))
	return 0
}

const resendUsage = `usage: wolftable record resend [--config FILE] [--journal DIR] [FILE...]
  put the journals the desk refused back in the outbox (all without FILE)
`

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
		case engine.RecVote: // the ballots, as announced at the table
			return ds.s.AddVote(r)
		case engine.RecExile:
			return ds.s.AddExile(r)
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
	s := ds.s.CopyVotes()
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
	if tg.end != nil { // the fingerprint only: the desk publishes the hash once it stores the record
		e.Fingerprint = journal.Fingerprint(tg.final)
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
			fmt.Fprintf(stderr, "desk: 找不到總台程式 wolftable-desk（%s，PATH 裡也沒有）：請安裝它，或在原始碼資料夾執行 make build（把 wolftable 與 wolftable-desk 一起編到 bin/） / not found: make build builds both into bin/ (%v)\n", bin, err)
			return 1
		}
	}
	err = syscall.Exec(bin, append([]string{bin}, args...), os.Environ())
	fmt.Fprintln(stderr, "desk:", err)
	return 1
}
