package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"wolftable/audio/voice"
	"wolftable/boards"
	"wolftable/config"
	"wolftable/daemon"
	"wolftable/engine"
	"wolftable/hw/remedy"
	"wolftable/journal"
	"wolftable/script"
)

// journalWriter adapts journal.Writer to daemon.Journal: the end record is
// signed with the table's key (nil: unsigned) and kept in tg.end.
type journalWriter struct {
	*journal.Writer
	tg *tableGame
}

func (w journalWriter) Finish(wall time.Time, result string) error {
	r, err := w.End(wall, "daemon", result, w.tg.key)
	if err == nil {
		w.tg.end, w.tg.final = &r, w.Head()
	}
	return err
}

// tableKey reads the table's signing key for a journals folder, or makes
// it on the first start (journal.KeyPathFor: table.key in the folder
// above the journals, mode 0600, and table.pub). It reports on out what it
// did and the public key's fingerprint.
func tableKey(dir string, out io.Writer) (ed25519.PrivateKey, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	path := journal.KeyPathFor(dir)
	key, created, err := journal.LoadOrCreateKey(path)
	if err != nil {
		return nil, fmt.Errorf("%v\n（對局結果要以本桌金鑰簽章：修好金鑰檔，或移走它讓 wolftable 重新產生，並請主辦重新登記公鑰）", err)
	}
	pub := key.Public().(ed25519.PublicKey)
	if created {
		fmt.Fprintf(out, "日誌：已產生本桌的簽章金鑰 %s；它的公鑰，給主辦單位登記（`wolftable record pubkey`）：\n%s\n", path, journal.FormatPublicKey(pub))
	} else {
		fmt.Fprintf(out, "日誌：簽章金鑰 %s（公鑰指紋 %s）\n", path, journal.KeyFingerprint([32]byte(pub)))
	}
	return key, nil
}

// endLines are the transcript's last lines and the judge's notice at a
// game's end: the final hash's fingerprint for the paper score sheet.
// ok is false when no end record was written.
func (tg *tableGame) endLines(result engine.Winner) (line, notice string, ok bool) {
	if tg.end == nil {
		return "", "", false
	}
	fp := journal.Fingerprint(tg.final)
	sig := "本桌金鑰簽章"
	if !tg.end.Signed {
		sig = "未簽章"
	}
	line = fmt.Sprintf("指紋: %s（日誌 %s 的最終雜湊，%s；請法官抄在計分表上）", fp, filepath.Base(tg.writer.Path()), sig)
	notice = fmt.Sprintf("本局結束：%s。日誌指紋 %s，請抄在計分表上。", resultWords(result), fp)
	return line, notice, true
}

func resultWords(r engine.Winner) string {
	switch r {
	case engine.WinGood, engine.WinWolves:
		return string(r) + "勝"
	case engine.WinNone:
		return "無結果"
	}
	return string(r)
}

// tableGame is a game ready for the daemon: new, or resumed from its journal.
type tableGame struct {
	board    *engine.Board
	deal     []engine.Role
	bottom   []engine.Role // the bottom cards (Board.Bottom)
	seed     uint64
	game     *engine.Game
	restored *daemon.Restored
	writer   *journal.Writer
	resumed  string               // the journal resumed, if any
	replayed []daemon.TimedEffect // the resumed game's effects so far (for the console's history)
	// notice is for the judge's console: the unfinished journal that could
	// not be resumed and was moved aside ("" = none).
	notice string
	key    ed25519.PrivateKey // the table's signing key (nil: the end record is unsigned)
	end    *journal.Record    // the end record, once written
	final  [32]byte           // the journal's final hash, once ended
}

// newOrResumed finds an unfinished journal in dir and resumes it (when
// resume is set), or deals a new game and creates its journal. dir "" = no
// journal. An unfinished journal that cannot be resumed (damaged, or not
// replaying on this build) is moved aside, never deleted
// (journal.MoveAside: "NAME.damaged-<time>"), reported on log and in the
// tableGame's notice for the judge's console, and a new game is dealt:
// one bad file must not keep the table in a restart loop. Any other
// problem (permissions, the disk) stops the start with the error.
//
// get finds the boards of resumed journals: the same lookup as the game's
// own (the built-in boards and the venue's); nil = the built-in ones. A
// resumed game whose seat count is not the table's stops the start.
func newOrResumed(dir string, resume bool, b *engine.Board, seed uint64, deal, bottom []engine.Role, seats int, speed float64, log io.Writer, get journal.BoardSource) (*tableGame, error) {
	if get == nil {
		get = boards.Get
	}
	notice := ""
	if dir != "" {
		if err := tidyJournals(dir, log); err != nil {
			return nil, err
		}
	}
	if dir != "" && resume {
		list, err := journal.Unfinished(dir)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		if len(list) > 0 {
			u := list[0]
			err := u.Err
			if err == nil {
				var tg *tableGame
				if tg, err = resumeJournal(u.Path, speed, log, get); err == nil {
					if n := tg.game.Players(); seats != 0 && n != seats {
						tg.close()
						return nil, fmt.Errorf("未完成的對局 %s 是 %d 人局，這張桌子設定為 %d 個座位：請把 [table] seats 改回 %d 續局，或移走該日誌 / the unfinished game is for %d seats, the table has %d", u.Path, n, seats, n, n, seats)
					}
					return tg, nil
				}
			}
			if !journal.Unresumable(err) {
				return nil, err
			}
			moved, merr := journal.MoveAside(u.Path, time.Now())
			if merr != nil {
				return nil, fmt.Errorf("the unfinished journal %s cannot be resumed (%v), and %v", u.Path, err, merr)
			}
			fmt.Fprintf(log, "日誌：未結束的日誌 %s 無法續局：%v\n日誌：已移到 %s（`wolftable record verify` 顯示損壞處）；重新發牌開新局\n", u.Path, err, moved)
			notice = fmt.Sprintf("上一局的日誌損壞，無法續局：已改名保存為 %s（未刪除），改開新局。", filepath.Base(moved))
		}
	}
	g, err := engine.New(engine.Config{Board: b, Deal: deal, Bottom: bottom, Seed: seed})
	if err != nil {
		return nil, err
	}
	tg := &tableGame{board: b, deal: deal, bottom: bottom, seed: seed, game: g, notice: notice}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, err
		}
		w, err := journal.Create(dir, journal.HeaderForCards(b, deal, bottom, seed, seats, time.Now(), version))
		if err != nil {
			return nil, err
		}
		tg.writer = w
		fmt.Fprintf(log, "日誌：%s\n", w.Path())
	}
	return tg, nil
}

// recentJournals is how many of the newest journals journaledKeys reads:
// the game in progress (resumed or dealt), the one before it, and a few
// more, since file names sort by the second of the start and then by the
// game id.
const recentJournals = 8

// journaledKeys are the key event identities (daemon.SourceKey) of the
// seat inputs in the newest journals of dir, archived or not. The bridge
// keeps one key event in flight and sends it again to the next host
// process until one acks it; a process killed after the journal had the
// input and before the ack went out leaves it in the journal of the game
// then in progress (resumed now) or, if that input ended the game, of the
// game before the new one. The daemon drops the event when it comes again
// (daemon.Config.KeysJournaled). A journal that does not read is skipped:
// it is resumed or moved aside by newOrResumed, not here.
func journaledKeys(dir string) []string {
	if dir == "" {
		return nil
	}
	p, err := journal.List(dir, 1, recentJournals)
	if err != nil {
		return nil
	}
	var keys []string
	for _, l := range p.Games {
		if l.Err != nil {
			continue
		}
		j, err := journal.Read(l.Path)
		if err != nil {
			continue
		}
		for _, r := range j.Records {
			if id := daemon.SourceKey(r.Source); r.Kind == journal.KindInput && id != "" {
				keys = append(keys, id)
			}
		}
	}
	return keys
}

// tidyJournals moves the finished journals at the top of the journals
// folder into its archive (journal.ArchiveFinished): a game that ended
// before a crash or a kill, or a folder of thousands from an older
// version (once), so that the start reads only what is unfinished. A
// journal that cannot be moved stays where it is and is reported; only a
// folder that cannot be read stops the start.
func tidyJournals(dir string, log io.Writer) error {
	t, err := journal.ArchiveFinished(dir, nil)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if n := len(t.Archived); n > 0 {
		fmt.Fprintf(log, "日誌：%d 份已結束的日誌移到 %s\n", n, filepath.Join(dir, journal.ArchiveDir))
	}
	for _, e := range t.Failed {
		fmt.Fprintf(log, "日誌：有已結束的日誌留在資料夾頂層：%v\n", e)
	}
	return nil
}

// archive closes a finished game's journal and moves it into the archive
// (journal.Archive: its end record is on the disk). A failure leaves it
// at the top of the folder, for the next start (tidyJournals).
func (tg *tableGame) archive(log *slog.Logger) {
	if tg.writer == nil || tg.end == nil {
		return
	}
	tg.writer.Close()
	dir := filepath.Dir(tg.writer.Path())
	if _, err := journal.Archive(dir, tg.writer.Path()); err != nil {
		log.Warn("journal: the finished journal stays at the top of its folder until the next start", "err", err)
	}
}

// resumeJournal replays an unfinished journal: the game continues where it
// was, with its lights, its timers' remaining time and the current line.
func resumeJournal(path string, speed float64, log io.Writer, get journal.BoardSource) (*tableGame, error) {
	j, err := journal.Read(path)
	if err != nil {
		return nil, err
	}
	w, g, events, err := journal.Resume(path, get)
	if err != nil {
		return nil, err
	}
	byIndex := map[int]journal.Record{}
	for _, r := range j.Records {
		byIndex[r.Index] = r
	}
	var timed []daemon.TimedEffect
	last, lastRec := j.Header.Start, -1
	for _, ev := range events {
		if ev.Record != lastRec {
			lastRec = ev.Record
			if r, ok := byIndex[ev.Record]; ok && r.Kind == journal.KindInput {
				in := r.Input
				timed = append(timed, daemon.TimedEffect{At: ev.Wall, In: &in})
			}
		}
		if ev.Refused == nil {
			timed = append(timed, daemon.TimedEffect{Effect: ev.Effect, At: ev.Wall})
		}
		last = ev.Wall
	}
	if n := len(j.Records); n > 0 && j.Records[n-1].Wall.After(last) {
		last = j.Records[n-1].Wall
	}
	h := w.Header()
	b := g.Board()
	r := daemon.FromEffects(g.Players(), timed, last, speed)
	if err := stepBegan(j, g.StepSeq(), r, get); err != nil {
		w.Close()
		return nil, err
	}
	if r.Start.IsZero() {
		// Dealt but never started (the power went while the table waited for
		// the pedal): the same game, journaled so far, starts as a new one
		// would — a restored game that never started would never start.
		fmt.Fprintf(log, "日誌：%s：發好牌的對局還沒開始；照發好的牌開始\n", path)
		return &tableGame{board: b, deal: h.Deal, bottom: h.Bottom, seed: h.Seed, game: g, writer: w}, nil
	}
	fmt.Fprintf(log, "resuming journal %s (%d records%s)\n", path, len(j.Records), map[bool]string{true: ", torn tail dropped"}[j.TornTail])
	return &tableGame{board: b, deal: h.Deal, bottom: h.Bottom, seed: h.Seed, game: g, restored: r, writer: w, resumed: path, replayed: timed}, nil
}

func (tg *tableGame) journal() daemon.Journal {
	if tg.writer == nil {
		return nil
	}
	return journalWriter{tg.writer, tg}
}

func (tg *tableGame) close() {
	if tg.writer != nil {
		tg.writer.Close()
	}
}

// openVoice opens the judge's voice: the chosen pack (tableVoice), with
// the [voice] section's volume, its decoded cache in cacheDir ("" = none).
// No sound device, or no voice at all, leaves the game going with the text
// only, and says so once.
func openVoice(ctx context.Context, vc config.Voice, cacheDir string, choice voice.Choice, log *slog.Logger, out io.Writer) daemon.Voice {
	v, err := voice.Open(ctx, voice.Options{Pack: choice.Pack, Fill: choice.Fill, Volume: vc.Volume, CacheDir: cacheDir, Log: log, Decoded: settleMemory})
	if err != nil {
		fmt.Fprintf(out, "語音：%v：只顯示文字\n", err)
		return nil
	}
	if err := v.Device(); err != nil {
		fmt.Fprintf(out, "語音：沒有聲音，只顯示文字：%s\n", remedy.Explain(err))
	} else {
		name := choice.Label
		if name == "" {
			name = "內建語音"
		}
		fmt.Fprintf(out, "語音：%s\n", name)
	}
	return v
}

// lateVoice lets the game start (or resume) at once while the voice pack
// decodes: lines said before the voice is ready wait for it (the last few;
// older ones are stale by then), and play as soon as it is.
type lateVoice struct {
	mu      sync.Mutex
	v       daemon.Voice
	ready   bool
	pending []said
}

type said struct {
	line string
	args []int
}

const lateVoiceKeep = 4

func (l *lateVoice) Say(line string, args []int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ready {
		if l.v != nil {
			l.v.Say(line, args)
		}
		return
	}
	l.pending = append(l.pending, said{line, append([]int(nil), args...)})
	if len(l.pending) > lateVoiceKeep {
		l.pending = l.pending[len(l.pending)-lateVoiceKeep:]
	}
}

func (l *lateVoice) Interrupt() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ready && l.v != nil {
		l.v.Interrupt()
	}
	l.pending = nil
}

// current is the voice lines go to now (nil: none yet, or text only).
func (l *lateVoice) current() daemon.Voice {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.v
}

// replace puts v (nil: text only) in place of the voice and returns the
// old one, for the caller to close.
func (l *lateVoice) replace(v daemon.Voice) daemon.Voice {
	l.mu.Lock()
	defer l.mu.Unlock()
	old := l.v
	l.v, l.ready = v, true
	if v != nil {
		for _, p := range l.pending {
			v.Say(p.line, p.args)
		}
	}
	l.pending = nil
	return old
}

// set attaches the voice (nil: text only) and plays what waited.
func (l *lateVoice) set(v daemon.Voice) { l.replace(v) }

// replayTo hands a resumed game's history to an event sink (the console),
// as the daemon would have reported it.
func (tg *tableGame) replayTo(sink func(daemon.Event)) {
	cat := script.New()
	for _, te := range tg.replayed {
		if te.In != nil {
			continue
		}
		e := te.Effect
		ev := daemon.Event{At: te.At, Effect: &e}
		if e.Kind == engine.EffSay || e.Kind == engine.EffCue {
			ev.Text, _ = cat.Render(e.Line, e.Args)
		}
		sink(ev)
	}
}

// stepBegan finds when the resumed game started and when its current step
// began, the game as that step began, and the bots' moves journaled since
// (sim --bots plays the same game after a kill). The step began with the
// first record after which the replayed game stands at step seq: a step's
// number only grows, so a binary search over replays of the journal's
// first records finds it.
func stepBegan(j *journal.Journal, seq int, r *daemon.Restored, get journal.BoardSource) error {
	for _, rec := range j.Records {
		if rec.Kind == journal.KindStart {
			r.Start = rec.Wall
			break
		}
	}
	if seq == 0 || len(j.Records) == 0 {
		return nil
	}
	upTo := func(k int) (*engine.Game, error) {
		part := *j
		part.Records = j.Records[:k]
		g, _, err := journal.Replay(&part, get)
		return g, err
	}
	lo, hi := 1, len(j.Records)
	for lo < hi {
		mid := (lo + hi) / 2
		g, err := upTo(mid)
		if err != nil {
			return err
		}
		if g.StepSeq() == seq {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	g, err := upTo(lo)
	if err != nil {
		return err
	}
	if g.StepSeq() != seq {
		return nil // not found (cannot happen): the bots plan from the game as it stands
	}
	r.StepAt, r.StepGame = j.Records[lo-1].Wall, g
	r.Sent = map[string]int{}
	for _, rec := range j.Records[lo:] {
		if rec.Kind == journal.KindInput {
			r.Sent[rec.Source]++
		}
	}
	return nil
}
