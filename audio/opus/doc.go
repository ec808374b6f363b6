// Package opus decodes the judge's recordings uploaded from the browser:
// Opus audio in WebM (what Chromium, Firefox and Android write with
// MediaRecorder, "audio/webm;codecs=opus") or in Ogg (Firefox's
// "audio/ogg;codecs=opus", opusenc), into 16-bit PCM at 48 kHz.
//
// The containers are read in Go; the Opus packets are decoded by libopus
// through cgo (Debian's libopus-dev to build, libopus0 to run).
//
// # Decode
//
// Decode takes a whole file in memory and returns a pack.Audio: Rate 48000,
// the file's channel count (1 or 2), interleaved samples. Sniff tells the
// container by its first four bytes: 1A 45 DF A3 is WebM/Matroska, "OggS"
// is Ogg; anything else is refused with ErrUnsupported.
//
// The encoder's delay at the start is removed: OpusHead's pre-skip (or,
// in Matroska without an OpusHead, the track's CodecDelay). So is the
// padding at the end: in Ogg, samples past the granule position of the last
// page are dropped; in Matroska, a Block's DiscardPadding. The OpusHead's
// output gain is applied.
//
// Decode is bounded by its maxDuration: once the audio would be longer it
// stops with an error wrapping ErrTooLong, and it never holds more than
// maxDuration of samples (plus one 120 ms packet being decoded), whatever
// the file claims. At 48 kHz mono a minute costs 5.76 MB.
//
// # WebM and Matroska
//
// The EBML header's DocType must be "webm" or "matroska". The first Segment
// is read; its Tracks must come before its first Cluster. The first track
// whose CodecID is A_OPUS is decoded (its CodecPrivate is its OpusHead);
// the blocks of other tracks (video, say) are skipped. A file with no Opus
// track but another audio codec (A_VORBIS, ...) is ErrUnsupported, as is an
// Opus track with ContentEncodings (compressed or encrypted).
//
// Segments and Clusters may be of unknown size (the size field all ones),
// as MediaRecorder writes them while it records: an unknown-size Cluster
// ends at the first element that cannot be its child, the Segment at the end
// of the file. Other elements must have a known size. Blocks come as
// SimpleBlocks or as a BlockGroup's Block; lacing of all kinds (Xiph, fixed
// size, EBML) is split into packets. Elements the decoding does not need
// (SeekHead, Info, Cues, Tags, Void, ...) are skipped. Every element must fit
// in its parent (ErrMalformed otherwise). Block timestamps are not read:
// packets are decoded in file order, as a recording has no gaps.
//
// # Ogg
//
// Pages (RFC 3533) are checked: capture pattern, version 0, CRC (a page with
// a bad CRC is ErrMalformed), page sequence (a missing page is ErrMalformed),
// packets continued across pages. The first logical stream whose first
// packet is an OpusHead (RFC 7845) is decoded; other streams are ignored,
// and an Ogg file with none (Vorbis, FLAC, ...) is ErrUnsupported. The
// second packet must be OpusTags (its contents are ignored), the rest are
// audio. Reading stops at the stream's last page (EOS): chained streams
// after it are not decoded.
//
// # Channels
//
// Channel mapping family 0 (mono or stereo) is decoded, and family 1 when it
// is the same thing (one or two channels, one stream, in order). Anything
// else, and more than two channels, is ErrUnsupported.
//
// # Errors
//
// Every error from Decode wraps one of ErrMalformed, ErrUnsupported and
// ErrTooLong (use errors.Is), and reads "opus: ...". Decode never panics,
// whatever the bytes. A truncated file gives the audio of its whole packets
// (in Ogg, of its whole pages, which a CRC vouches for), so a recording cut
// short by a dropped upload keeps what arrived, or ErrMalformed if the cut
// leaves no audio; a packet libopus refuses is
// ErrMalformed; a file with no audio at all is ErrMalformed.
package opus
