package virtual

import (
	"strings"
	"testing"

	"wolftable/hw"
	"wolftable/internal/hans"
	"wolftable/internal/hans/hanstest"
)

// TestScript (issue 31 item 9): the interactive table draws in the
// venue's script (WithText): its frame, labels, key help, the judge's
// lines and the info lines in hans hold no Traditional character; in
// hant the words are as written.
func TestScript(t *testing.T) {
	for _, sc := range []hans.Script{hans.Traditional, hans.Simplified} {
		t.Run(string(sc), func(t *testing.T) {
			var scr screen
			tb, err := New(blockingReader{}, &scr, WithSeats(6), WithClock(fixedClock), WithText(sc.Text))
			if err != nil {
				t.Fatal(err)
			}
			tb.SetInfo("裁判 PIN：請執行 `sudo wolftable console pin`", "開新局：請開啟裁判主控台")
			tb.Show("天黑請閉眼。預言家請睜眼。")
			if err := tb.SetLights([]hw.SeatLight{{Color: hw.Green}, {Color: hw.Red, Pulse: true}, {}, {}, {}, {}}); err != nil {
				t.Fatal(err)
			}
			f := scr.frame()
			want := []string{"虛擬桌子", "燈號", "踏板雙擊", "預言家請睜眼", "開新局"}
			if sc == hans.Simplified {
				want = []string{"虚拟桌子", "灯号", "踏板双击", "预言家请睁眼", "开新局"}
			}
			for _, want := range want {
				if !strings.Contains(f, want) {
					t.Errorf("frame lacks %q:\n%s", want, f)
				}
			}
			if tr := hanstest.Traditional(scr.String()); sc == hans.Simplified && tr != "" {
				t.Errorf("Traditional characters %q in the hans frame:\n%s", tr, f)
			}
			tb.Close()
			for range tb.Events() {
			}
		})
	}
}
