// Package player turns sequences of clips into one endless stream of sound:
// the judge's voice as the sound device pulls it.
//
// A Queue is an io.Reader of signed 16-bit little-endian PCM at
// pack.SampleRate, one or two interleaved channels (the clip is copied to
// both). Say appends a sentence, a sequence of clip ids such as
// {"昨夜", "9號", "玩家死亡"}, and returns at once; the clips follow one another
// sample for sample, with no gap and no overlap, so a sentence sounds as one
// line. When nothing is queued the Queue yields silence: the device's player
// never starts, stops or refills, and a new line starts within one read.
//
// Each Read hands out at most the chunk size (5 ms by default) so that the
// consumer's read-ahead, not the Queue, decides the latency.
//
// Interrupt cuts what is playing with a short linear fade (no click) and drops
// everything queued. SetVolume ramps the gain over a few milliseconds. At
// volume 1 the samples are passed through bit for bit.
//
// Wait returns when everything said has been played: handed out, plus the
// latency the Queue was told the sink adds (WithLatency). If no sink reads the
// Queue (no sound device, a device that stalled), Drive advances it in real
// time, so Wait still returns when the line would have ended and the game's
// timing does not depend on the speaker.
//
// Package speaker plays a Queue through the sound device with oto; this
// package needs neither cgo nor a device, and its tests read the Queue
// directly.
package player
