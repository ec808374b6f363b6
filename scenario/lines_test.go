package scenario_test

import (
	"strings"
	"testing"

	"wolftable/scenario"
)

// A 預女獵愚 night 1 where the wolves knife 9 and the witch does nothing; the
// game stops at daybreak.
const linesGame = "board 預女獵愚\nroles 狼人 狼人 預言家 女巫 獵人 愚者 狼人 狼人 村民 村民 村民 村民\n" +
	"第1夜\n狼人 9\n預言家 1\n"

// TestExpectLines: expect lines holds when the judge's transcript (lines
// said and cues) has the texts in that order, and fails naming the first
// text missing; expect no-line fails on a line that contains its text.
func TestExpectLines(t *testing.T) {
	for _, tt := range []struct {
		expect string
		fail   string // "" = holds
	}{
		{"expect lines 狼人請睜眼 狼人請閉眼 女巫請睜眼", ""},
		{"expect lines 女巫4號：昨晚倒牌9號 預言家3號查驗1號：狼人", ""}, // cues count
		{"expect lines 天黑請閉眼", ""},
		{"expect lines 女巫請睜眼 狼人請睜眼", `no line contains "狼人請睜眼" after "女巫請睜眼"`},
		{"expect lines 所有玩家戴盔投票", `no line contains "所有玩家戴盔投票"`},
		{"expect no-line 平安夜", ""},
		{"expect no-line 昨晚倒牌", `"昨晚倒牌玩家為" was said at 01:30`},
		{"expect no-line 查驗1號", `"預言家3號查驗1號：狼人（比狼爪）" was cued at`},
	} {
		f, err := scenario.Parse("t.wolf", []byte(linesGame+tt.expect+"\n"))
		if err != nil {
			t.Fatalf("%s: %v", tt.expect, err)
		}
		res := scenario.Run(f, getBoard)
		if res.Err != nil {
			t.Fatalf("%s: %v", tt.expect, res.Err)
		}
		switch {
		case tt.fail == "" && len(res.Failures) != 0:
			t.Errorf("%s: failed: %v", tt.expect, res.Failures)
		case tt.fail != "" && (len(res.Failures) != 1 || !strings.Contains(res.Failures[0].Msg, tt.fail)):
			t.Errorf("%s: failures %v, want one with %q", tt.expect, res.Failures, tt.fail)
		case tt.fail != "" && res.ExitStatus() != 1:
			t.Errorf("%s: exit %d, want 1", tt.expect, res.ExitStatus())
		}
	}
	for _, bad := range []string{"expect lines", "expect no-line", "expect no-line 甲 乙"} {
		_, err := scenario.Parse("t.wolf", []byte(linesGame+bad+"\n"))
		if pe, ok := err.(*scenario.ParseError); !ok || pe.Line != 6 {
			t.Errorf("%s: got %v, want a parse error at line 6", bad, err)
		}
	}
}
