package engine

import (
	"errors"
	"fmt"
)

// Action is what a seat's panel says: a target number or a gesture key.
type Action int

const (
	ActTarget Action = iota // digits + OK: a seat number (0 = none / empty knife / abstain)
	ActUp                   // 拇指向上: save (witch), 順 (sheriff's order)
	ActDown                 // 拇指向下: poison (witch, then a target), 逆 (order), tear the badge
	ActWave                 // 擺手: do not use the skill / abstain / 不歸票
	ActHand                 // 舉手: sign up (上警), toggle 退水
	ActBoom                 // 自爆 for a wolf; reveal-and-duel for the knight (guarded key)
)

func (a Action) String() string {
	switch a {
	case ActTarget:
		return "target"
	case ActUp:
		return "up"
	case ActDown:
		return "down"
	case ActWave:
		return "wave"
	case ActHand:
		return "hand"
	case ActBoom:
		return "boom"
	}
	return fmt.Sprintf("action(%d)", int(a))
}

// PedalPress is a press of the judge's foot pedal.
type PedalPress int

const (
	PedalShort  PedalPress = iota // advance / end the current speech or window
	PedalLong                     // repeat the current line
	PedalDouble                   // pause / resume timers
)

// JudgeCommand is one of the judge's powers (rules.md A13).
type JudgeCommand int

const (
	JudgeDQ      JudgeCommand = iota // 點殺: the seat is out at once, no skill, no last words
	JudgeVoid                        // 流局
	JudgePenalty                     // 扣分: Points against Seat
	JudgeUndo                        // undo the last seat input of the current step
	JudgeRepeat                      // say the last line again
	JudgePause                       // pause timers
	JudgeResume                      // resume timers
)

// InputKind says which fields of an Input are meaningful.
type InputKind int

const (
	InSeat  InputKind = iota // Seat, Action, Target
	InPedal                  // Pedal
	InTimer                  // Timer: the runtime's timer expired
	InClock                  // Hour, Minute: the judge's wall clock (A8)
	InJudge                  // Judge, Seat, Points
)

// TimerID names a timer the engine asked the runtime to start.
type TimerID int

// Input is everything that can happen to the game. Build it with the
// constructors below; the zero value is not a valid input.
type Input struct {
	Kind   InputKind
	Seat   int
	Action Action
	Target int
	Pedal  PedalPress
	Timer  TimerID
	Hour   int
	Minute int
	Judge  JudgeCommand
	Points float64
}

// SeatTarget is a seat entering a number and OK.
func SeatTarget(seat, target int) Input {
	return Input{Kind: InSeat, Seat: seat, Action: ActTarget, Target: target}
}

// SeatGesture is a seat pressing a gesture key.
func SeatGesture(seat int, a Action) Input { return Input{Kind: InSeat, Seat: seat, Action: a} }

// Pedal is a press of the judge's pedal.
func Pedal(p PedalPress) Input { return Input{Kind: InPedal, Pedal: p} }

// TimerExpired reports that a timer the engine started ran out.
func TimerExpired(id TimerID) Input { return Input{Kind: InTimer, Timer: id} }

// Clock is the judge's wall clock, sampled by the runtime.
func Clock(hour, minute int) Input { return Input{Kind: InClock, Hour: hour, Minute: minute} }

// Judge is a judge command; seat and points only where the command takes them.
func Judge(c JudgeCommand, seat int, points float64) Input {
	return Input{Kind: InJudge, Judge: c, Seat: seat, Points: points}
}

// Light is a seat's number light (A1).
type Light int

const (
	LightOff Light = iota
	LightGreen
	LightRed
	LightBlue
)

func (l Light) String() string {
	switch l {
	case LightGreen:
		return "green"
	case LightRed:
		return "red"
	case LightBlue:
		return "blue"
	}
	return "off"
}

// EffectKind says which fields of an Effect are meaningful.
type EffectKind int

const (
	EffSay         EffectKind = iota // Line, Args: speak a catalogue line
	EffLight                         // Seat, Light, Pulse
	EffTimerStart                    // Timer, Seconds
	EffTimerCancel                   // Timer
	EffCue                           // Line, Args, Seat (who to gesture to): judge-only
	EffRecord                        // Record: an entry of the game record
	EffPause                         // the runtime pauses every running timer
	EffResume                        // ... and resumes them
)

// Effect is one thing the engine asks the world to do. Effects are returned
// in order; the runtime performs them in that order.
type Effect struct {
	Kind    EffectKind
	Line    string // catalogue line id (say, cue)
	Args    []int  // line arguments: seat numbers or counts
	Seat    int
	Light   Light
	Pulse   bool
	Timer   TimerID
	Seconds int
	Record  *Record
}

// RecordType names an entry of the game record.
type RecordType string

const (
	RecPhase   RecordType = "phase"   // When: "night-1", "day-1"
	RecDeath   RecordType = "death"   // Seat, Cause, When
	RecVote    RecordType = "vote"    // Kind, Day, Ballots
	RecSheriff RecordType = "sheriff" // Seat (0 = none / torn / lost)
	RecCheck   RecordType = "check"   // By, Target, Result
	RecExile   RecordType = "exile"   // Day, Seat (0 = nobody)
	RecReveal  RecordType = "reveal"  // Seat, Role
	RecSpeech  RecordType = "speech"  // Day, Kind, Seat
	RecResult  RecordType = "result"  // Result
	RecPenalty RecordType = "penalty" // Seat, Points
	RecAction  RecordType = "action"  // a night action, for the 復盤: Kind, By, Target
	RecRole    RecordType = "role"    // Seat, Role: the card a seat plays changed (the thief's pick, a wild child that turned)
	RecSilence RecordType = "silence" // Day, Seat: 禁言長老 silenced the seat for the day (announced)
	RecRoar    RecordType = "roar"    // Day, Result (是 | 否): 熊 roared that morning, or not
	RecFollow  RecordType = "follow"  // Seat (混血兒), Target (its model), Result (勝 | 負), Kind (the model's camp at the end)
	RecLovers  RecordType = "lovers"  // Seat, Target: the two lovers; By: who linked them (丘比特, 魅魔; 0 = none living)
)

// Cause is why a seat went out (scenario-format.md's cause words).
type Cause string

const (
	CauseWolf    Cause = "wolf"
	CausePoison  Cause = "poison"
	CauseExile   Cause = "exile"
	CauseShot    Cause = "shot"
	CauseExplode Cause = "explode"
	CauseTaken   Cause = "taken"
	CauseDuel    Cause = "duel"
	CauseCharm   Cause = "charm"
	CauseDQ      Cause = "dq"
	CauseReflect Cause = "reflect" // 惡靈騎士's reflection
	CauseDream   Cause = "dream"   // 攝夢人: the link, or the same sleepwalker two nights running
	CauseHunt    Cause = "hunt"    // 獵魔人
	CauseCheck   Cause = "check"   // 純白之女 / 狼巫 checks from night 2

	// rules-more.md (seeds 003 and 001)
	CauseGrief       Cause = "grief"       // 情侶: the partner died (殉情)
	CauseAssassinate Cause = "assassinate" // 潛行者's 暗殺
	CauseGamble      Cause = "gamble"      // 賭徒's bet: the wolf bet on, or the gambler
	CauseTrade       Cause = "trade"       // 黑市商人's failed trade
)

// Vote is one ballot: Target 0 = abstained.
type Vote struct{ Voter, Target int }

// Tally is one candidate's total in half-votes (1.5 = 3).
type Tally struct{ Seat, Halves int }

// Record is an entry of the game record. Which fields are set depends on
// the type:
//
//	phase    When ("night-1", "day-1": the phase that starts)
//	death    Seat, Cause, When
//	vote     Kind (sheriff sheriff-pk exile exile-pk), Day, Ballots
//	sheriff  Seat (0 = none, torn or lost)
//	check    By, Target, Result (好人 | 狼人, or the role's name for an exact
//	         check: 石像鬼, 狼巫, 純白之女); every piece of night information
//	         a player is given (the seer's, the gravekeeper's…)
//	exile    Day, Seat (0 = nobody)
//	reveal   Seat, Role
//	speech   Day, Kind (sheriff sheriff-pk exile exile-pk last-words prince interject), Seat
//	result   Result (好人 | 狼人 | 流局)
//	penalty  Seat, Points
//	action   Kind, By, Target, When: a choice for the 復盤 (kill save poison
//	         guard charm dream fear lock hunt duel signup withdraw)
//	action   Kind (kill guard save poison charm signup withdraw duel), By, Target, When
//	lovers   Seat, Target (the two lovers), By (who linked them), When
type Record struct {
	Type    RecordType
	Seat    int
	By      int
	Target  int
	Day     int
	Cause   Cause
	When    string
	Kind    string
	Result  string
	Role    Role
	Points  float64
	Ballots *Ballots
}

// Ballots are a vote's ballots in seat order and its tally.
type Ballots struct {
	Votes []Vote
	Tally []Tally
}

// ErrorCode classifies why an input was refused.
type ErrorCode int

const (
	ErrNotNow       ErrorCode = iota + 1 // nothing accepts this input at this point
	ErrNotActor                          // this seat does not act in the current step
	ErrBadTarget                         // the target is out of range, dead or not allowed
	ErrRule                              // a rule forbids it (same guard twice, self-save, …)
	ErrGameOver                          // the game has ended
	ErrUnknownTimer                      // a timer that is not running
	ErrPaused                            // timers are paused
	ErrBadInput                          // malformed input
)

// Reason says why an input was refused, finer than its ErrorCode: the key
// of the refusal's words for the judge (script/refusals.go). Every refusal
// has one; a refusal without a finer reason has its code's (ReasonOf).
type Reason string

const (
	// one per ErrorCode: the reason of a refusal that names no finer one
	ReasonNotNow       Reason = "not-now"
	ReasonNotActor     Reason = "not-actor" // Seat, Step, Kind
	ReasonBadTarget    Reason = "bad-target"
	ReasonRule         Reason = "rule"
	ReasonGameOver     Reason = "game-over"
	ReasonUnknownTimer Reason = "unknown-timer"
	ReasonPaused       Reason = "paused"
	ReasonBadInput     Reason = "bad-input"

	// finer reasons
	ReasonNotStarted    Reason = "not-started"
	ReasonNoStep        Reason = "no-step"        // no step takes a seat's input now
	ReasonNoPedal       Reason = "no-pedal"       // the pedal does not advance this step
	ReasonSeatRange     Reason = "seat-range"     // Seat: no such seat
	ReasonTargetRange   Reason = "target-range"   // Target: no such seat
	ReasonTargetOut     Reason = "target-out"     // Target: the seat is out
	ReasonCannotTarget  Reason = "cannot-target"  // Role, Target: the role cannot pick that seat
	ReasonNotVotable    Reason = "not-votable"    // Target: not a candidate of this vote
	ReasonBlocked       Reason = "blocked"        // Seat: feared, locked or sealed tonight
	ReasonTwiceRunning  Reason = "twice-running"  // Role, Target: the same seat two nights running
	ReasonCheckedBefore Reason = "checked-before" // Role: the same player checked again
	ReasonSelf          Reason = "self"           // Role: the role cannot pick itself
	ReasonAntidoteUsed  Reason = "antidote-used"  // the witch's antidote is used
	ReasonPoisonUsed    Reason = "poison-used"    // the witch's poison is used
	ReasonOnePotion     Reason = "one-potion"     // the witch has chosen tonight
	ReasonNobodyToSave  Reason = "nobody-to-save" // no victim tonight
	ReasonSkillUsed     Reason = "skill-used"     // Role: a once-a-game skill is used
	ReasonLocked        Reason = "locked"         // Role: locked by 蝕時狼妃 today
	ReasonNoWindow      Reason = "no-window"      // no explosion window now
	ReasonCannotExplode Reason = "cannot-explode" // Seat
	ReasonNoInterject   Reason = "no-interject"   // Seat: a revealed idiot cuts in only during another player's speech, once
	ReasonBadgeIdiot    Reason = "badge-idiot"    // Target: the badge cannot go to a revealed idiot
	ReasonSeatOut       Reason = "seat-out"       // Seat: the acting seat is out
	ReasonAlreadyPaused Reason = "already-paused"
	ReasonNotPaused     Reason = "not-paused"
	ReasonNothingToUndo Reason = "nothing-to-undo" // nothing to repeat or undo
	ReasonBadPenalty    Reason = "bad-penalty"

	ReasonThiefCard        Reason = "thief-card"         // Target: the thief keys 1 or 2
	ReasonThiefMustTake    Reason = "thief-must-take"    // the thief must keep a card (no WAVE)
	ReasonThiefMustWolf    Reason = "thief-must-wolf"    // Target: a wolf-camp card is in the bottom: the thief must keep it
	ReasonThiefMustSpecial Reason = "thief-must-special" // Target: two wolf cards in the bottom (thief.two_wolf_bottom=allow): the special wolf first
	ReasonNotEligible      Reason = "not-eligible"       // Role: 潛行者 has nobody to assassinate tonight
	ReasonBadGift          Reason = "bad-gift"           // 黑市商人's gift is 1 (glasses), 2 (poison) or 3 (gun)
	ReasonNoGift           Reason = "no-gift"            // 幸運兒: nothing to use tonight (the gift is a gun, the card's own, or not usable yet)
	ReasonSameLover        Reason = "same-lover"         // Role, Target: 丘比特 keyed the same seat twice
	ReasonLinked           Reason = "linked"             // Role: 丘比特 has keyed two seats already
	ReasonLoverVote        Reason = "lover-vote"         // Seat, Target: a lover voted for the partner (lovers.no_mutual_vote)
	ReasonWolfLover        Reason = "wolf-lover"         // Target: 魅魔 picked a wolf-camp seat
)

// ReasonOf is the reason of a code's refusals that name no finer one.
func ReasonOf(c ErrorCode) Reason {
	switch c {
	case ErrNotNow:
		return ReasonNotNow
	case ErrNotActor:
		return ReasonNotActor
	case ErrBadTarget:
		return ReasonBadTarget
	case ErrRule:
		return ReasonRule
	case ErrGameOver:
		return ReasonGameOver
	case ErrUnknownTimer:
		return ReasonUnknownTimer
	case ErrPaused:
		return ReasonPaused
	case ErrBadInput:
		return ReasonBadInput
	}
	return ""
}

// Error is the typed error every refused input returns; the game state is
// unchanged when Apply returns one. Msg is English, for logs and the
// scenario runner; Reason and the fields after it are what a judge's screen
// renders in Chinese (script.Refusal).
type Error struct {
	Code   ErrorCode
	Msg    string
	Reason Reason   // never empty
	Seat   int      // the seat whose input was refused, when the reason names it
	Target int      // the seat it pointed at, when the reason names it
	Role   Role     // the role the reason names
	Step   StepName // ReasonNotActor: the step the game waits on
	// ReasonNotActor: the step's kind, as in Prompt (one is set, by Step)
	StepKind   StepKind
	SpeechKind SpeechKind
	VoteKind   VoteKind
}

func (e *Error) Error() string { return "engine: " + e.Msg }

func errf(code ErrorCode, format string, a ...any) error {
	return refuse(code, Error{}, format, a...)
}

// refuse is errf with the refusal's reason and arguments in d.
func refuse(code ErrorCode, d Error, format string, a ...any) error {
	d.Code = code
	if d.Reason == "" {
		d.Reason = ReasonOf(code)
	}
	d.Msg = fmt.Sprintf(format, a...)
	return &d
}

// IsCode reports whether err is an engine Error with the code.
func IsCode(err error, code ErrorCode) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}
