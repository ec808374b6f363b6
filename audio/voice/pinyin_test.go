package voice

import (
	"strings"
	"testing"
	"unicode"
)

// readingsByWord is the dictionary the voice's pinyin is held to: how each
// word reads in this catalogue. It lists the 多音字 a character-by-character
// reading gets wrong (and which the catalogue's overrides correct) and the
// ones it happens to get right, so that a change of library or of text
// cannot slip a wrong reading in.
var readingsByWord = map[string]string{
	// corrected by overrides (script.defaultPinyin)
	"身份為": "shen1 fen4 wei2",
	"狀態為": "zhuang4 tai4 wei2",
	"翻牌為": "fan1 pai2 wei2",
	"玩家為": "wan2 jia1 wei2",
	"昨夜為": "zuo2 ye4 wei2",
	"倒牌":  "dao3 pai2",
	"商量":  "shang1 liang5",
	"調至":  "tiao2 zhi4",
	"王子":  "wang2 zi3",
	// read right character by character; held anyway
	"警長":  "jing3 zhang3",
	"還剩":  "hai2 sheng4",
	"天亮了": "tian1 liang4 le5",
	"除了":  "chu2 le5",
	"發言":  "fa1 yan2",
	"發動":  "fa1 dong4",
	"當選":  "dang1 xuan3",
	"的":   "de5",
	"嗎":   "ma5",
	"給":   "gei3",
	"號碼":  "hao4 ma3",
	"上警":  "shang4 jing3",
	"警上":  "jing3 shang4",
	"離場":  "li2 chang3",
	"查驗":  "cha2 yan4",
	"查看":  "cha2 kan4",
	"選擇":  "xuan3 ze2",
	"血月":  "xue4 yue4",
	"同伴":  "tong2 ban4",
	"帶刀":  "dai4 dao1",
	"帶走":  "dai4 zou3",
	"目標":  "mu4 biao1",
	"紅色":  "hong2 se4",
	"遊戲":  "you2 xi4",
	"結束":  "jie2 shu4",
	"睜眼":  "zheng1 yan3",
	"擊殺":  "ji1 sha1",
	"好人":  "hao3 ren2",
	"騎士":  "qi2 shi4",
	"台上":  "tai2 shang4",
	"其他":  "qi2 ta1",
	"流失":  "liu2 shi1",
	"放逐":  "fang4 zhu2",
	"解藥":  "jie3 yao4",
	"開槍":  "kai1 qiang1",
	"石像鬼": "shi2 xiang4 gui3",
	"女巫":  "nv3 wu1",
	"攝夢":  "she4 meng4",
	"純白":  "chun2 bai2",
	"不歸票": "bu4 gui1 piao4",
	"身份牌": "shen1 fen4 pai2",
	"沒有":  "mei2 you3",
	"守衛":  "shou3 wei4",
}

// alignedSyllables returns, for each Han character of text (by byte
// offset), the syllable of py that reads it.
func alignedSyllables(t *testing.T, text, py string) map[int]string {
	t.Helper()
	syl, err := syllables(py)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]string{}
	k := 0
	rs := []rune(text)
	off := 0
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case unicode.Is(unicode.Han, r):
			out[off] = syl[k]
			k++
		case r >= '0' && r <= '9':
			j := i
			for j < len(rs) && rs[j] >= '0' && rs[j] <= '9' {
				j++
			}
			n, err := number(string(rs[i:j]))
			if err != nil {
				t.Fatal(err)
			}
			k += len(n)
			for _, d := range rs[i+1 : j] {
				off += len(string(d))
			}
			i = j - 1
		case letters[unicode.ToUpper(r)] != "":
			k++
		}
		off += len(string(r))
	}
	if k != len(syl) {
		t.Fatalf("%q: %d syllables for the text, %d in %q", text, k, len(syl), py)
	}
	return out
}

// TestPinyinDictionary checks every clip's pinyin against readingsByWord,
// character by character.
func TestPinyinDictionary(t *testing.T) {
	b := defaultBinding(t)
	found := map[string]int{}
	for _, c := range b.Clips() {
		at := alignedSyllables(t, c.Text, c.Pinyin)
		for word, want := range readingsByWord {
			if want == "" {
				continue
			}
			ws := strings.Fields(want)
			for from := 0; ; {
				i := strings.Index(c.Text[from:], word)
				if i < 0 {
					break
				}
				i += from
				found[word]++
				off := i
				for n, r := range []rune(word) {
					if got := at[off]; got != ws[n] {
						t.Errorf("%s %q: %q in %q reads %s, want %s (pinyin %q)", c.ID, c.Text, string(r), word, got, ws[n], c.Pinyin)
					}
					off += len(string(r))
				}
				from = i + len(word)
			}
		}
	}
	for word, want := range readingsByWord {
		if want != "" && found[word] == 0 {
			t.Errorf("%q is in no clip: the dictionary is out of date", word)
		}
	}
}

func TestPinyinOfNumbersAndLetters(t *testing.T) {
	for text, want := range map[string]string{
		"1號":       "yi1 hao4",
		"2號":       "er4 hao4",
		"10號":      "shi2 hao4",
		"11號":      "shi2 yi1 hao4",
		"18號":      "shi2 ba1 hao4",
		"發言還剩30秒":  "fa1 yan2 hai2 sheng4 san1 shi2 miao3",
		"25":       "er4 shi2 wu3",
		"平票PK":     "ping2 piao4 pi1 kei1",
		"確認是他嗎？":   "que4 ren4 shi4 ta1 ma5?",
		"決鬥失敗，發言":  "jue2 dou4 shi1 bai4, fa1 yan2",
		"天亮了":      "tian1 liang4 le5",
		"女巫":       "nv3 wu1",
		"3~2~1":    "san1, er4, yi1",
		"遊戲結束，，好人": "you2 xi4 jie2 shu4, hao3 ren2",
	} {
		got, err := Pinyin(text)
		if err != nil || got != want {
			t.Errorf("Pinyin(%q) = %q, %v; want %q", text, got, err, want)
		}
	}
	for _, bad := range []string{"玩家☺", "VS", "100號"} {
		if got, err := Pinyin(bad); err == nil {
			t.Errorf("Pinyin(%q) = %q; want an error", bad, got)
		}
	}
}

func TestEveryClipPinyinIsWellFormed(t *testing.T) {
	for _, c := range defaultBinding(t).Clips() {
		syl, err := syllables(c.Pinyin)
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		if normPinyin(c.Pinyin) != c.Pinyin {
			t.Errorf("%s: pinyin %q is not in normal form %q", c.ID, c.Pinyin, normPinyin(c.Pinyin))
		}
		han := 0
		for _, r := range c.Text {
			if unicode.Is(unicode.Han, r) {
				han++
			}
		}
		if len(syl) < han {
			t.Errorf("%s: %d syllables for %d characters", c.ID, len(syl), han)
		}
	}
}
