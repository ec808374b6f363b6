package voice

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/mozillazg/go-pinyin"
)

// Pinyin renders a clip's text as tone-numbered pinyin, the input of
// espeak-ng's cmn-latn-pinyin voice and the reading shown on the recording
// checklist: syllables separated by spaces, the tone as a digit after each
// (1–4, 5 for the neutral tone), ü written v ("nv3"), and pauses as ASCII
// punctuation after the syllable before them ("jue2 dou4 shi1 bai4, fa1
// yan2").
//
// Characters are read with github.com/mozillazg/go-pinyin, one at a time, so
// a 多音字 gets its most common reading whatever the word: the catalogue's
// per-line Pinyin overrides (script.Line.Pinyin) correct those lines. Digit
// runs are read as numbers ("30" → "san1 shi2", "2" → "er4"); the few Latin
// letters the script uses are read as a Mandarin speaker says them ("PK" →
// "pi1 kei1"). Any other character is an error, so that a new line that
// cannot be voiced fails the tests rather than being skipped silently.
func Pinyin(text string) (string, error) {
	toks, err := readings(text)
	if err != nil {
		return "", err
	}
	return joinReadings(toks), nil
}

// reading is one piece of a text and how it is read: a Han character, a run
// of digits or a letter with its syllables, or a pause mark (punct).
type reading struct {
	src   string
	syl   []string
	punct string // ",", ".", "?" or "!"; syl is empty
}

var pinyinArgs = func() pinyin.Args {
	a := pinyin.NewArgs()
	a.Style = pinyin.Tone3
	return a
}()

// letters are the Latin letters the catalogue uses, as a Mandarin speaker
// says them. Add to it (or give the line a pinyin override) when a line needs
// another.
var letters = map[rune]string{
	'P': "pi1",
	'K': "kei1",
}

// pauseMarks map punctuation to the mark espeak-ng pauses at.
var pauseMarks = map[rune]string{
	'，': ",", '、': ",", '：': ",", '；': ",", ',': ",", ':': ",", ';': ",", '~': ",", '～': ",",
	'。': ".", '.': ".", '？': "?", '?': "?", '！': "!", '!': "!",
}

func readings(text string) ([]reading, error) {
	var out []reading
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case unicode.Is(unicode.Han, r):
			p := pinyin.SinglePinyin(r, pinyinArgs)
			if len(p) == 0 || p[0] == "" {
				return nil, fmt.Errorf("voice: no pinyin for %q in %q", r, text)
			}
			s := p[0]
			if c := s[len(s)-1]; c < '1' || c > '4' {
				s += "5" // neutral tone
			}
			out = append(out, reading{src: string(r), syl: []string{s}})
		case r >= '0' && r <= '9':
			j := i
			for j < len(rs) && rs[j] >= '0' && rs[j] <= '9' {
				j++
			}
			syl, err := number(string(rs[i:j]))
			if err != nil {
				return nil, fmt.Errorf("voice: %v in %q", err, text)
			}
			out = append(out, reading{src: string(rs[i:j]), syl: syl})
			i = j - 1
		case letters[unicode.ToUpper(r)] != "":
			out = append(out, reading{src: string(r), syl: []string{letters[unicode.ToUpper(r)]}})
		case pauseMarks[r] != "":
			out = append(out, reading{src: string(r), punct: pauseMarks[r]})
		case unicode.IsSpace(r):
		default:
			return nil, fmt.Errorf("voice: no reading for %q in %q (give the line a pinyin override)", r, text)
		}
	}
	return out, nil
}

func joinReadings(toks []reading) string {
	var b strings.Builder
	for _, t := range toks {
		if t.punct != "" {
			if b.Len() > 0 && !strings.ContainsAny(b.String()[b.Len()-1:], ",.?!") {
				b.WriteString(t.punct)
			}
			continue
		}
		for _, s := range t.syl {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(s)
		}
	}
	return b.String()
}

var digitSyl = [10]string{"ling2", "yi1", "er4", "san1", "si4", "wu3", "liu4", "qi1", "ba1", "jiu3"}

// number reads a run of digits as a number from 0 to 99 ("18" → "shi2
// ba1"), the way seats, counts and seconds are said.
func number(digits string) ([]string, error) {
	n := 0
	for _, d := range digits {
		n = 10*n + int(d-'0')
		if n > 99 {
			return nil, fmt.Errorf("number %s is too large to read (0–99)", digits)
		}
	}
	switch {
	case n < 10:
		return []string{digitSyl[n]}, nil
	case n == 10:
		return []string{"shi2"}, nil
	case n < 20:
		return []string{"shi2", digitSyl[n%10]}, nil
	case n%10 == 0:
		return []string{digitSyl[n/10], "shi2"}, nil
	}
	return []string{digitSyl[n/10], "shi2", digitSyl[n%10]}, nil
}

// syllableRE is one syllable of tone-numbered pinyin, with an optional pause
// mark after it.
var syllableRE = regexp.MustCompile(`^([a-zü]+[1-5])([,.?!]?)$`)

// syllables splits tone-numbered pinyin into its syllables (without pause
// marks) and checks its form.
func syllables(p string) ([]string, error) {
	var out []string
	for _, f := range strings.Fields(p) {
		m := syllableRE.FindStringSubmatch(f)
		if m == nil {
			return nil, fmt.Errorf("voice: %q in pinyin %q is not a syllable with a tone number (1–5)", f, p)
		}
		out = append(out, m[1])
	}
	return out, nil
}

// normPinyin puts hand-written pinyin (an override) in the form Pinyin
// writes: single spaces, pause marks attached to the syllable before them,
// full-width punctuation as ASCII.
func normPinyin(p string) string {
	var b strings.Builder
	for _, r := range p {
		if m, ok := pauseMarks[r]; ok {
			b.WriteString(m)
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(r)
	}
	fs := strings.Fields(b.String())
	var out []string
	for _, f := range fs {
		if strings.Trim(f, ",.?!") == "" {
			if len(out) > 0 && !strings.ContainsAny(out[len(out)-1][len(out[len(out)-1])-1:], ",.?!") {
				out[len(out)-1] += f[:1]
			}
			continue
		}
		out = append(out, f)
	}
	return strings.Join(out, " ")
}
