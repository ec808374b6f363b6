package voice

import "strings"

// Zhuyin writes tone-numbered pinyin (Pinyin's form: "xuan3 shou3, nv3
// er2", 5 the neutral tone, ü as v) in zhuyin (注音符號), as a reader in
// Taiwan reads it: "ㄒㄩㄢˇ ㄕㄡˇ, ㄋㄩˇ ㄦˊ"; the first tone has no mark,
// the neutral tone's ˙ comes first (˙ㄉㄜ). A word that is not a syllable
// with a tone number (a placeholder, a countdown) is kept as it is.
func Zhuyin(p string) string {
	fs := strings.Fields(p)
	for i, f := range fs {
		end := len(f)
		for end > 0 && strings.ContainsRune(",.?!", rune(f[end-1])) {
			end--
		}
		fs[i] = zhuyinSyllable(f[:end]) + f[end:]
	}
	return strings.Join(fs, " ")
}

var (
	zhuyinInitials = []struct{ py, zy string }{
		{"zh", "ㄓ"}, {"ch", "ㄔ"}, {"sh", "ㄕ"}, {"b", "ㄅ"}, {"p", "ㄆ"}, {"m", "ㄇ"}, {"f", "ㄈ"},
		{"d", "ㄉ"}, {"t", "ㄊ"}, {"n", "ㄋ"}, {"l", "ㄌ"}, {"g", "ㄍ"}, {"k", "ㄎ"}, {"h", "ㄏ"},
		{"j", "ㄐ"}, {"q", "ㄑ"}, {"x", "ㄒ"}, {"r", "ㄖ"}, {"z", "ㄗ"}, {"c", "ㄘ"}, {"s", "ㄙ"},
	}
	zhuyinFinals = map[string]string{
		"a": "ㄚ", "o": "ㄛ", "e": "ㄜ", "ai": "ㄞ", "ei": "ㄟ", "ao": "ㄠ", "ou": "ㄡ", "an": "ㄢ", "en": "ㄣ",
		"ang": "ㄤ", "eng": "ㄥ", "er": "ㄦ", "ong": "ㄨㄥ",
		"i": "ㄧ", "ia": "ㄧㄚ", "io": "ㄧㄛ", "ie": "ㄧㄝ", "iao": "ㄧㄠ", "iou": "ㄧㄡ", "ian": "ㄧㄢ", "in": "ㄧㄣ",
		"iang": "ㄧㄤ", "ing": "ㄧㄥ", "iong": "ㄩㄥ",
		"u": "ㄨ", "ua": "ㄨㄚ", "uo": "ㄨㄛ", "uai": "ㄨㄞ", "uei": "ㄨㄟ", "uan": "ㄨㄢ", "uen": "ㄨㄣ", "uang": "ㄨㄤ", "ueng": "ㄨㄥ",
		"v": "ㄩ", "ve": "ㄩㄝ", "van": "ㄩㄢ", "vn": "ㄩㄣ",
	}
	// zhuyinYW are the finals pinyin writes with y or w and no initial.
	zhuyinYW = map[string]string{
		"yi": "i", "ya": "ia", "yo": "io", "ye": "ie", "yao": "iao", "you": "iou", "yan": "ian", "yin": "in",
		"yang": "iang", "ying": "ing", "yong": "iong", "yu": "v", "yue": "ve", "yuan": "van", "yun": "vn",
		"wu": "u", "wa": "ua", "wo": "uo", "wai": "uai", "wei": "uei", "wan": "uan", "wen": "uen", "wang": "uang", "weng": "ueng",
	}
	zhuyinTones = [5]string{"", "ˊ", "ˇ", "ˋ", "˙"}
)

// zhuyinSyllable is one tone-numbered syllable in zhuyin, or s as it is.
func zhuyinSyllable(s string) string {
	if len(s) < 2 || s[len(s)-1] < '1' || s[len(s)-1] > '5' {
		return s
	}
	tone := int(s[len(s)-1] - '1')
	base := strings.NewReplacer("u:", "v", "ü", "v").Replace(s[:len(s)-1])
	ini, fin := "", base
	if f, ok := zhuyinYW[base]; ok {
		fin = f
	} else {
		for _, in := range zhuyinInitials {
			if rest, ok := strings.CutPrefix(base, in.py); ok {
				ini, fin = in.zy, rest
				break
			}
		}
		if ini == "" && !strings.ContainsAny(base[:1], "aoe") {
			return s
		}
		fin = abbreviated(base, ini, fin)
	}
	var zy string
	if f, ok := zhuyinFinals[fin]; !ok {
		return s
	} else if fin == "i" && ini != "" && strings.Contains("ㄓㄔㄕㄖㄗㄘㄙ", ini) {
		zy = ini // zhi, chi, shi, ri, zi, ci, si: the initial alone
	} else {
		zy = ini + f
	}
	if tone == 4 {
		return zhuyinTones[4] + zy
	}
	return zy + zhuyinTones[tone]
}

// abbreviated is a final as zhuyin spells it: pinyin's u after j, q, x
// is ü; its iu, ui and un are iou, uei and uen.
func abbreviated(base, ini, fin string) string {
	if strings.HasPrefix(fin, "u") && (strings.HasPrefix(base, "j") || strings.HasPrefix(base, "q") || strings.HasPrefix(base, "x")) {
		fin = "v" + fin[1:]
	}
	switch fin {
	case "iu":
		return "iou"
	case "ui":
		return "uei"
	case "un":
		return "uen"
	}
	return fin
}
