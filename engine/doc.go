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
//	order.go       NightSlot: a step's place in seed 004's default night order (StepInfo.Order)
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
// These are every file a new role touches (checked for 魅魔, 老流氓 and
// 守墓人, issue 30): the role table, the role's own file, the catalogue's
// lines and tests. The role table is engine/roles.go with its two
// companions, steps.go (the step kinds) and states.go (the states' struct):
// Go has no other typed home for a constant per step and a state field
// per role. What the rest of the house used to keep by role is read from
// the table or the catalogue: the default night order (boards/order.go,
// from StepInfo.Order), the steps a board must wake (StepInfo.Needed),
// the private indicator's taps (daemon, from script.Line's Tap and Untap),
// the voice studio's parts (audio/studio, from a line id's role segment),
// the console's hand marks (console, from script.Line's Hand and HandArg),
// the scenario runner, the bots and the console's words (from the steps'
// declared keys and the table).
//
//  1. The role table. engine/roles.go: its Role constant and its row in
//     roleTab: names (Name, Simplified: the scenario files' spelling),
//     side, 屠邊 category, WolvesFrom, Explodes, NoKnife, NightProof,
//     PoisonOK, ShotOn, Protects, SeenGood, Takes (it takes a seat when
//     exploding), Duels (it duels by day), and its night steps (StepInfo:
//     Confirm, Result, Unblocked; Name and Wakes when the step wakes others
//     than the role's holders; Seats, the seats one scenario decision names
//     when not one; Word when a second step of the role is picked by a
//     word; Status when a status, not the card, acts; Tapped when the seats
//     the judge tapped wake in it; Needed when a board with the role must
//     wake it (the board loader checks it); Order, its place in seed 004's default
//     night order, E0.2: Pos, First, E0.3's Secs and Hurry, its block of
//     [003]'s order In003, Moved/MovedBy when an option moves it, Skip when
//     the default order leaves it out — without a Pos a board with the
//     role writes its own night lines). Give the row its constructor in
//     the hooks column, roleHooksTab, at the same place (nil for a role of
//     traits only, with no file); if it kills at night, place it in
//     nightDeathOrder. engine/steps.go: a new StepKind for each step,
//     listed in StepKinds. engine/states.go: its state's field of
//     roleStates, named after the role's id.
//  2. Its own file, engine/role_<id>.go: its state type, a <role>Hooks()
//     constructor, its night step and the hooks it needs. A constructor
//     fills the contracts of roleHooks by phase: night (nightHooks: its
//     steps, blocks, protections and night deaths), day (dayHooks: the
//     day's moments, speeches, votes, badge, exile, explosions), death
//     (deathHooks: a death it takes over, a shot, what follows a death) and
//     camp (campHooks: side, category, the end). If a shared phase has no
//     hook for what the role does, add one to the contract of that phase
//     and call it from the phase through the contract — never name the
//     role outside its file; prefer an existing hook that means the same (a
//     take-over of any death is deathHooks.takeOver, whatever the cause).
//     Beside the step's act, declare its keys (s.keys: the gestures, the
//     target and the word of each thing it takes, e.g. the witch's
//     救 = ActUp, 毒 = ActDown + a seat); pickStep declares a plain seat.
//     The scenario runner (scenario/keys.go, nightargs.go), the legal bots
//     (bots/legal.go) and the judge's console (StepKind.Name, StepInfo.Wakes)
//     read them and the table: none names the role. The random players
//     (bots/bots.go) need no case: their default keys a seat.
//  3. The catalogue: its lines in script/catalogue.go (its row of
//     nightKinds for each step's night.<kind>.* lines, cue.<id>.*, the
//     day's lines under its id, <id>.*, which the voice studio shows under
//     技能與特殊身分), then `go generate ./internal/hans` for the
//     Simplified table of its new words. A cue line says what the daemon
//     and the console do with it: Tap (the judge taps the seat it names,
//     whose private indicator lights until a Tapped step closes), Hand or
//     HandArg (its hand mark, when neither its id's end — .wolf, .good,
//     .can, .cannot — nor its text's （擺手） says it). Its board in
//     boards/data, and scenario files (scenarios/roles) for its rules.
//  4. Only when the role needs them, two things that are not a role's:
//     - a new word of the vocabulary (a Cause, an ActionKind, a RecordType,
//     a refusal's Reason): its constant in engine/io.go or vocab.go, in
//     its list there (Causes …), and its words in script/words.go or
//     script/refusals.go (the scenario format reads the engine's lists).
//     A word is the game record's and the scenario format's, read by the
//     journal, the 復盤 and the console: one list per type, which every
//     reader and TestVocabularyListed hold, not a column of one role's row;
//     - rule options: their row in engine/options.go's option table (and
//     a field of Options) and their words in script/options.go. An option
//     is a board's rule, which a preset or a board sets and the loader
//     checks by key, not a trait of a role: many options are no role's
//     (night_order.preset, sheriff.*) and a role's rules may read several
//     (witch.self_save reads 守衛's Protects).
//     A day line under a first id segment that is neither the role's id nor
//     a shared one (skill, explode, duel, charm) would show under 其他 in
//     the voice studio until audio/studio/groups.go gives it a part: name
//     a role's day lines <id>.* instead.
//  5. Tests: the golden record must not change.
//
// TestRoleNamedOnlyInItsFile checks step 2: each role constant other than
// 狼人 and 村民 appears only in its own file and in roles.go.
// TestHooksColumn checks step 1's column: a row per role, a constructor
// exactly for a role with its own file, declared there, and every
// constructor reachable. TestRoleStatesNamedAfterRoles checks the state's
// field name.
package engine
