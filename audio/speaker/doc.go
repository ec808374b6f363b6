// Package speaker plays the judge's voice on the sound device through
// github.com/ebitengine/oto/v3 (ALSA on Linux, so it needs cgo and
// libasound2-dev to build).
//
// oto allows one context per process, which can be neither closed nor
// recreated; the package owns it. The first Open creates it with the
// speaker's format and device buffer; later Opens (after Close) reuse it and
// must ask for the same.
//
// Latency is set by two buffers, both small on purpose:
//
//   - the device buffer (WithDeviceBuffer, default 20 ms): ALSA's ring, two
//     periods; oto's default is far larger;
//   - the read-ahead (WithReadAhead, default 40 ms): how much oto's player
//     pulls from the queue before the device needs it. oto's default is half
//     a second, which would make every line start half a second late. It
//     must exceed one period (half the device buffer): oto fills a period
//     short of samples with silence, which would put holes in the voice.
//     40 ms rather than the bare minimum: a device loop may take two periods
//     back to back (ALSA's file plugin writes a buffer at a time: at 16 kHz
//     20 ms let one period in three go silent through the test sink), and a
//     Pi's default device, dmix, grants 21 ms periods where 10 were asked
//     for: with 20 ms the first lines would have holes until the speaker
//     measured the period. 20 ms more before a line starts is nothing to a
//     listener: Say to the first sample handed to ALSA is 38 ms at p99
//     (BenchmarkSayLatency; the bar is 50).
//     ALSA (or dmix, or PipeWire behind it) may grant a longer period than
//     asked; the speaker measures the real one from how often the device
//     loop refills (player.Queue.Pulls) and raises the read-ahead to fit,
//     logging it once.
//
// One long-lived oto player reads a player.Queue, which yields silence while
// idle, so lines start within read-ahead + device buffer of Say and clips
// follow each other without a gap.
//
// No device, or a device that fails or hangs later, is not an error for the
// game: Open still returns a working Speaker, the problem is logged once
// (log/slog) and reported by Err, and the queue is driven in real time
// (player.Drive) so Say never blocks and Wait returns when the line would have
// ended. The console shows the text.
package speaker

// DefaultChannels is the channel count the speaker opens the device with
// (WithChannels changes it): the mono voice on both sides.
const DefaultChannels = 2
