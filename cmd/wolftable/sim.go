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

func cmdSim(args []string, stdout, stderr io.Writer) int {
	fs := cliflag.New("sim", "usage:\n"+simUsage, stderr)
	gf := addGameFlags(fs, "seed for the deal and the engine (0 = from the clock)",
		"every seat is a random player and the pedal is pressed automatically")
	board := fs.String("board", "seer-witch-hunter-idiot", "board id or name")
	boardsDir := fs.String("boards-dir", "", "the venue's boards folder (default "+boards.DefaultDir+" if present)")
	noTUI := fs.Bool("no-tui", false, "plain transcript on stdout (for logs and tests)")
	cues := fs.Bool("cues", true, "show the judge's night cues in the transcript")
	jdir := fs.String("journal", "", "journal directory: every input is journaled; an unfinished game there is resumed")
	voiceMode := fs.String("voice", "auto", "the judge's voice: on, off, or auto (on at --speed 1)")
	consoleAddr := fs.String("console", "", "serve the judge console on ADDR (e.g. 127.0.0.1:8080)")
	fresh := fs.Bool("new", false, "start a new game even if the journal directory has an unfinished one")
	df := addDeskFlags(fs)
	if pos, err := cliflag.Interspersed(fs, args); err != nil || len(pos) > 0 {
		if err == nil {
			fmt.Fprintf(stderr, "sim: unexpected argument %q\n", pos[0])
		}
		return 2
	}
	if err := gf.check(); err != nil {
		fmt.Fprintln(stderr, "sim:", err)
		return 2
	}
	speed := *gf.speed
	cat, err := boards.Open(*boardsDir, true)
	if *boardsDir == "" {
		cat, err = boards.Open(boards.DefaultDir, false)
	}
	if err != nil {
		fmt.Fprintln(stderr, "sim:", err)
		return 2
	}
	for _, sk := range cat.Skipped {
		fmt.Fprintf(stderr, "sim: 略過 %s\n", sk)
	}
	b, err := cat.Get(*board)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	log := warnLog(stderr)
	s := *gf.seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	deal, bottom := engine.DealCards(b, s)
	tg, err := newOrResumed(*jdir, !*fresh, b, s, deal, bottom, b.Players, speed, stdout, cat.Get)
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
	pub, err := startDesk(*df.url, *df.table, *df.creds, *jdir, log, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "sim:", err)
		return 2
	}
	// sim ends with its game: the record gets a while to be acknowledged,
	// else it stays in the outbox for the next start.
	defer stopDesk(pub, deskWait(), stdout)
	g, b, s := tg.game, tg.board, tg.seed
	simHeader(stdout, tg, speed)
	var judge daemon.Voice
	switch v := *voiceMode; {
	case v == "on" || (v == "auto" && speed == 1):
		judge = openVoice(context.Background(), config.Voice{Volume: 1}, userVoiceCache(), voice.Choice{}, log, stdout)
	case v == "off" || v == "auto":
		fmt.Fprintf(stdout, "語音：關閉（速度 %g 倍時不出聲；要聽請加 --voice on）\n", speed)
	default:
		fmt.Fprintln(stderr, "sim: --voice is on, off or auto")
		return 2
	}
	gr := &gameRun{tg: tg, flags: gf, voice: judge, log: log, host: newGameHost(), desk: pub,
		tr: &transcript{w: stdout, speed: speed, cues: *cues}}
	var tui *virtual.Table // the terminal's table: it covers the screen
	switch {
	case *noTUI && *gf.bots:
		gr.table = newHeadless(b.Players)
	case *noTUI:
		// plain lines on stdin: "3 OK", "7 9 OK", "pedal short"
		vt, err := virtual.New(os.Stdin, stdout, virtual.WithSeats(b.Players), virtual.WithStyle(virtual.Plain))
		if err != nil {
			fmt.Fprintln(stderr, "sim:", err)
			return 2
		}
		gr.table = vt
	default:
		if !virtual.IsTerminal(int(os.Stdin.Fd())) || !virtual.IsTerminal(int(os.Stdout.Fd())) {
			fmt.Fprintln(stderr, "sim: stdin/stdout is not a terminal: use --no-tui for a plain transcript")
			return 2
		}
		vt, err := virtual.OpenTerminal(os.Stdin, os.Stdout, virtual.WithSeats(b.Players), tableScript(stdout))
		if err != nil {
			fmt.Fprintln(stderr, "sim:", err)
			return 2
		}
		gr.table = vt
		tui = vt
		gr.tr.w = io.Discard // the terminal shows the judge's lines instead
		gr.listeners = append(gr.listeners, func(e daemon.Event) {
			if e.Effect != nil && (e.Effect.Kind == engine.EffSay || (e.Effect.Kind == engine.EffCue && *cues)) {
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
	defer gr.table.Close()
	if *consoleAddr != "" {
		var banner bytes.Buffer // the console's address and PIN: inside the table's frame, which covers the screen
		out := io.Writer(stdout)
		if tui != nil {
			out = &banner
		}
		con, stopConsole, err := startConsoleWith(context.Background(), consoleSetup{addr: *consoleAddr, speed: speed, boards: cat, seats: b.Players, journals: *jdir, script: venueScript(args)}, gr.host, out, log)
		if err != nil {
			fmt.Fprintln(stderr, "sim: console:", err)
			return 2
		}
		if tui != nil {
			tui.SetInfo(strings.Split(strings.TrimRight(banner.String(), "\n"), "\n")...)
		}
		defer stopConsole()
		gr.console = con.Attach(console.GameSpec{Board: b, Deal: tg.deal, Bottom: tg.bottom, Seed: s}, g)
		go func() { // sim runs one game: new games are for serve
			for r := range gr.host.requests {
				r.done <- errors.New("sim runs one game; start games with wolftable serve")
			}
		}()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	w, err := gr.run(ctx)
	gr.table.Close()
	if err != nil {
		fmt.Fprintln(stderr, "sim:", err)
		return 1
	}
	fmt.Fprintf(stdout, "result: %s\n", w)
	if line, _, ok := tg.endLines(w); ok {
		fmt.Fprintln(stdout, line)
	}
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
	ShortHelp: "a whole game on the simulated table; --desk reports it to the tournament desk\n(needs --journal)",
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
