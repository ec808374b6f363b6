package boards

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"wolftable/engine"
)

// Limits of the file format (doc.go).
const (
	minPlayers = 6
	maxPlayers = 18
	maxBottom  = 2 // bottom cards beyond the seats (a thief picks from two)
	maxSeconds = 600
	maxNight   = 99
	maxIDLen   = 64
)

// Error is a problem in a board: the file, the 1-based line (0 when the
// problem has no line, as for a board built in code) and what is wrong.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("boards: %s:%d: %s", e.File, e.Line, e.Msg)
	case e.File != "":
		return fmt.Sprintf("boards: %s: %s", e.File, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("boards: line %d: %s", e.Line, e.Msg)
	}
	return "boards: " + e.Msg
}

// lines records where each part of a parsed board was written, for messages.
// A board built in code has none (every line 0).
type lines struct {
	id, name, players, roles, win int
	nights                        []int // the line of b.Nights[i]
	options                       map[string]int
	preset                        int
	allowNoWolves                 int // "allow night-without-wolves" (wolves.go)
}

func (l *lines) night(i int) int {
	if l == nil || i >= len(l.nights) {
		return 0
	}
	return l.nights[i]
}

// Parse reads one board file. file names the file in messages and becomes
// the board's Source. Errors are *Error.
func Parse(file string, src []byte) (*engine.Board, error) {
	b, _, err := parse(file, src)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Validate checks a board built or changed in code by the rules Parse
// applies to a file. Every board Parse returns passes it.
func Validate(b *engine.Board) error {
	if b == nil {
		return &Error{Msg: "nil board"}
	}
	return validate(b, &lines{})
}

type parser struct {
	file string
	b    *engine.Board
	at   *lines
	// night lines in file order, sorted into b.Nights at the end
	plans     []engine.NightPlan
	planLines []int
}

func (p *parser) errorf(line int, format string, args ...any) *Error {
	return &Error{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func parse(file string, src []byte) (*engine.Board, *lines, error) {
	p := &parser{
		file: file,
		b:    &engine.Board{Source: file, Options: engine.DefaultOptions()},
		at:   &lines{options: map[string]int{}},
	}
	text := string(src)
	text = strings.TrimPrefix(text, "\uFEFF")
	for i := 0; len(text) > 0; i++ {
		var raw string
		raw, text, _ = strings.Cut(text, "\n")
		if err := p.line(i+1, strings.TrimSuffix(raw, "\r")); err != nil {
			return nil, nil, err
		}
	}
	for _, d := range []struct {
		name string
		line int
	}{{"id", p.at.id}, {"name", p.at.name}, {"players", p.at.players}, {"roles", p.at.roles}} {
		if d.line == 0 {
			return nil, nil, p.errorf(1, "missing %s line", d.name)
		}
	}
	if len(p.plans) == 0 {
		// no night line: seed 004's order (order.go)
		plans, err := seed004Nights(p.b.Roles, p.b.Options)
		if err != nil {
			return nil, nil, p.errorf(p.at.roles, "no night line, and %s", err.Error())
		}
		for _, pl := range plans {
			p.plans, p.planLines = append(p.plans, pl), append(p.planLines, p.at.roles)
		}
		if _, set := p.at.options["idiot.name"]; !set && p.b.Has(engine.Idiot) {
			p.b.Options.IdiotName = "baichi" // [004] "14 白痴": a derived board names the card as seed 004 does (I7)
		}
	}
	// Nights in order of their first night; plans that start on the same
	// night keep file order, so an overlap is reported at the later line.
	idx := make([]int, len(p.plans))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool { return p.plans[idx[x]].From < p.plans[idx[y]].From })
	for _, i := range idx {
		p.b.Nights = append(p.b.Nights, p.plans[i])
		p.at.nights = append(p.at.nights, p.planLines[i])
	}
	if err := validate(p.b, p.at); err != nil {
		return nil, nil, err
	}
	if err := p.wolvesEveryNight(); err != nil {
		return nil, nil, err
	}
	return p.b, p.at, nil
}

func (p *parser) line(n int, raw string) error {
	if !utf8.ValidString(raw) {
		return p.errorf(n, "not valid UTF-8")
	}
	if i := strings.IndexByte(raw, '#'); i >= 0 {
		raw = raw[:i]
	}
	f := strings.Fields(raw)
	if len(f) == 0 {
		return nil
	}
	switch f[0] {
	case "id":
		if err := p.once(n, "id", &p.at.id); err != nil {
			return err
		}
		if len(f) != 2 {
			return p.errorf(n, "id wants one word, got %d", len(f)-1)
		}
		p.b.ID = f[1]
		if msg := checkID(p.b.ID); msg != "" {
			return p.errorf(n, "%s", msg)
		}
	case "name":
		if err := p.once(n, "name", &p.at.name); err != nil {
			return err
		}
		if len(f) < 2 {
			return p.errorf(n, "name wants the board's name")
		}
		p.b.Name = strings.Join(f[1:], " ")
		if msg := checkName(p.b.Name); msg != "" {
			return p.errorf(n, "%s", msg)
		}
	case "players":
		if err := p.once(n, "players", &p.at.players); err != nil {
			return err
		}
		if len(f) != 2 {
			return p.errorf(n, "players wants one number, got %d words", len(f)-1)
		}
		v, ok := number(f[1])
		if !ok {
			return p.errorf(n, "players %q is not a number %d..%d", f[1], minPlayers, maxPlayers)
		}
		p.b.Players = v
		if msg := checkPlayers(v); msg != "" {
			return p.errorf(n, "%s", msg)
		}
	case "roles":
		if err := p.once(n, "roles", &p.at.roles); err != nil {
			return err
		}
		return p.roles(n, f[1:])
	case "night":
		return p.night(n, f[1:])
	case "win":
		if err := p.once(n, "win", &p.at.win); err != nil {
			return err
		}
		if len(f) != 2 {
			return p.errorf(n, "win wants one word (屠邊 or 屠城), got %d", len(f)-1)
		}
		w, ok := winRules[f[1]]
		if !ok {
			return p.errorf(n, "win %q: want 屠邊 (wolves kill every god or every villager) or 屠城 (wolves kill everyone)", f[1])
		}
		p.b.Win = w
	case "preset":
		if err := p.once(n, "preset", &p.at.preset); err != nil {
			return err
		}
		if len(f) != 2 {
			return p.errorf(n, "preset wants one name (%s), got %d words", strings.Join(engine.PresetNames(), " or "), len(f)-1)
		}
		for k, at := range p.at.options {
			return p.errorf(n, "preset must come before the option lines (option %s on line %d)", k, at)
		}
		// keys of roles this build lacks are pending (engine.ApplyPreset)
		if _, err := p.b.Options.ApplyPreset(f[1]); err != nil {
			return p.errorf(n, "%s", err.Error())
		}
		p.b.Preset = f[1]
	case "allow":
		return p.allow(n, f[1:])
	case "option":
		if len(f) != 3 {
			return p.errorf(n, "option wants KEY VALUE, got %d words", len(f)-1)
		}
		if first, dup := p.at.options[f[1]]; dup {
			return p.errorf(n, "duplicate option %s (first on line %d)", f[1], first)
		}
		if err := p.b.Options.Set(f[1], f[2]); err != nil {
			return p.errorf(n, "%s", err.Error())
		}
		p.at.options[f[1]] = n
	default:
		return p.errorf(n, "unknown directive %q (want id, name, players, roles, win, night or option)", f[0])
	}
	return nil
}

// winRules are the words of the win directive (Traditional and Simplified).
var winRules = map[string]engine.WinRule{"屠邊": engine.WinSides, "屠边": engine.WinSides, "屠城": engine.WinTown}

// once records the line of a directive that may appear once.
func (p *parser) once(n int, name string, at *int) error {
	if *at != 0 {
		return p.errorf(n, "duplicate %s (first on line %d)", name, *at)
	}
	*at = n
	return nil
}

func (p *parser) roles(n int, toks []string) error {
	if len(toks) == 0 {
		return p.errorf(n, "roles wants at least one role")
	}
	total := 0
	for _, tok := range toks {
		name, count := tok, 1
		if i := strings.LastIndexByte(tok, '*'); i >= 0 {
			name = tok[:i]
			k, ok := number(tok[i+1:])
			if !ok || k < 1 || k > maxPlayers {
				return p.errorf(n, "bad count in %q (want ROLE*1..%d)", tok, maxPlayers)
			}
			count = k
		}
		ri, ok := engine.LookupRole(name)
		if !ok {
			return p.errorf(n, "unknown role %q", name)
		}
		if total += count; total > maxPlayers+maxBottom {
			return p.errorf(n, "more than %d roles", maxPlayers+maxBottom)
		}
		for j := 0; j < count; j++ {
			p.b.Roles = append(p.b.Roles, ri.ID)
		}
	}
	return nil
}

func (p *parser) night(n int, args []string) error {
	if len(args) < 2 {
		return p.errorf(n, "night wants a night range (1, 2-3, 2-) and at least one step")
	}
	from, to, ok := nightRange(args[0])
	if !ok {
		return p.errorf(n, "bad night range %q (want N, N-M or N-, nights 1..%d)", args[0], maxNight)
	}
	plan := engine.NightPlan{From: from, To: to}
	for _, tok := range args[1:] {
		s, msg := parseStep(tok)
		if msg == "" {
			msg = checkStep(s)
		}
		if msg != "" {
			return p.errorf(n, "night %s: step %q: %s", args[0], tok, msg)
		}
		plan.Steps = append(plan.Steps, s)
	}
	p.plans = append(p.plans, plan)
	p.planLines = append(p.planLines, n)
	return nil
}

// nightRange reads "N", "N-M" or "N-"; To is 0 for "N-".
func nightRange(s string) (from, to int, ok bool) {
	a, b, dash := strings.Cut(s, "-")
	from, ok = number(a)
	if !ok || from < 1 || from > maxNight {
		return 0, 0, false
	}
	switch {
	case !dash:
		return from, from, true
	case b == "":
		return from, 0, true
	}
	to, ok = number(b)
	if !ok || to < from || to > maxNight {
		return 0, 0, false
	}
	return from, to, true
}

// parseStep reads KIND/SECONDS[/hurry=S][/mark=ROLE][/open][/line=FROM>TO…]; the problem is "" when
// the syntax is right (checkStep judges the values).
func parseStep(tok string) (engine.Step, string) {
	parts := strings.Split(tok, "/")
	if len(parts) < 2 {
		return engine.Step{}, "want KIND/SECONDS[/hurry=S][/mark=ROLE]"
	}
	s := engine.Step{Kind: engine.StepKind(parts[0])}
	if !knownKind(s.Kind) {
		return s, fmt.Sprintf("unknown step kind %q", parts[0])
	}
	secs, ok := number(parts[1])
	if !ok || secs < 1 || secs > maxSeconds {
		return s, fmt.Sprintf("bad seconds %q (want 1..%d)", parts[1], maxSeconds)
	}
	s.Seconds = secs
	var hurry, mark bool
	for _, a := range parts[2:] {
		k, v, _ := strings.Cut(a, "=")
		switch k {
		case "open":
			if v != "" || s.OpenOnly {
				return s, "open takes no value and is given once"
			}
			s.OpenOnly = true
		case "hurry":
			if hurry {
				return s, "hurry given twice"
			}
			hurry = true
			h, ok := number(v)
			if !ok || h < 1 || h >= secs {
				return s, fmt.Sprintf("bad hurry %q (want 1..%d, less than the step's %d seconds)", v, secs-1, secs)
			}
			s.Hurry = h
		case "mark":
			if mark {
				return s, "mark given twice"
			}
			mark = true
			ri, ok := engine.LookupRole(v)
			if !ok {
				return s, fmt.Sprintf("unknown mark role %q", v)
			}
			s.Mark = ri.ID
		case "line":
			// line=FROM>TO: the board's own 語術 for this step (engine.Step.Lines)
			from, to, ok := strings.Cut(v, ">")
			if !ok || !lineID(from) || (to != "-" && !lineID(to)) {
				return s, fmt.Sprintf("bad line %q (want line=FROM>TO, TO a line id or -)", v)
			}
			if s.LineSwap(from) != from {
				return s, fmt.Sprintf("line %s swapped twice", from)
			}
			s.Lines = strings.TrimSpace(s.Lines + " " + from + ">" + to)
		default:
			return s, fmt.Sprintf("unknown attribute %q (want hurry=S, mark=ROLE, open or line=FROM>TO)", a)
		}
	}
	return s, ""
}

// lineID: a script line id ("night.witch.close"): lower-case letters,
// digits, dots and dashes.
func lineID(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// number reads a decimal number of at most four ASCII digits (no sign).
func number(s string) (int, bool) {
	if len(s) == 0 || len(s) > 4 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func knownKind(k engine.StepKind) bool {
	for _, x := range engine.StepKinds() {
		if x == k {
			return true
		}
	}
	return false
}

func knownRole(r engine.Role) bool {
	ri, ok := engine.LookupRole(string(r))
	return ok && ri.ID == r
}

// wakesWithWolves reports whether a role opens its eyes in the wolves' step
// on some night: the engine's role table says (seed 000 二（一）1 writes these
// boards' wolves step as "X+狼人"; 石像鬼 never meets the wolves).
func wakesWithWolves(r engine.Role) bool { ri := r.Info(); return ri.WakesWithWolves(0) }

func checkID(id string) string {
	if id == "" || len(id) > maxIDLen {
		return fmt.Sprintf("bad id %q (want 1..%d bytes)", id, maxIDLen)
	}
	prev := byte('-')
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '-' && prev != '-':
		default:
			return fmt.Sprintf("bad id %q (want lower-case letters and digits joined by single \"-\")", id)
		}
		prev = c
	}
	if prev == '-' {
		return fmt.Sprintf("bad id %q (want lower-case letters and digits joined by single \"-\")", id)
	}
	return ""
}

func checkName(name string) string {
	if name == "" || strings.Join(strings.Fields(name), " ") != name {
		return fmt.Sprintf("bad name %q (want words separated by single spaces)", name)
	}
	if !utf8.ValidString(name) {
		return "name is not valid UTF-8"
	}
	for _, r := range name {
		if !unicode.IsPrint(r) || r == '#' {
			return fmt.Sprintf("bad name %q (character %q)", name, r)
		}
	}
	return ""
}

func checkPlayers(n int) string {
	if n < minPlayers || n > maxPlayers {
		return fmt.Sprintf("players %d out of range %d..%d", n, minPlayers, maxPlayers)
	}
	return ""
}

// checkStep judges one step on its own (not against the composition).
func checkStep(s engine.Step) string {
	if !knownKind(s.Kind) {
		return fmt.Sprintf("unknown step kind %q", string(s.Kind))
	}
	if s.Seconds < 1 || s.Seconds > maxSeconds {
		return fmt.Sprintf("bad seconds %d (want 1..%d)", s.Seconds, maxSeconds)
	}
	if s.Hurry < 0 || s.Hurry >= s.Seconds {
		return fmt.Sprintf("bad hurry %d (want 1..%d, less than the step's %d seconds)", s.Hurry, s.Seconds-1, s.Seconds)
	}
	if s.Mark != "" {
		if !knownRole(s.Mark) {
			return fmt.Sprintf("unknown mark role %q", string(s.Mark))
		}
		if s.Kind != engine.StepWolves {
			return "mark is only for the wolves step"
		}
		if s.Mark == engine.Werewolf || !wakesWithWolves(s.Mark) {
			return fmt.Sprintf("mark %s: want a special wolf that wakes with the wolves", s.Mark)
		}
	}
	return ""
}

func nightSpec(p engine.NightPlan) string {
	switch {
	case p.To == 0:
		return fmt.Sprintf("%d-", p.From)
	case p.To == p.From:
		return strconv.Itoa(p.From)
	}
	return fmt.Sprintf("%d-%d", p.From, p.To)
}

// validate checks a whole board; at says where its parts were written.
func validate(b *engine.Board, at *lines) error {
	e := func(line int, format string, args ...any) error {
		return &Error{File: b.Source, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if msg := checkID(b.ID); msg != "" {
		return e(at.id, "%s", msg)
	}
	if msg := checkName(b.Name); msg != "" {
		return e(at.name, "%s", msg)
	}
	if msg := checkPlayers(b.Players); msg != "" {
		return e(at.players, "%s", msg)
	}

	// The composition.
	wolf, good := false, false
	for _, r := range b.Roles {
		if !knownRole(r) {
			return e(at.roles, "unknown role %q", string(r))
		}
		if r.IsWolf() {
			wolf = true
		} else {
			good = true
		}
	}
	if len(b.Roles) < b.Players {
		return e(at.roles, "%d roles for %d players", len(b.Roles), b.Players)
	}
	if len(b.Roles) > b.Players+maxBottom {
		return e(at.roles, "%d roles for %d players (at most %d bottom cards)", len(b.Roles), b.Players, maxBottom)
	}
	if b.Options.ThiefExtraCards == "two_villagers" && len(b.Roles) != b.Players {
		// rules-more.md G9: the two extra 村民 are the bottom cards
		return e(at.roles, "%d roles for %d players: with thief.extra_cards two_villagers the board lists one card a seat", len(b.Roles), b.Players)
	}
	if msg := checkBottom(b); msg != "" {
		return e(at.roles, "%s", msg)
	}
	if !wolf {
		return e(at.roles, "no wolf-camp role")
	}
	if !good {
		return e(at.roles, "no good role")
	}

	// Each night's steps against the composition.
	if len(b.Nights) == 0 {
		return e(0, "no night plan")
	}
	for i, p := range b.Nights {
		line := at.night(i)
		spec := nightSpec(p)
		if p.From < 1 || p.From > maxNight || p.To < 0 || p.To > maxNight || (p.To != 0 && p.To < p.From) {
			return e(line, "bad night range %q (want N, N-M or N-, nights 1..%d)", spec, maxNight)
		}
		if len(p.Steps) == 0 {
			return e(line, "night %s: no steps", spec)
		}
		for _, s := range p.Steps {
			tok := formatStep(s)
			if msg := checkStep(s); msg != "" {
				return e(line, "night %s: step %q: %s", spec, tok, msg)
			}
			if s.Kind == engine.StepWolves {
				if !hasWolfPack(b) {
					return e(line, "night %s: step %q: no role that wakes with the wolves is in the roles", spec, tok)
				}
			} else if r, _ := s.Kind.Role(); !b.Has(r) {
				return e(line, "night %s: step %q: %s (%s) is not in the roles", spec, tok, r, r.Name())
			}
			if s.Mark != "" && !b.Has(s.Mark) {
				return e(line, "night %s: step %q: mark %s (%s) is not in the roles", spec, tok, s.Mark, s.Mark.Name())
			}
		}
	}

	// The plans cover night 1 and every later night, once.
	order := make([]int, len(b.Nights))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return b.Nights[order[x]].From < b.Nights[order[y]].From })
	first := b.Nights[order[0]]
	if first.From != 1 {
		return e(at.night(order[0]), "night plans start at night %d: night 1 has no plan", first.From)
	}
	for k := 1; k < len(order); k++ {
		prev, cur := b.Nights[order[k-1]], b.Nights[order[k]]
		line := at.night(order[k])
		switch {
		case prev.To == 0 || cur.From <= prev.To:
			return e(line, "night %s overlaps night %s (line %d)", nightSpec(cur), nightSpec(prev), at.night(order[k-1]))
		case cur.From > prev.To+1:
			return e(line, "no plan for night %s (between night %s and night %s)",
				nightSpec(engine.NightPlan{From: prev.To + 1, To: cur.From - 1}), nightSpec(prev), nightSpec(cur))
		}
	}
	if last := b.Nights[order[len(order)-1]]; last.To != 0 {
		return e(at.night(order[len(order)-1]), "no plan for the nights after night %d (write the last plan as \"%d-\")", last.To, last.From)
	}

	// Roles whose night skill is the game's backbone (StepInfo.Needed) must wake some night.
	woken := map[engine.StepKind]bool{}
	for _, p := range b.Nights {
		for _, s := range p.Steps {
			woken[s.Kind] = true
		}
	}
	for _, k := range engine.NeededSteps() {
		if r, _ := k.Role(); b.Has(r) && !woken[k] {
			return e(at.roles, "%s (%s) has no night step", r, r.Name())
		}
	}
	if hasWolfPack(b) && !woken[engine.StepWolves] {
		return e(at.roles, "the wolves (狼人) have no night step")
	}

	if b.Preset != "" {
		if _, ok := engine.PresetSettings(b.Preset); !ok {
			return e(at.preset, "unknown preset %q (want %s)", b.Preset, strings.Join(engine.PresetNames(), " or "))
		}
	}
	// Options: every value must be one Options.Set accepts.
	for _, key := range engine.OptionNames() {
		v, _ := b.Options.Get(key)
		if key == "speaking.exile_clock_rule" && v == "" {
			continue // "" = same as speaking.clock_rule
		}
		var o engine.Options
		if err := o.Set(key, v); err != nil {
			return e(at.options[key], "%s", err.Error())
		}
	}
	return nil
}

// checkBottom: the bottom cards are the thief's two ([003] 9 "游戏开始时，多加入两张身份牌";
// [001] "盗贼在游戏开始前多加两张游戏卡牌"; rules-more.md I2): a board with 盜賊
// deals exactly two cards more than seats, a board without it one a seat.
func checkBottom(b *engine.Board) string {
	cards := len(b.Cards())
	switch thief := b.Has(engine.Thief); {
	case thief && cards != b.Players+maxBottom:
		return fmt.Sprintf("%d cards for %d players: a board with 盜賊 (thief) deals two bottom cards, %d cards", cards, b.Players, b.Players+maxBottom)
	case !thief && cards != b.Players:
		return fmt.Sprintf("%d cards for %d players: only a board with 盜賊 (thief) has bottom cards; this one deals one card a seat", cards, b.Players)
	}
	return ""
}

// hasWolfPack reports whether some role of the board wakes in the wolves step.
func hasWolfPack(b *engine.Board) bool {
	for _, r := range b.Roles {
		if wakesWithWolves(r) {
			return true
		}
	}
	return false
}
