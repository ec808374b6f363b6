package hanstest

import (
	"reflect"
	"testing"
)

// TestEnglish: sentences are found; names of things, codes, commands,
// flags and paths are not.
func TestEnglish(t *testing.T) {
	for in, want := range map[string][]string{
		"press the pedal to start":                         {"pedal", "press", "start", "the", "to"},
		"裁判 PIN：請執行 `sudo wolftable console pin`":          nil,
		"日誌：/tmp/x/2026.wtj（--voice on）":                   nil,
		"規則 speaking.clock_rule=minute_mod_n 板子 swh-9-001": nil,
		"指紋 5322 cffd，錯誤計數 CRC 0":                          nil,
		"deal: 1號獵人":                                       {"deal"},
		"voice: off":                                       {"off", "voice"},
	} {
		if got := English(in); !reflect.DeepEqual(got, want) {
			t.Errorf("English(%q) = %q, want %q", in, got, want)
		}
	}
	if got := English("OK CLR", "CLR"); got != nil {
		t.Errorf("allow: %q", got)
	}
}

// TestVisible: a page's text and shown attributes, not its scripts,
// styles or commands.
func TestVisible(t *testing.T) {
	got := Visible(`<html><head><style>.a{color:red}</style><script>var x = "hidden words"</script></head>` +
		`<body><p title="提示 tip">開新局 &amp; 發牌</p><code>sudo wolftable console pin</code><input placeholder="名稱"></body></html>`)
	if want := "提示 tip\n名稱\n開新局 & 發牌\n"; got != want {
		t.Errorf("Visible = %q, want %q", got, want)
	}
}

// TestTraditional: the Traditional-only characters of a text; none in
// Simplified, and none for a character both scripts write.
func TestTraditional(t *testing.T) {
	if got := Traditional("預言家發牌，預言家"); got != "預發" {
		t.Errorf("%q", got)
	}
	for _, s := range []string{"预言家发牌", "狼人 女巫 123", "干净"} {
		if got := Traditional(s); got != "" {
			t.Errorf("Traditional(%q) = %q", s, got)
		}
	}
}
