// Package scenario runs .wolf scenario files against the rules engine: a
// game written down as the decisions its players and judge make, played
// through the real engine with a fake clock, and checked against its expect
// lines. The format, for judges, is docs/scenario-format.md; the rules suite
// in scenarios/ is written in it.
//
//   - Parse (parse.go) reads a file into a File: its header (board, roles,
//     bottom cards, seed, options, clock), its sections (第1夜, 第1天 …) of
//     Decisions, and its Expects. A bad line is a *ParseError naming it.
//     ParseReject reads the "# reject-line:" header of a file the engine or
//     the parser must refuse (scenarios/rejected/).
//   - Run (run.go) deals the game and plays each section's decisions in
//     order, pressing the pedal and letting timers run out between them,
//     without the table's runtime. A decision the engine refuses, or one
//     whose window has closed, stops the run with a *RunError at its line;
//     a failed expectation is a Failure. The Result holds every Event: the
//     lines said (rendered by the script catalogue), cues, lights, record
//     entries and the winner.
//   - WriteTranscript and WriteJSON (output.go) print a Result as the
//     judge's transcript or as one JSON object a line (`wolftable scenario
//     run FILE [--json]`).
//
// The package imports only engine and script (docs/design.md's package
// table; internal/policy holds it).
package scenario
