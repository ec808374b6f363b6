// Package journal is the table's crash-proof game journal: one append-only
// file per game holding the game's setup and every input the engine was
// given, in order, each written and fsynced before the engine sees it. The
// journal stores inputs, not state (design.md): a restart replays it through
// the engine, which is deterministic, and the game resumes at the last
// input. Every record is hash-chained to the one before, so a finished
// journal can be verified, and a torn last record (a power cut during its
// write) is told apart from damage; the end record is signed with the
// table's ed25519 key, so a finished game's result cannot be rewritten
// without that key (see "Signature").
//
// The runtime's path is Create (or Resume after a restart), then
// Writer.Start and Writer.Apply for every input, and Writer.End (the
// signed end record) when the table moves on. Read or Load verify a file; Replay rebuilds its game;
// Show prints the game record a tournament files (復盤); Verify and
// Command implement `wolftable record verify|show`.
//
// # File format, version 4
//
// Version 2 is version 1 with the end record's signature (below); version 3
// is version 2 with the bottom cards at the end of the header; version 4 is
// version 3 with the seat draw (who sits at each seat) after them. This
// package reads all four; it writes 4 for a game with a seat draw, 3 for
// one with bottom cards and 2 for any other, so those journals stay byte
// for byte what a version-2 build writes and reads. A build that reads only older versions refuses a newer
// journal by its header (*VersionError).
//
// A journal is the 8 bytes of Magic, "\x89WTJ\r\n\x1a\n", then records,
// each in a frame:
//
//	offset  size  field
//	0       4     N: the body's length, big-endian, 1 <= N <= 1 MiB (MaxBody)
//	4       4     CRC-32C (Castagnoli) of the 4 length bytes, big-endian
//	8       N     body
//	8+N     32    hash = SHA-256(prev ‖ body)
//
// prev is the hash of the record before; for record 0 (the header) it is
// 32 zero bytes. The record's bytes that are hashed are its body; the
// length is implied by it and guarded by its own check.
//
// A body starts with its kind byte; its fields follow in a fixed order,
// with these encodings:
//
//	uvarint  unsigned LEB128 (encoding/binary.AppendUvarint)
//	varint   zig-zag LEB128 (encoding/binary.AppendVarint)
//	text     uvarint byte length, then that many bytes of UTF-8 (at most 1024)
//	time     varint: nanoseconds since 1970-01-01 UTC (years 1678..2262)
//
// Record 0, the header (kind 1):
//
//	uvarint  format version (1, 2 or 3)
//	text     software version
//	text     game id: 1..32 of A-Z a-z 0-9 "-"
//	text     board id (boards.Get)
//	uvarint  K, then K × (text key, text value): the board's rule options as
//	         played, every key of engine.OptionNames, keys ascending, no repeats
//	uvarint  M, then M × text: the night order as played, one plan each, in
//	         the board-file syntax ("1 wolves/90/hurry=60 witch/30/hurry=15")
//	uvarint  seed (engine.Config.Seed, 64 bits)
//	uvarint  P (1..64), then P × text: the deal, the role id of seats 1..P
//	uvarint  the table's seat count (P..64)
//	time     the start: when the journal was created
//	varint   the start's zone offset, seconds east of UTC
//	text     the start's zone name (may be empty)
//	uvarint  B (0..2), then B × text: the bottom cards, the role ids of the
//	         cards dealt beyond the seats (engine.Config.Bottom) — version 3
//	         and up; a version 1 or 2 header ends after the zone name
//	byte     the seat draw was taken by hand (1) or drawn at random by the
//	         table (0) — version 4 only, as the next field
//	uvarint  D (0 or P), then D × (uvarint seat, text player id, text name):
//	         the seat draw, seats 1..P in order; a player id (may be empty,
//	         at most 64 bytes) at most once. The end record's signature
//	         covers it with the rest of the header.
//
// Every other record (kinds 2..5) starts with
//
//	time     wall: when the record was written (the input applied)
//	text     source: who or what gave it ("seat-7", "pedal", "timer",
//	         "clock", "console:judge@192.0.2.1", "engine"); not empty. A
//	         seat's key event with the table's identity of it
//	         (hw.KeyEvent.ID) is "seat-7 key=7.HAND.down.12.3456789"
//	         (daemon.KeySource): after a restart, serve drops a key event
//	         the newest journals already hold, which the bridge sends
//	         again when the ack was lost with the host
//
// then, by kind:
//
//	2 start    nothing: engine.Game.Start was called
//	3 input    one engine.Input, every field: a uvarint presence mask (bit i
//	           set when field i is not zero; bits 10 and up are an error),
//	           then the present fields in this order — 0 Kind, 1 Seat,
//	           2 Action, 3 Target, 4 Pedal, 5 Timer, 6 Hour, 7 Minute,
//	           8 Judge as varints, 9 Points as the 8 bytes of its IEEE 754
//	           bits, big-endian. The numbers are the engine's constants
//	           (engine.InSeat = 0, engine.ActTarget = 0, …), which this
//	           format freezes.
//	4 refused  varint engine.ErrorCode, text the engine's message: the
//	           engine refused the input of the record just before
//	5 end      text the result (好人 狼人 流局, or empty): the journal is
//	           closed. In a version 2 journal, a signed end record then
//	           has 32 bytes, the table's ed25519 public key, and 64 bytes,
//	           its signature; an unsigned one ends after the result
//	           (version 1 end records are always unsigned)
//
// Each record has exactly one encoding: a reader refuses trailing bytes,
// overlong varints, a field marked present whose value is zero, options out
// of order and any other byte string the writer would not produce.
//
// Order: the header is record 0 and only record 0; at most one start
// record; a refused record only right after an input record; nothing after
// an end record. Inputs may come before the start record (the engine takes
// only clock inputs then; anything else is refused, and journaled so).
//
// A seat input is a frame of about 60 bytes (8 + ~20 + 32); a whole game,
// 10 to 20 kB.
//
// File names are the start time in its own zone and the game id:
// "2026-11-29T20-15-03_ab12cd.wtj" (FileName).
//
// # Signature
//
// Each table has an ed25519 key pair (key.go: /var/lib/wolftable/table.key,
// mode 0600, made at install by `wolftable record keygen` or at the
// daemon's first start; table.pub next to it, printed by `wolftable record
// pubkey` for the organiser to register). Writer.End signs the end record:
// the signature is ed25519 over
//
//	"wolftable journal end record v2\x00" ‖ prev ‖ the end record's body
//	up to its signature (kind, time, source, result, public key)
//
// where prev is the chain hash of the record before the end record, which
// commits to the header (game id, deal, seed) and every record. The end
// record's own chain hash, the journal's final hash, commits to the
// signature too; its first 8 hex digits, grouped "1a2b 3c4d"
// (Fingerprint), are shown at the game's end, in the transcript and on the
// 復盤 for the judge to copy onto the paper score sheet.
//
// Read checks a signature against the public key in the record (a
// mismatch is a *CorruptError wrapping ErrSignature); `record verify`
// checks that this key is the table's (Summary.Check, Policy), and
// refuses a journal without an end record (a journal cut at a record
// boundary is a valid, shorter game: only the end record shows nothing was
// cut) unless --unfinished, and an unsigned end record unless --unsigned.
// Signing happens only at the end: a game resumed after a power cut signs
// when it ends. A version 1 journal begun by an older build and resumed by
// this one ends unsigned (its format has no room for a signature).
//
// What it protects: whoever changes a finished journal — cuts it, replays
// another ending with this package, edits a record and recomputes the
// chain — cannot sign the result without the table's private key, so
// `record verify` with the registered public key fails. What it does not:
// anyone with root on the table's Pi (or a copy of the key file) can sign
// anything, a rewritten game included, until the organiser registers a
// new key; a journal deleted whole is not detected by the journal itself
// (the paper score sheet's fingerprint is); the fingerprint's 32 bits
// match a sheet to a journal but prove nothing alone; an unfinished
// journal proves no result.
//
// # Writing
//
// Create writes the magic and the header in one write, fsyncs the file and
// its folder. Append writes each record's frame in one write and fsyncs it
// before returning; the runtime journals an input before it applies it
// (Writer.Apply does both, and journals a refusal). Because a record is on
// the disk before the next is begun, only the file's last record can ever
// be incomplete. A Writer holds an exclusive flock on its file.
//
// # Reading
//
// Read and Load check the magic, then each frame in turn, computing the
// chain. The last record of the file is torn — dropped, and reported in
// Journal.TornTail and TornBytes — when
//
//   - fewer than 8 bytes remain (its length and check are incomplete);
//   - the bytes from its frame's start to the end of the file are all zero
//     (the file system extended the file but the data never reached the
//     disk);
//   - its length verifies but the file ends before its frame does;
//   - its hash does not verify and its hash field and every byte after it
//     are zero (the record's end never reached the disk).
//
// Anything else stops the load with no journal: a length whose CRC-32C
// fails (so a flipped length bit is never mistaken for a tear), a length out
// of range, a complete record whose hash does not verify (a flipped bit
// anywhere, a record removed, repeated or swapped), a record that is not in
// its one encoding or out of order. The error is a *CorruptError naming the
// record (0 = the header) and its byte offset, wrapping ErrFrame, ErrHash
// or ErrRecord. A file that does not start with the magic is ErrNotJournal;
// one that ends before its header is complete is ErrNoHeader (the power went
// during Create: nothing was played); a header of a newer format is a
// *VersionError. A journal cut anywhere after its header loads as the
// journal up to its last whole record — a prefix of the game, never another
// game.
//
// OpenAppend verifies the file the same way and truncates a torn tail
// before appending; it refuses a damaged or finished journal.
//
// Limits. A power cut that leaves the unwritten part of the last record
// holding something other than zeros, or that writes the record's hash but
// not its body, reads as damage rather than a tear: the load fails, loudly,
// on the safe side. The chain detects accidental damage; it has no key, so
// whoever rewrites the whole file can rewrite the chain: the end record's
// signature is what proves a finished game (see "Signature").
//
// # Replay
//
// Replay deals the game from the header — the board from a BoardSource by
// id, every option of the header set on it, its night order compared with
// the header's (a board whose night order changed is refused: the game
// would not replay the same) — then gives the engine every start and input
// record in order. The engine must do what it did when the game was
// played: an input it refuses must be followed by its refused record with
// the same code, one it accepts must not be, and an end record's result
// must be the game's. The one exception is a refused last input with no
// refused record (the power went between the two): Replay reports it as an
// Event with Refused set, and Resume journals the refusal. Anything else is
// a *ReplayError naming the record.
package journal
