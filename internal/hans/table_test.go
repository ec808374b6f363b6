package hans

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// TestKnownWords: the table writes the game's words as a mainland venue
// does.
func TestKnownWords(t *testing.T) {
	for from, want := range map[string]string{
		"發牌": "发牌", "狼人殺": "狼人杀", "預言家": "预言家", "裁判": "裁判", "女巫": "女巫",
		"開新局": "开新局", "開始遊戲": "开始游戏", "獵人": "猎人", "白癡": "白痴", "警長": "警长",
		"流局": "流局", "復盤": "复盘", "回覆": "回复", "3 號出局": "3 号出局", "hant/hans ok": "hant/hans ok",
	} {
		if got := String(from); got != want {
			t.Errorf("String(%q) = %q, want %q", from, got, want)
		}
	}
	if Traditional.Text("發牌") != "發牌" || Simplified.Text("發牌") != "发牌" {
		t.Error("Script.Text")
	}
}

// TestParseScript: the config's two names, and a clear refusal.
func TestParseScript(t *testing.T) {
	for in, want := range map[string]Script{"": Traditional, "hant": Traditional, "hans": Simplified} {
		if got, err := ParseScript(in); got != want || err != nil {
			t.Errorf("ParseScript(%q) = %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"HANS", "zh-CN", "simplified", " hans"} {
		if _, err := ParseScript(bad); err == nil || !strings.Contains(err.Error(), "简体") {
			t.Errorf("ParseScript(%q): %v", bad, err)
		}
	}
}

// TestParseTableErrors: each kind of bad line is refused with its line.
func TestParseTableErrors(t *testing.T) {
	for _, c := range []struct {
		in   string
		line int
	}{
		{"# ok\n發\n", 2},
		{"發\t发\n發\t发\n", 2},
		{"=發\n發\t发\n", 2},
		{"發\t发发\n", 1},
		{"發牌\t发牌\n發牌\t发牌\n", 2},
		{"\t发\n", 1},
		{"發 \t发\n", 1},
		{"# ok\n\xff\t发\n", 2},
	} {
		_, err := ParseTable([]byte(c.in))
		var te *TableError
		if !errors.As(err, &te) || te.Line != c.line {
			t.Errorf("ParseTable(%q) = %v, want an error at line %d", c.in, err, c.line)
		}
	}
}

// TestLongestPhraseFirst: a phrase wins over its characters, the longer
// phrase over the shorter.
func TestLongestPhraseFirst(t *testing.T) {
	tb, err := ParseTable([]byte("乾\t干\n乾隆\t乾隆\n乾隆帝\t乾隆皇\n隆\t隆\n"))
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{"乾": "干", "乾隆": "乾隆", "乾隆帝": "乾隆皇", "乾淨乾隆": "干淨乾隆", "乾隆帝乾": "乾隆皇干", "a乾": "a干"} {
		if got := tb.Convert(in); got != want {
			t.Errorf("Convert(%q) = %q, want %q", in, got, want)
		}
	}
}

// readerText is the text of every reader-facing file of the module.
func readerText(t *testing.T) map[string]string {
	t.Helper()
	root := filepath.Join("..", "..")
	files, err := SourceFiles(root)
	if err != nil || len(files) < 100 {
		t.Fatalf("SourceFiles: %d files, %v", len(files), err)
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	return out
}

// TestCoverage: every Han character of every reader-facing file is in
// the table, converted or known alike; a word added without `go generate
// ./internal/hans` fails here.
func TestCoverage(t *testing.T) {
	tb := Default()
	missing := map[rune]string{}
	for f, s := range readerText(t) {
		for _, r := range s {
			if _, ok := tb.Chars[r]; !ok && !tb.Same[r] && unicode.Is(unicode.Han, r) {
				missing[r] = f
			}
		}
	}
	for r, f := range missing {
		t.Errorf("%c (in %s) is not in tw2s.txt: run go generate ./internal/hans", r, f)
	}
}

// TestMatchesOpenCC: the table converts every reader-facing file as
// OpenCC's tw2s does (where the opencc command is installed: Debian's
// opencc; scripts/setup installs it).
func TestMatchesOpenCC(t *testing.T) {
	if _, err := exec.LookPath("opencc"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no opencc command: scripts/setup installs it (Debian's opencc)")
		}
		t.Skip("no opencc command")
	}
	const sep = "\n@@wolftable-hans-separator@@\n"
	files := readerText(t)
	var all bytes.Buffer
	var names []string
	for f, s := range files {
		if strings.Contains(s, "\x00") {
			continue
		}
		names = append(names, f)
		all.WriteString(s + sep)
	}
	cmd := exec.Command("opencc", "-c", "tw2s.json")
	cmd.Stdin = bytes.NewReader(all.Bytes())
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(string(out), sep)
	if len(want) != len(names)+1 {
		t.Fatalf("opencc: %d parts for %d files", len(want), len(names))
	}
	for i, f := range names {
		got := String(files[f])
		if got == want[i] {
			continue
		}
		g, w := []rune(got), []rune(want[i])
		k := 0
		for k < len(g) && k < len(w) && g[k] == w[k] {
			k++
		}
		t.Errorf("%s: differs from opencc at rune %d: %q, opencc %q", f, k, string(g[max(0, k-8):min(len(g), k+8)]), string(w[max(0, k-8):min(len(w), k+8)]))
	}
}
