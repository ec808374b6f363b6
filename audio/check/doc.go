// Package check is the venue's voice-pack checker: it reads a pack the way
// the table will (package pack) and says, clip by clip, what would sound
// wrong at the table.
//
// Check returns Findings, each with a Severity:
//
//	Error    the table cannot use it: a missing clip, an unreadable file, a
//	         format it does not play (8-bit, float or compressed WAV, ...), a
//	         clip id given twice, a missing or invalid manifest, a silent
//	         clip, audible clipping
//	Warning  it plays, but badly: more than 150 ms of silence before or after
//	         the voice (sentences are spliced from clips, so it becomes a gap),
//	         a loudness outlier (more than 6 dB from the pack's median), a low
//	         sample rate, a file the pack does not expect, and (given the
//	         suggested lengths, WithSuggested) a voice over three times its
//	         suggested length plus a second, or under 30% of it
//	Info     for the record: each clip's level (RMS dBFS of its voiced part),
//	         duration and source format, and the pack's loudness spread
//
// The measures, on the file's own samples (before resampling):
//
//   - Silence: the clip is cut in 10 ms windows; a window is voiced when its
//     RMS is above -45 dBFS. Leading silence runs to the first voiced window,
//     trailing silence from the last.
//   - Level: RMS over the voiced windows, in dBFS (0 dBFS = a full-scale
//     square wave), so pauses inside a line do not lower it.
//   - Clipping: runs of 3 or more equal samples within 0.1% of full scale in
//     one channel; one such run is enough to hear.
//
// Thresholds can be changed with options (WithMaxSilence, WithLevelSpread,
// WithSilenceFloor, WithSuggested).
package check
