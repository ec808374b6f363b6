package voice

import (
	"context"
	"fmt"
	"time"

	"wolftable/audio/defaultpack"
	"wolftable/audio/pack"
	"wolftable/audio/player"
	"wolftable/audio/speaker"
)

// Render returns the samples the table hands the sound device when it
// says line with seats, in the voice o opens (its Clips are ignored: the
// line's are loaded): the speaker's own queue over the same source, at
// the device's channel count (speaker.DefaultChannels, interleaved), at
// o.Volume, from the line's first sample to its last. At volume 1 each
// channel is the pack's decoded samples bit for bit.
func Render(ctx context.Context, o Options, line string, seats []int) (pack.Audio, error) {
	b, err := Default()
	if err != nil {
		return pack.Audio{}, err
	}
	seq, err := b.Sequence(line, seats)
	if err != nil {
		return pack.Audio{}, err
	}
	fsys, name, err := packFS(o.Pack)
	if err != nil {
		return pack.Audio{}, err
	}
	if o.Fill && o.Pack != "" {
		if fsys, _, err = fill(fsys, defaultpack.FS(), b.ClipIDs()); err != nil {
			return pack.Audio{}, fmt.Errorf("voice: pack %s: %w", name, err)
		}
	}
	z, err := pack.OpenLazy(fsys)
	if err != nil {
		return pack.Audio{}, fmt.Errorf("voice: pack %s: %w", name, err)
	}
	for _, id := range seq {
		if _, err := z.Load(id); err != nil && z.Has(id) {
			return pack.Audio{}, fmt.Errorf("voice: pack %s: %s: %w", name, z.File(id), err)
		}
	}
	return renderSeq(ctx, newSource(z), seq, o.Volume)
}

// renderSeq plays seq through a queue as the speaker builds it and
// returns what the device would read.
func renderSeq(ctx context.Context, src player.Clips, seq []string, volume float64) (pack.Audio, error) {
	ch := speaker.DefaultChannels
	q := player.NewQueue(src, player.WithChannels(ch))
	defer q.Close()
	f := q.Format()
	buf := make([]byte, 4096*f.FrameBytes())
	if volume != 1 { // the speaker sets the volume at its start: the 10 ms ramp passes in silence
		q.SetVolume(volume)
		for n := f.Frames(10 * time.Millisecond); n > 0; {
			k, _ := q.Read(buf[:min(len(buf), n*f.FrameBytes())])
			n -= k / f.FrameBytes()
		}
	}
	frames := 0
	for _, id := range seq {
		c, ok := src.Clip(id)
		if !ok {
			return pack.Audio{}, &player.MissingClipsError{IDs: []string{id}}
		}
		frames += c.Len()
	}
	if err := q.Say(seq); err != nil {
		return pack.Audio{}, err
	}
	out := make([]int16, 0, frames*ch)
	for len(out) < frames*ch {
		if err := ctx.Err(); err != nil {
			return pack.Audio{}, err
		}
		want := min(len(buf), (frames*ch-len(out))*2)
		n, _ := q.Read(buf[:want])
		for i := 0; i+1 < n; i += 2 {
			out = append(out, int16(uint16(buf[i])|uint16(buf[i+1])<<8))
		}
	}
	return pack.Audio{Rate: pack.SampleRate, Channels: ch, Samples: out}, nil
}
