package console

import (
	"testing"

	"wolftable/engine"
)

// TestDayRolesGodView: the judge's record (god view) names the butterfly's
// hug, the elder's choice, the stalker's 暗殺 and the silenced seat.
func TestDayRolesGodView(t *testing.T) {
	for _, tt := range []struct {
		r    engine.Record
		want string
	}{
		{engine.Record{Type: engine.RecAction, Kind: engine.ActionHug, By: 5, Target: 7, When: "night-1"}, "第1夜：5號 抱住 7號"},
		{engine.Record{Type: engine.RecAction, Kind: engine.ActionSilence, By: 5, Target: 6, When: "night-2"}, "第2夜：5號 禁言 6號"},
		{engine.Record{Type: engine.RecAction, Kind: engine.ActionAssassinate, By: 8, Target: 12, When: "night-3"}, "第3夜：8號 暗殺 12號"},
		{engine.Record{Type: engine.RecSilence, Day: 2, Seat: 6}, "第2天 禁言6號"},
		{engine.Record{Type: engine.RecDeath, Seat: 12, Cause: engine.CauseAssassinate, When: "night-3"}, "12號出局（暗殺，第3夜）"},
	} {
		if got := recordText(&tt.r, nil); got != tt.want {
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
		{engine.Record{Type: engine.RecReveal, Seat: 6, Role: engine.Idiot}, "6號翻牌：白痴", "6號翻牌：愚者"},
		{engine.Record{Type: engine.RecRole, Seat: 1, Role: engine.Idiot}, "1號身份改為：白痴", "1號身份改為：愚者"},
		{engine.Record{Type: engine.RecAction, Kind: engine.ActionThief, By: 1, Role: engine.Idiot, Result: "村民", When: "night-1"},
			"第1夜：1號拿底牌 白痴（埋牌 村民）", "第1夜：1號拿底牌 愚者（埋牌 村民）"},
		{engine.Record{Type: engine.RecAction, Kind: engine.ActionThief, By: 1, Role: engine.Villager, Result: "愚者", When: "night-1"},
			"第1夜：1號拿底牌 村民（埋牌 白痴）", "第1夜：1號拿底牌 村民（埋牌 愚者）"},
	} {
		if got := recordText(&tt.r, &baichi); got != tt.want {
			t.Errorf("baichi %+v: %q, want %q", tt.r, got, tt.want)
		}
		if got := recordText(&tt.r, nil); got != tt.want0 {
			t.Errorf("yuzhe %+v: %q, want %q", tt.r, got, tt.want0)
		}
	}
}
