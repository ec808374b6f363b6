package speaker_test

import (
	"context"
	"log/slog"
	"os"
	"time"

	"wolftable/audio/pack"
	"wolftable/audio/speaker"
)

// Open never fails for want of a sound card: the lines then go on silently,
// in real time, and Err says why.
func ExampleOpen() {
	p, err := pack.Load(os.DirFS("/var/lib/wolftable/voice"))
	if err != nil && p == nil {
		slog.Error("voice pack", "err", err)
		return
	}
	s, err := speaker.Open(p, speaker.WithLogger(slog.Default()))
	if err != nil {
		slog.Error("speaker", "err", err)
		return
	}
	defer s.Close()

	// 昨夜 9號 玩家死亡: queued at once, played back to back.
	if err := s.Say([]string{"昨夜", "9號", "玩家死亡"}); err != nil {
		slog.Warn("line not spoken", "err", err) // the console still shows it
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s.Wait(ctx) // the line has been heard
}
