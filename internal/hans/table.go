package hans

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Table is the Traditional → Simplified conversion: phrases (longest
// first) and characters, and the characters known to be the same in both
// scripts (the table's coverage of the project's words).
type Table struct {
	// Chars maps a Traditional character to its Simplified form.
	Chars map[rune]rune
	// Phrases maps a Traditional phrase (two characters or more) to its
	// Simplified form, where converting it character by character is wrong.
	Phrases map[string]string
	// Same are the characters the table knows to be written alike.
	Same map[rune]bool
	// longest is, by a phrase's first character, its longest phrase in runes.
	longest map[rune]int
}

// TableError is a problem of the table file at a line.
type TableError struct {
	Line int
	Msg  string
}

func (e *TableError) Error() string { return fmt.Sprintf("tw2s.txt:%d: %s", e.Line, e.Msg) }

// ParseTable reads a table file: blank lines and lines starting with #
// are skipped; "TRAD<TAB>SIMP" is a character (one rune each) or a phrase
// (TRAD of two runes or more); "=CHARS" lists characters written alike.
// A character is defined once; an error names the line.
func ParseTable(data []byte) (*Table, error) {
	t := &Table{Chars: map[rune]rune{}, Phrases: map[string]string{}, Same: map[rune]bool{}, longest: map[rune]int{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<16)
	for n := 1; sc.Scan(); n++ {
		if err := t.line(sc.Text()); err != "" {
			return nil, &TableError{Line: n, Msg: err}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &TableError{Msg: err.Error()}
	}
	return t, nil
}

// line reads one line into t; the problem, or "".
func (t *Table) line(s string) string {
	if !utf8.ValidString(s) {
		return "not UTF-8"
	}
	s = strings.TrimSuffix(s, "\r")
	switch {
	case s == "" || s[0] == '#':
		return ""
	case s[0] == '=':
		for _, r := range s[1:] {
			if t.defined(r) {
				return fmt.Sprintf("%q is defined twice", r)
			}
			t.Same[r] = true
		}
		return ""
	}
	from, to, ok := strings.Cut(s, "\t")
	if !ok || from == "" || to == "" || strings.ContainsAny(to, "\t") {
		return "want TRADITIONAL<TAB>SIMPLIFIED, =CHARS or # comment"
	}
	if strings.ContainsAny(from, " =#") || strings.ContainsAny(to, " ") {
		return "a space, = or # in a word"
	}
	if utf8.RuneCountInString(from) == 1 {
		r, _ := utf8.DecodeRuneInString(from)
		if utf8.RuneCountInString(to) != 1 {
			return "a character's Simplified form is one character"
		}
		if t.defined(r) {
			return fmt.Sprintf("%q is defined twice", r)
		}
		t.Chars[r], _ = utf8.DecodeRuneInString(to)
		return ""
	}
	if _, dup := t.Phrases[from]; dup {
		return fmt.Sprintf("phrase %q is defined twice", from)
	}
	t.Phrases[from] = to
	first, _ := utf8.DecodeRuneInString(from)
	t.longest[first] = max(t.longest[first], utf8.RuneCountInString(from))
	return ""
}

func (t *Table) defined(r rune) bool {
	_, c := t.Chars[r]
	return c || t.Same[r]
}

// Convert writes s in Simplified: at each place the longest phrase of the
// table that starts there, else the character's form, else the character.
func (t *Table) Convert(s string) string {
	if !t.touches(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if n := t.longest[r]; n > 1 {
			if from, to, ok := t.phraseAt(s[i:], n); ok {
				b.WriteString(to)
				i += len(from)
				continue
			}
		}
		if c, ok := t.Chars[r]; ok {
			b.WriteRune(c)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// touches reports whether s has a character the table changes.
func (t *Table) touches(s string) bool {
	for _, r := range s {
		if _, ok := t.Chars[r]; ok || t.longest[r] > 1 {
			return true
		}
	}
	return false
}

// phraseAt is the longest phrase of at most n runes at the start of s.
func (t *Table) phraseAt(s string, n int) (from, to string, ok bool) {
	ends := make([]int, 0, n)
	for i := range s {
		if i > 0 {
			ends = append(ends, i)
		}
		if len(ends) == n {
			break
		}
	}
	if len(ends) < n {
		ends = append(ends, len(s))
	}
	for k := len(ends) - 1; k >= 1; k-- {
		if to, ok := t.Phrases[s[:ends[k]]]; ok {
			return s[:ends[k]], to, true
		}
	}
	return "", "", false
}
