package voice

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"wolftable/script"
)

// MaxSeat is the highest seat number the voice can say ("18號").
const MaxSeat = 18

// The pauses a sequence may hold. They are not recorded: the Voice makes
// them (silence), and a pack needs no file for them.
const (
	PauseComma = "pause.comma" // where the text pauses (，：) next to a seat or a count
	PauseList  = "pause.list"  // between the seats of a {list} (、)
	PauseCount = "pause.count" // between the numbers of a countdown: one number a second
)

// The pauses' lengths. PauseCount is worked out from the pack's count clips
// so that the numbers start one second apart (see Voice).
const (
	PauseCommaLength = 250 * time.Millisecond
	PauseListLength  = 120 * time.Millisecond
	CountBeat        = time.Second
	minCountPause    = 200 * time.Millisecond
)

// IsPause tells whether a clip id is a pause the Voice makes.
func IsPause(id string) bool { return strings.HasPrefix(id, "pause.") }

// Kind is what a clip says.
type Kind int

const (
	KindLine  Kind = iota // a fixed part of a catalogue line
	KindSeat              // a seat number, "9號"
	KindCount             // a number of a countdown, "3"
)

func (k Kind) String() string {
	switch k {
	case KindLine:
		return "line"
	case KindSeat:
		return "seat"
	case KindCount:
		return "count"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Clip is one recording a voice pack holds.
type Clip struct {
	ID     string   // file name without extension: "line.day.deaths.2", "seat.9", "count.3"
	Kind   Kind     //
	Text   string   // what is said: "玩家死亡", "9號", "3"
	Pinyin string   // how: "wan2 jia1 si3 wang2"
	Lines  []string // the catalogue lines that say it, in catalogue order
}

// Syllables is the number of syllables of the clip.
func (c Clip) Syllables() int {
	s, _ := syllables(c.Pinyin)
	return len(s)
}

// Suggested is about how long the clip lasts said at the table's pace: four
// syllables a second, plus a third of a second for each pause inside it. It
// is a guide for whoever records the pack, not a limit.
func (c Clip) Suggested() time.Duration {
	d := time.Duration(c.Syllables()) * 250 * time.Millisecond
	d += time.Duration(strings.Count(c.Pinyin, ",")+strings.Count(c.Pinyin, ".")) * 300 * time.Millisecond
	return d.Round(100 * time.Millisecond)
}

// SeatClip is the clip id of seat n ("seat.9").
func SeatClip(n int) string { return "seat." + strconv.Itoa(n) }

// CountClip is the clip id of countdown number n ("count.3").
func CountClip(n int) string { return "count." + strconv.Itoa(n) }

// Errors of Sequence.
var (
	ErrUnknownLine = errors.New("voice: no such line in the catalogue")
	ErrCue         = errors.New("voice: a cue line is shown to the judge, never spoken")
	ErrArgs        = errors.New("voice: bad line arguments")
)

// step is one element of a line's sequence template.
type step struct {
	clip string // a clip or pause id; "" for a seat or the list
	seat int    // the argument said as a seat, when clip == "" and !list
	list bool   // every argument as seats, with PauseList between
	each string // with list: a clip said after every seat ({players}: "玩家")
}

// eachPending marks a {players} step whose "玩家" clip Bind has not found yet
// (the step's seat holds the clip's part number meanwhile).
const eachPending = "\x00players"

type template struct {
	line  script.Line
	steps []step
}

// Binding ties catalogue lines to clips. Bind makes one from a catalogue;
// the package-level functions use the script package's (Default).
type Binding struct {
	clips []Clip
	byID  map[string]int
	lines map[string]template
	order []string // line ids, catalogue order
}

// Default is the binding of script.All(), made once.
var Default = sync.OnceValues(func() (*Binding, error) { return Bind(script.All()) })

// Sequence returns the clip ids that say a catalogue line with its
// arguments (seat numbers), using the default binding.
func Sequence(line string, args []int) ([]string, error) {
	b, err := Default()
	if err != nil {
		return nil, err
	}
	return b.Sequence(line, args)
}

// Clips returns every clip a voice pack holds for the default binding:
// line clips in catalogue order, then seats 1–MaxSeat, then the countdown's
// numbers.
func Clips() ([]Clip, error) {
	b, err := Default()
	if err != nil {
		return nil, err
	}
	return b.Clips(), nil
}

// ClipIDs returns the ids of Clips: what a pack must hold (audio/check's
// expected list).
func ClipIDs() ([]string, error) {
	b, err := Default()
	if err != nil {
		return nil, err
	}
	return b.ClipIDs(), nil
}

// tokenRE finds what a line's text is split at: placeholders and countdowns
// ("3~2~1").
var tokenRE = regexp.MustCompile(`\{[^{}]*\}|[0-9](?:[~～][0-9])+`)

// segment is a piece of a line's text: fixed text, or a token.
type segment struct {
	fixed bool
	text  string // the fixed text, or the token as written
}

func split(text string) []segment {
	var out []segment
	last := 0
	for _, m := range tokenRE.FindAllStringIndex(text, -1) {
		out = append(out, segment{fixed: true, text: text[last:m[0]]}, segment{text: text[m[0]:m[1]]})
		last = m[1]
	}
	return append(out, segment{fixed: true, text: text[last:]})
}

// edgePauses are the marks trimmed from a fixed part's ends: where the text
// pauses next to a seat or a countdown, the sequence holds PauseComma.
const edgePauses = "，、：；,:;~～ \t"

// Bind splits every spoken line of a catalogue into clips. It fails when a
// line cannot be voiced: an unknown placeholder, a character with no
// reading, or a pinyin override that does not match its text.
func Bind(lines []script.Line) (*Binding, error) {
	b := &Binding{byID: map[string]int{}, lines: map[string]template{}}
	byText := map[string]string{} // text + "\x00" + pinyin → clip id
	var errs []error
	seatLines := []string{}
	countLines := map[int][]string{}
	for _, l := range lines {
		if _, dup := b.lines[l.ID]; dup {
			errs = append(errs, fmt.Errorf("voice: line %s is in the catalogue twice", l.ID))
			continue
		}
		b.order = append(b.order, l.ID)
		if l.Cue {
			b.lines[l.ID] = template{line: l}
			continue
		}
		t, seats, counts, err := b.bindLine(l, byText)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		b.lines[l.ID] = t
		if seats {
			seatLines = append(seatLines, l.ID)
		}
		for _, n := range counts {
			if k := countLines[n]; len(k) == 0 || k[len(k)-1] != l.ID {
				countLines[n] = append(countLines[n], l.ID)
			}
		}
	}
	for _, id := range b.order {
		t := b.lines[id]
		for i, s := range t.steps {
			if s.each != eachPending {
				continue
			}
			clip, err := b.lineClip(t.line, s.seat, script.PlayerWord, byText)
			if err != nil {
				errs = append(errs, fmt.Errorf("voice: line %s: %v", id, err))
			}
			t.steps[i] = step{list: true, each: clip}
		}
	}
	for n := 1; n <= MaxSeat; n++ {
		text := script.Seat(n)
		p, err := Pinyin(text)
		if err != nil {
			errs = append(errs, err)
		}
		b.add(Clip{ID: SeatClip(n), Kind: KindSeat, Text: text, Pinyin: p, Lines: seatLines})
	}
	for n := 0; n <= 9; n++ {
		if len(countLines[n]) == 0 {
			continue
		}
		text := strconv.Itoa(n)
		p, _ := Pinyin(text)
		b.add(Clip{ID: CountClip(n), Kind: KindCount, Text: text, Pinyin: p, Lines: countLines[n]})
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *Binding) add(c Clip) {
	b.byID[c.ID] = len(b.clips)
	b.clips = append(b.clips, c)
}

// bindLine makes a line's template, adding its clips.
func (b *Binding) bindLine(l script.Line, byText map[string]string) (t template, seats bool, counts []int, err error) {
	fail := func(format string, args ...any) (template, bool, []int, error) {
		return template{}, false, nil, fmt.Errorf("voice: line %s: %s", l.ID, fmt.Sprintf(format, args...))
	}
	t.line = l
	segs := split(l.Text)
	var psegs []segment
	if l.Pinyin != "" {
		psegs = split(l.Pinyin)
		if len(psegs) != len(segs) {
			return fail("the pinyin override %q does not have the text's placeholders and countdowns", l.Pinyin)
		}
	}
	pause := func() {
		if n := len(t.steps); n > 0 && t.steps[n-1].clip != PauseComma {
			t.steps = append(t.steps, step{clip: PauseComma})
		}
	}
	part := 0
	for i, s := range segs {
		first, last := i == 0, i == len(segs)-1
		if !s.fixed {
			if psegs != nil && psegs[i].text != s.text {
				return fail("the pinyin override has %s where the text has %s", psegs[i].text, s.text)
			}
			switch {
			case s.text == "{s}":
				t.steps = append(t.steps, step{seat: 0})
				seats = true
			case s.text == "{s2}":
				t.steps = append(t.steps, step{seat: 1})
				seats = true
			case s.text == "{list}":
				t.steps = append(t.steps, step{list: true})
				seats = true
			case s.text == "{players}":
				// every seat followed by "玩家" (上警玩家有：3號玩家、9號玩家);
				// Bind finds or makes the clip once every line is bound, so
				// a "玩家" clip of a later line keeps its name
				part++
				t.steps = append(t.steps, step{list: true, each: eachPending, seat: part})
				seats = true
			case s.text[0] >= '0' && s.text[0] <= '9':
				for j, r := range strings.FieldsFunc(s.text, func(r rune) bool { return r == '~' || r == '～' }) {
					if j > 0 {
						t.steps = append(t.steps, step{clip: PauseCount})
					}
					n := int(r[0] - '0')
					counts = append(counts, n)
					t.steps = append(t.steps, step{clip: CountClip(n)})
				}
			default:
				return fail("unknown placeholder %s", s.text)
			}
			continue
		}
		text := strings.Trim(s.text, edgePauses)
		r0, _ := utf8.DecodeRuneInString(s.text)
		r1, _ := utf8.DecodeLastRuneInString(s.text)
		lead := !first && strings.ContainsRune(edgePauses, r0)
		trail := !last && strings.ContainsRune(edgePauses, r1)
		if text == "" {
			if s.text != "" && !first && !last {
				pause()
			}
			if psegs != nil && strings.Trim(psegs[i].text, edgePauses) != "" {
				return fail("the pinyin override has %q where the text has no words", psegs[i].text)
			}
			continue
		}
		if lead {
			pause()
		}
		auto, err := Pinyin(text)
		if err != nil {
			return fail("%v", err)
		}
		py := auto
		if psegs != nil {
			py = normPinyin(strings.Trim(psegs[i].text, edgePauses))
			got, err := syllables(py)
			if err != nil {
				return fail("%v", err)
			}
			want, _ := syllables(auto)
			if len(got) != len(want) {
				return fail("the pinyin override reads %q as %d syllables (%q), the text has %d (%q)", text, len(got), py, len(want), auto)
			}
		}
		part++
		id, err := b.addLineClip(l, part, text, py, byText)
		if err != nil {
			return fail("%v", err)
		}
		t.steps = append(t.steps, step{clip: id})
		if trail {
			pause()
		}
	}
	if len(t.steps) == 0 {
		return fail("nothing to say")
	}
	return t, seats, counts, nil
}

// lineClip is the clip of a fixed word of line l (its part-th clip), read
// by the pinyin library.
func (b *Binding) lineClip(l script.Line, part int, text string, byText map[string]string) (string, error) {
	py, err := Pinyin(text)
	if err != nil {
		return "", err
	}
	return b.addLineClip(l, part, text, py, byText)
}

// addLineClip finds the clip that says text with pinyin py, or adds it as
// line l's part-th clip ("line.ID.PART"); the clip lists l among its lines.
func (b *Binding) addLineClip(l script.Line, part int, text, py string, byText map[string]string) (string, error) {
	key := text + "\x00" + py
	id, ok := byText[key]
	if !ok {
		id = fmt.Sprintf("line.%s.%d", l.ID, part)
		if _, taken := b.byID[id]; taken {
			return "", fmt.Errorf("clip id %s is taken", id)
		}
		byText[key] = id
		b.add(Clip{ID: id, Kind: KindLine, Text: text, Pinyin: py})
	}
	c := &b.clips[b.byID[id]]
	if n := len(c.Lines); n == 0 || c.Lines[n-1] != l.ID {
		c.Lines = append(c.Lines, l.ID)
	}
	return id, nil
}

// Sequence returns the clip ids that say a line with its arguments, pauses
// included: "day.deaths" with 3, 9 is
//
//	line.day.deaths.1 seat.3 pause.list seat.9 line.day.deaths.2
//
// ("昨夜", "3號", "、", "9號", "玩家死亡"). Arguments are seat numbers, 1 to
// MaxSeat. Errors wrap ErrUnknownLine, ErrCue or ErrArgs.
func (b *Binding) Sequence(line string, args []int) ([]string, error) {
	t, ok := b.lines[line]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownLine, line)
	}
	if t.line.Cue {
		return nil, fmt.Errorf("%w: %s", ErrCue, line)
	}
	seat := func(n int) (string, error) {
		if n < 1 || n > MaxSeat {
			return "", fmt.Errorf("%w: %s: seat %d (the voice says seats 1–%d)", ErrArgs, line, n, MaxSeat)
		}
		return SeatClip(n), nil
	}
	out := make([]string, 0, len(t.steps)+2*len(args))
	for _, s := range t.steps {
		switch {
		case s.clip != "":
			out = append(out, s.clip)
		case s.list:
			for i, a := range args {
				if i > 0 {
					out = append(out, PauseList)
				}
				id, err := seat(a)
				if err != nil {
					return nil, err
				}
				out = append(out, id)
				if s.each != "" {
					out = append(out, s.each)
				}
			}
		default:
			if s.seat >= len(args) {
				return nil, fmt.Errorf("%w: %s needs %d argument(s), got %d", ErrArgs, line, s.seat+1, len(args))
			}
			id, err := seat(args[s.seat])
			if err != nil {
				return nil, err
			}
			out = append(out, id)
		}
	}
	return out, nil
}

// Spoken tells whether a line is in the catalogue and spoken (not a cue).
func (b *Binding) Spoken(line string) bool {
	t, ok := b.lines[line]
	return ok && !t.line.Cue
}

// Line returns a catalogue line by id.
func (b *Binding) Line(id string) (script.Line, bool) {
	t, ok := b.lines[id]
	return t.line, ok
}

// Lines returns the ids of the spoken lines, in catalogue order.
func (b *Binding) Lines() []string {
	var out []string
	for _, id := range b.order {
		if !b.lines[id].line.Cue {
			out = append(out, id)
		}
	}
	return out
}

// Args returns how many seat arguments a line takes: 0, 1 or 2, or -1 for a
// {list} or {players} (any number).
func (b *Binding) Args(line string) int {
	n := 0
	for _, s := range b.lines[line].steps {
		switch {
		case s.clip != "":
		case s.list:
			return -1
		default:
			n = max(n, s.seat+1)
		}
	}
	return n
}

// Clips returns the binding's clips (a copy): line clips in catalogue
// order, then seats, then the countdown's numbers.
func (b *Binding) Clips() []Clip {
	out := make([]Clip, len(b.clips))
	copy(out, b.clips)
	return out
}

// Clip finds a clip by id.
func (b *Binding) Clip(id string) (Clip, bool) {
	i, ok := b.byID[id]
	if !ok {
		return Clip{}, false
	}
	return b.clips[i], true
}

// Suggested is the suggested length of clip id (Clip.Suggested), 0 for an
// id the binding does not have: what voice check's length rule and the
// studio measure a recording against (check.WithSuggested).
func (b *Binding) Suggested(id string) time.Duration {
	c, ok := b.Clip(id)
	if !ok {
		return 0
	}
	return c.Suggested()
}

// ClipIDs returns the ids of Clips, in the same order.
func (b *Binding) ClipIDs() []string {
	out := make([]string, len(b.clips))
	for i, c := range b.clips {
		out[i] = c.ID
	}
	return out
}
