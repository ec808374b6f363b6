package voice

import (
	"strings"
	"unicode"
)

// ToneMarks writes tone-numbered pinyin (Pinyin's form: "xuan3 shou3,
// nv3 er2", 5 the neutral tone, ü as v) with tone marks, as a reader
// reads it: "xuǎn shǒu, nǚ ér". The mark goes on a or e, else on the o of
// ou, else on the last vowel. A word that is not a syllable with a tone
// number (a placeholder, a countdown) is kept as it is.
func ToneMarks(p string) string {
	fs := strings.Fields(p)
	for i, f := range fs {
		end := len(f)
		for end > 0 && strings.ContainsRune(",.?!", rune(f[end-1])) {
			end--
		}
		fs[i] = markSyllable(f[:end]) + f[end:]
	}
	return strings.Join(fs, " ")
}

var toneVowels = map[rune][4]rune{
	'a': {'ā', 'á', 'ǎ', 'à'}, 'e': {'ē', 'é', 'ě', 'è'}, 'i': {'ī', 'í', 'ǐ', 'ì'},
	'o': {'ō', 'ó', 'ǒ', 'ò'}, 'u': {'ū', 'ú', 'ǔ', 'ù'}, 'ü': {'ǖ', 'ǘ', 'ǚ', 'ǜ'},
}

func markSyllable(s string) string {
	if len(s) < 2 {
		return s
	}
	tone := s[len(s)-1]
	if tone < '1' || tone > '5' {
		return s
	}
	base := strings.ReplaceAll(s[:len(s)-1], "u:", "v")
	for _, r := range base {
		if r > unicode.MaxASCII || !unicode.IsLower(r) {
			return s
		}
	}
	rs := []rune(strings.ReplaceAll(base, "v", "ü"))
	at := -1
	if i := strings.IndexAny(base, "ae"); i >= 0 { // a or e: one byte per rune before it
		at = i
	} else if i := strings.Index(base, "ou"); i >= 0 {
		at = i
	} else {
		for i := len(rs) - 1; i >= 0; i-- {
			if _, ok := toneVowels[rs[i]]; ok {
				at = i
				break
			}
		}
	}
	if at < 0 { // no vowel (m, ng, hm): as it is
		return s
	}
	if tone == '5' {
		return string(rs)
	}
	rs[at] = toneVowels[rs[at]][tone-'1']
	return string(rs)
}
