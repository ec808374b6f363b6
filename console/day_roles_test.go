package console

import (
	"testing"
	"time"

	"wolftable/engine"
)

// recordLines renders records as the judge's record list does (the
// model's recordTexts): o names the cards (nil: the defaults), deal the
// seats' cards (nil: seats only).
func recordLines(o *engine.Options, deal []engine.Role, rs ...engine.Record) []string {
	m := &judgeModel{}
	if o != nil || deal != nil {
		b := &engine.Board{}
		if o != nil {
			b.Options = *o
		} else {
			b.Options = engine.DefaultOptions()
		}
		m.spec = &GameSpec{Board: b, Deal: deal}
	}
	for i := range rs {
		m.record(time.Time{}, "", &rs[i])
	}
	return m.recordTexts()
}

// TestDayRolesGodView: the judge's record (god view) names the butterfly's
// hug, the elder's choice, the stalker's 暗殺 and the silenced seat, each
// with the actor's card.
func TestDayRolesGodView(t *testing.T) {
	deal := []engine.Role{engine.Werewolf, engine.Villager, engine.Witch, engine.Werewolf, engine.Butterfly, engine.Villager,
		engine.Villager, engine.Stalker, engine.SilenceElder, engine.Seer, engine.Werewolf, engine.Villager}
	for _, tt := range []struct {
		r    engine.Record
		want string
	}{
		{engine.Record{Type: engine.RecAction, Kind: string(engine.ActionHug), By: 5, Target: 7, When: "night-1"}, "花蝴蝶 5號 抱住 7號"},
		{engine.Record{Type: engine.RecAction, Kind: string(engine.ActionSilence), By: 9, Target: 6, When: "night-2"}, "禁言長老 9號 禁言 6號"},
		{engine.Record{Type: engine.RecAction, Kind: string(engine.ActionSilence), By: 9, Target: 0, When: "night-2"}, "禁言長老 9號 空禁"},
		{engine.Record{Type: engine.RecAction, Kind: string(engine.ActionAssassinate), By: 8, Target: 12, When: "night-3"}, "潛行者 8號 暗殺 12號"},
		{engine.Record{Type: engine.RecSilence, Day: 2, Seat: 6}, "禁言：6號（第2天）"},
		{engine.Record{Type: engine.RecDeath, Seat: 12, Cause: engine.CauseAssassinate, When: "night-3"}, "12號 出局：暗殺（第3夜）"},
	} {
		if got := recordLines(nil, deal, tt.r)[0]; got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.r, got, tt.want)
		}
	}
}

// TestRecordsNameTheCardAsTheBoard (rules-more.md I10): on a 白痴 board
// (idiot.name baichi) the judge's record says 白痴, not 愚者: the reveal, a
// seat's new card, the thief's kept and buried cards; seed 000's boards keep 愚者.
func TestRecordsNameTheCardAsTheBoard(t *testing.T) {
	baichi := engine.DefaultOptions()
	if err := baichi.Set("idiot.name", "baichi"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		r           engine.Record
		want, want0 string
	}{
		{engine.Record{Type: engine.RecReveal, Seat: 6, Role: engine.Idiot}, "6號 翻牌：白痴", "6號 翻牌：愚者"},
		{engine.Record{Type: engine.RecRole, Seat: 1, Role: engine.Idiot}, "1號 身份改為：白痴", "1號 身份改為：愚者"},
		{engine.Record{Type: engine.RecAction, Kind: string(engine.ActionThief), By: 1, Role: engine.Idiot, Result: "村民", When: "night-1"},
			"1號 拿底牌：白痴（埋牌：村民）", "1號 拿底牌：愚者（埋牌：村民）"},
		{engine.Record{Type: engine.RecAction, Kind: string(engine.ActionThief), By: 1, Role: engine.Villager, Result: "愚者", When: "night-1"},
			"1號 拿底牌：村民（埋牌：白痴）", "1號 拿底牌：村民（埋牌：愚者）"},
	} {
		if got := recordLines(&baichi, nil, tt.r)[0]; got != tt.want {
			t.Errorf("baichi %+v: %q, want %q", tt.r, got, tt.want)
		}
		if got := recordLines(nil, nil, tt.r)[0]; got != tt.want0 {
			t.Errorf("yuzhe %+v: %q, want %q", tt.r, got, tt.want0)
		}
	}
}
