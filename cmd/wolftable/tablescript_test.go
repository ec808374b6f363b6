package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"wolftable/hw/virtual"
	"wolftable/internal/hans"
	"wolftable/internal/hans/hanstest"
)

// blockedKeys is a keyboard nobody touches.
type blockedKeys struct{}

func (blockedKeys) Read([]byte) (int, error) { select {} }

// TestTableScript (issue 31 item 9): the terminal table of sim and serve
// (which draws on the terminal, not through stdout) is in the script of
// the command's output: Simplified under hans, as written under hant.
func TestTableScript(t *testing.T) {
	for _, sc := range []hans.Script{hans.Traditional, hans.Simplified} {
		t.Run(string(sc), func(t *testing.T) {
			t.Setenv(scriptEnv, string(sc))
			var screen bytes.Buffer
			inScript(nil, io.Discard, io.Discard, func(stdout, _ io.Writer) int {
				vt, err := virtual.New(blockedKeys{}, &screen, virtual.WithSeats(6), tableScript(stdout))
				if err != nil {
					t.Fatal(err)
				}
				vt.Show("預言家請睜眼")
				vt.Close()
				return 0
			})
			want := map[hans.Script]string{hans.Traditional: "虛擬桌子", hans.Simplified: "虚拟桌子"}[sc]
			if !strings.Contains(screen.String(), want) {
				t.Errorf("the table lacks %q:\n%s", want, screen.String())
			}
			if tr := hanstest.Traditional(screen.String()); sc == hans.Simplified && tr != "" {
				t.Errorf("Traditional characters %q in hans", tr)
			}
		})
	}
}
