package script

import (
	"strconv"
	"strings"

	"wolftable/engine"
)

// The judge's words for the engine's vocabulary: the labels the console, the
// game record (復盤), the scenario transcript and the virtual table show for
// causes of death, actions, votes, speeches, record kinds and phases. One
// table, so that the same thing has the same name everywhere.
//
// The tables are keyed by the engine's typed words (engine.Cause,
// engine.ActionKind, engine.VoteKind, engine.SpeechKind, engine.RecordType);
// words_test.go ranges over the engine's word lists (engine.Causes() …) and
// checks that every word has one label here and no label is left over.

// Causes names each cause of death (engine.Cause).
var Causes = map[engine.Cause]string{
	"wolf":    "狼刀",
	"poison":  "毒殺",
	"exile":   "放逐",
	"shot":    "槍殺",
	"explode": "自爆",
	"taken":   "被帶走",
	"duel":    "決鬥",
	"charm":   "殉情",
	"dq":      "點殺",
	"reflect": "反傷",
	"dream":   "夢死",
	"hunt":    "獵殺",
	"check":   "查殺",

	"grief":       "殉情",
	"assassinate": "暗殺",
	"gamble":      "押注",
	"trade":       "交易失敗",
}

// Actions names each recorded action (engine.ActionKind) as a verb: "3號
// 守護 5號". "check" is a check record's verb.
var Actions = map[engine.ActionKind]string{
	"kill":     "擊殺",
	"guard":    "守護",
	"save":     "用解藥救",
	"poison":   "用毒藥毒",
	"charm":    "魅惑",
	"dream":    "攝夢",
	"fear":     "恐懼",
	"lock":     "封鎖",
	"hunt":     "狩獵",
	"duel":     "決鬥",
	"signup":   "上警",
	"withdraw": "退水",
	"check":    "查驗",
	"thief":    "拿底牌",

	"silence":     "禁言",
	"hug":         "抱住",
	"assassinate": "暗殺",
	"bet":         "押注",

	"trade":       "交易技能給",
	"life":        "狼刀命中，失去一條命：",
	"skills-lost": "出局懲罰：所有好人失去技能",
	"model":       "選為榜樣",
}

// Gifts names 黑市商人's gifts (the Result of a trade action).
var Gifts = map[string]string{
	"glasses": "預言家的眼鏡",
	"poison":  "女巫的毒藥",
	"gun":     "獵人的槍",
}

// Votes names each kind of vote (engine.VoteKind).
var Votes = map[engine.VoteKind]string{
	"sheriff":    "警長投票",
	"sheriff-pk": "警長PK投票",
	"exile":      "放逐投票",
	"exile-pk":   "放逐PK投票",
}

// Speeches names each kind of speech (engine.SpeechKind).
var Speeches = map[engine.SpeechKind]string{
	"sheriff":    "警上發言",
	"sheriff-pk": "警上PK發言",
	"exile":      "放逐發言",
	"exile-pk":   "放逐PK發言",
	"last-words": "遺言",
	"prince":     "王子發言",
	"interject":  "白痴插話",
}

// Records names each kind of record entry (engine.RecordType), as the
// transcript marks it: 〔票型〕, 〔出局〕.
var Records = map[engine.RecordType]string{
	"phase":   "階段",
	"death":   "出局",
	"vote":    "票型",
	"sheriff": "警長",
	"check":   "查驗",
	"exile":   "放逐",
	"reveal":  "翻牌",
	"speech":  "發言",
	"result":  "結果",
	"penalty": "扣分",
	"action":  "行動",
	"role":    "換身份",
	"silence": "禁言",
	"roar":    "熊咆哮",
	"follow":  "跟隨者結果",
	"lovers":  "情侶",
}

func label[K ~string](m map[K]string, k K) string {
	if w, ok := m[k]; ok {
		return w
	}
	return string(k)
}

// GiftLabel is 黑市商人's gift: "glasses" → "預言家的眼鏡".
func GiftLabel(gift string) string { return label(Gifts, gift) }

// CauseLabel is a cause of death's word: "wolf" → "狼刀".
func CauseLabel(cause engine.Cause) string { return label(Causes, cause) }

// ActionLabel is an action's verb: "poison" → "用毒藥毒".
func ActionLabel(kind engine.ActionKind) string { return label(Actions, kind) }

// VoteLabel is a vote kind's name: "sheriff" → "警長投票".
func VoteLabel(kind engine.VoteKind) string { return label(Votes, kind) }

// SpeechLabel is a speech kind's name: "exile-pk" → "放逐PK發言"; an
// unknown kind is "發言".
func SpeechLabel(kind engine.SpeechKind) string {
	if w, ok := Speeches[kind]; ok {
		return w
	}
	return "發言"
}

// RecordLabel is a record kind's name: "vote" → "票型".
func RecordLabel(kind engine.RecordType) string { return label(Records, kind) }

// PhaseLabel names a phase: "night-2" → "第2夜", "day-1" → "第1天",
// "setup" → "開局"; anything else is returned as it is.
func PhaseLabel(phase string) string {
	if phase == "setup" {
		return "開局"
	}
	kind, n, ok := strings.Cut(phase, "-")
	if !ok {
		return phase
	}
	if _, err := strconv.Atoi(n); err != nil {
		return phase
	}
	switch kind {
	case "night":
		return "第" + n + "夜"
	case "day":
		return "第" + n + "天"
	}
	return phase
}
