package voice

import (
	"strings"
	"testing"
	"unicode"
)

// TestZhuyin (issue 31 item 4): the studio's reading aid where the venue
// reads zhuyin (注音).
func TestZhuyin(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"xuan3", "ㄒㄩㄢˇ"}, {"shou3", "ㄕㄡˇ"}, {"zhi1", "ㄓ"}, {"de5", "˙ㄉㄜ"},
		{"xuan3 shou3, qing3 cha2 kan4", "ㄒㄩㄢˇ ㄕㄡˇ, ㄑㄧㄥˇ ㄔㄚˊ ㄎㄢˋ"},
		{"nv3 er2", "ㄋㄩˇ ㄦˊ"}, {"yong4", "ㄩㄥˋ"}, {"wei2", "ㄨㄟˊ"}, {"liu2", "ㄌㄧㄡˊ"}, {"dui4", "ㄉㄨㄟˋ"},
		{"lun2", "ㄌㄨㄣˊ"}, {"jun1", "ㄐㄩㄣ"}, {"qu4", "ㄑㄩˋ"}, {"xue2", "ㄒㄩㄝˊ"}, {"yi1", "ㄧ"}, {"wu3", "ㄨˇ"},
		{"yu2", "ㄩˊ"}, {"yue4", "ㄩㄝˋ"}, {"yuan2", "ㄩㄢˊ"}, {"si4", "ㄙˋ"}, {"ri4", "ㄖˋ"}, {"ci3", "ㄘˇ"},
		{"lang2 ren2", "ㄌㄤˊ ㄖㄣˊ"}, {"tian1 hei1 qing3 bi4 yan3.", "ㄊㄧㄢ ㄏㄟ ㄑㄧㄥˇ ㄅㄧˋ ㄧㄢˇ."},
		{"ai4", "ㄞˋ"}, {"ou3", "ㄡˇ"}, {"e4", "ㄜˋ"}, {"er4", "ㄦˋ"}, {"lü4", "ㄌㄩˋ"}, {"zh3", "zh3"}, {"lu:4", "ㄌㄩˋ"},
		{"{seat}", "{seat}"}, {"3", "3"}, {"hm5", "hm5"}, {"", ""},
	} {
		if got := Zhuyin(c.in); got != c.want {
			t.Errorf("Zhuyin(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestZhuyinEveryClip: every syllable of the script's clips has its
// zhuyin: no pinyin letter is left.
func TestZhuyinEveryClip(t *testing.T) {
	clips, err := Clips()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range clips {
		z := Zhuyin(c.Pinyin)
		for _, f := range strings.Fields(z) {
			if strings.IndexFunc(f, func(r rune) bool { return r < unicode.MaxASCII && unicode.IsLetter(r) }) >= 0 && !strings.ContainsAny(f, "{}") {
				t.Errorf("clip %s: %q left in %q (from %q)", c.ID, f, z, c.Pinyin)
			}
		}
	}
}

// FuzzZhuyin: any text, no panic; a syllable's tone digit is gone.
func FuzzZhuyin(f *testing.F) {
	for _, s := range []string{"xuan3 shou3", "zhi1", "de5", "u:5", "y1", "w2", "zh3", "a", "5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = Zhuyin(s)
	})
}
