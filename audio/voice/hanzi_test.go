package voice

import (
	"os/exec"
	"strings"
	"testing"
	"unicode"

	"github.com/mozillazg/go-pinyin"

	"wolftable/script"
)

// goPinyin reads a character as readings did before the table: go-pinyin's
// first Tone3 reading ("" when it has none).
func goPinyin(r rune) string {
	a := pinyin.NewArgs()
	a.Style = pinyin.Tone3
	if p := pinyin.SinglePinyin(r, a); len(p) > 0 {
		return p[0]
	}
	return ""
}

// catalogueHan returns the Han characters of the texts Pinyin reads for the
// catalogue, each with the first text it is in: the spoken lines' texts and
// the seats. Like internal/mkhanzi, it takes seats up to 99 (the most Pinyin
// reads; MaxSeat is fewer), so that it finds the same characters.
func catalogueHan(t *testing.T) map[rune]string {
	t.Helper()
	if MaxSeat > 99 {
		t.Fatalf("MaxSeat %d: mkhanzi and catalogueHan read seats up to 99 only", MaxSeat)
	}
	out := map[rune]string{}
	for _, text := range script.SpokenTexts(99) {
		for _, r := range text {
			if _, ok := out[r]; !ok && unicode.Is(unicode.Han, r) {
				out[r] = text
			}
		}
	}
	return out
}

// TestHanziIsGoPinyin: the table holds go-pinyin's readings, sorted, and
// Pinyin reads each character as it did when it called go-pinyin.
func TestHanziIsGoPinyin(t *testing.T) {
	if len(hanzi) == 0 {
		t.Fatal("hanzi is empty: run go generate ./audio/voice")
	}
	for i, h := range hanzi {
		if i > 0 && hanzi[i-1].r >= h.r {
			t.Errorf("hanzi is not sorted at %q, %q: run go generate ./audio/voice", hanzi[i-1].r, h.r)
		}
		if !unicode.Is(unicode.Han, h.r) {
			t.Errorf("hanzi holds %q, not a Han character", h.r)
		}
		want := goPinyin(h.r)
		if h.py != want {
			t.Errorf("hanzi reads %q as %q, go-pinyin as %q: run go generate ./audio/voice", h.r, h.py, want)
			continue
		}
		if want == "" {
			continue
		}
		if c := want[len(want)-1]; c < '1' || c > '4' {
			want += "5" // neutral tone
		}
		if got, err := Pinyin(string(h.r)); err != nil || got != want {
			t.Errorf("Pinyin(%q) = %q, %v; want %q", h.r, got, err, want)
		}
	}
}

// TestHanziCoversTheCatalogue: the table holds every Han character of the
// texts the voice reads, and no other, i.e. it is what go generate writes.
func TestHanziCoversTheCatalogue(t *testing.T) {
	want := catalogueHan(t)
	for r, text := range want {
		if _, ok := hanziPinyin(r); !ok {
			t.Errorf("%q (in %q) is not in the character table: run go generate ./audio/voice", r, text)
		}
	}
	for _, h := range hanzi {
		if _, ok := want[h.r]; !ok {
			t.Errorf("the character table holds %q, which no spoken line has: run go generate ./audio/voice", h.r)
		}
	}
}

// TestPinyinOfACharacterNotInTheTable: the error names the character and
// the text, and says how to add it.
func TestPinyinOfACharacterNotInTheTable(t *testing.T) {
	const r = '龍'
	if _, ok := hanziPinyin(r); ok {
		t.Skipf("%q is in the table now; the test needs a character that is not", r)
	}
	text := "玩家" + string(r)
	_, err := Pinyin(text)
	if err == nil {
		t.Fatalf("Pinyin(%q): no error", text)
	}
	for _, s := range []string{string(r), text, "go generate ./audio/voice"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("Pinyin(%q): error %q does not say %q", text, err, s)
		}
	}
}

// TestVoiceDoesNotImportGoPinyin: the voice package, and so the wolftable
// program, does not link go-pinyin, whose 40,000-character dictionary Go
// builds at start-up (about 3 MB of the daemon's RSS). Only the tests and
// internal/mkhanzi may import it.
func TestVoiceDoesNotImportGoPinyin(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "mozillazg") {
			t.Errorf("the voice package imports %s, directly or not: read characters from hanzi (hanzi.go) instead", p)
		}
	}
}
