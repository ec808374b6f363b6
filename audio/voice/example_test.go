package voice_test

import (
	"context"
	"fmt"
	"log/slog"

	"wolftable/audio/voice"
	"wolftable/daemon"
)

// The daemon's voice.
var _ daemon.Voice = (*voice.Voice)(nil)

func ExampleSequence() {
	seq, err := voice.Sequence("day.deaths", []int{3, 9})
	fmt.Println(seq, err)
	seq, err = voice.Sequence("vote.exile", nil)
	fmt.Println(seq, err)
	// Output:
	// [line.day.deaths.1 seat.3 pause.list seat.9 line.day.deaths.2] <nil>
	// [line.vote.exile.1 pause.comma count.3 pause.count count.2 pause.count count.1] <nil>
}

// Open never fails for want of a sound card: the voice then logs it once
// and goes on in real time, and the console shows the text.
func ExampleOpen() {
	ctx := context.Background()
	v, err := voice.Open(ctx, voice.Options{Pack: "", Volume: 1, Log: slog.Default()})
	if err != nil {
		slog.Error("voice", "err", err) // the pack folder cannot be read
		return
	}
	defer v.Close()
	v.Say("speech.start", []int{9}) // 9號玩家請發言: queued, returns at once
	v.Wait(ctx)
}
