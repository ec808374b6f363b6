package scenario_test

import (
	"strings"
	"testing"

	"wolftable/engine"
	"wolftable/script"
)

// seed001Line is one sentence of seed 001's 法官主持发言流程与套路 (quoted as
// the seed prints it, Simplified; x and y stand for seats) and the catalogue
// line the seed-001 boards say for it (preset seed001: lines.wording seed001,
// rules-more.md I6). The table is read against the catalogue through
// toSimplified, so a reviewer reads one against the other.
type seed001Line struct {
	seed  string
	id    string
	night int    // 1 = night 1 only; 0 = any night or by day
	role  string // the role whose step says it ("" = every seed-001 board, by day)
	// note: where the table is not the seed's word for word (composed from
	// two of its sentences, or a line [001] does not have and the table keeps)
	note string
}

// manual001 is the seed-001 table: the 主持 script in order, then the lines
// seed 001 has no words for and the table keeps from seed 000.
var manual001 = []seed001Line{
	{seed: "天黑请闭眼，请大家确认好自己的身份后低头闭眼靠后坐", id: "game.start.seed001"},
	{seed: "盗贼请睁眼盗贼请选牌", id: "night.thief.open.seed001", night: 1, role: "thief"},
	{seed: "盗贼请闭眼", id: "night.thief.close", night: 1, role: "thief"},
	{seed: "丘比特请睁眼，丘比特请向法官出示两个数字这两个数字玩家将成为本局的情侣", id: "night.cupid.open", night: 1, role: "cupid"},
	{seed: "丘比特请闭眼", id: "night.cupid.close", night: 1, role: "cupid"},
	{seed: "请大家依然保持闭眼，并将自己的右手伸向前方，手掌心向上", id: "cupid.tap.ask", night: 1, role: "cupid"},
	{seed: "法官会轻轻触碰被连的两名玩家的手掌心", id: "cupid.tap.touch", night: 1, role: "cupid"},
	{seed: "被点中的两名玩家将成为本局游戏的情侣…好了请将你们的手伸回", id: "cupid.tap.done", night: 1, role: "cupid"},
	{seed: "情侣请睁眼，情侣请互相认识", id: "night.lovers.open.seed001", night: 1, role: "cupid"},
	{seed: "情侣请闭眼", id: "night.lovers.close", night: 1, role: "cupid"},
	{seed: "守卫请睁眼守卫请选择一名你要守护的玩家数字", id: "night.guard.open.seed001", role: "guard"},
	{seed: "守卫请闭眼", id: "night.guard.close", role: "guard"},
	{seed: "长老请睁眼，长老请看向法官", id: "night.elder.open", role: "elder"},
	{seed: "长老请闭眼", id: "night.elder.close", role: "elder"},
	{seed: "狼人请睁眼", id: "night.wolves.open", role: "werewolf"},
	{seed: "狼人请互相认识，狼人请统一意见出示一名今晚要击杀的玩家数字", id: "night.wolves.ask.seed001", role: "werewolf"},
	{seed: "狼人请闭眼", id: "night.wolves.close", role: "werewolf"},
	{seed: "女巫请睁眼", id: "night.witch.open", role: "witch"},
	{seed: "女巫，今夜死亡的是这个玩家数字", id: "night.witch.victim.seed001", role: "witch"},
	{seed: "如果你要使用解药请出示大拇指，如果你要使用毒药请直接出示你要毒的数字手势", id: "night.witch.ask.seed001", role: "witch"},
	{seed: "女巫请闭眼", id: "night.witch.close", role: "witch"},
	{seed: "预言家请睁眼，预言家请验人", id: "night.seer.open.seed001", role: "seer"},
	{seed: "大拇指向上表示好人，大拇指向下表示狼人，你要验的是", id: "night.seer.result.seed001", role: "seer"},
	{seed: "预言家请闭眼", id: "night.seer.close", role: "seer"},
	{seed: "猎人请睁眼", id: "night.hunter.open", role: "hunter"},
	{seed: "猎人，大拇指向上表示你的技能出局后可以正常发动", id: "night.hunter.status.seed001", role: "hunter"},
	{seed: "大拇指向下表示你的技能失效，你的技能是", id: "night.hunter.cannot.seed001", role: "hunter"},
	{seed: "猎人请闭眼", id: "night.hunter.close", role: "hunter"},
	{seed: "白痴请睁眼白痴请看向法官", id: "night.idiot.open.seed001", role: "idiot"},
	{seed: "白痴请闭眼", id: "night.idiot.close.baichi", role: "idiot"},
	{seed: "天亮了", id: "day.dawn.seed001"},
	{seed: "现在开始警长竞选竞选开始！", id: "election.open.seed001", note: "said only where someone runs"},
	// the votes: [001] opens each with 好， (a filler, not said: the default
	// voice cannot start a clip on its h within 50 ms); the sentences are
	// said as two or three lines (a clip lasts at most 10 s), each vote ending
	// on "允许弃票，跟票无效！三，二，一"
	{seed: "警上发言结束，仍然坚持竞选的玩家请将自己的数字放在胸前，警上退水的玩家无投票权", id: "vote.sheriff.seed001", note: "after 好，"},
	{seed: "其余未参与竞选的玩家在我倒数三秒后统一举票至头顶", id: "vote.sheriff.raise.seed001"},
	{seed: "允许弃票跟票无效！三，二一", id: "vote.count.seed001"},
	{seed: "所有玩家发言结束，现在进行放逐投票，我倒数三秒后所有玩家统一举票", id: "vote.exile.seed001", note: "after 好，"},
	{seed: "x号玩家和y号玩家此轮平票，进入PK台，现在进行PK发言", id: "exile.pk.seed001"},
	{seed: "x号玩家请发言", id: "speech.start"},
	{seed: "PK发言结束，现在开始投票，请PK台下的玩家在我倒数三秒后统一举票", id: "vote.exile-pk.seed001", note: "after 好，"},
	{seed: "PK发言结束，现在开始投票，依然只有未竞选者能投票", id: "vote.sheriff-pk.seed001",
		note: "after 好，: the PK vote's script with 警长 (4) 依然只有未竞选者能投票 for the election PK"},
}

// kept001 are lines of seed 000's 語術 the seed-001 boards still say where
// [001]'s script has none (rules-decisions.md, seed 001's wording): the
// hurry lines (the table's timing), speeches, tallies, deaths, skills.
func kept001(id string) bool {
	if strings.HasPrefix(id, "night.") && strings.HasSuffix(id, ".hurry") {
		return true
	}
	for _, m := range manualDay {
		if m.id == id {
			switch id {
			case "game.start", "day.dawn", "election.lights", "vote.sheriff", "vote.sheriff-pk", "vote.exile", "vote.exile-pk", "exile.pk":
				return false // [001] words these: the table above
			}
			return true
		}
	}
	return false
}

// t2s maps the Traditional characters of the seed-001 lines to the seed's
// Simplified ones (a character missing here makes its row fail).
var t2s = strings.NewReplacer(
	"確", "确", "認", "认", "後", "后", "頭", "头", "閉", "闭", "請", "请", "睜", "睁", "盜", "盗", "賊", "贼",
	"選", "选", "並", "并", "將", "将", "會", "会", "輕", "轻", "觸", "触", "連", "连", "兩", "两", "點", "点",
	"為", "为", "遊", "游", "戲", "戏", "侶", "侣", "們", "们", "識", "识", "衛", "卫", "擇", "择", "護", "护",
	"數", "数", "擊", "击", "統", "统", "見", "见", "殺", "杀", "這", "这", "個", "个", "藥", "药", "預", "预",
	"驗", "验", "獵", "猎", "發", "发", "動", "动", "長", "长", "競", "竞", "開", "开", "結", "结", "堅", "坚",
	"權", "权", "餘", "余", "參", "参", "與", "与", "舉", "举", "頂", "顶", "許", "许", "棄", "弃", "無", "无",
	"輪", "轮", "進", "进", "現", "现", "號", "号", "勢", "势", "臺", "台", "對", "对", "讓", "让",
)

// normalize001 reads a seed-001 sentence or a rendered line the same way:
// no punctuation, pauses or spaces; x and y are the seats 3 and 9; the
// countdown 三，二，一 is the table's 3~2~1.
func normalize001(s string) string {
	s = strings.NewReplacer("x号玩家和y号玩家", "3号、9号玩家", "x号", "3号", "y号", "9号", "3~2~1", "321").Replace(s)
	s = strings.NewReplacer("，", "", "、", "", "。", "", "！", "", "？", "", "…", "", "：", "", " ", "").Replace(s)
	return strings.NewReplacer("三二一", "321").Replace(s)
}

// checkSeed001Lines reads the catalogue against seed 001's 主持 script: every
// row's line renders the seed's sentence; on each seed-001 board (preset
// seed001) the rules suite says every row of the board's roles, and no line
// of seed 000's 語術 that [001] words otherwise.
func checkSeed001Lines(t *testing.T, cat *script.Catalogue, all []*engine.Board, said map[string]map[string]int) {
	t.Helper()
	ids := map[string]bool{}
	for _, m := range manual001 {
		ids[m.id] = true
		got, err := cat.Render(m.id, []int{3, 9})
		if err != nil {
			t.Errorf("seed 001: %q → %s: %v", m.seed, m.id, err)
			continue
		}
		if normalize001(t2s.Replace(got)) != normalize001(m.seed) {
			t.Errorf("seed 001 says %q, line %s says %q", m.seed, m.id, got)
		}
	}
	n := 0
	for _, b := range all {
		if b.Preset != "seed001" {
			continue
		}
		n++
		for _, m := range manual001 {
			if m.role != "" && !b.Has(engine.Role(m.role)) || m.id == "election.open.seed001" || strings.HasPrefix(m.id, "vote.") || m.id == "exile.pk.seed001" {
				continue // the votes and PKs: checked over every seed-001 board below
			}
			if said[b.ID][m.id]&phaseBit(m.night) == 0 {
				t.Errorf("%s: %s (%q) is never said on %s in the rules suite", b.ID, m.id, m.seed, nightName(m.night))
			}
		}
		for id := range said[b.ID] {
			l, _ := cat.Lookup(id)
			if !ids[id] && !kept001(id) && !l.Cue && strings.HasPrefix(l.Source, "seed 000") {
				t.Errorf("%s: line %s (%q) is seed 000's wording; seed 001's boards say [001]'s", b.ID, id, l.Text)
			}
		}
	}
	if n < 9 {
		t.Errorf("%d boards carry preset seed001, want the nine of seed 001", n)
	}
	for _, id := range []string{"election.open.seed001", "vote.sheriff.seed001", "vote.sheriff.raise.seed001", "vote.count.seed001",
		"vote.sheriff-pk.seed001", "vote.exile.seed001", "exile.pk.seed001", "vote.exile-pk.seed001"} {
		found := false
		for _, b := range all {
			found = found || (b.Preset == "seed001" && said[b.ID][id] != 0)
		}
		if !found {
			t.Errorf("%s is never said on a seed-001 board in the rules suite", id)
		}
	}
}
