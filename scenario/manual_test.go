package scenario_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"wolftable/boards"
	"wolftable/scenario"
	"wolftable/script"
)

// manualLine is one sentence of seed 000's 語術 (the judge's manual) and the
// catalogue line the table says for it, so a reviewer reads one against the
// other. The manual is quoted as printed (玩傢, 瞭, 臺, "X 號"); X stands for
// a seat (3, then 9), XX for a list of seats.
type manualLine struct {
	manual string
	id     string
	night  int   // night lines: 1 = night 1 only, 2 = later nights only, 0 = any night or by day
	args   []int // the seats the line is rendered with (default: 3 for each X, 3, 9 for XX)
	// fixed: how many of args the manual spells as digits ("1 號投票給 X 號")
	fixed int
	// unsaid: why the rules suite never says the line (it is checked against
	// the manual all the same)
	unsaid string
}

// The day's lines, the same on every board: seed 000 二（二） and 三（一）預女獵愚
// （二）（四）白天流程 (the other boards' day flows repeat them).
var manualDay = []manualLine{
	{manual: "選手請查看身份牌，天黑請閉眼", id: "game.start"},
	{manual: "上警玩傢請舉手", id: "signup.ask"},
	{manual: "上警玩傢有：X 號玩傢、X 號玩傢", id: "signup.list"},
	{manual: "所有玩傢整理表情，3~2~1，天亮瞭", id: "day.dawn"},
	{manual: "上警玩傢請將號碼燈調至紅色", id: "election.lights"},
	{manual: "X 號玩傢請發言", id: "speech.start"},
	{manual: "發言還剩 30 秒", id: "speech.warn", unsaid: "the suite's idle judge ends every speech with the pedal"},
	{manual: "X 號玩傢發言結束", id: "speech.end"},
	{manual: "退水玩傢請退水", id: "withdraw.ask"},
	{manual: "仍在警上玩傢有：X 號玩傢 X 號玩傢", id: "withdraw.remaining"},
	{manual: "請所有警下玩傢戴盔開始警長投票， 3~2~1", id: "vote.sheriff"},
	{manual: "1 號投票給 X 號", id: "tally.vote", args: []int{1, 3}, fixed: 1},
	{manual: "X 號玩傢當選警長", id: "election.elected"},
	{manual: "X 號、X 號平票 PK，先發言的後發言", id: "election.pk"},
	{manual: "請 X 號玩傢開始發言", id: "speech.pk.first"},
	{manual: "除瞭 PK 臺上其他玩傢戴盔投票，3~2~1", id: "vote.sheriff-pk"},
	{manual: "本局遊戲沒有警長", id: "election.none"},
	{manual: "昨夜 X 號玩傢死亡", id: "day.deaths"},
	{manual: "死亡順序不分先後", id: "day.deaths.order"},
	{manual: "沒有遺言", id: "day.nowords"},
	{manual: "X 號玩傢是否發動技能", id: "skill.ask"},
	{manual: "5~4~3~2~1", id: "count.54321", unsaid: "the suite's idle judge ends every skill window with the pedal"},
	{manual: "3~2~1", id: "count.321"},
	{manual: "請選擇目標", id: "skill.target"},
	{manual: "X 號玩傢出局，請留遺言", id: "lastwords.start"},
	{manual: "昨夜為平安夜", id: "day.peaceful"},
	{manual: "請警長選擇歸票", id: "guide.ask"},
	{manual: "警長歸票 X 號玩傢", id: "guide.one"},
	{manual: "警長不歸票", id: "guide.none"},
	{manual: "警長歸 XX 號 PK", id: "guide.pk"},
	{manual: "所有玩傢戴盔投票，3~2~1", id: "vote.exile"},
	{manual: "X 號、X 號平票 PK", id: "exile.pk"},
	{manual: "除瞭 PK 臺上其他玩傢戴盔投票，3~2~1", id: "vote.exile-pk"},
	{manual: "X 號玩傢出局，是否選擇發動技能", id: "exile.skill"},
	{manual: "X 號玩傢請留遺言", id: "lastwords.exile"},
	{manual: "X 號玩傢請滅燈離場", id: "day.leave"},
	{manual: "所有玩傢戴盔，天黑請閉眼", id: "day.nightfall"},
	{manual: "遊戲結束，好人勝利", id: "game.over.good"},
	{manual: "遊戲結束，狼人勝利", id: "game.over.wolves"},
}

// The night's 語術 of each board: seed 000 三, each board's （一）3、夜間行動環節
// (night 1) and （三）1、夜間行動環節 (later nights).
func guardLines() []manualLine {
	return []manualLine{
		{manual: "守衛請睜眼，請選擇你要守護的玩傢", id: "night.guard.open"},
		{manual: "確認是他嗎？", id: "night.confirm"},
		{manual: "守衛請閉眼", id: "night.guard.close"},
	}
}

func wolvesLines(mark manualLine, ask string) []manualLine {
	l := []manualLine{{manual: "狼人請睜眼", id: "night.wolves.open"}}
	if mark.id != "" {
		mark.night = 1
		l = append(l, mark)
	}
	return append(l,
		manualLine{manual: "狼人請確認同伴並商量戰術，狼人請選擇今晚要擊殺的目標", id: ask},
		manualLine{manual: "狼人請迅猛", id: "night.wolves.hurry"},
		manualLine{manual: "確認是他嗎？", id: "night.confirm"},
		manualLine{manual: "狼人請閉眼", id: "night.wolves.close"},
	)
}

func witchLines() []manualLine {
	return []manualLine{
		{manual: "女巫請睜眼", id: "night.witch.open"},
		{manual: "昨晚倒牌玩傢為", id: "night.witch.victim"},
		{manual: "是否使用解藥，是否使用毒藥", id: "night.witch.ask"},
		{manual: "女巫請迅猛", id: "night.witch.hurry"},
		{manual: "確認是他嗎？", id: "night.confirm"},
		{manual: "女巫請閉眼", id: "night.witch.close"},
	}
}

// witchGestureLines: 噩夢之影, 永序之輪, 純白夜影, 石像鬼守墓人.
func witchGestureLines() []manualLine {
	return []manualLine{
		{manual: "女巫請睜眼", id: "night.witch.open"},
		{manual: "昨晚倒牌玩傢為", id: "night.witch.victim"},
		{manual: "解藥手勢，毒藥號碼", id: "night.witch.ask.gestures"},
		{manual: "女巫請迅猛", id: "night.witch.hurry"},
		{manual: "女巫確認請閉眼", id: "night.witch.close.confirm"},
	}
}

func seerLines() []manualLine {
	return []manualLine{
		{manual: "預言傢請睜眼，請選擇你要查驗的目標", id: "night.seer.open"},
		{manual: "確認是他嗎？", id: "night.confirm"},
		{manual: "他的身份為", id: "night.seer.result"},
		{manual: "預言傢請閉眼", id: "night.seer.close"},
	}
}

func hunterLines(status manualLine) []manualLine {
	l := []manualLine{{manual: "獵人請睜眼", id: "night.hunter.open"}}
	if status.id != "" {
		l = append(l, status)
	}
	return append(l, manualLine{manual: "獵人請閉眼", id: "night.hunter.close"})
}

func openClose(name, kind string, night int) []manualLine {
	return []manualLine{
		{manual: name + "請睜眼", id: "night." + kind + ".open", night: night},
		{manual: name + "請閉眼", id: "night." + kind + ".close", night: night},
	}
}

// baichiLines: the 白痴 step of the seed-003/001 boards (idiot.name baichi,
// set by both presets): seed 004 calls the card 白痴.
func baichiLines() []manualLine {
	return []manualLine{
		{manual: "白痴請睜眼", id: "night.idiot.open.baichi"},
		{manual: "白痴請閉眼", id: "night.idiot.close.baichi"},
	}
}

// cupidLines: seed 003's 法官台詞 "丘比特请睁眼，丘比特请向法官出示两个数字这两个数字玩家將成为本局的情侣…丘比特请闭眼…
// 情侣请睁眼，情侣请互相认识…情侣请闭眼" (night 1 only).
func cupidLines() []manualLine {
	return []manualLine{
		{manual: "丘比特請睜眼，丘比特請向法官出示兩個數字，這兩個數字玩家將成為本局的情侶", id: "night.cupid.open", night: 1},
		{manual: "確認是他嗎？", id: "night.confirm", night: 1},
		{manual: "丘比特請閉眼", id: "night.cupid.close", night: 1},
		{manual: "情侶請睜眼，情侶請互相認識", id: "night.lovers.open", night: 1},
		{manual: "情侶請閉眼", id: "night.lovers.close", night: 1},
	}
}

// thiefLines: seed 004 2、"法官宣布“盗贼请睁眼”…盗贼确认自己身份牌。随后法官宣布“盗贼请闭眼”"
// (night 1 only).
func thiefLines() []manualLine {
	return []manualLine{
		{manual: "盜賊請睜眼", id: "night.thief.open", night: 1},
		{manual: "盜賊請閉眼", id: "night.thief.close", night: 1},
	}
}

func join(parts ...[]manualLine) []manualLine {
	var out []manualLine
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var (
	plainAsk    = "night.wolves.ask"
	hunterState = manualLine{manual: "你的開槍狀態為", id: "night.hunter.status"}
	confirm     = manualLine{manual: "確認是他嗎？", id: "night.confirm"}
)

func manualNights() map[string][]manualLine {
	return map[string][]manualLine{
		// 三（一）預女獵愚: night 1's witch asks "女巫請確認？"; later nights "確認是他嗎？"
		"seer-witch-hunter-idiot": join(wolvesLines(manualLine{}, plainAsk), []manualLine{
			{manual: "女巫請睜眼", id: "night.witch.open"},
			{manual: "昨晚倒牌玩傢為", id: "night.witch.victim"},
			{manual: "是否使用解藥，是否使用毒藥", id: "night.witch.ask"},
			{manual: "女巫請迅猛", id: "night.witch.hurry"},
			{manual: "女巫請確認？", id: "night.witch.confirm.ask", night: 1},
			{manual: "女巫請閉眼", id: "night.witch.close"},
		}, seerLines(), hunterLines(hunterState), openClose("愚者", "idiot", 0)),
		// 三（二）狼王守衛: night 1 "狼王請舉手示意，請確認同伴並商量戰術" (no 狼人)
		"wolfking-guard": join(guardLines(), []manualLine{
			{manual: "狼人請睜眼", id: "night.wolves.open"},
			{manual: "狼王請舉手示意", id: "night.mark.wolfking", night: 1},
			{manual: "請確認同伴並商量戰術，狼人請選擇今晚要擊殺的目標", id: "night.wolves.ask.marked", night: 1},
			{manual: "狼人請確認同伴並商量戰術，狼人請選擇今晚要擊殺的目標", id: plainAsk, night: 2},
			{manual: "狼人請迅猛", id: "night.wolves.hurry"},
			confirm,
			{manual: "狼人請閉眼", id: "night.wolves.close"},
		}, witchLines(), seerLines(), hunterLines(hunterState)),
		// 三（三）狼美騎士
		"wolfbeauty-knight": join(guardLines(), wolvesLines(manualLine{manual: "狼美人請舉手示意", id: "night.mark.wolfbeauty"}, plainAsk), []manualLine{
			{manual: "狼美人請睜眼，請選擇你要魅惑的目標", id: "night.wolfbeauty.open"},
			{manual: "確認是他嗎", id: "night.confirm"},
			{manual: "狼美人請閉眼", id: "night.wolfbeauty.close"},
		}, witchLines(), seerLines(), openClose("騎士", "knight", 0)),
		// 三（四）狼王攝夢人
		"wolfking-dreamweaver": join([]manualLine{
			{manual: "攝夢人請睜眼，請選擇你要攝夢的玩傢", id: "night.dreamweaver.open"},
			confirm,
			{manual: "攝夢人請閉眼", id: "night.dreamweaver.close"},
		}, wolvesLines(manualLine{manual: "狼王請舉手示意", id: "night.mark.wolfking"}, plainAsk), witchLines(), seerLines(), hunterLines(hunterState),
			// （四）3、6）: later days, "X 號玩傢出局，請留遺言 … 是否選擇發動技能"
			[]manualLine{{manual: "是否選擇發動技能", id: "exile.skill.after"}}),
		// 三（五）白狼王守衛
		"whitewolfking-guard": join(guardLines(), wolvesLines(manualLine{manual: "白狼王請舉手示意", id: "night.mark.whitewolfking"}, plainAsk),
			witchLines(), seerLines(), hunterLines(hunterState), []manualLine{
				{manual: "白狼王請睜眼", id: "night.whitewolfking.open"},
				{manual: "你的技能發動狀態為", id: "night.whitewolfking.status"},
				{manual: "白狼王請閉眼", id: "night.whitewolfking.close"},
			}),
		// rules-more.md E1 黑市商人 (seed 003 has no 語術: the project's lines for
		// 黑市商人, 村長 and 幸運兒, the manual's for the rest)
		"black-market-003": join([]manualLine{
			{manual: "黑市商人請睜眼", id: "night.merchant.open", night: 1},
			{manual: "請選擇幸運兒和要交易的技能", id: "night.merchant.ask", night: 1},
			{manual: "黑市商人請迅猛", id: "night.merchant.hurry", night: 1},
			{manual: "確認是他嗎？", id: "night.confirm", night: 1},
			{manual: "黑市商人請閉眼", id: "night.merchant.close", night: 1},
		}, guardLines(), []manualLine{
			{manual: "村長請睜眼，村長請看向法官", id: "night.chief.open"},
			{manual: "村長請閉眼", id: "night.chief.close"},
		}, wolvesLines(manualLine{manual: "白狼王請舉手示意", id: "night.mark.whitewolfking"}, plainAsk),
			witchLines(), seerLines(), openClose("幸運兒", "lucky", 0)),
		// the seed-001 boards (preset seed001: lines.wording seed001) speak
		// [001]'s 主持 script: their table is manual001_test.go's
		// 白狼王騎士 (rules.md C: the lines of 狼美騎士 and 白狼王守衛)
		"whitewolfking-knight": join(guardLines(), wolvesLines(manualLine{manual: "白狼王請舉手示意", id: "night.mark.whitewolfking"}, plainAsk),
			witchLines(), seerLines(), openClose("騎士", "knight", 0)),
		// 三（六）惡靈騎士
		"evilknight": join(guardLines(), wolvesLines(manualLine{manual: "惡靈騎士請舉手示意", id: "night.mark.evilknight"}, plainAsk),
			witchLines(), seerLines(), hunterLines(hunterState)),
		// 三（七）血月獵魔人: 獵魔人 opens and closes on night 1, hunts later
		"bloodmoon-demonhunter": join(wolvesLines(manualLine{manual: "血月使徒請舉手示意", id: "night.mark.bloodmoon"}, plainAsk),
			witchLines(), seerLines(), []manualLine{
				{manual: "獵魔人請睜眼", id: "night.demonhunter.wake", night: 1},
				{manual: "獵魔人請睜眼", id: "night.demonhunter.open", night: 2},
				{manual: "請選擇你要獵殺的目標", id: "night.demonhunter.ask", night: 2},
				{manual: "確認是他嗎？", id: "night.confirm", night: 2},
				{manual: "獵魔人請閉眼", id: "night.demonhunter.close"},
			}, openClose("愚者", "idiot", 0)),
		// 三（八）噩夢之影: 攝夢人 "夢遊的玩傢"; 獵人 opens and closes only
		"nightmare": join([]manualLine{
			{manual: "噩夢之影請睜眼，請選擇你要恐懼的目標", id: "night.nightmare.open"},
			{manual: "確認是他嗎", id: "night.confirm"},
			{manual: "噩夢之影請閉眼", id: "night.nightmare.close"},
			{manual: "攝夢人請睜眼，請選擇你要夢遊的玩傢", id: "night.dreamweaver.open.sleepwalk"},
			{manual: "攝夢人請閉眼", id: "night.dreamweaver.close"},
		}, wolvesLines(manualLine{}, plainAsk), witchGestureLines(), seerLines(), hunterLines(manualLine{})),
		// 三（九）永序之輪: 狼妃, 王子; by day （二）4、6） the prince's window
		"eternal-wheel": join([]manualLine{
			{manual: "X 號玩傢出局，王子是否選擇發動技能", id: "prince.ask"},
			{manual: "X 號玩傢翻牌為定序王子", id: "prince.reveal"},
		}, guardLines(), []manualLine{
			{manual: "狼妃請睜眼，請選擇你要封鎖的目標", id: "night.eclipsequeen.open"},
			{manual: "確認是他嗎", id: "night.confirm"},
			{manual: "狼妃請閉眼", id: "night.eclipsequeen.close"},
		}, wolvesLines(manualLine{manual: "狼妃請舉手示意", id: "night.mark.eclipsequeen"}, plainAsk),
			witchGestureLines(), seerLines(), openClose("王子", "prince", 1)),
		// 三（十）純白夜影: 獵人 "您的開槍狀態是" on night 1, "…為" later
		"pure-white": join(guardLines(), wolvesLines(manualLine{manual: "狼巫請舉手示意", id: "night.mark.wolfwitch"}, plainAsk),
			witchGestureLines(), hunterLines(manualLine{}), []manualLine{
				{manual: "您的開槍狀態是", id: "night.hunter.status.is", night: 1},
				{manual: "您的開槍狀態為", id: "night.hunter.status.formal", night: 2},
				{manual: "純白之女請睜眼，請選擇你要查驗的目標", id: "night.purewhite.open"},
				{manual: "他的身份為", id: "night.seer.result"},
				{manual: "純白之女請閉眼", id: "night.purewhite.close"},
				{manual: "狼巫請睜眼，狼巫請選擇今晚要查驗的目標", id: "night.wolfwitch.open"},
				{manual: "狼巫請閉眼", id: "night.wolfwitch.close"},
			}),
		// 三（十一）石像鬼守墓人 (守墓人 has no 語術: its lines say so in the catalogue)
		"gargoyle-gravekeeper": join([]manualLine{
			{manual: "石像鬼請睜眼", id: "night.gargoyle.wake", night: 1},
			{manual: "石像鬼請睜眼，請選擇你要查驗的目標", id: "night.gargoyle.open"},
			{manual: "確認是他嗎？", id: "night.confirm"},
			{manual: "他的身份為", id: "night.seer.result"},
			{manual: "石像鬼請閉眼", id: "night.gargoyle.close"},
			{manual: "石像鬼請睜眼", id: "night.gargoylekill.open", night: 2},
			{manual: "您今晚的帶刀狀態是", id: "night.gargoylekill.status", night: 2},
			{manual: "確認是他嗎？請選擇今晚要擊殺的目標", id: "night.gargoylekill.ask", night: 2},
			{manual: "石像鬼請閉眼", id: "night.gargoylekill.close", night: 2},
		}, wolvesLines(manualLine{}, plainAsk), witchGestureLines(), seerLines(),
			hunterLines(manualLine{manual: "您的開槍狀態為", id: "night.hunter.status.formal"})),

		// rules-more.md E1/E2, boards of known roles: the seeds give no 語術 of
		// their own, so each speaks seed 000's lines for its steps.
		"swhi-003": join(wolvesLines(manualLine{}, plainAsk), witchLines(), seerLines(), hunterLines(hunterState), baichiLines()),
		"guard-whitewolfking-003": join(guardLines(), wolvesLines(manualLine{manual: "白狼王請舉手示意", id: "night.mark.whitewolfking"}, plainAsk),
			witchLines(), seerLines(), hunterLines(hunterState)),
		"whitewolf-003": join(guardLines(), wolvesLines(manualLine{manual: "白狼王請舉手示意", id: "night.mark.whitewolfking"}, plainAsk),
			witchLines(), seerLines(), hunterLines(hunterState)),
		"wolfbeauty-003": join(guardLines(), wolvesLines(manualLine{manual: "狼美人請舉手示意", id: "night.mark.wolfbeauty"}, plainAsk), []manualLine{
			{manual: "狼美人請睜眼，請選擇你要魅惑的目標", id: "night.wolfbeauty.open"},
			{manual: "確認是他嗎", id: "night.confirm"},
			{manual: "狼美人請閉眼", id: "night.wolfbeauty.close"},
		}, witchLines(), seerLines(), baichiLines()),
		"knight-003": join(guardLines(), wolvesLines(manualLine{manual: "白狼王請舉手示意", id: "night.mark.whitewolfking"}, plainAsk),
			witchLines(), seerLines(), openClose("騎士", "knight", 0)),
		// seed 003 boards (rules-more.md E1): the shared roles speak seed 000's
		// 語術; 惡魔, 狐狸 and 賭徒 have none (their catalogue lines say so)
		"demon-003": join(guardLines(), wolvesLines(manualLine{}, plainAsk), witchLines(), seerLines(), hunterLines(hunterState)),
		"fox-003":   join(guardLines(), wolvesLines(manualLine{}, plainAsk), witchLines(), hunterLines(hunterState)),
		"gambler-003": join(guardLines(), wolvesLines(manualLine{manual: "白狼王請舉手示意", id: "night.mark.whitewolfking"}, plainAsk),
			witchLines(), seerLines()),
		// the thief boards (rules-more.md E1, E2): seed 004's 盜賊 and 白痴 lines,
		// seed 003's 丘比特 and 情侶, seed 000's 語術 for the shared roles (魅魔 has
		// none: her lines and her raised hand are the project's)
		"thief-cupid-a-003": join(thiefLines(), cupidLines(), guardLines(), wolvesLines(manualLine{}, plainAsk), witchLines(), seerLines(),
			hunterLines(hunterState)),
		"thief-cupid-b-003": join(thiefLines(), cupidLines(), wolvesLines(manualLine{}, plainAsk), witchLines(), seerLines(),
			hunterLines(hunterState), baichiLines()),
		"thief-succubus-003": join(thiefLines(), guardLines(), wolvesLines(manualLine{}, plainAsk), witchLines(), seerLines(),
			hunterLines(hunterState)),
	}
}

// normalize reads the manual the way the table speaks it: Traditional
// characters (玩傢 → 玩家, 瞭 → 了, 臺 → 台), seats for X (XX: a list), no
// spaces and no punctuation (a pause is not a word).
func normalize(s string, args []int) string {
	s = strings.NewReplacer("傢", "家", "瞭", "了", "臺", "台", " ", "").Replace(s)
	if i := strings.Index(s, "XX號"); i >= 0 {
		var seats []string
		for _, a := range args {
			seats = append(seats, script.Seat(a))
		}
		s = s[:i] + strings.Join(seats, "、") + s[i+len("XX號"):]
	}
	for _, a := range args {
		s = strings.Replace(s, "X號", script.Seat(a), 1)
	}
	return unpunct(s)
}

func unpunct(s string) string {
	return strings.NewReplacer("，", "", "？", "", "。", "", "、", "", "；", "", "：", "").Replace(s)
}

// seats: the arguments the line is rendered with.
func (m manualLine) seats() []int {
	if m.args != nil {
		return m.args
	}
	s := strings.ReplaceAll(m.manual, " ", "")
	if strings.Contains(s, "XX號") {
		return []int{3, 9}
	}
	return []int{3, 9}[:strings.Count(s, "X號")]
}

// TestManualLines reads the catalogue against seed 000's 語術, board by
// board: every manual sentence of the table is the text of its line, the
// table says it on that board (in the rules suite's games), and every line
// the table says on a board is one of the manual's sentences for that
// board — or a line whose catalogue source says the manual has none.
func TestManualLines(t *testing.T) {
	cat := script.New()
	check := func(where string, m manualLine) {
		_, ok := cat.Lookup(m.id)
		if !ok {
			t.Errorf("%s: %q → %s: no such line", where, m.manual, m.id)
			return
		}
		args := m.seats()
		got, err := cat.Render(m.id, args)
		if err != nil {
			t.Errorf("%s: %s: %v", where, m.id, err)
			return
		}
		if unpunct(got) != normalize(m.manual, args[m.fixed:]) {
			t.Errorf("%s: the manual says %q, line %s says %q", where, m.manual, m.id, got)
		}
	}
	for _, m := range manualDay {
		check("day", m)
	}
	nights := manualNights()
	all, err := boards.All()
	if err != nil {
		t.Fatal(err)
	}
	// every seed-000 board has a table; a rules-more.md board may have one
	known := map[string]bool{}
	for _, b := range all {
		known[b.ID] = true
		if _, ok := nights[b.ID]; !ok && !isPartE(b.ID) {
			t.Errorf("seed-000 board %s has no table", b.ID)
		}
	}
	for id := range nights {
		if !known[id] {
			t.Errorf("a table for %s, which is not a board", id)
		}
	}
	said := suiteLines(t)
	dayIDs := map[string]bool{}
	for _, m := range manualDay {
		dayIDs[m.id] = true
	}
	for _, b := range all {
		rows, ok := nights[b.ID]
		if !ok && isPartE(b.ID) {
			continue // rules-more.md E boards: no seed-000 manual (their lines cite seeds 003/004)
		}
		if !ok {
			t.Errorf("board %s has no table of the manual's lines", b.ID)
			continue
		}
		ids := map[string]bool{}
		for _, m := range rows {
			check(b.ID, m)
			ids[m.id] = true
			if n := said[b.ID][m.id]; n&phaseBit(m.night) == 0 {
				t.Errorf("%s: %s (%q) is never said on %s in the rules suite", b.ID, m.id, m.manual, nightName(m.night))
			}
		}
		for id := range said[b.ID] {
			l, _ := cat.Lookup(id)
			if ids[id] || dayIDs[id] || l.Cue {
				continue
			}
			if strings.HasPrefix(l.Source, "seed 000") {
				t.Errorf("%s: line %s (%q, source %q) is said but is none of the board's 語術 in this table", b.ID, id, l.Text, l.Source)
			}
		}
	}
	checkSeed001Lines(t, cat, all, said)
	for _, m := range manualDay {
		found := false
		for _, s := range said {
			found = found || s[m.id] != 0
		}
		if !found && m.unsaid == "" {
			t.Errorf("day line %s (%q) is never said in the rules suite", m.id, m.manual)
		}
		if found && m.unsaid != "" {
			t.Errorf("day line %s is said in the rules suite: drop its unsaid note", m.id)
		}
	}
}

// phase bits: said on night 1, on a later night, by day.
const (
	onNight1 = 1 << iota
	onLater
	byDay
)

func phaseBit(night int) int {
	switch night {
	case 1:
		return onNight1
	case 2:
		return onLater
	}
	return onNight1 | onLater | byDay
}

func nightName(night int) string {
	switch night {
	case 1:
		return "night 1"
	case 2:
		return "a later night"
	}
	return "any night or day"
}

// suiteLines plays the rules suite and returns, per board id, the lines said
// and when (phase bits).
func suiteLines(t *testing.T) map[string]map[string]int {
	out := map[string]map[string]int{}
	err := filepath.WalkDir("../scenarios", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".wolf") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := scenario.Parse(p, src)
		if err != nil {
			return nil // refused files are the suite's business
		}
		res := scenario.Run(f, getBoard)
		if res.Game == nil {
			return nil
		}
		id := res.Game.Board().ID
		if out[id] == nil {
			out[id] = map[string]int{}
		}
		phase := onNight1
		for _, e := range res.Events {
			switch e.Type {
			case "phase":
				switch {
				case strings.HasPrefix(e.Phase, "day-"):
					phase = byDay
				case e.Phase == "night-1":
					phase = onNight1
				default:
					n, _ := strconv.Atoi(strings.TrimPrefix(e.Phase, "night-"))
					if n > 1 {
						phase = onLater
					}
				}
			case "say":
				out[id][e.Line] |= phase
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// isPartE: a board of rules-more.md E0.4 (seeds 003 and 001, whose ids end
// in the seed, and the named-only seed-000 boards of E3), which the seed-000
// manual has no 語術 for.
func isPartE(id string) bool {
	switch id {
	case "wolfking-magician", "secret-admirer", "miracle-merchant", "misty-crow", "animal-dream":
		return true
	}
	return strings.HasSuffix(id, "-003") || strings.HasSuffix(id, "-001")
}
