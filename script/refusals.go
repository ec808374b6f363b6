package script

import (
	"strconv"
	"strings"

	"wolftable/engine"
)

// The judge's words for a refused input: one Chinese sentence per reason
// (keyed by engine.Reason; each engine.ErrorCode has a
// reason of its own for refusals that name no finer one). The console shows
// these; the engine's English message stays in the logs and the scenario
// runner. refusals_test.go (script) checks that every engine.Reason has one.
//
// Placeholders, filled from the refusal's arguments:
//
//	{seat}    the refused seat: "3號"
//	{target}  the seat it pointed at: "7號"
//	{role}    the role the refusal names: "守衛" (or "這個角色")
//	{step}    what the game waits on: "夜間：狼人"
var Refusals = map[engine.Reason]string{
	// one per error code
	"not-now":       "現在不接受這個操作",
	"not-actor":     "{seat}現在不行動（{step}）",
	"bad-target":    "不能選這個目標",
	"rule":          "規則不允許這個操作",
	"game-over":     "遊戲已結束",
	"unknown-timer": "這個計時器沒有在計時",
	"paused":        "遊戲暫停中",
	"bad-input":     "無效的輸入",

	// finer reasons
	"not-started":        "遊戲尚未開始",
	"no-step":            "現在沒有等待座位的操作",
	"no-pedal":           "這一步不能用踏板推進",
	"seat-range":         "座位號碼超出範圍",
	"target-range":       "目標號碼超出範圍",
	"target-out":         "{target}已出局",
	"cannot-target":      "{role}不能選{target}",
	"not-votable":        "這次投票不能投{target}",
	"blocked":            "{role}今晚技能被封（恐懼、擁抱、封鎖或封印）",
	"twice-running":      "{role}不能連續兩晚選{target}",
	"checked-before":     "{role}不能重複查驗同一名玩家",
	"self":               "{role}不能選自己",
	"antidote-used":      "解藥已用過",
	"poison-used":        "毒藥已用過",
	"one-potion":         "女巫今晚已作出選擇（一晚只能用一瓶藥）",
	"nobody-to-save":     "今晚沒有人可救",
	"skill-used":         "{role}的技能已用過",
	"locked":             "{role}今天被封鎖，不能發動技能",
	"no-window":          "現在不能自爆或發動技能",
	"cannot-explode":     "{seat}不能自爆",
	"seat-out":           "{seat}已出局",
	"already-paused":     "遊戲已經暫停",
	"not-paused":         "遊戲沒有暫停",
	"nothing-to-undo":    "沒有可以撤銷或重播的操作",
	"bad-penalty":        "扣分要在 0.5 到 3 分之間，以 0.5 分為單位",
	"thief-card":         "盜賊只能按 1 或 2 選一張底牌",
	"thief-must-take":    "盜賊必須從兩張底牌中選一張，不能擺手",
	"thief-must-wolf":    "底牌有狼人陣營的牌，盜賊必須拿狼人牌",
	"thief-must-special": "底牌有特殊狼人，盜賊必須拿特殊狼人",
	"not-eligible":       "{role}今晚沒有可以暗殺的目標",

	"bad-gift":     "黑市商人的技能只能選 1（眼鏡）、2（毒藥）或 3（獵槍）",
	"no-gift":      "幸運兒今晚沒有可以使用的技能",
	"same-lover":   "{role}要選兩名不同的玩家，不能兩次選{target}",
	"linked":       "{role}已選好兩名情侶（擺手可重選）",
	"lover-vote":   "情侶不能互投：{seat}不能投給{target}",
	"wolf-lover":   "魅魔只能選好人當情侶，不能選{target}",
	"no-interject": "{seat}只能在其他玩家發言時插話，每段發言一次",
	"badge-idiot":  "{target}是已被票出翻牌的白痴，不能接任警長：請移交給其他存活玩家或撕毀警徽",
}

// RefusalArgs are a refusal's arguments, already in words where they are
// not seats: Role is a role's Chinese name, Step a step's label.
type RefusalArgs struct {
	Seat, Target int
	Role, Step   string
}

// Refusal renders a refused input for the judge. An unknown reason is
// "操作被拒絕": the English message is never shown.
func Refusal(reason engine.Reason, a RefusalArgs) string {
	text, ok := Refusals[reason]
	if !ok {
		return "操作被拒絕"
	}
	role := a.Role
	if role == "" {
		role = "這個角色"
	}
	step := a.Step
	if step == "" {
		step = "這一步"
	}
	r := strings.NewReplacer(
		"{seat}", seatOrAny(a.Seat, "這個座位"),
		"{target}", seatOrAny(a.Target, "這個目標"),
		"{role}", role,
		"{step}", step,
	)
	return r.Replace(text)
}

func seatOrAny(s int, any string) string {
	if s == 0 {
		return any
	}
	return strconv.Itoa(s) + "號"
}
