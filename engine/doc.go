// Package engine is the rules engine of a tournament Werewolf (狼人殺) table:
// a pure, deterministic state machine that plays docs/rules.md part A (the
// framework) and part B (the roles) for a Board.
//
// # Contract
//
//   - New(Config) deals a game: the board, the deal (Deal(board, seed) or a
//     judge's deal) and a seed. Start says the first lines and opens night 1.
//   - Apply(Input) feeds one input — a seat's panel (SeatTarget,
//     SeatGesture), the judge's pedal (Pedal), a timer that ran out
//     (TimerExpired), the wall clock (Clock) or a judge command (Judge) — and
//     returns the effects to perform, in order: lines to say, judge-only
//     cues, lights, timers to start or cancel, record entries, pause/resume.
//   - A refused input returns a typed *Error (IsCode) and changes nothing.
//     Beside its code and English message (logs, the scenario runner) it
//     carries a Reason and the seats, role and step the reason names, which
//     the script package words for the judge (script.Refusal).
//   - Awaiting describes what the game waits for (Prompt): the step, its
//     kind, who may act, the explosion window, whether the pedal advances.
//   - Choices lists what the seats may key now (Choice: seat, keys,
//     accepted targets, the word for it), expanded from the keys each step
//     declares beside its act (StepKeys); every choice is accepted, every
//     other seat input of the step refused (TestChoicesAccepted). Explosions
//     (ActBoom) are not choices.
//   - The same board, deal, seed and inputs give the same effects, byte for
//     byte (the golden record, testdata/golden-games.txt, pins this).
//   - No clock, I/O, network, goroutines or mutable globals: time comes in
//     as timer and clock inputs, randomness from the seed. The only
//     package-level variables are the role table (roleTab) and the option
//     table (optionTab), data that no code writes; TestEnginePure
//     (layout_test.go) enforces all this.
//
// # Vocabulary
//
// Steps (Prompt.Step, a StepName) — who acts, with which actions:
//
//	night     the night step Prompt.Kind (a StepKind: wolves, seer, witch…); its actors point (ActTarget) or gesture (ActUp, ActDown, ActWave)
//	signup    night 1, every living player: ActHand to run for sheriff
//	speech    the speaker (Prompt.Seat; Kind: sheriff sheriff-pk exile exile-pk last-words prince); the pedal ends it (or grants a revealed idiot's interjection, idiot.interject); ActBoom in a window
//	withdraw  the candidates: ActHand to withdraw (退水); ActBoom allowed
//	vote      the voters (Kind: sheriff sheriff-pk exile exile-pk): ActTarget (0 or ActWave = abstain)
//	skill     a dead player whose death leaves a shot: ActUp, then ActTarget; ActWave = none
//	badge     the dying sheriff: ActTarget passes the badge, ActDown or ActWave tears it
//	order     the sheriff: ActUp = 順, ActDown = 逆
//	guide     the sheriff's 歸票: ActTarget once or twice (PK), ActWave = none
//	explode   the judge's confirmation window after an ActBoom; other wolves may join
//	take      白狼王 after exploding: ActTarget (0 or ActWave = none)
//	duel      騎士 after his ActBoom: ActTarget
//	prince    定序王子's window on an exile result: ActBoom reveals
//
// Explosion windows (Window): 警上 (election speeches), 退水 (withdrawal),
// 放逐 (exile-day speeches; also the knight's duel), 白天 (the further day
// windows of explode.windows: last words, the sheriff's order and 歸票). Winners (Winner): 好人,
// 狼人, 流局 (judge's void), 第三方 (a third camp). Causes of death (Cause):
// wolf poison exile shot explode taken duel charm dq reflect dream hunt
// check grief assassinate gamble trade. Record types (RecordType): phase death vote sheriff check exile
// reveal speech result penalty action role silence roar follow lovers;
// action kinds (ActionKind): kill guard save poison charm dream fear lock
// hunt duel signup withdraw thief silence hug assassinate bet trade model. The
// strings are the JSON and journal encodings, unchanged since the first
// journals.
//
// # Files
//
//	game.go        Game, New, Start, Apply; the agenda; saying, cueing, recording; deaths
//	deal.go        Deal, DealCards: the seeded shuffle, and the redeal of a forbidden bottom (盜賊)
//	input.go       seat, pedal and timer inputs
//	judge.go       the judge's powers (A13)
//	step.go        the step a game waits on; Awaiting, Prompt and the judge's views
//	choices.go     Key, Choice, Choices, StepKeys: what a step accepts, from its declared keys
//	vocab.go       the typed vocabulary above
//	io.go          inputs, effects, records, errors
//	board.go       Board, Step, NightPlan; Cards (the deal's cards, thief.extra_cards)
//	options.go     a board's rule options
//	preset.go      the seed presets: bundles of option values (rules-more.md E0.1)
//	roles.go       the role table (every trait of every role) and its hooks column (roleHooksTab)
//	steps.go       the night step kinds and the role acting in each
//	states.go      roleStates: each role's own state, a field per role, named after its id
//	hooks.go       roleHooks: the points where a role plugs into the shared phases, as four
//	               contracts (nightHooks, dayHooks, deathHooks, campHooks)
//	win.go         the win check (A12, rules-more.md D0.2): 屠邊, 屠城, third camps
//	night.go       the night (A3, A15): steps, their pace and lines, the night's deaths
//	day.go         dawn, night results, skills, badge, last words (A5, A6)
//	election.go    the sheriff election (A5)
//	exile.go       the exile day (A7)
//	speech.go      speeches and the clock rule (A7, A8)
//	vote.go        votes (A9)
//	explode.go     explosions (A11)
//	role_<id>.go   one role each (role_purewhite.go: 純白之女 and 狼巫): its state, night step and hooks
//	               (role_cupid.go also holds the lovers' rules, shared with 魅魔)
//
// # Adding a role
//
//  1. Add its Role constant and its row to roleTab in roles.go: names, side,
//     屠邊 category, WolvesFrom, Explodes, NoKnife, NightProof, PoisonOK,
//     ShotOn, and its night steps (a new StepKind in steps.go, with Confirm
//     and Result). Give the row its constructor in the hooks column,
//     roleHooksTab, at the same place (nil for a role of traits only, with
//     no file); if it kills at night, place it in nightDeathOrder.
//  2. Write role_<id>.go: its state type (a field of roleStates in
//     states.go, named after the role's id), a <role>Hooks() constructor,
//     its night step and the hooks it needs. A constructor fills the
//     contracts of roleHooks by phase: night (nightHooks: its steps, blocks,
//     protections and night deaths), day (dayHooks: the day's moments,
//     speeches, votes, badge, exile, explosions), death (deathHooks: a death
//     it takes over, a shot, what follows a death) and camp (campHooks: side,
//     category, the end). If a shared phase has no hook for what the role
//     does, add one to the contract of that phase and call it from the
//     phase through the contract — never name the role outside its file;
//     prefer an existing hook that means the same (a take-over of any
//     death is deathHooks.takeOver, whatever the cause).
//     Beside the step's act, declare its keys (s.keys: the gestures, the
//     target and the word of each thing it takes, e.g. the witch's
//     救 = ActUp, 毒 = ActDown + a seat); pickStep declares a plain seat.
//     The scenario runner (scenario/keys.go) and the legal bots
//     (bots/legal.go) read them: neither names the role.
//  3. Add its lines to the script catalogue, its board to boards/data, and
//     scenario files for its rules; the golden record must not change.
//
// TestRoleNamedOnlyInItsFile checks step 2: each role constant other than
// 狼人 and 村民 appears only in its own file and in roles.go.
// TestHooksColumn checks step 1's column: a row per role, a constructor
// exactly for a role with its own file, declared there, and every
// constructor reachable. TestRoleStatesNamedAfterRoles checks the state's
// field name.
package engine
