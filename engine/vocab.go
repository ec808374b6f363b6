package engine

// The engine's vocabulary at its boundary: typed words whose encodings (the
// JSON and journal strings) are their values. doc.go tabulates them.

// StepName names what the game waits on (Prompt.Step).
type StepName string

const (
	WaitNight    StepName = "night"    // a night step (Prompt.StepKind)
	WaitSignup   StepName = "signup"   // night 1: hands for the sheriff election
	WaitSpeech   StepName = "speech"   // a speech (Prompt.SpeechKind)
	WaitWithdraw StepName = "withdraw" // 退水
	WaitVote     StepName = "vote"     // a vote (Prompt.VoteKind)
	WaitSkill    StepName = "skill"    // a dead player's skill (shot)
	WaitBadge    StepName = "badge"    // the dying sheriff passes or tears the badge
	WaitOrder    StepName = "order"    // the sheriff's 順/逆
	WaitGuide    StepName = "guide"    // the sheriff's 歸票
	WaitExplode  StepName = "explode"  // an explosion's confirmation window
	WaitTake     StepName = "take"     // 白狼王 takes a player
	WaitDuel     StepName = "duel"     // 騎士 names the player he duels
	WaitPrince   StepName = "prince"   // 定序王子's reveal window
)

// SpeechKind is the kind of a speech (Prompt.SpeechKind; Record.Kind of a
// speech holds its word).
type SpeechKind string

const (
	SpeechSheriff   SpeechKind = "sheriff"
	SpeechSheriffPK SpeechKind = "sheriff-pk"
	SpeechExile     SpeechKind = "exile"
	SpeechExilePK   SpeechKind = "exile-pk"
	SpeechLastWords SpeechKind = "last-words"
	SpeechPrince    SpeechKind = "prince"
	// SpeechInterject: a revealed idiot cuts into another player's speech
	// (idiot.interject).
	SpeechInterject SpeechKind = "interject"
)

// VoteKind is the kind of a vote (Prompt.VoteKind; Record.Kind of a vote
// holds its word).
type VoteKind string

const (
	VoteSheriff   VoteKind = "sheriff"
	VoteSheriffPK VoteKind = "sheriff-pk"
	VoteExile     VoteKind = "exile"
	VoteExilePK   VoteKind = "exile-pk"
)

// Window is an explosion window (A11): the steps in which a wolf may explode
// (and, in 放逐, the knight may duel). "" = none.
type Window string

const (
	NoWindow       Window = ""
	WindowElection Window = "警上" // the election speeches (and its PK)
	WindowWithdraw Window = "退水" // 退水
	WindowExile    Window = "放逐" // the exile-day speeches
	// WindowDay: the further day windows of explode.windows (last words;
	// under any_but_vote also the sheriff's order and 歸票). No duel.
	WindowDay Window = "白天"
)

// Winner is a game's result (Game.Over, Record.Result of a result record).
type Winner string

const (
	WinNone   Winner = ""
	WinGood   Winner = "好人"
	WinWolves Winner = "狼人"
	WinVoid   Winner = "流局"  // the judge voided the game
	WinThird  Winner = "第三方" // a third camp (Board.Third)
)

// ActionKind is the kind of a night action or day choice recorded for the
// 復盤 (Record.Kind of an action record holds its word).
type ActionKind string

const (
	ActionKill     ActionKind = "kill"
	ActionGuard    ActionKind = "guard"
	ActionSave     ActionKind = "save"
	ActionPoison   ActionKind = "poison"
	ActionCharm    ActionKind = "charm"
	ActionDream    ActionKind = "dream"
	ActionFear     ActionKind = "fear"
	ActionLock     ActionKind = "lock"
	ActionHunt     ActionKind = "hunt"
	ActionDuel     ActionKind = "duel"
	ActionSignup   ActionKind = "signup"
	ActionWithdraw ActionKind = "withdraw"
	ActionThief    ActionKind = "thief" // 盜賊 kept a bottom card: By, Role (kept), Result (the buried card's name)

	ActionSilence     ActionKind = "silence"     // 禁言長老's choice (0 = 空禁)
	ActionHug         ActionKind = "hug"         // 花蝴蝶's hug
	ActionAssassinate ActionKind = "assassinate" // 潛行者's 暗殺
	ActionBet         ActionKind = "bet"         // 賭徒's bet

	ActionTrade   ActionKind = "trade"       // 黑市商人 makes Target the lucky one (Result: the gift)
	ActionLife    ActionKind = "life"        // 村長/長老 (Target) loses a life to the knife
	ActionPenalty ActionKind = "skills-lost" // 村長/長老 (By) died by a good-camp act: every good skill is lost
	ActionModel   ActionKind = "model"       // 野孩子's model, 混血兒's one followed
)

// The vocabulary's word lists, in declaration order: what a package that
// names every word (script's word tables, their test) ranges over instead of
// reading the engine's source. TestVocabularyListed holds each list to the
// type's constants.

// Causes lists every Cause.
func Causes() []Cause {
	return []Cause{CauseWolf, CausePoison, CauseExile, CauseShot, CauseExplode, CauseTaken, CauseDuel, CauseCharm,
		CauseDQ, CauseReflect, CauseDream, CauseHunt, CauseCheck, CauseGrief, CauseAssassinate, CauseGamble, CauseTrade}
}

// ActionKinds lists every ActionKind.
func ActionKinds() []ActionKind {
	return []ActionKind{ActionKill, ActionGuard, ActionSave, ActionPoison, ActionCharm, ActionDream, ActionFear,
		ActionLock, ActionHunt, ActionDuel, ActionSignup, ActionWithdraw, ActionThief, ActionSilence, ActionHug,
		ActionAssassinate, ActionBet, ActionTrade, ActionLife, ActionPenalty, ActionModel}
}

// VoteKinds lists every VoteKind.
func VoteKinds() []VoteKind {
	return []VoteKind{VoteSheriff, VoteSheriffPK, VoteExile, VoteExilePK}
}

// SpeechKinds lists every SpeechKind.
func SpeechKinds() []SpeechKind {
	return []SpeechKind{SpeechSheriff, SpeechSheriffPK, SpeechExile, SpeechExilePK, SpeechLastWords, SpeechPrince, SpeechInterject}
}

// RecordTypes lists every RecordType.
func RecordTypes() []RecordType {
	return []RecordType{RecPhase, RecDeath, RecVote, RecSheriff, RecCheck, RecExile, RecReveal, RecSpeech, RecResult,
		RecPenalty, RecAction, RecRole, RecSilence, RecRoar, RecFollow, RecLovers}
}

// Reasons lists every refusal Reason.
func Reasons() []Reason {
	return []Reason{ReasonNotNow, ReasonNotActor, ReasonBadTarget, ReasonRule, ReasonGameOver,
		ReasonUnknownTimer, ReasonPaused, ReasonBadInput, ReasonNotStarted, ReasonNoStep, ReasonNoPedal,
		ReasonSeatRange, ReasonTargetRange, ReasonTargetOut, ReasonCannotTarget, ReasonNotVotable, ReasonBlocked,
		ReasonTwiceRunning, ReasonCheckedBefore, ReasonSelf, ReasonAntidoteUsed, ReasonPoisonUsed, ReasonOnePotion,
		ReasonNobodyToSave, ReasonSkillUsed, ReasonLocked, ReasonNoWindow, ReasonCannotExplode, ReasonNoInterject,
		ReasonBadgeIdiot, ReasonSeatOut, ReasonAlreadyPaused, ReasonNotPaused, ReasonNothingToUndo,
		ReasonBadPenalty, ReasonThiefCard, ReasonThiefMustTake, ReasonThiefMustWolf, ReasonThiefMustSpecial,
		ReasonNotEligible, ReasonBadGift, ReasonNoGift, ReasonSameLover, ReasonLinked, ReasonLoverVote,
		ReasonWolfLover}
}

// Winners lists every Winner, WinNone (a game not over) first.
func Winners() []Winner { return []Winner{WinNone, WinGood, WinWolves, WinVoid, WinThird} }
