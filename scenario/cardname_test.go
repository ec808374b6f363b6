package scenario_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"wolftable/scenario"
)

// TestRevealNamesTheCardAsTheBoard (rules-more.md I10): on a 白痴 board the
// reveal of the idiot voted out is recorded as 白痴 — the transcript's
// 〔翻牌〕 and the JSON event — and on seed 000's boards as 愚者.
func TestRevealNamesTheCardAsTheBoard(t *testing.T) {
	for file, want := range map[string]string{
		"../scenarios/boards/derived-004-order.wolf":         "〔翻牌〕6號 白痴",
		"../scenarios/roles/idiot-first-exile-revealed.wolf": "〔翻牌〕10號 愚者",
	} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := scenario.Parse(file, src)
		if err != nil {
			t.Fatal(err)
		}
		res := scenario.Run(f, getBoard)
		var b bytes.Buffer
		if err := scenario.WriteTranscript(&b, res); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("%s: no %q in the transcript", file, want)
		}
		n := 0
		for _, e := range res.Events {
			if e.Type == "reveal" {
				n++
				if !strings.HasSuffix(want, e.Role) {
					t.Errorf("%s: reveal event role %q", file, e.Role)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d reveal events", file, n)
		}
	}
}
