package engine

import "strings"

// Role is a role's English id as used by board files ("werewolf", "seer", …).
type Role string

// The roles of the built-in boards (rules.md part B). Every trait of a role
// is a row of the role table (roleTab, below); its rules live in its own
// file (role_<id>.go), which the role table hooks into the shared phases.
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

// Camp is the side and 屠邊 category of a role in one word, as the journal
// and the console show it (wolf | villager | god).
type Camp int

const (
	CampWolf     Camp = iota // 狼人陣營
	CampVillager             // 平民
	CampGod                  // 神民
	CampThird                // a third camp (rules-more.md D0.2)
)

// Side is who a role wins with.
type Side int

const (
	SideGood  Side = iota // 好人陣營
	SideWolf              // 狼人陣營
	SideThird             // a third camp: wins with its own seats (Board.Third)
)

// Category is a good role's 屠邊 category (rules.md A12): the wolves win
// when every 神 or every 民 is out.
type Category int

const (
	CatNone     Category = iota // counts for no 屠邊 side (wolves, third camps)
	CatGod                      // 神民
	CatVillager                 // 平民
)

// StepInfo is one night step a role acts in.
type StepInfo struct {
	Kind    StepKind
	Confirm bool // the judge asks "確認是他嗎？" when the step closes
	Result  bool // the judge says "他的身份為" when the step closes (a check)
	// Unblocked: no "skill blocked" cue at the step's open (the wolves' kill,
	// 石像鬼's kill); a blocked actor's input is refused all the same,
	// except in the wolves' step.
	Unblocked bool
}

// RoleInfo is one row of the role table: every trait of a role.
type RoleInfo struct {
	ID         Role
	Name       string // Traditional Chinese, canonical
	Simplified string // Simplified spelling accepted in scenario files
	Side       Side
	Category   Category // 屠邊 (CatNone outside the good side)
	// WolvesFrom: the role opens its eyes in the wolves' step from this
	// night on (0 = never; seed 000 writes these "X+狼人").
	WolvesFrom int
	Explodes   bool    // may explode (自爆) by day (A11)
	NoKnife    bool    // the wolves may not knife it (狼美人)
	NightProof bool    // cannot die at night (惡靈騎士)
	PoisonOK   bool    // the witch's poison does not kill it (獵魔人)
	ShotOn     []Cause // the causes of death that leave it its shot (獵人, 狼王); nil = no shot
	Protects   bool    // a night protector (守衛): witch.self_save=no_guard looks for one
	Steps      []StepInfo
}

// Camp is the role's camp word (wolf, villager, god, third).
func (ri *RoleInfo) Camp() Camp {
	switch {
	case ri.Side == SideWolf:
		return CampWolf
	case ri.Side == SideThird:
		return CampThird
	case ri.Category == CatGod:
		return CampGod
	}
	return CampVillager
}

// WakesWithWolves reports whether the role opens its eyes in the wolves'
// step on night n (n = 0: on some night).
func (ri *RoleInfo) WakesWithWolves(n int) bool {
	return ri.WolvesFrom > 0 && (n == 0 || n >= ri.WolvesFrom)
}

// Seen is what a good checker (預言家, 守墓人) learns of the role: 好人 or 狼人.
func (ri *RoleInfo) Seen() Winner {
	if ri.Side == SideWolf {
		return WinWolves
	}
	return WinGood
}

// shotCauses: 獵人 and 狼王 shoot when killed by the wolves, exiled, shot or
// taken; never when poisoned, exploding, DQ'd, charmed away, duelled…
func shotCauses() []Cause { return []Cause{CauseWolf, CauseExile, CauseShot, CauseTaken} }

// roleTab is the role table. It is package data that is never written
// (doc.go: the engine keeps no mutable globals); Roles hands out a copy.
var roleTab = [...]RoleInfo{
	{ID: Werewolf, Name: "狼人", Simplified: "狼人", Side: SideWolf, WolvesFrom: 1, Explodes: true,
		Steps: []StepInfo{{Kind: StepWolves, Confirm: true, Unblocked: true}}},
	{ID: Villager, Name: "村民", Simplified: "村民", Category: CatVillager},
	{ID: Seer, Name: "預言家", Simplified: "预言家", Category: CatGod,
		Steps: []StepInfo{{Kind: StepSeer, Confirm: true, Result: true}}},
	{ID: Witch, Name: "女巫", Simplified: "女巫", Category: CatGod,
		Steps: []StepInfo{{Kind: StepWitch, Confirm: true}}},
	{ID: Hunter, Name: "獵人", Simplified: "猎人", Category: CatGod, ShotOn: shotCauses(),
		Steps: []StepInfo{{Kind: StepHunter}}},
	{ID: Idiot, Name: "愚者", Simplified: "白痴", Category: CatGod,
		Steps: []StepInfo{{Kind: StepIdiot}}},
	{ID: Guard, Name: "守衛", Simplified: "守卫", Category: CatGod, Protects: true,
		Steps: []StepInfo{{Kind: StepGuard, Confirm: true}}},
	{ID: WolfKing, Name: "狼王", Simplified: "狼王", Side: SideWolf, WolvesFrom: 1, Explodes: true, ShotOn: shotCauses()},
	{ID: WhiteWolfKing, Name: "白狼王", Simplified: "白狼王", Side: SideWolf, WolvesFrom: 1, Explodes: true,
		Steps: []StepInfo{{Kind: StepWhiteWolfKing}}},
	{ID: WolfBeauty, Name: "狼美人", Simplified: "狼美人", Side: SideWolf, WolvesFrom: 1, NoKnife: true,
		Steps: []StepInfo{{Kind: StepWolfBeauty, Confirm: true}}},
	{ID: Knight, Name: "騎士", Simplified: "骑士", Category: CatGod,
		Steps: []StepInfo{{Kind: StepKnight}}},
	{ID: Dreamweaver, Name: "攝夢人", Simplified: "摄梦人", Category: CatGod,
		Steps: []StepInfo{{Kind: StepDreamweaver, Confirm: true}}},
	{ID: Nightmare, Name: "噩夢之影", Simplified: "噩梦之影", Side: SideWolf, WolvesFrom: 2, Explodes: true,
		Steps: []StepInfo{{Kind: StepNightmare, Confirm: true}}},
	{ID: EvilKnight, Name: "惡靈騎士", Simplified: "恶灵骑士", Side: SideWolf, WolvesFrom: 1, NightProof: true},
	{ID: BloodMoon, Name: "血月使徒", Simplified: "血月使徒", Side: SideWolf, WolvesFrom: 1, Explodes: true},
	{ID: DemonHunter, Name: "獵魔人", Simplified: "猎魔人", Category: CatGod, PoisonOK: true,
		Steps: []StepInfo{{Kind: StepDemonHunter, Confirm: true}}},
	{ID: EclipseQueen, Name: "蝕時狼妃", Simplified: "蚀时狼妃", Side: SideWolf, WolvesFrom: 1, Explodes: true,
		Steps: []StepInfo{{Kind: StepEclipseQueen, Confirm: true}}},
	{ID: Prince, Name: "定序王子", Simplified: "定序王子", Category: CatGod,
		Steps: []StepInfo{{Kind: StepPrince}}},
	{ID: WolfWitch, Name: "狼巫", Simplified: "狼巫", Side: SideWolf, WolvesFrom: 1, Explodes: true,
		Steps: []StepInfo{{Kind: StepWolfWitch, Confirm: true, Result: true}}},
	{ID: PureWhite, Name: "純白之女", Simplified: "纯白之女", Category: CatGod,
		Steps: []StepInfo{{Kind: StepPureWhite, Confirm: true, Result: true}}},
	{ID: Gargoyle, Name: "石像鬼", Simplified: "石像鬼", Side: SideWolf,
		Steps: []StepInfo{{Kind: StepGargoyle, Confirm: true, Result: true}, {Kind: StepGargoyleKill, Confirm: true, Unblocked: true}}},
	{ID: Gravekeeper, Name: "守墓人", Simplified: "守墓人", Category: CatGod,
		Steps: []StepInfo{{Kind: StepGravekeeper}}},
}

// Roles lists every role the engine knows (a copy of the role table).
func Roles() []RoleInfo { t := roleTab; return t[:] }

// LookupRole finds a role by id, Traditional name, Simplified name, or the
// alias 白痴/白癡 for 愚者.
func LookupRole(s string) (RoleInfo, bool) {
	s = strings.TrimSpace(s)
	if s == "白癡" {
		s = "白痴"
	}
	for i := range roleTab {
		if r := &roleTab[i]; string(r.ID) == s || r.Name == s || r.Simplified == s {
			return *r, true
		}
	}
	return RoleInfo{}, false
}

// lookup returns the role's row.
func (r Role) lookup() (*RoleInfo, bool) {
	for i := range roleTab {
		if roleTab[i].ID == r {
			return &roleTab[i], true
		}
	}
	return nil, false
}

// unknownRole is the row of a role the table does not hold.
func (r Role) row() *RoleInfo {
	if ri, ok := r.lookup(); ok {
		return ri
	}
	return &RoleInfo{ID: r, Name: string(r)}
}

// Info returns the role's row of the role table (a copy); an unknown role
// gets its id as its name and no traits.
func (r Role) Info() RoleInfo { return *r.row() }

// Name is the role's Traditional Chinese name.
func (r Role) Name() string { return r.row().Name }

// Camp is the role's camp.
func (r Role) Camp() Camp { return r.row().Camp() }

// IsWolf reports whether the role is in the wolf camp.
func (r Role) IsWolf() bool { return r.row().Side == SideWolf }

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

// stepInfo finds the role that acts in a step and the step's traits.
func (k StepKind) info() (*RoleInfo, StepInfo, bool) {
	for i := range roleTab {
		for _, st := range roleTab[i].Steps {
			if st.Kind == k {
				return &roleTab[i], st, true
			}
		}
	}
	return nil, StepInfo{}, false
}

// Role is the role that acts in the step (Werewolf for the wolves' step,
// where every wolf that wakes with the wolves acts).
func (k StepKind) Role() (Role, bool) {
	if ri, _, ok := k.info(); ok {
		return ri.ID, true
	}
	return "", false
}

// stepHooks returns the step's traits and the hooks of the role acting in it.
func (k StepKind) stepHooks() (StepInfo, roleHooks) {
	ri, si, ok := k.info()
	if !ok {
		return si, roleHooks{}
	}
	return si, hooksFor(ri.ID)
}

// hooksFor returns a role's hooks: its rules, in its own file.
func hooksFor(r Role) roleHooks {
	switch r {
	case Werewolf:
		return werewolfHooks()
	case Seer:
		return seerHooks()
	case Witch:
		return witchHooks()
	case Hunter:
		return hunterHooks()
	case Idiot:
		return idiotHooks()
	case Guard:
		return guardHooks()
	case WhiteWolfKing:
		return whiteWolfKingHooks()
	case WolfBeauty:
		return wolfBeautyHooks()
	case Knight:
		return knightHooks()
	case Dreamweaver:
		return dreamweaverHooks()
	case Nightmare:
		return nightmareHooks()
	case EvilKnight:
		return evilKnightHooks()
	case BloodMoon:
		return bloodMoonHooks()
	case DemonHunter:
		return demonHunterHooks()
	case EclipseQueen:
		return eclipseQueenHooks()
	case Prince:
		return princeHooks()
	case WolfWitch:
		return wolfWitchHooks()
	case PureWhite:
		return pureWhiteHooks()
	case Gargoyle:
		return gargoyleHooks()
	case Gravekeeper:
		return gravekeeperHooks()
	}
	return roleHooks{} // 村民, 狼王: traits only
}

// nightDeathOrder is the order in which the roles' own night deaths resolve,
// after the knife and the poison: the hunt, the check kills, the
// reflection, the dream.
func nightDeathOrder() [4]Role { return [4]Role{DemonHunter, PureWhite, EvilKnight, Dreamweaver} }

// roleStates holds each role's own state; each type is defined in the
// role's file.
type roleStates struct {
	seer     seerState
	witch    witchState
	guard    guardState
	beauty   wolfBeautyState
	knight   knightState
	dream    dreamweaverState
	fear     nightmareState
	eclipse  eclipseQueenState
	evil     evilKnightState
	blood    bloodMoonState
	hunt     demonHunterState
	checks   pureWhiteState
	gargoyle gargoyleState
	grave    gravekeeperState
	prince   princeState
	idiot    idiotState
}
