// Package voice is the judge's voice: it binds the script catalogue's lines
// to the clips of a voice pack, says them on the sound device for the daemon
// (Voice implements daemon.Voice), makes the embedded default pack, and runs
// `wolftable voice`.
//
// # Clips
//
// A line's text is split at its placeholders ({s}, {s2}, {list}, {players}) and
// countdowns ("3~2~1"); the fixed parts between them are recorded once
// each. A pack holds three kinds of clip, each a file named by its id:
//
//	line.<line id>.<n>   the n-th fixed part of a line, counting from 1:
//	                     "{s}玩家發動技能，帶走{s2}玩家" has line.skill.shot.1
//	                     (玩家發動技能，帶走) and line.skill.shot.2 (玩家)
//	seat.<n>             seat n, 1 to MaxSeat (18): seat.9 is "9號"
//	count.<n>            a number of a countdown: count.3 is "3"
//
// Punctuation where a fixed part meets a seat or a countdown ("決鬥失敗，{s}")
// is not recorded: the sequence holds a pause there. A fixed part with the
// same text and pinyin as an earlier one is not recorded again: the first
// line in catalogue order that says it names the clip, and Clip.Lines lists
// every line that uses it (玩家 is line.skill.shot.2 for badge.pass too;
// night.wolves.wake says line.night.wolves.open.1, 狼人請睜眼). Ids change
// only when a line's text or its place in the catalogue does.
//
// The pauses are not recorded; the Voice makes them (silence), and a pack
// has no file for them:
//
//	pause.comma  250 ms where the text pauses (，：) next to a seat or a count
//	pause.list   120 ms between the seats of a {list} (the 、)
//	pause.count  between a countdown's numbers, so that they start one
//	             second apart (CountPause): the countdown keeps time with
//	             the timer it announces
//
// Sequence(line, args) gives the clip ids that say a line:
//
//	day.deaths 3 9   line.day.deaths.1 seat.3 pause.list seat.9 line.day.deaths.2
//	day.dawn         line.day.dawn.1 pause.comma count.3 pause.count count.2
//	                 pause.count count.1 pause.comma line.day.dawn.2
//
// ClipIDs is what a pack must hold: the expected list for audio/check.
//
// # Pinyin
//
// Every clip has a tone-numbered pinyin reading (Clip.Pinyin): the
// catalogue line's override (script.Line.Pinyin, for the 多音字 a
// character-by-character reading gets wrong: 為 in 身份為 is wei2, 倒 in
// 倒牌 dao3, 調 in 調至 tiao2, 子 in 王子 zi3, 量 in 商量 liang5), split at
// the same placeholders, or else Pinyin of the text. It is what the default
// pack's synthesizer reads and what the recording checklist shows.
//
// The characters' readings are github.com/mozillazg/go-pinyin's, copied into
// a table of the catalogue's characters (hanzi.go) by `go generate
// ./audio/voice`: go-pinyin's dictionary is a 40,000-entry map every process
// that links it builds at start (about 3 MB of the daemon's 30), and the
// table is all the catalogue needs. A test fails when a line brings a
// character the table lacks.
//
// # Default pack
//
// The embedded pack (package defaultpack) is made by Generate: espeak-ng's
// cmn-latn-pinyin voice reading each clip's pinyin (the cmn voice misreads
// characters), level-normalised, silence-trimmed, MP3 at 48 kHz mono. Its
// manifest records SourceHash, and the tests fail when the catalogue has
// moved on: run `wolftable voice generate audio/defaultpack/pack` (needs
// espeak-ng and lame) and commit the result.
//
// # Command line
//
// Command runs `wolftable voice script|check|say|export|generate`; see
// CommandUsage.
package voice
