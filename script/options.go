package script

import (
	"strconv"
	"strings"
)

// The words for the board options (engine.OptionNames(); keys and English
// docs in engine/options.go): the game record (復盤) and every screen a
// judge or organiser reads name an option and its value in Chinese, never
// as "key=value". options_test.go ranges over engine.OptionNames() and
// engine.OptionValues and fails on a key or a value without words.

// optionKind is how an option's value is worded.
type optionKind int

const (
	optEnum    optionKind = iota // a fixed set: values names each one
	optBool                      // on/off: yes and no
	optSeconds                   // a whole number of seconds
	optNights                    // a whole number of nights
	optPercent                   // a whole number, in %
	optVotes                     // the sheriff's vote: 1, 1.5 … 3 票 (same: as sheriff.weight)
)

type optionWord struct {
	name   string
	kind   optionKind
	values map[string]string // optEnum: the word of each value
	yes    string            // optBool: the word for on (是 when empty)
	no     string            // optBool: the word for off (否 when empty)
	zero   string            // a number option: the word for 0, when 0 means none
}

func enumWords(name string, values map[string]string) optionWord {
	return optionWord{name: name, kind: optEnum, values: values}
}

func boolWords(name string) optionWord { return optionWord{name: name, kind: optBool} }

var clockWords = map[string]string{
	"minute_mod_n":     "分鐘數除以人數取餘數",
	"minute_digit_sum": "分鐘各位數字相加",
}

// optionWords names each option key and its values.
var optionWords = map[string]optionWord{
	"bear.neighbours":              enumWords("熊的鄰座", map[string]string{"nearest_living": "兩側最近的存活玩家", "adjacent_seats": "相鄰兩座（死者不算狼）"}),
	"bear.roar_before_election":    boolWords("首日熊吼在天亮後、警長競選前"),
	"bear.sees_hidden_wolf":        boolWords("隱狼在熊旁亦令熊吼"),
	"bloodmoon.seal_after_explode": boolWords("血月使徒自爆後次夜好人技能失效"),
	"choice.seconds":               {name: "警長選擇時限", kind: optSeconds},
	"cupid.category":               enumWords("丘比特的屠邊類別", map[string]string{"neither": "不算神也不算民", "god": "神民", "by_ratio": "依板子的民狼比例"}),
	"cupid.may_skip":               enumWords("丘比特不連人", map[string]string{"on": "可以", "random_link": "改為與隨機一名玩家相連"}),
	"cupid.wolf_pair_side":         enumWords("雙狼情侶時丘比特的陣營", map[string]string{"wolves": "狼人陣營", "good": "好人陣營"}),
	"elder.antidote":               enumWords("解藥用於村長／長老", map[string]string{"wasted": "浪費（首次受擊仍失一命）", "restores": "回復一命", "no_effect": "不生效"}),
	"elder.category":               enumWords("村長／長老的屠邊類別", map[string]string{"card": "依身份牌（村長為民、長老為神）", "villager": "平民", "god": "神民"}),
	"elder.first_hit_witch_info":   enumWords("女巫得知村長／長老首次受擊", map[string]string{"shown": "告知", "hidden": "不告知"}),
	"exile.last_words_first":       boolWords("第二天起放逐者先發表遺言再問技能"),
	"explode.last_words":           boolWords("自爆狼人有遺言"),
	"explode.windows": enumWords("白天可自爆的時機", map[string]string{
		"part_a":       "警長競選發言、退水、放逐日發言",
		"any_but_vote": "投票以外皆可（含遺言、王子發言、警長選順序與歸票）",
		"any_speech":   "任何發言（含遺言、王子發言）",
	}),
	"explode.wolf_seconds":   {name: "自爆狼人指刀時限", kind: optSeconds},
	"fox.wrap":               boolWords("狐狸的三連座可跨首尾"),
	"halfblood.timeout":      enumWords("混血兒未選人時", map[string]string{"random": "隨機跟隨另一名玩家", "first_seat": "跟隨號碼最小的另一名玩家"}),
	"hiddenwolf.kills_alone": boolWords("其他狼人陣營出局後隱狼單獨刀人"),
	"hiddenwolf.may_explode": boolWords("隱狼可自爆"),
	"hunter.shoot_causes": enumWords("獵人可開槍的死因", map[string]string{
		"knife_exile":          "狼刀、放逐、槍殺",
		"any_but_poison_grief": "除毒殺、殉情、自爆、判負外皆可",
	}),
	"idiot.interject":   boolWords("翻牌白痴可插話十五秒"),
	"idiot.keeps_badge": boolWords("翻牌白痴保留警徽"),
	"idiot.name":        enumWords("白痴牌在語術中的名稱", map[string]string{"yuzhe": "愚者", "baichi": "白痴"}),
	"last_words.mode": enumWords("夜間死者的遺言", map[string]string{
		"n1":               "依遺言夜數",
		"n1_n2":            "首夜與第二夜",
		"n1_all_n2_single": "首夜皆有，第二夜僅單死",
	}),
	"last_words.nights":             {name: "有遺言的夜數", kind: optNights, zero: "無"},
	"lights.pk_voters_blue":         boolWords("平票對決投票者亮藍燈"),
	"lights.speaker_pulse":          boolWords("發言者燈號閃爍"),
	"lines.wording":                 enumWords("法官語術", map[string]string{"seed000": "執行手冊語術", "seed001": "種子 001 主持稿"}),
	"lovers.cupid_must_die":         boolWords("人狼戀時好人須一併清除丘比特"),
	"lovers.grief_blocks_skill":     boolWords("殉情者不能發動技能"),
	"lovers.mixed_pair_camp":        enumWords("人狼情侶的陣營", map[string]string{"third": "第三方", "wolf_team": "狼人陣營"}),
	"lovers.no_mutual_vote":         boolWords("情侶不能互投"),
	"lovers.wolves_must_kill_third": boolWords("屠邊時狼人亦須清除第三方"),
	"merchant.timing": enumWords("黑市商人交易時機", map[string]string{
		"n1_first":             "首夜最先（必須交易）",
		"any_night_after_seer": "任一夜、預言家之後（一次）",
	}),
	"night.min_percent":               {name: "擬真節奏下夜晚步驟的最短時長", kind: optPercent},
	"night.pace":                      enumWords("夜晚節奏", map[string]string{"fixed": "每步用滿時限", "plausible": "擬真時長"}),
	"night.skip_dead_revealed_hunter": boolWords("獵人出局並開槍後略去獵人步驟"),
	"night_order.preset":              enumWords("無夜晚順序時的預設順序", map[string]string{"seed004": "種子 004", "seed003": "種子 003"}),
	"rogue.delay":                     enumWords("老流氓受擊後的死亡時間", map[string]string{"next_day_speeches": "受擊次日發言後", "hit_day_speeches": "受擊當日發言後"}),
	"sheriff.double_explode":          boolWords("雙爆吞警徽"),
	"sheriff.enabled":                 boolWords("有警長"),
	"sheriff.explode_keeps_badge":     boolWords("自爆的警長仍可移交警徽"),
	"sheriff.pk_voters":               enumWords("競選平票對決的投票者", map[string]string{"not_on_stage": "對決臺下所有玩家", "never_ran": "僅未曾上警的玩家"}),
	"sheriff.pk_weight":               {name: "放逐平票對決中警長票數", kind: optVotes},
	"sheriff.speech_start": enumWords("競選發言起點", map[string]string{
		"clock":   "依時鐘規則",
		"lowest":  "號碼最小的候選人起，順序",
		"highest": "號碼最大的候選人起，逆序",
	}),
	"sheriff.weight":            {name: "警長票數", kind: optVotes},
	"signup.seconds":            {name: "夜間舉手時限", kind: optSeconds},
	"silence.announce_void":     boolWords("長老或被禁言者當夜死亡仍宣布禁言"),
	"silence.blocks_last_words": boolWords("被禁言者的遺言亦由法官宣布取代"),
	"silence.no_repeat":         boolWords("禁言長老不能連續兩夜禁言同一人"),
	"silence.turn":              enumWords("被禁言者的發言輪次", map[string]string{"skip_with_line": "法官宣布後跳過", "gesture_window": "法官宣布後十五秒手勢"}),
	"skill.seconds":             {name: "技能發動時限", kind: optSeconds},
	"speaking.clock_rule":       enumWords("發言起點的時鐘規則", clockWords),
	"speaking.exile_clock_rule": enumWords("無警長放逐日的時鐘規則", withWord(clockWords, "", "同發言起點的時鐘規則")),
	"speaking.order": enumWords("放逐日發言順序", map[string]string{
		"sheriff_choice":           "警長選順逆，無警長依時鐘",
		"sheriff_side_alternating": "警長首日選定，之後每日換邊",
		"left_of_last_dead":        "無警長時從最後死者的下一位起",
	}),
	"speech.last_words_seconds": {name: "遺言時長", kind: optSeconds},
	"speech.seconds":            {name: "發言時長", kind: optSeconds},
	"speech.sheriff_seconds":    {name: "警長放逐日發言時長", kind: optSeconds},
	"speech.warn_seconds":       {name: "發言結束前提醒", kind: optSeconds, zero: "不提醒"},
	"succubus.later_nights":     enumWords("魅魔首夜之後", map[string]string{"with_wolves": "與狼人同醒", "asleep": "不睜眼"}),
	"thief.extra_cards":         enumWords("盜賊的兩張底牌", map[string]string{"listed": "列於板子（人數加兩張）", "two_villagers": "另加兩張村民"}),
	"thief.two_wolf_bottom":     enumWords("底牌為兩張狼人陣營牌", map[string]string{"redeal": "重新發牌", "allow": "允許"}),
	"vote.seconds":              {name: "投票時限", kind: optSeconds},
	"wildchild.self_model":      boolWords("野孩子可選自己為榜樣"),
	"wildchild.trigger":         enumWords("野孩子變身的條件", map[string]string{"any_death": "榜樣任何死亡", "exile_only": "僅榜樣被放逐"}),
	"withdraw.seconds":          {name: "退水時限", kind: optSeconds},
	"witch.self_save":           enumWords("女巫自救", map[string]string{"never": "不能", "first_night": "僅首夜", "no_guard": "無守衛時可以"}),
}

// withWord is m with one more value.
func withWord(m map[string]string, value, word string) map[string]string {
	out := map[string]string{value: word}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// OptionText is a board option in words: 「女巫自救：僅首夜」. An unknown key
// reads 「未知選項」, an unknown value 「…：未知值」: never the raw English.
func OptionText(key, value string) string {
	w, ok := optionWords[key]
	if !ok {
		return "未知選項"
	}
	return w.name + "：" + w.value(value)
}

// value words one value of the option.
func (w optionWord) value(v string) string {
	switch w.kind {
	case optEnum:
		if s, ok := w.values[v]; ok {
			return s
		}
	case optBool:
		switch v {
		case "on", "true", "yes", "1":
			return or(w.yes, "是")
		case "off", "false", "no", "0":
			return or(w.no, "否")
		}
	case optVotes:
		if v == "same" {
			return "同警長票數"
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil && f > 0 && !strings.ContainsAny(v, "eEIiNn+x") {
			return strconv.FormatFloat(f, 'f', -1, 64) + " 票"
		}
	default:
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			break
		}
		if n == 0 && w.zero != "" {
			return w.zero
		}
		return strconv.Itoa(n) + map[optionKind]string{optSeconds: " 秒", optNights: " 夜", optPercent: "%"}[w.kind]
	}
	return "未知值"
}

func or(s, def string) string {
	if s != "" {
		return s
	}
	return def
}
