// Package pack loads judge voice packs: the recorded clips the table strings
// together into the judge's sentences.
//
// # Layout
//
// A voice pack is the top level of an fs.FS: a folder opened with os.DirFS, or
// an embedded set (use fs.Sub to point at the folder inside an embed.FS). It
// holds
//
//	pack.txt        the manifest (below)
//	<clip id>.wav   one file per clip, named by clip id
//	<clip id>.mp3   (either format; the extension is case-insensitive)
//
// Sub-folders and other files are ignored by Load and reported by the venue
// checker (package check). A clip id may appear once: "9號.wav" next to
// "9號.mp3" is an error.
//
// # Manifest
//
// pack.txt is UTF-8 text, one "key: value" per line. Blank lines and lines
// starting with '#' are ignored; a leading byte-order mark and CRLF line ends
// are accepted. Keys are
//
//	name         required; how logs and the console call the voice
//	language     required; a BCP 47 tag such as zh-TW
//	recorded-by  optional; who recorded it
//	date         optional; when, as YYYY-MM-DD
//	notes        optional; free text
//
// A key may appear once; an unknown key is an error (it is usually a typo).
//
// # Clip formats
//
// WAV files must be RIFF/WAVE, uncompressed PCM (format tag 1, or
// WAVE_FORMAT_EXTENSIBLE with the PCM sub-format), 16 bits per sample, one or
// two channels, any sample rate from 8000 to 192000 Hz. 8-bit, 24-bit, float
// and compressed WAV files are rejected with an error wrapping ErrUnsupported;
// damaged files with an error wrapping ErrMalformed. MP3 files are decoded with
// github.com/hajimehoshi/go-mp3. A clip may be at most MaxClipDuration long.
//
// # In memory
//
// Load decodes every clip once, mixes stereo down to mono (the judge is one
// voice) and resamples it with a windowed-sinc filter to SampleRate, so that
// playback never converts anything: a Clip is mono signed 16-bit samples at
// SampleRate, 16000 Hz: wideband speech, the whole band of a voice's words,
// at a third of the memory of 48 kHz (the daemon's budget on a Pi is 30 MB;
// see SampleRate). ALSA's default device converts to the card's rate. One
// second of voice costs 32 kB.
package pack
