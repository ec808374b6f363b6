// Package script is the judge's script catalogue: every line the engine can
// say (or cue to the judge), by id, with its Traditional Chinese text taken
// from seed 000's 語術 (狼人殺法官執行手冊).
//
// Line ids are dotted: "night.wolves.open", "speech.start". A text may hold
// placeholders filled from the effect's arguments:
//
//	{s}        the first argument as a seat: "9號"
//	{s2}       the second argument as a seat
//	{list}     every argument as seats: "3號、7號、9號"
//	{players}  every argument as seats, each with 玩家: "3號玩家、7號玩家"
//
// The engine emits ids and arguments only; the transcript, the console and
// the voice render them through this catalogue. Lines marked Cue are shown
// to the judge and never spoken.
//
// Beside the lines, the judge's other words (one source for every screen):
// words.go names the engine's causes of death, actions, votes, speeches,
// record kinds and phases; refusals.go says why an input was refused, one
// sentence per engine.Reason. Both are keyed by the engine's typed words;
// their tests range over the engine's word lists (engine.Causes(),
// engine.Reasons() …) and fail on a word without words or words left over.
package script
