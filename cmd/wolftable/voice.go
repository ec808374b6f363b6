package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"
	"wolftable/internal/cliflag"

	"wolftable/audio/studio"
	"wolftable/audio/voice"
	"wolftable/config"
	"wolftable/daemon"
)

// cmdVoice runs `wolftable voice …`: the recording checklist (script), the
// venue pack check (check), auditioning a line (say: in the table's voice,
// tableVoice), and the embedded default pack (export, generate). See
// voice.Command.
func cmdVoice(args []string, stdout, stderr io.Writer) int {
	return voice.CommandWith(args, stdout, stderr, voice.Env{TableVoice: func(path string) (voice.Choice, error) {
		c, err := loadConfig(path)
		if err != nil {
			return voice.Choice{}, err
		}
		choice, err := tableVoice(c)
		if err != nil {
			fmt.Fprintf(stderr, "voice say: %v：改用內建語音 / the default voice instead\n", err)
		}
		return choice, nil
	}})
}

// tableVoice is the voice the table speaks with: the config's [voice] pack
// when it names one; else the pack activated in the console's studio (with
// the default pack filling its gaps when it was activated so); else the
// embedded default. An unreadable studio state gives the default and the
// error.
func tableVoice(c *config.Config) (voice.Choice, error) {
	if c.Voice.Pack != "" {
		return voice.Choice{Pack: c.Voice.Pack, Label: c.Voice.Pack}, nil
	}
	def := voice.Choice{Label: "內建語音 / the embedded default pack"}
	a, ok, err := studio.ActivePack(c.StudioDirPath())
	if err != nil || !ok {
		return def, err
	}
	label := fmt.Sprintf("錄音室語音「%s」 / the studio's pack %s", a.Name, a.Pack)
	if a.Fill {
		label = fmt.Sprintf("錄音室語音「%s」，%d 句由內建語音補上 / the studio's pack %s, %d clips from the default pack", a.Name, a.Filled, a.Pack, a.Filled)
	}
	return voice.Choice{Pack: a.Pack, Fill: a.Fill, Label: label}, nil
}

// voiceSwitch is serve's voice across games: the studio's activation (or
// its return to the default) opens the new voice in the background and
// puts it in place of the old, which is closed; the latest change wins.
type voiceSwitch struct {
	lv   *lateVoice
	open func(context.Context) daemon.Voice // openTableVoice

	mu  sync.Mutex
	gen int
}

// change reopens the table's voice (the console refuses studio changes
// during a game, so no line is cut).
func (vs *voiceSwitch) change(ctx context.Context) {
	vs.mu.Lock()
	vs.gen++
	gen := vs.gen
	vs.mu.Unlock()
	go func() {
		v := vs.open(ctx)
		vs.mu.Lock()
		defer vs.mu.Unlock()
		if gen != vs.gen { // a later change is on its way
			closeVoice(v)
			return
		}
		quiet(ctx, vs.lv.current()) // a line being said is not cut
		closeVoice(vs.lv.replace(v))
	}()
}

// quiet waits (at most 30 s) until v has said what it was given.
func quiet(ctx context.Context, v daemon.Voice) {
	if w, ok := v.(interface{ Wait(context.Context) error }); ok {
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		w.Wait(wctx)
	}
}

// openTableVoice opens tableVoice's choice.
func openTableVoice(ctx context.Context, c *config.Config, log *slog.Logger, out io.Writer) daemon.Voice {
	choice, err := tableVoice(c)
	if err != nil {
		log.Error("voice: the studio's state cannot be read; the default voice", "err", err)
	}
	return openVoice(ctx, c.Voice, c.CacheDirPath(), choice, log, out)
}

func closeVoice(v daemon.Voice) {
	if c, ok := v.(interface{ Close() error }); ok {
		c.Close()
	}
}

// openStudio opens the console's voice studio in the config's studio
// folder; its activations change lv's voice (nil: serve --mute). A studio
// that cannot be opened (a folder the daemon may not write) is logged and
// the console goes on without it.
func openStudio(ctx context.Context, c *config.Config, lv *lateVoice, log *slog.Logger, out io.Writer) http.Handler {
	o := studio.Options{Log: log, Override: c.Voice.Pack, Phonetic: c.Venue.Phonetic}
	if lv != nil {
		vs := &voiceSwitch{lv: lv, open: func(ctx context.Context) daemon.Voice { return openTableVoice(ctx, c, log, out) }}
		o.OnChange = func(studio.Active, bool) { vs.change(ctx) }
	}
	st, err := studio.Open(c.StudioDirPath(), o)
	if err != nil {
		log.Error("console: no voice studio", "dir", c.StudioDirPath(), "err", err)
		fmt.Fprintf(out, "錄音室未啟動：%v\n", err)
		return nil
	}
	return st.Handler()
}

var voiceCommand = &cliflag.Command{
	Name:       "voice",
	ShortUsage: "voice script [--format csv|md] | check DIR | say LINE [SEATS] | export DIR | generate DIR",
	ShortHelp:  "法官的語音：錄音清單、語音包檢查、試聽（`wolftable voice help`）",
	Exec:       cmdVoice,
}
