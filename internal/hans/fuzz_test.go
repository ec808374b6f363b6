package hans

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseTable: any file parses or is refused with a line; a parsed
// table converts any text to valid UTF-8 when the text is.
func FuzzParseTable(f *testing.F) {
	f.Add(string(tableFile))
	for _, s := range []string{"發\t发\n", "=一二\n", "乾\t干\n乾隆\t乾隆\n", "# c\n\n", "發\t发发\n", "\t\n", "=\xff\n", "a\tb\r\nab\tcd\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tb, err := ParseTable([]byte(s))
		if err != nil {
			if te, ok := err.(*TableError); !ok || te.Line < 0 || !strings.Contains(err.Error(), "tw2s.txt:") {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		for _, in := range []string{"發牌 狼人殺 乾隆", s} {
			out := tb.Convert(in)
			if utf8.ValidString(in) && !utf8.ValidString(out) {
				t.Fatalf("Convert(%q) = %q", in, out)
			}
		}
	})
}

// FuzzConvert: the project's table keeps text valid, ASCII as it is, and
// converting twice changes nothing more.
func FuzzConvert(f *testing.F) {
	for _, s := range []string{"發牌", "乾淨", "回覆", "abc", "\xff發", "預言家查驗 3 號"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("invalid %q", out)
		}
		if String(out) != out && utf8.ValidString(s) {
			t.Fatalf("not stable: %q → %q → %q", s, out, String(out))
		}
		var ascii strings.Builder
		for _, r := range s {
			if r < utf8.RuneSelf {
				ascii.WriteRune(r)
			}
		}
		var outASCII strings.Builder
		for _, r := range out {
			if r < utf8.RuneSelf {
				outASCII.WriteRune(r)
			}
		}
		if utf8.ValidString(s) && ascii.String() != outASCII.String() {
			t.Fatalf("ASCII changed: %q → %q", s, out)
		}
	})
}
