package voice

//go:generate go run ./internal/mkhanzi

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Pinyin renders a clip's text as tone-numbered pinyin, the input of
// espeak-ng's cmn-latn-pinyin voice and the reading shown on the recording
// checklist: syllables separated by spaces, the tone as a digit after each
// (1–4, 5 for the neutral tone), ü written v ("nv3"), and pauses as ASCII
// punctuation after the syllable before them ("jue2 dou4 shi1 bai4, fa1
// yan2").
//
// Characters are read one at a time with github.com/mozillazg/go-pinyin's
// readings, so a 多音字 gets its most common reading whatever the word: the
// catalogue's per-line Pinyin overrides (script.Line.Pinyin) correct those
// lines. The readings come from hanzi, a table of the catalogue's characters
// made by `go generate ./audio/voice`, not from go-pinyin itself, so that the
// program does not link go-pinyin's dictionary (see readings). Digit runs are
// read as numbers ("30" → "san1 shi2", "2" → "er4"); the few Latin letters
// the script uses are read as a Mandarin speaker says them ("PK" → "pi1
// kei1"). Any other character, or a Han character the table does not hold,
// is an error, so that a new line that cannot be voiced fails the tests
// rather than being skipped silently.
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

// hanziReading is one entry of hanzi (hanzi.go): a Han character and its
// first reading in go-pinyin's Tone3 style ("nv3"; no digit for the neutral
// tone).
type hanziReading struct {
	r  rune
	py string
}

// hanziPinyin returns the table's reading of a Han character, as go-pinyin
// gives it, and whether the table holds the character.
func hanziPinyin(r rune) (string, bool) {
	i, ok := slices.BinarySearchFunc(hanzi[:], r, func(h hanziReading, r rune) int { return cmp.Compare(h.r, r) })
	if !ok {
		return "", false
	}
	return hanzi[i].py, true
}

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

// readings splits a text into what Pinyin reads.
//
// Han characters are looked up in hanzi, which internal/mkhanzi generates
// from go-pinyin for the characters of the catalogue's spoken lines and
// seats, the only texts the voice reads. go-pinyin's own dictionary is a map
// literal of some 40,000 characters that Go builds at start-up in every
// program linking it, about 1.8 MB of heap and 3.3 MB of RSS in the daemon
// (budget: 30 MB), which never needs more than these few hundred. A
// character the table lacks is an error naming it and the text: the
// catalogue has changed and the table must be regenerated.
func readings(text string) ([]reading, error) {
	var out []reading
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case unicode.Is(unicode.Han, r):
			s, ok := hanziPinyin(r)
			if !ok || s == "" {
				return nil, fmt.Errorf("voice: no pinyin for %q in %q: the character table is out of date; run go generate ./audio/voice", r, text)
			}
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
