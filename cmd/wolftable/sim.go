package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"wolftable/audio/voice"
	"wolftable/boards"
	"wolftable/bots"
	"wolftable/config"
	"wolftable/console"
	"wolftable/daemon"
	"wolftable/engine"
	"wolftable/hw"
	"wolftable/hw/virtual"
	"wolftable/internal/cliflag"
	"wolftable/internal/hans"
	"wolftable/script"
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
		if e.Err != nil && e.Source != bots.SourceBot && e.Source != "timer" && e.Source != bots.SourceBotJudge {
			fmt.Fprintf(t.w, "%s  %s\n", t.stamp(e.At), refusalLine(e))
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
			fmt.Fprintf(t.w, "%s    〔%s〕%d號（%s，%s）\n", ts, script.RecordLabel(r.Type), r.Seat, script.CauseLabel(r.Cause), script.PhaseLabel(r.When))
		case engine.RecVote:
			var parts []string
			for _, v := range r.Ballots.Votes {
				parts = append(parts, fmt.Sprintf("%d→%d", v.Voter, v.Target))
			}
			fmt.Fprintf(t.w, "%s    〔%s〕%s：%s\n", ts, script.RecordLabel(r.Type), script.VoteLabel(engine.VoteKind(r.Kind)), strings.Join(parts, " "))
		case engine.RecSheriff:
			fmt.Fprintf(t.w, "%s    〔警長〕%d\n", ts, r.Seat)
		case engine.RecResult:
			fmt.Fprintf(t.w, "%s    〔結果〕%s\n", ts, r.Result)
		}
	}
}

// refusalLine is a refused input as the judge reads it: "〔拒絕〕pedal：
// 這一步不能用踏板推進" (the engine's English message stays in the log).
func refusalLine(e daemon.Event) string {
	return "〔拒絕〕" + e.Source + "：" + console.RefusalText(e.Err)
}

// simOptions are sim's flags.
type simOptions struct {
	gf                                     *gameFlags
	df                                     *deskFlags
	board, boardsDir, jdir, voice, console string
	noTUI, cues, fresh                     bool
	script                                 hans.Script // the venue's, for the console
}

// simArgs parses sim's command line; code is -1 when it is good, else the
// exit status.
func simArgs(args []string, stderr io.Writer) (o simOptions, code int) {
	fs := cliflag.New("sim", "usage:\n"+simUsage, stderr)
	o.gf = addGameFlags(fs, "seed for the deal and the engine (0 = from the clock)",
		"every seat is a random player and the pedal is pressed automatically")
	fs.StringVar(&o.board, "board", "seer-witch-hunter-idiot", "board id or name")
	fs.StringVar(&o.boardsDir, "boards-dir", "", "the venue's boards folder (default "+boards.DefaultDir+" if present)")
	fs.BoolVar(&o.noTUI, "no-tui", false, "plain transcript on stdout (for logs and tests)")
	fs.BoolVar(&o.cues, "cues", true, "show the judge's night cues in the transcript")
	fs.StringVar(&o.jdir, "journal", "", "journal directory: every input is journaled; an unfinished game there is resumed")
	fs.StringVar(&o.voice, "voice", "auto", "the judge's voice: on, off, or auto (on at --speed 1)")
	fs.StringVar(&o.console, "console", "", "serve the judge console on ADDR (e.g. 127.0.0.1:8080)")
	fs.BoolVar(&o.fresh, "new", false, "start a new game even if the journal directory has an unfinished one")
	o.df = addDeskFlags(fs)
	if pos, err := cliflag.Interspersed(fs, args); err != nil || len(pos) > 0 {
		if err == nil {
			fmt.Fprintf(stderr, "sim: unexpected argument %q\n", pos[0])
		}
		return o, 2
	}
	if err := o.gf.check(); err != nil {
		fmt.Fprintln(stderr, "sim:", err)
		return o, 2
	}
	o.script = venueScript(args)
	return o, -1
}

// cmdSim is `wolftable sim`: one game on the simulated table.
func cmdSim(args []string, stdout, stderr io.Writer) int {
	o, code := simArgs(args, stderr)
	if code >= 0 {
		return code
	}
	s := newSession("sim", o.jdir, stdout, stderr, warnLog(stderr))
	defer s.close()
	tg, code := s.simGame(o)
	if tg == nil {
		return code
	}
	// sim ends with its game: the record gets a while to be acknowledged,
	// else it stays in the outbox for the next start.
	if err := s.openDesk(*o.df.url, *o.df.table, *o.df.creds, deskWait()); err != nil {
		return s.fail(2, err)
	}
	speed := *o.gf.speed
	simHeader(stdout, tg, speed)
	switch v := o.voice; {
	case v == "on" || (v == "auto" && speed == 1):
		s.voice = openVoice(context.Background(), config.Voice{Volume: 1}, userVoiceCache(), voice.Choice{}, s.log, stdout)
	case v == "off" || v == "auto":
		fmt.Fprintf(stdout, "語音：關閉（速度 %g 倍時不出聲；要聽請加 --voice on）\n", speed)
	default:
		return s.fail(2, "--voice is on, off or auto")
	}
	s.tr = &transcript{w: stdout, speed: speed, cues: o.cues}
	gr := &gameRun{tg: tg, flags: o.gf, voice: s.voice, log: s.log, host: s.host, desk: s.desk, tr: s.tr}
	tui, code := s.simTable(o, gr)
	if code != 0 {
		return code
	}
	if o.console != "" {
		if code := s.simConsole(o, gr, tui); code != 0 {
			return code
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	w, err := gr.run(ctx)
	gr.table.Close()
	if err != nil {
		return s.fail(1, err)
	}
	s.printResult(tg, w)
	return 0
}

// simGame is sim's game: the unfinished journal's of --journal, resumed
// (unless --new), or a new deal of --board; nil when it cannot be, with
// the exit status. Its journal closes with the session, last.
func (s *session) simGame(o simOptions) (*tableGame, int) {
	var err error
	if o.boardsDir != "" {
		s.cat, err = boards.Open(o.boardsDir, true)
	} else {
		s.cat, err = boards.Open(boards.DefaultDir, false)
	}
	if err != nil {
		return nil, s.fail(2, err)
	}
	for _, sk := range s.cat.Skipped {
		fmt.Fprintf(s.stderr, "sim: 略過 %s\n", sk)
	}
	b, err := s.cat.Get(o.board)
	if err != nil {
		fmt.Fprintln(s.stderr, err)
		return nil, 2
	}
	seed := *o.gf.seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	deal, bottom := engine.DealCards(b, seed)
	tg, err := newOrResumed(o.jdir, !o.fresh, b, seed, deal, bottom, b.Players, *o.gf.speed, s.stdout, s.cat.Get)
	if err != nil {
		return nil, s.fail(2, err)
	}
	s.onClose(tg.close)
	if o.jdir != "" { // the end record is signed with the table's key
		if err := s.readKey(); err != nil {
			return nil, s.fail(2, err)
		}
		tg.key = s.key
	}
	return tg, 0
}

// simTable opens sim's table: none (--no-tui --bots), plain lines on
// stdin (--no-tui), or the terminal's table, which covers the screen
// (tui, which then shows the judge's lines instead of the transcript).
func (s *session) simTable(o simOptions, gr *gameRun) (tui *virtual.Table, code int) {
	players := gr.tg.board.Players
	switch {
	case o.noTUI && *o.gf.bots:
		s.setTable(newHeadless(players))
	case o.noTUI:
		// plain lines on stdin: "3 OK", "7 9 OK", "pedal short"
		vt, err := virtual.New(os.Stdin, s.stdout, virtual.WithSeats(players), virtual.WithStyle(virtual.Plain))
		if err != nil {
			return nil, s.fail(2, err)
		}
		s.setTable(vt)
	default:
		if !virtual.IsTerminal(int(os.Stdin.Fd())) || !virtual.IsTerminal(int(os.Stdout.Fd())) {
			return nil, s.fail(2, "stdin/stdout is not a terminal: use --no-tui for a plain transcript")
		}
		vt, err := virtual.OpenTerminal(os.Stdin, os.Stdout, virtual.WithSeats(players), tableScript(s.stdout))
		if err != nil {
			return nil, s.fail(2, err)
		}
		s.setTable(vt)
		tui = vt
		gr.tr.w = io.Discard // the terminal shows the judge's lines instead
		gr.listeners = append(gr.listeners, func(e daemon.Event) {
			if e.Effect != nil && (e.Effect.Kind == engine.EffSay || (e.Effect.Kind == engine.EffCue && o.cues)) {
				prefix := ""
				if e.Effect.Kind == engine.EffCue {
					prefix = "〔手勢〕"
				}
				vt.Show(gr.tr.stamp(e.At) + "  " + prefix + e.Text)
			}
			if e.Input != nil && e.Err != nil && e.Source != bots.SourceBot && e.Source != "timer" && e.Source != bots.SourceBotJudge {
				vt.Show(gr.tr.stamp(e.At) + "  " + refusalLine(e))
			}
		})
	}
	gr.table = s.table
	return tui, 0
}

// simConsole serves the judge console on --console, the game attached;
// the console's address and PIN go inside the terminal table's frame,
// which covers the screen.
func (s *session) simConsole(o simOptions, gr *gameRun, tui *virtual.Table) int {
	var banner bytes.Buffer
	out := io.Writer(s.stdout)
	if tui != nil {
		out = &banner
	}
	cs := consoleSetup{addr: o.console, speed: *o.gf.speed, boards: s.cat, seats: gr.tg.board.Players, journals: o.jdir, script: o.script}
	if err := s.openConsole(context.Background(), cs, out); err != nil {
		return s.fail(2, "console:", err)
	}
	if tui != nil {
		tui.SetInfo(strings.Split(strings.TrimRight(banner.String(), "\n"), "\n")...)
	}
	tg := gr.tg
	gr.console = s.con.Attach(gameSpec(tg), tg.game)
	go func() { // sim runs one game: new games are for serve
		for r := range s.host.requests {
			r.done <- errors.New("sim runs one game; start games with wolftable serve")
		}
	}()
	return 0
}

// userVoiceCache is sim's decoded voice cache: the user's cache folder's
// wolftable/voice-cache ("" when there is none: no cache).
func userVoiceCache() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "wolftable", "voice-cache")
}

// simHeader prints sim's header: the board, the seed, the deal. It is for
// the reader (Chinese); the transcript's last line, "result:
// 好人|狼人|流局", is read by scripts (scripts/sim-boards, the tests) and
// stays as it is.
func simHeader(stdout io.Writer, tg *tableGame, speed float64) {
	fmt.Fprintf(stdout, "wolftable 模擬：%s（%s），種子 %d，速度 %g 倍\n", tg.board.Name, tg.board.ID, tg.seed, speed)
	var dealt []string
	for i, r := range tg.deal {
		dealt = append(dealt, fmt.Sprintf("%d號%s", i+1, r.Name()))
	}
	fmt.Fprintf(stdout, "發牌：%s\n", strings.Join(dealt, " "))
	if len(tg.bottom) > 0 {
		var cards []string
		for _, r := range tg.bottom {
			cards = append(cards, r.Name())
		}
		fmt.Fprintf(stdout, "底牌：%s\n", strings.Join(cards, " "))
	}
}

var simCommand = &cliflag.Command{
	Name: "sim",
	ShortUsage: "sim [--bots] [--no-tui] [--speed N] [--seed N] [--clock HH:MM] [--board ID] [--boards-dir DIR]\n" +
		"  [--journal DIR] [--new] [--voice on|off|auto] [--cues=false] [--console ADDR]\n" +
		"  [--desk URL --table NAME --desk-creds FILE]",
	ShortHelp: "在模擬桌上打完整的一局；`--desk`：向賽事總台回報（要配 --journal）",
	Exec:      cmdSim,
}

// simUsage is sim's usage: it lists every flag of the command
// (TestUsageListsEveryFlag).
const simUsage = `  wolftable sim [--bots] [--no-tui] [--speed N] [--seed N] [--clock HH:MM] [--board ID] [--boards-dir DIR]
        [--journal DIR] [--new] [--voice on|off|auto] [--cues=false] [--console ADDR]
        [--desk URL --table NAME --desk-creds FILE]
                                        a whole game on the simulated table; --desk reports it
                                        to the tournament desk (needs --journal)
`
