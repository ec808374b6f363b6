package voice

import "testing"

// TestToneMarks (issue 31 item 4): the studio shows pinyin as a reader
// reads it, with tone marks, not tone digits.
func TestToneMarks(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"xuan3 shou3 qing3 cha2 kan4 shen1 fen4 pai2, tian1 hei1 qing3 bi4 yan3", "xuǎn shǒu qǐng chá kàn shēn fèn pái, tiān hēi qǐng bì yǎn"},
		{"nv3 wu1 qing3 que4 ren4?", "nǚ wū qǐng què rèn?"},
		{"lv4 lve4 nu:3", "lǜ lüè nǚ"},
		{"que4 ren4 shi4 ta1 ma5?", "què rèn shì tā ma?"},
		{"gui4 shui3 liu2 zhou1 er2 ai4 ou1", "guì shuǐ liú zhōu ér ài ōu"},
		{"hm5 ng2 {s} 10 ok", "hm5 ng2 {s} 10 ok"}, // no vowel to mark: as it is
		{"", ""},
	} {
		if got := ToneMarks(c.in); got != c.want {
			t.Errorf("ToneMarks(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzToneMarks: any text, no panic, and marking twice is marking once.
func FuzzToneMarks(f *testing.F) {
	f.Add("xuan3 shou3, nv3 er2")
	f.Add("a1 e2 o3 u4 v5 \u00fc3 9 {s}")
	f.Fuzz(func(t *testing.T, s string) {
		once := ToneMarks(s)
		if twice := ToneMarks(once); twice != once {
			t.Errorf("ToneMarks(%q) = %q, then %q", s, once, twice)
		}
	})
}
