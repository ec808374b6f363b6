package engine

import (
	"fmt"
	"strings"
)

// Seed presets (rules-more.md E0.1 with H5, H6, H12, H23): a bundle of
// option values that switches a board to a casual seed's own framework
// rules. A board applies its preset on top of DefaultOptions; its own
// option lines come after and override it.

// PresetSetting is one option value of a preset.
type PresetSetting struct {
	Key, Value string
	// Seed is the seed sentence (or the audit decision) behind the value.
	Seed string
}

// PresetNames lists the presets a board may name.
func PresetNames() []string { return []string{"seed003", "seed001"} }

// PresetSettings returns the bundle of a preset, in the order rules-more.md
// lists it, or false for an unknown name. Every key is an option of this
// build; a key a later bundle adds before its option exists is reported by
// ApplyPreset as pending instead of failing.
func PresetSettings(name string) ([]PresetSetting, bool) {
	switch name {
	case "seed003":
		return []PresetSetting{
			{"sheriff.weight", "2", "[003] 警长…放逐投票时，1票算作2票"},
			{"sheriff.pk_weight", "1", "[003] 若出现平票PK，第二次投票是警长的票只算作1票"},
			{"sheriff.pk_voters", "never_ran", "H6: [003] 警下玩家再次举手投票"},
			{"explode.windows", "any_but_vote", "[003] 白天除公投阶段以外的任何时候"},
			{"explode.last_words", "off", "[003] …无遗言"},
			{"idiot.interject", "on", "[003] 且在任意玩家发言时可以插话"},
			{"idiot.name", "baichi", "[003] 预女猎白: the card is 白痴"},
			{"idiot.keeps_badge", "off", "E0.1 idiot.revealed_holds_badge = off"},
			{"speaking.clock_rule", "minute_mod_n", "H5: seed 000's general rule"},
			{"night_order.preset", "seed003", "E0.1, H11"},
			{"cupid.category", "by_ratio", "E0.1, H7, H8"},
			{"lovers.cupid_must_die", "off", "H23: [003] 好人阵营胜利条件：所有狼人死亡"},
			{"silence.turn", "gesture_window", "I3: [003] 17 被禁言玩家…不能发言(警长竞选环节除外)，仅能使用手势交流"},
			{"silence.blocks_last_words", "on", "I3: [003] 17 the election is the only exception: the last words are a gesture window too"},
		}, true
	case "seed001":
		return []PresetSetting{
			{"sheriff.weight", "2", "[001] 面杀的规则里警长就是2票 (a sheriff on the PK stage does not vote: A's rule already)"},
			{"sheriff.pk_voters", "never_ran", "H6: [001] 依然只有未竞选者能投票"},
			{"sheriff.double_explode", "off", "[001] 狼人在警长竞选时自爆则警徽流失"},
			{"explode.windows", "any_speech", "[001] 狼人可以在任何人发言时自爆"},
			{"explode.last_words", "on", "[001] 狼人自爆可以留遗言（又称为指刀）"},
			{"last_words.mode", "n1_all_n2_single", "[001] 第一天晚上的死者有遗言（无论死了几个）、第二晚只有单个玩家死亡有遗言"},
			{"speaking.order", "sheriff_side_alternating", "H12: [001] 第二天换手; 从最后一个死者的左边开始发言"},
			{"sheriff.speech_start", "lowest", "H12: [001] 从号码最大或最小的开始"},
			{"speaking.clock_rule", "minute_mod_n", "H5: seed 000's general rule"},
			{"idiot.interject", "off", "[001] 白痴依然可以按照正常轮次发言，不能插嘴"},
			{"idiot.name", "baichi", "[001] 12人预女猎白屠边局: the card is 白痴"},
			{"lovers.no_mutual_vote", "on", "E0.1"},
			{"lovers.grief_blocks_skill", "on", "E0.1"},
			{"hunter.shoot_causes", "any_but_poison_grief", "E0.1"},
			{"night.skip_dead_revealed_hunter", "on", "E0.1"},
			{"lines.wording", "seed001", "I6: [001] 请法官严格遵守上述主持的规范用语…必要环节不得跳过"},
		}, true
	}
	return nil, false
}

// ApplyPreset sets a preset's values on o. Keys this build does not know
// are skipped and returned as pending ("key=value"); a value a known key
// refuses is an error.
func (o *Options) ApplyPreset(name string) (pending []string, err error) {
	set, ok := PresetSettings(name)
	if !ok {
		return nil, fmt.Errorf("unknown preset %q (want %s)", name, strings.Join(PresetNames(), " or "))
	}
	known := optionTab
	for _, p := range set {
		if _, ok := known[p.Key]; !ok {
			pending = append(pending, p.Key+"="+p.Value)
			continue
		}
		if err := o.Set(p.Key, p.Value); err != nil {
			return pending, fmt.Errorf("preset %s: %w", name, err)
		}
	}
	return pending, nil
}
