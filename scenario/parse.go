package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"wolftable/engine"
)

// File is a parsed scenario.
type File struct {
	Name      string
	Board     string
	Roles     []engine.Role
	Bottom    []engine.Role // the cards dealt to no seat (rules-more.md: a thief's two)
	Seed      uint64
	HasSeed   bool
	Options   []Option
	Clock     *Decision // a header clock line
	Sections  []Section
	Expects   []Expect
	BoardLine int
	RolesLine int
	// BottomLine is the line of the bottom header (0 = none).
	BottomLine int
}

// Option is a board-option override.
type Option struct {
	Key, Value string
	Line       int
}

// Section is a 第N夜 or 第N天 section.
type Section struct {
	Night     bool
	N         int
	Line      int
	Decisions []Decision
}

func (s Section) String() string {
	if s.Night {
		return fmt.Sprintf("第%d夜", s.N)
	}
	return fmt.Sprintf("第%d天", s.N)
}

// Kind is what a decision does.
type Kind int

const (
	KNight    Kind = iota + 1 // Role + Seats[0] or Word (分歧 救 毒 不用 刀)
	KSignup                   // 上警 Seats
	KWithdraw                 // 退水 Seats
	KVote                     // VoteKind + Votes
	KSkill                    // 技能 Seats[0] → Seats[1] or Word 不發動
	KBadge                    // 警徽 Seats[0] or Word 撕毀
	KOrder                    // 發言順序 Word 順|逆
	KExplode                  // 自爆 Seats[0], Window, Seats[1] = 帶走
	KDuel                     // 決鬥 Seats[0] Seats[1]
	KGuide                    // 歸票 Seats or Word 不歸
	KReveal                   // 翻牌 Seats[0]
	KDQ                       // 點殺 Seats[0]
	KPenalty                  // 扣分 Seats[0] Points
	KVoid                     // 流局
	KClock                    // clock Hour Minute
	KTake                     // internal: the white wolf king's 帶走 after 自爆
	KLucky                    // 幸運兒 Word 驗|毒 Seats[0]: the lucky one uses the gift
)

// KInterject is 插話 Seats[0]: a revealed idiot cuts into the next speech of
// another player (idiot.interject). Numbered apart from the block above, so
// kinds appended there by other roles never share its value.
const KInterject Kind = 1000

// Decision is one line of a section.
type Decision struct {
	Line     int
	Kind     Kind
	Role     engine.Role
	Seats    []int
	Word     string
	Window   string
	VoteKind engine.VoteKind
	Votes    []engine.Vote
	Points   float64
	Hour     int
	Minute   int
	Text     string
	Card     engine.Role // 盜賊: the bottom card kept
}

// Expect is an expectation line.
type Expect struct {
	Line int
	What string // winner dead alive sheriff death check exile … lines no-line
	Args []string
	Text string
}

// ParseError names the line of a malformed scenario.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// keyword spellings: Traditional (canonical), Simplified and English.
func keyword(tok string) string {
	switch tok {
	case "board", "roles", "seed", "option", "clock", "expect", "bottom":
		return tok
	case "上警", "signup":
		return "上警"
	case "退水", "withdraw":
		return "退水"
	case "警長投票", "警长投票", "sheriff-vote":
		return "警長投票"
	case "警長PK投票", "警长PK投票", "sheriff-pk-vote":
		return "警長PK投票"
	case "放逐投票", "exile-vote":
		return "放逐投票"
	case "放逐PK投票", "exile-pk-vote":
		return "放逐PK投票"
	case "技能", "skill":
		return "技能"
	case "警徽", "badge":
		return "警徽"
	case "發言順序", "发言顺序", "order":
		return "發言順序"
	case "自爆", "explode":
		return "自爆"
	case "決鬥", "决斗", "決斗", "duel":
		return "決鬥"
	case "插話", "插话", "interject":
		return "插話"
	case "歸票", "归票", "guide":
		return "歸票"
	case "翻牌", "reveal":
		return "翻牌"
	case "點殺", "点杀", "dq":
		return "點殺"
	case "扣分", "penalty":
		return "扣分"
	case "流局", "void":
		return "流局"
	}
	return ""
}

func word(tok string) string {
	switch tok {
	case "救", "save":
		return "救"
	case "毒", "poison":
		return "毒"
	case "不用", "none", "pass":
		return "不用"
	case "分歧", "split":
		return "分歧"
	case "刀", "kill":
		return "刀"
	case "不發動", "不发动", "no":
		return "不發動"
	case "撕毀", "撕毁", "tear":
		return "撕毀"
	case "順", "顺", "asc":
		return "順"
	case "逆", "desc":
		return "逆"
	case "不歸", "不归":
		return "不歸"
	case "刺", "暗殺", "暗杀", "stab":
		return "刺"
	case "不刺", "spare":
		return "不刺"
	case "帶走", "带走", "take":
		return "帶走"
	case "@警上", "@警上自爆":
		return string(engine.WindowElection)
	case "@退水":
		return string(engine.WindowWithdraw)
	case "@放逐":
		return string(engine.WindowExile)
	case "@白天":
		return string(engine.WindowDay)
	case "@遺言", "@遗言":
		return windowLastWords
	}
	return tok
}

// windowLastWords is 自爆's @遺言: a last-words speech (explode.windows
// any_speech or any_but_vote).
const windowLastWords = "遺言"

// sectionHeader parses 第N夜 / 第N天 / night N / day N.
func sectionHeader(toks []string) (night bool, n int, ok bool) {
	if len(toks) == 2 && (toks[0] == "night" || toks[0] == "day") {
		n, err := strconv.Atoi(toks[1])
		return toks[0] == "night", n, err == nil && n >= 1 && n <= 99
	}
	if len(toks) != 1 {
		return false, 0, false
	}
	t := toks[0]
	if !strings.HasPrefix(t, "第") {
		return false, 0, false
	}
	t = strings.TrimPrefix(t, "第")
	switch {
	case strings.HasSuffix(t, "夜"), strings.HasSuffix(t, "晚"):
		night = true
		t = strings.TrimSuffix(strings.TrimSuffix(t, "夜"), "晚")
	case strings.HasSuffix(t, "天"):
		t = strings.TrimSuffix(t, "天")
	default:
		return false, 0, false
	}
	n, err := strconv.Atoi(t)
	return night, n, err == nil && n >= 1 && n <= 99
}

func seatNum(tok string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSuffix(tok, "號"))
	if err != nil || n < 0 || n > 99 {
		return 0, fmt.Errorf("want a seat number, got %q", tok)
	}
	return n, nil
}

func seatList(toks []string) ([]int, error) {
	var out []int
	for _, t := range toks {
		n, err := seatNum(t)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

func parseClock(tok string) (int, int, error) {
	h, m, ok := strings.Cut(tok, ":")
	hh, e1 := strconv.Atoi(h)
	mm, e2 := strconv.Atoi(m)
	if !ok || e1 != nil || e2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 || len(m) != 2 {
		return 0, 0, fmt.Errorf("want HH:MM, got %q", tok)
	}
	return hh, mm, nil
}

// nightRole maps a night decision's first word to a role.
func nightRole(tok string) (engine.Role, bool) {
	if tok == "wolves" || tok == "wolf" {
		return engine.Werewolf, true
	}
	ri, ok := engine.LookupRole(tok)
	if !ok {
		return "", false
	}
	return ri.ID, true
}

// Parse reads a scenario file. It never panics; errors name the line.
func Parse(name string, src []byte) (*File, error) {
	f := &File{Name: name}
	var sec *Section
	fail := func(line int, format string, a ...any) error {
		return &ParseError{File: name, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	for i, raw := range strings.Split(string(src), "\n") {
		ln := i + 1
		text := raw
		if j := strings.IndexByte(text, '#'); j >= 0 {
			text = text[:j]
		}
		toks := strings.Fields(text)
		if len(toks) == 0 {
			continue
		}
		if f.Board == "" && toks[0] != "board" {
			return nil, fail(ln, "the first directive must be `board`")
		}
		if night, n, ok := sectionHeader(toks); ok {
			f.Sections = append(f.Sections, Section{Night: night, N: n, Line: ln})
			sec = &f.Sections[len(f.Sections)-1]
			continue
		}
		kw := keyword(toks[0])
		args := toks[1:]
		switch kw {
		case "board":
			if f.Board != "" {
				return nil, fail(ln, "duplicate board")
			}
			if len(args) != 1 {
				return nil, fail(ln, "board takes one id or name")
			}
			f.Board, f.BoardLine = args[0], ln
			continue
		case "roles":
			if sec != nil || f.Roles != nil {
				return nil, fail(ln, "roles belongs in the header, once")
			}
			for _, a := range args {
				ri, ok := engine.LookupRole(a)
				if !ok {
					return nil, fail(ln, "unknown role %q", a)
				}
				f.Roles = append(f.Roles, ri.ID)
			}
			if len(f.Roles) == 0 {
				return nil, fail(ln, "roles lists one role per seat")
			}
			f.RolesLine = ln
			continue
		case "bottom":
			if sec != nil || f.Bottom != nil {
				return nil, fail(ln, "bottom belongs in the header, once")
			}
			for _, a := range args {
				ri, ok := engine.LookupRole(a)
				if !ok {
					return nil, fail(ln, "unknown role %q", a)
				}
				f.Bottom = append(f.Bottom, ri.ID)
			}
			if len(f.Bottom) == 0 {
				return nil, fail(ln, "bottom lists the cards dealt to no seat")
			}
			f.BottomLine = ln
			continue
		case "seed":
			if sec != nil || len(args) != 1 {
				return nil, fail(ln, "seed belongs in the header and takes one number")
			}
			v, err := strconv.ParseUint(args[0], 10, 64)
			if err != nil {
				return nil, fail(ln, "bad seed %q", args[0])
			}
			f.Seed, f.HasSeed = v, true
			continue
		case "option":
			if sec != nil {
				return nil, fail(ln, "option belongs in the header")
			}
			var k, v string
			if len(args) == 1 {
				k, v, _ = strings.Cut(args[0], "=")
			} else if len(args) == 2 {
				k, v = args[0], args[1]
			}
			if k == "" || v == "" {
				return nil, fail(ln, "option KEY=VALUE")
			}
			f.Options = append(f.Options, Option{Key: k, Value: v, Line: ln})
			continue
		case "expect":
			e, err := parseExpect(args)
			if err != nil {
				return nil, fail(ln, "%v", err)
			}
			e.Line, e.Text = ln, strings.TrimSpace(text)
			f.Expects = append(f.Expects, e)
			continue
		}
		d, err := parseDecision(kw, toks)
		if err != nil {
			return nil, fail(ln, "%v", err)
		}
		d.Line, d.Text = ln, strings.TrimSpace(text)
		if sec == nil {
			if d.Kind == KClock && f.Clock == nil {
				f.Clock = &d
				continue
			}
			return nil, fail(ln, "decision %q outside a 第N夜/第N天 section", toks[0])
		}
		sec.Decisions = append(sec.Decisions, d)
	}
	if f.Board == "" {
		return nil, fail(1, "missing board")
	}
	if f.Roles == nil {
		return nil, fail(f.BoardLine, "missing roles")
	}
	last := 0
	for _, s := range f.Sections {
		ord := s.N * 2
		if s.Night {
			ord--
		}
		if ord <= last {
			return nil, fail(s.Line, "section %s is out of order", s)
		}
		last = ord
	}
	return f, nil
}

func parseDecision(kw string, toks []string) (Decision, error) {
	args := toks[1:]
	d := Decision{}
	need := func(n int) error {
		if len(args) != n {
			return fmt.Errorf("%s takes %d argument(s)", toks[0], n)
		}
		return nil
	}
	var err error
	switch kw {
	case "clock":
		if err = need(1); err != nil {
			return d, err
		}
		d.Kind = KClock
		d.Hour, d.Minute, err = parseClock(args[0])
		return d, err
	case "上警", "退水":
		d.Kind = KSignup
		if kw == "退水" {
			d.Kind = KWithdraw
		}
		if len(args) == 0 {
			return d, fmt.Errorf("%s lists seats", toks[0])
		}
		d.Seats, err = seatList(args)
		return d, err
	case "警長投票", "警長PK投票", "放逐投票", "放逐PK投票":
		d.Kind = KVote
		d.VoteKind = map[string]engine.VoteKind{"警長投票": engine.VoteSheriff, "警長PK投票": engine.VoteSheriffPK, "放逐投票": engine.VoteExile, "放逐PK投票": engine.VoteExilePK}[kw]
		seen := map[int]bool{}
		for _, a := range args {
			v, t, ok := strings.Cut(a, ":")
			if !ok {
				return d, fmt.Errorf("votes are voter:target, got %q", a)
			}
			vv, e1 := seatNum(v)
			tt, e2 := seatNum(t)
			if e1 != nil || e2 != nil {
				return d, fmt.Errorf("bad vote %q", a)
			}
			if seen[vv] {
				return d, fmt.Errorf("seat %d votes twice", vv)
			}
			seen[vv] = true
			d.Votes = append(d.Votes, engine.Vote{Voter: vv, Target: tt})
		}
		return d, nil
	case "技能":
		d.Kind = KSkill
		if err = need(2); err != nil {
			return d, err
		}
		s, err := seatNum(args[0])
		if err != nil {
			return d, err
		}
		d.Seats = []int{s}
		if w := word(args[1]); w == "不發動" {
			d.Word = w
			return d, nil
		}
		t, err := seatNum(args[1])
		d.Seats = append(d.Seats, t)
		return d, err
	case "警徽":
		d.Kind = KBadge
		if err = need(1); err != nil {
			return d, err
		}
		if word(args[0]) == "撕毀" {
			d.Word = "撕毀"
			return d, nil
		}
		d.Seats, err = seatList(args)
		return d, err
	case "發言順序":
		d.Kind = KOrder
		if err = need(1); err != nil {
			return d, err
		}
		d.Word = word(args[0])
		if d.Word != "順" && d.Word != "逆" {
			return d, fmt.Errorf("發言順序 is 順 or 逆")
		}
		return d, nil
	case "自爆":
		d.Kind = KExplode
		if len(args) == 0 {
			return d, fmt.Errorf("自爆 SEAT [@警上|@退水|@放逐] [帶走 SEAT]")
		}
		s, err := seatNum(args[0])
		if err != nil {
			return d, err
		}
		d.Seats = []int{s}
		// the options, in any order: @WINDOW, 帶走 SEAT
		take := false
		for rest := args[1:]; len(rest) > 0; {
			switch {
			case strings.HasPrefix(rest[0], "@"):
				if d.Window != "" {
					return d, fmt.Errorf("two windows after 自爆")
				}
				d.Window = word(rest[0])
				if d.Window == rest[0] {
					return d, fmt.Errorf("unknown window %q (@警上 @退水 @放逐 @白天 @遺言)", rest[0])
				}
				rest = rest[1:]
			case word(rest[0]) == "帶走" && len(rest) >= 2:
				if take {
					return d, fmt.Errorf("帶走 twice after 自爆")
				}
				t, err := seatNum(rest[1])
				if err != nil {
					return d, err
				}
				d.Seats, take = append(d.Seats, t), true
				rest = rest[2:]
			default:
				return d, fmt.Errorf("unexpected %q after 自爆", strings.Join(rest, " "))
			}
		}
		return d, nil
	case "插話":
		d.Kind = KInterject
		if err = need(1); err != nil {
			return d, err
		}
		d.Seats, err = seatList(args)
		return d, err
	case "決鬥":
		d.Kind = KDuel
		if err = need(2); err != nil {
			return d, err
		}
		d.Seats, err = seatList(args)
		return d, err
	case "歸票":
		d.Kind = KGuide
		if len(args) == 1 && word(args[0]) == "不歸" {
			d.Word = "不歸"
			return d, nil
		}
		if len(args) < 1 || len(args) > 2 {
			return d, fmt.Errorf("歸票 SEAT [SEAT] or 歸票 不歸")
		}
		d.Seats, err = seatList(args)
		return d, err
	case "翻牌":
		d.Kind = KReveal
		if err = need(1); err != nil {
			return d, err
		}
		d.Seats, err = seatList(args)
		return d, err
	case "點殺":
		d.Kind = KDQ
		if err = need(1); err != nil {
			return d, err
		}
		d.Seats, err = seatList(args)
		return d, err
	case "扣分":
		d.Kind = KPenalty
		if err = need(2); err != nil {
			return d, err
		}
		if d.Seats, err = seatList(args[:1]); err != nil {
			return d, err
		}
		d.Points, err = strconv.ParseFloat(args[1], 64)
		if err != nil || d.Points <= 0 || d.Points > 3 {
			return d, fmt.Errorf("bad points %q", args[1])
		}
		return d, nil
	case "流局":
		d.Kind = KVoid
		return d, need(0)
	}
	if toks[0] == "幸運兒" || toks[0] == "幸运儿" {
		// 幸運兒 驗 3 · 幸運兒 毒 3: the lucky one is a status, not a card
		if len(args) != 2 || (luckyVerb(args[0]) == "") {
			return d, fmt.Errorf("幸運兒 驗 N | 幸運兒 毒 N")
		}
		d.Kind, d.Word = KLucky, luckyVerb(args[0])
		d.Seats, err = seatList(args[1:])
		return d, err
	}
	r, ok := nightRole(toks[0])
	if !ok {
		return d, fmt.Errorf("unknown directive %q", toks[0])
	}
	d.Kind, d.Role = KNight, r
	return nightArgs(d, toks[0], args)
}

func parseExpect(args []string) (Expect, error) {
	e := Expect{}
	if len(args) == 0 {
		return e, fmt.Errorf("expect what?")
	}
	e.What, e.Args = args[0], args[1:]
	n := len(e.Args)
	seats := func(from int) error {
		for _, a := range e.Args[from:] {
			if _, err := seatNum(a); err != nil {
				return err
			}
		}
		return nil
	}
	switch e.What {
	case "winner":
		if n != 1 {
			return e, fmt.Errorf("expect winner 好人|狼人|無|流局")
		}
		if _, ok := winnerOf(e.Args[0]); ok {
			return e, nil
		}
		return e, fmt.Errorf("unknown winner %q", e.Args[0])
	case "dead", "alive":
		if n == 0 {
			return e, fmt.Errorf("expect %s lists seats", e.What)
		}
		return e, seats(0)
	case "sheriff":
		if n != 1 {
			return e, fmt.Errorf("expect sheriff SEAT")
		}
		return e, seats(0)
	case "death":
		if n != 2 {
			return e, fmt.Errorf("expect death SEAT CAUSE")
		}
		if !slices.Contains(engine.Causes(), engine.Cause(e.Args[1])) { // the engine's causes: a new one needs no line here
			return e, fmt.Errorf("unknown cause %q", e.Args[1])
		}
		_, err := seatNum(e.Args[0])
		return e, err
	case "check":
		if n != 3 {
			return e, fmt.Errorf("expect check BY TARGET RESULT")
		}
		for _, a := range e.Args[:2] {
			if _, err := seatNum(a); err != nil {
				return e, err
			}
		}
		return e, nil
	case "exile":
		if n != 2 {
			return e, fmt.Errorf("expect exile DAY SEAT")
		}
		return e, seats(0)
	case "roar":
		if n != 2 || (e.Args[1] != "是" && e.Args[1] != "否") {
			return e, fmt.Errorf("expect roar DAY 是|否")
		}
		_, err := seatNum(e.Args[0])
		return e, err
	case "role":
		if n != 2 {
			return e, fmt.Errorf("expect role SEAT ROLE")
		}
		if _, ok := engine.LookupRole(e.Args[1]); !ok {
			return e, fmt.Errorf("unknown role %q", e.Args[1])
		}
		_, err := seatNum(e.Args[0])
		return e, err
	case "silenced":
		if n != 2 {
			return e, fmt.Errorf("expect silenced DAY SEAT")
		}
		return e, seats(0)
	case "follow":
		if n != 2 || (e.Args[1] != "勝" && e.Args[1] != "負") {
			return e, fmt.Errorf("expect follow SEAT 勝|負")
		}
		_, err := seatNum(e.Args[0])
		return e, err
	case "lovers":
		if n != 2 {
			return e, fmt.Errorf("expect lovers SEAT SEAT")
		}
		return e, seats(0)
	case "lines", "no-line":
		return e, parseLinesExpect(e)
	}
	return e, fmt.Errorf("unknown expectation %q", e.What)
}

// Reject is a rejection case of the rules suite: the file's first line is
//
//	# reject-line: N REASON
//
// and the file must be refused (exit status 2) at line N for that reason.
// REASON is one of
//
//	parse             a parse error (the file is not valid scenario text)
//	ErrRule           the engine's error code (see CodeName), optionally
//	ErrRule "words"   followed by a quoted phrase the refusal must contain
//	"words"           a refusal of the runner itself (not the engine's), e.g.
//	                  "ended first" for a window that never opened
//
// so a file passes only on the refusal it was written for.
type Reject struct {
	Line   int
	Code   string // "parse", an engine code name, or "" (the runner's refusal)
	Phrase string // "" = any message
}

// codeNames are the names of engine.ErrorCode values in a reject header:
// the engine's constant names.
var codeNames = map[engine.ErrorCode]string{
	engine.ErrNotNow:       "ErrNotNow",
	engine.ErrNotActor:     "ErrNotActor",
	engine.ErrBadTarget:    "ErrBadTarget",
	engine.ErrRule:         "ErrRule",
	engine.ErrGameOver:     "ErrGameOver",
	engine.ErrUnknownTimer: "ErrUnknownTimer",
	engine.ErrPaused:       "ErrPaused",
	engine.ErrBadInput:     "ErrBadInput",
}

// CodeName is the name of an engine error code in a reject header; "" for 0
// (not the engine's refusal).
func CodeName(c engine.ErrorCode) string {
	if c == 0 {
		return ""
	}
	if n, ok := codeNames[c]; ok {
		return n
	}
	return fmt.Sprintf("ErrorCode(%d)", int(c))
}

// ParseReject reads a file's "# reject-line:" header. ok is false when the
// first line is not one; err says what is wrong with a header that is.
func ParseReject(src []byte) (r Reject, ok bool, err error) {
	first, _, _ := strings.Cut(string(src), "\n")
	v, found := strings.CutPrefix(strings.TrimSpace(first), "# reject-line:")
	if !found {
		return Reject{}, false, nil
	}
	v = strings.TrimSpace(v)
	num, rest, _ := strings.Cut(v, " ")
	r.Line, err = strconv.Atoi(num)
	if err != nil || r.Line < 1 {
		return r, true, fmt.Errorf("reject-line: %q is not a line number", num)
	}
	rest = strings.TrimSpace(rest)
	if rest != "" && rest[0] != '"' {
		r.Code, rest, _ = strings.Cut(rest, " ")
		rest = strings.TrimSpace(rest)
		if r.Code != "parse" && !knownCode(r.Code) {
			return r, true, fmt.Errorf("reject-line: unknown reason %q (parse, an engine code such as ErrRule, or a quoted phrase)", r.Code)
		}
	}
	if rest != "" {
		q, err := strconv.Unquote(rest)
		if err != nil || q == "" {
			return r, true, fmt.Errorf("reject-line: %s is not a quoted phrase", rest)
		}
		r.Phrase = q
	}
	if r.Code == "" && r.Phrase == "" {
		return r, true, fmt.Errorf("reject-line: line %d needs a reason: parse, an engine code such as ErrRule, or a quoted phrase", r.Line)
	}
	return r, true, nil
}

func knownCode(name string) bool {
	for _, n := range codeNames {
		if n == name {
			return true
		}
	}
	return false
}

func (r Reject) String() string {
	s := strconv.Itoa(r.Line)
	if r.Code != "" {
		s += " " + r.Code
	}
	if r.Phrase != "" {
		s += " " + strconv.Quote(r.Phrase)
	}
	return s
}

// Check says whether a file was refused as r requires: parseErr is what
// Parse returned, res the run (nil when the parse failed). nil = it was.
func (r Reject) Check(parseErr error, res *Result) error {
	line, code, msg := 0, "", ""
	switch {
	case parseErr != nil:
		pe, ok := parseErr.(*ParseError)
		if !ok {
			return parseErr
		}
		line, code, msg = pe.Line, "parse", pe.Msg
	case res == nil || res.Err == nil:
		return fmt.Errorf("line %d was accepted; it must be refused (%s)", r.Line, r)
	default:
		line, code, msg = res.Err.Line, CodeName(res.Err.Code), res.Err.Msg
	}
	got := fmt.Sprintf("line %d", line)
	if code != "" {
		got += " " + code
	}
	got += ": " + msg
	switch {
	case line != r.Line:
		return fmt.Errorf("refused at %s; want line %d", got, r.Line)
	case code != r.Code:
		want := r.Code
		if want == "" {
			want = "the runner's own refusal"
		}
		return fmt.Errorf("refused at %s; want %s", got, want)
	case !strings.Contains(msg, r.Phrase):
		return fmt.Errorf("refused at %s; want the phrase %q", got, r.Phrase)
	}
	return nil
}

// luckyVerb reads the lucky one's verb: 驗 (the glasses) or 毒 (the poison).
func luckyVerb(tok string) string {
	switch tok {
	case "驗", "验", "check":
		return "驗"
	case "毒", "poison":
		return "毒"
	}
	return ""
}
