package engine

import (
	"fmt"
	"strings"
)

// Role is a role's English id as used by board files ("werewolf", "seer", …).
type Role string

// The roles of the built-in boards (rules.md part B). A role without a
// night step or rule in the engine makes its board unplayable
// (Board.Unimplemented): such a board loads but refuses to start.
const (
	Werewolf      Role = "werewolf"      // 狼人
	Villager      Role = "villager"      // 村民
	Seer          Role = "seer"          // 預言家
	Witch         Role = "witch"         // 女巫
	Hunter        Role = "hunter"        // 獵人
	Idiot         Role = "idiot"         // 愚者/白痴
	Guard         Role = "guard"         // 守衛
	WolfKing      Role = "wolfking"      // 狼王
	WhiteWolfKing Role = "whitewolfking" // 白狼王
	WolfBeauty    Role = "wolfbeauty"    // 狼美人
	Knight        Role = "knight"        // 騎士

	Dreamweaver  Role = "dreamweaver"  // 攝夢人
	Nightmare    Role = "nightmare"    // 噩夢之影
	EvilKnight   Role = "evilknight"   // 惡靈騎士
	BloodMoon    Role = "bloodmoon"    // 血月使徒
	DemonHunter  Role = "demonhunter"  // 獵魔人
	EclipseQueen Role = "eclipsequeen" // 蝕時狼妃
	Prince       Role = "prince"       // 定序王子
	WolfWitch    Role = "wolfwitch"    // 狼巫
	PureWhite    Role = "purewhite"    // 純白之女
	Gargoyle     Role = "gargoyle"     // 石像鬼
	Gravekeeper  Role = "gravekeeper"  // 守墓人
)

// Camp is the side a role counts for in the 屠邊 win check (rules.md A12).
type Camp int

const (
	CampWolf     Camp = iota // 狼人陣營
	CampVillager             // 平民
	CampGod                  // 神民
)

// RoleInfo describes a role: its names, camp and whether the engine plays it.
type RoleInfo struct {
	ID          Role
	Name        string // Traditional Chinese, canonical
	Simplified  string // Simplified spelling accepted in scenario files
	Camp        Camp
	Implemented bool
}

// roleTable returns the role catalogue (a value: the engine keeps no globals).
func roleTable() [22]RoleInfo {
	return [22]RoleInfo{
		{Werewolf, "狼人", "狼人", CampWolf, true},
		{Villager, "村民", "村民", CampVillager, true},
		{Seer, "預言家", "预言家", CampGod, true},
		{Witch, "女巫", "女巫", CampGod, true},
		{Hunter, "獵人", "猎人", CampGod, true},
		{Idiot, "愚者", "白痴", CampGod, true},
		{Guard, "守衛", "守卫", CampGod, true},
		{WolfKing, "狼王", "狼王", CampWolf, true},
		{WhiteWolfKing, "白狼王", "白狼王", CampWolf, true},
		{WolfBeauty, "狼美人", "狼美人", CampWolf, true},
		{Knight, "騎士", "骑士", CampGod, true},
		{Dreamweaver, "攝夢人", "摄梦人", CampGod, true},
		{Nightmare, "噩夢之影", "噩梦之影", CampWolf, true},
		{EvilKnight, "惡靈騎士", "恶灵骑士", CampWolf, true},
		{BloodMoon, "血月使徒", "血月使徒", CampWolf, true},
		{DemonHunter, "獵魔人", "猎魔人", CampGod, true},
		{EclipseQueen, "蝕時狼妃", "蚀时狼妃", CampWolf, true},
		{Prince, "定序王子", "定序王子", CampGod, true},
		{WolfWitch, "狼巫", "狼巫", CampWolf, true},
		{PureWhite, "純白之女", "纯白之女", CampGod, true},
		{Gargoyle, "石像鬼", "石像鬼", CampWolf, true},
		{Gravekeeper, "守墓人", "守墓人", CampGod, true},
	}
}

// Roles lists every role the engine knows, playable or not.
func Roles() []RoleInfo { t := roleTable(); return t[:] }

// LookupRole finds a role by id, Traditional name, Simplified name, or the
// alias 白痴/白癡 for 愚者.
func LookupRole(s string) (RoleInfo, bool) {
	s = strings.TrimSpace(s)
	t := roleTable()
	for _, r := range t {
		if string(r.ID) == s || r.Name == s || r.Simplified == s {
			return r, true
		}
	}
	switch s {
	case "白癡":
		return t[5], true
	}
	return RoleInfo{}, false
}

// Info returns the description of a role; unknown roles get a zero Implemented.
func (r Role) Info() RoleInfo {
	for _, ri := range roleTable() {
		if ri.ID == r {
			return ri
		}
	}
	return RoleInfo{ID: r, Name: string(r)}
}

// Name is the role's Traditional Chinese name.
func (r Role) Name() string { return r.Info().Name }

// Camp is the role's camp.
func (r Role) Camp() Camp { return r.Info().Camp }

// IsWolf reports whether the role is in the wolf camp.
func (r Role) IsWolf() bool { return r.Camp() == CampWolf }

// StepKind names a night step. The step's lines are "night.<kind>.*" in the
// script catalogue.
type StepKind string

const (
	StepGuard         StepKind = "guard"         // 守衛
	StepWolves        StepKind = "wolves"        // 狼人 (all wolves that wake together)
	StepWolfBeauty    StepKind = "wolfbeauty"    // 狼美人 alone: charm
	StepWitch         StepKind = "witch"         // 女巫
	StepSeer          StepKind = "seer"          // 預言家
	StepHunter        StepKind = "hunter"        // 獵人: status gesture
	StepIdiot         StepKind = "idiot"         // 愚者: open/close
	StepKnight        StepKind = "knight"        // 騎士: open/close
	StepWhiteWolfKing StepKind = "whitewolfking" // 白狼王: status gesture

	StepDreamweaver  StepKind = "dreamweaver"
	StepNightmare    StepKind = "nightmare"
	StepDemonHunter  StepKind = "demonhunter"
	StepEclipseQueen StepKind = "eclipsequeen"
	StepPrince       StepKind = "prince"
	StepWolfWitch    StepKind = "wolfwitch"
	StepPureWhite    StepKind = "purewhite"
	StepGargoyle     StepKind = "gargoyle"     // 石像鬼: its check (open/close only with the step's OpenOnly)
	StepGargoyleKill StepKind = "gargoylekill" // 石像鬼: its kill when every other wolf is out
	StepGravekeeper  StepKind = "gravekeeper"
)

// StepKinds lists every known night step kind.
func StepKinds() []StepKind {
	return []StepKind{StepGuard, StepWolves, StepWolfBeauty, StepWitch, StepSeer, StepHunter,
		StepIdiot, StepKnight, StepWhiteWolfKing, StepDreamweaver, StepNightmare, StepDemonHunter,
		StepEclipseQueen, StepPrince, StepWolfWitch, StepPureWhite, StepGargoyle, StepGargoyleKill, StepGravekeeper}
}

// Role is the role that acts in the step (Werewolf for the wolves' step,
// where every wolf that wakes with the wolves acts).
func (k StepKind) Role() (Role, bool) {
	switch k {
	case StepWolves:
		return Werewolf, true
	case StepGargoyleKill:
		return Gargoyle, true
	case StepGuard, StepWolfBeauty, StepWitch, StepSeer, StepHunter, StepIdiot, StepKnight,
		StepWhiteWolfKing, StepDreamweaver, StepNightmare, StepDemonHunter, StepEclipseQueen,
		StepPrince, StepWolfWitch, StepPureWhite, StepGargoyle, StepGravekeeper:
		return Role(k), true
	}
	return "", false
}

// Step is one night step of a board: whose eyes open, for how long, and when
// the hurry line ("X請迅猛") is said (seconds after the step opens; 0 = none).
type Step struct {
	Kind    StepKind
	Seconds int
	Hurry   int
	// Mark names a role the open line asks to raise a hand ("狼王請舉手示意"),
	// said on this night only when the board has that role.
	Mark Role
	// OpenOnly: the role opens and closes its eyes and does nothing (獵魔人
	// and 石像鬼 on night 1).
	OpenOnly bool
	// Lines swaps the step's lines for the board's own wording of the
	// manual's 語術: "FROM>TO" pairs separated by spaces; while the step
	// runs, line FROM is said as line TO ("-": not said). Example: 石像鬼守墓人's
	// witch says "女巫確認請閉眼" for "確認是他嗎？" + "女巫請閉眼".
	Lines string
}

// LineSwap returns the line said for line in this step: the swap of Lines,
// "" when the swap drops it, or line itself.
func (s Step) LineSwap(line string) string {
	for _, p := range strings.Fields(s.Lines) {
		if from, to, ok := strings.Cut(p, ">"); ok && from == line {
			if to == "-" {
				return ""
			}
			return to
		}
	}
	return line
}

// NightPlan is the night order for nights From..To (To = 0: every later night).
type NightPlan struct {
	From, To int
	Steps    []Step
}

// Board is a board definition: composition, night order and rule options.
type Board struct {
	ID      string
	Name    string
	Players int
	Roles   []Role // the composition, as a multiset (order is not the deal)
	Nights  []NightPlan
	Options Options
	Source  string // file the board came from, for messages
}

// StepsFor returns the night order of night n (1-based).
func (b *Board) StepsFor(n int) []Step {
	for _, p := range b.Nights {
		if n >= p.From && (p.To == 0 || n <= p.To) {
			return p.Steps
		}
	}
	return nil
}

// Unimplemented returns the first role of the board the engine cannot play yet.
func (b *Board) Unimplemented() (Role, bool) {
	for _, r := range b.Roles {
		if !r.Info().Implemented {
			return r, true
		}
	}
	return "", false
}

// Playable reports whether every role of the board is implemented.
func (b *Board) Playable() bool { _, bad := b.Unimplemented(); return !bad }

// Has reports whether the composition holds the role.
func (b *Board) Has(r Role) bool {
	for _, x := range b.Roles {
		if x == r {
			return true
		}
	}
	return false
}

// ErrNotImplemented is returned when a board uses a role the engine cannot play.
type ErrNotImplemented struct{ Role Role }

func (e *ErrNotImplemented) Error() string {
	return fmt.Sprintf("engine: role %s (%s) not implemented yet", e.Role.Name(), e.Role)
}
