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
		if got := recordText(&tt.r); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.r, got, tt.want)
		}
	}
}
