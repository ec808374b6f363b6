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

	// rules-more.md D2 (seeds 001 and 003)
	Thief        Role = "thief"        // 盜賊
	SilenceElder Role = "silenceelder" // 禁言長老
	Stalker      Role = "stalker"      // 潛行者
	Butterfly    Role = "butterfly"    // 花蝴蝶
	Demon        Role = "demon"        // 惡魔 (seed 003; not seed 001's 恶魔)
	Fox          Role = "fox"          // 狐狸
	Gambler      Role = "gambler"      // 賭徒
	Merchant     Role = "merchant"     // 黑市商人 (his lucky one is a status, not a card)
	Chief        Role = "chief"        // 村長 ([003], 民): two lives against the knife
	Elder        Role = "elder"        // 長老 ([001], 神): the same rules as 村長
	// rules-more.md D2: roles a venue may put on its own boards
	WildChild  Role = "wildchild"  // 野孩子
	HalfBlood  Role = "halfblood"  // 混血兒
	HiddenWolf Role = "hiddenwolf" // 隱狼
	Bear       Role = "bear"       // 熊
	Rogue      Role = "rogue"      // 老流氓
	Cupid      Role = "cupid"      // 丘比特
	Succubus   Role = "succubus"   // 魅魔
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
	// Name is who the step wakes, as the judge's console shows it, when it
	// is not the acting role's name (石像鬼's kill, the lovers).
	Name  string
	Wakes Wakes // whose cards the step calls (the judge's wake list)
	// Seats are the numbers of seats one decision of the step may name in
	// a scenario file (nil: one; 丘比特 {2}; 預言家 {1, 2} with the lucky
	// one's glasses); a lone 0 (nobody) is always one.
	Seats []int
	// Status: the step's actor holds a status, not a card (黑市商人's
	// 幸運兒): its name, the scenario file's directive for the step.
	Status string
	// Word: the scenario word that picks this step among its role's
	// several (石像鬼 刀 3: its kill, not its check).
	Word string
	// Tapped: the seats the judge tapped (a private indicator each, lit by
	// a catalogue cue with Tap) wake in this step, whose close puts the
	// indicators out (情侶, 魅魔情侶, 幸運兒).
	Tapped bool
	// Needed: a board with the role must wake it on some night (the
	// game's backbone: 預言家, 女巫, 守衛); the board loader checks it.
	Needed bool
	// Order is the step's place in seed 004's default night order (E0.2,
	// E0.3; order.go): the zero value is no place.
	Order NightSlot
}

// Wakes says whose cards a night step calls, dead or alive (A15).
type Wakes int

const (
	WakesRole   Wakes = iota // the holders of the step's role
	WakesWolves              // every role that wakes with the wolves (WakesWithWolves)
	WakesLovers              // the lovers: the step's actors and the linked seats, not the role that linked them
)

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
	SeenGood   bool    // a wolf-camp role every check sees as 好人 (隱狼)
	Takes      bool    // exploding, it takes a seat with it (白狼王; dayHooks.exploded)
	Duels      bool    // reveals in the exile day's speeches to duel a seat (騎士)
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
	if ri.Side == SideWolf && !ri.SeenGood {
		return WinWolves
	}
	return WinGood
}

// shotCauses: 獵人 and 狼王 shoot when killed by the wolves, exiled, shot or
// taken; never when poisoned, exploding, DQ'd, charmed away, duelled…
func shotCauses() []Cause { return []Cause{CauseWolf, CauseExile, CauseShot, CauseTaken} }

// shotCausesAny: hunter.shoot_causes any_but_poison_grief ([001] "当猎人被毒死或殉情时将不能发动技能"):
// every death but poison and grief; an explosion and a DQ are no deaths a
// skill answers.
func shotCausesAny() []Cause {
	return []Cause{CauseWolf, CauseExile, CauseShot, CauseTaken, CauseDuel, CauseCharm, CauseReflect, CauseDream,
		CauseHunt, CauseCheck, CauseAssassinate, CauseGamble, CauseTrade}
}

// roleTab is the role table. It is package data that is never written
// (doc.go: the engine keeps no mutable globals); Roles hands out a copy.
var roleTab = [...]RoleInfo{
	{ID: Werewolf, Name: "狼人", Simplified: "狼人", Side: SideWolf, WolvesFrom: 1, Explodes: true,
		Steps: []StepInfo{{Kind: StepWolves, Confirm: true, Unblocked: true, Wakes: WakesWolves, Order: NightSlot{Pos: "6", Secs: 90, Hurry: 60, Later: 60, HurryLater: 30, In003: Block003Named}}}},
	{ID: Villager, Name: "村民", Simplified: "村民", Category: CatVillager},
	{ID: Seer, Name: "預言家", Simplified: "预言家", Category: CatGod,
		Steps: []StepInfo{{Kind: StepSeer, Confirm: true, Needed: true, Result: true, Seats: []int{1, 2}, Order: NightSlot{Pos: "10", Secs: 30, In003: Block003Named}}}},
	{ID: Witch, Name: "女巫", Simplified: "女巫", Category: CatGod,
		Steps: []StepInfo{{Kind: StepWitch, Confirm: true, Needed: true, Order: NightSlot{Pos: "9", Secs: 30, Hurry: 20, In003: Block003Named}}}},
	{ID: Hunter, Name: "獵人", Simplified: "猎人", Category: CatGod, ShotOn: shotCauses(),
		Steps: []StepInfo{{Kind: StepHunter, Order: NightSlot{Pos: "13", Secs: 10}}}},
	{ID: Idiot, Name: "愚者", Simplified: "白痴", Category: CatGod,
		Steps: []StepInfo{{Kind: StepIdiot, Order: NightSlot{Pos: "14", First: true, Secs: 5}}}}, // [004] "14 白痴（仅首夜）" (I7)
	{ID: Guard, Name: "守衛", Simplified: "守卫", Category: CatGod, Protects: true,
		Steps: []StepInfo{{Kind: StepGuard, Confirm: true, Needed: true, Order: NightSlot{Pos: "5", Secs: 30, In003: Block003Named}}}},
	{ID: WolfKing, Name: "狼王", Simplified: "狼王", Side: SideWolf, WolvesFrom: 1, Explodes: true, ShotOn: shotCauses()},
	{ID: WhiteWolfKing, Name: "白狼王", Simplified: "白狼王", Side: SideWolf, WolvesFrom: 1, Explodes: true, Takes: true,
		Steps: []StepInfo{{Kind: StepWhiteWolfKing, Order: NightSlot{Skip: true}}}},
	{ID: WolfBeauty, Name: "狼美人", Simplified: "狼美人", Side: SideWolf, WolvesFrom: 1, NoKnife: true,
		Steps: []StepInfo{{Kind: StepWolfBeauty, Confirm: true, Order: NightSlot{Pos: "7", Secs: 30, In003: Block003Named}}}},
	{ID: Knight, Name: "騎士", Simplified: "骑士", Category: CatGod, Duels: true,
		Steps: []StepInfo{{Kind: StepKnight, Order: NightSlot{Pos: "15", First: true, Secs: 5}}}}, // [004] "15 骑士（仅首夜）" (I7)
	{ID: Dreamweaver, Name: "攝夢人", Simplified: "摄梦人", Category: CatGod,
		Steps: []StepInfo{{Kind: StepDreamweaver, Confirm: true, Order: NightSlot{Pos: "4g", Secs: 30}}}},
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
		Steps: []StepInfo{{Kind: StepGargoyle, Confirm: true, Result: true}, {Kind: StepGargoyleKill, Confirm: true, Unblocked: true, Name: "石像鬼（刀）", Word: "刀"}}},
	{ID: Gravekeeper, Name: "守墓人", Simplified: "守墓人", Category: CatGod,
		Steps: []StepInfo{{Kind: StepGravekeeper}}},
	// 盜賊: a villager until it keeps a bottom card (setRole); it never
	// counts for 屠邊 as a thief (D0.1: the kept card's category).
	{ID: Thief, Name: "盜賊", Simplified: "盗贼", Category: CatVillager,
		Steps: []StepInfo{{Kind: StepThief, Order: NightSlot{Pos: "1", First: true, Secs: 30, Hurry: 20, In003: Block003Lead}}}},
	{ID: SilenceElder, Name: "禁言長老", Simplified: "禁言长老", Category: CatGod,
		Steps: []StepInfo{{Kind: StepSilenceElder, Confirm: true, Order: NightSlot{Pos: "12", Secs: 30, Hurry: 20}}}},
	{ID: Stalker, Name: "潛行者", Simplified: "潜行者", Category: CatGod,
		Steps: []StepInfo{{Kind: StepStalker, Order: NightSlot{Pos: "10c", Secs: 30, Hurry: 20}}}},
	{ID: Butterfly, Name: "花蝴蝶", Simplified: "花蝴蝶", Category: CatGod,
		Steps: []StepInfo{{Kind: StepButterfly, Confirm: true, Order: NightSlot{Pos: "4f", Secs: 30, Hurry: 20, In003: Block003Mid}}}},
	{ID: Demon, Name: "惡魔", Simplified: "恶魔", Side: SideWolf, WolvesFrom: 1, NoKnife: true,
		Steps: []StepInfo{{Kind: StepDemon, Confirm: true, Result: true, Order: NightSlot{Pos: "7c", Secs: 30, Hurry: 20, In003: Block003Named}}}},
	{ID: Fox, Name: "狐狸", Simplified: "狐狸", Category: CatGod,
		Steps: []StepInfo{{Kind: StepFox, Confirm: true, Order: NightSlot{Pos: "10a", Secs: 30, Hurry: 20}}}}, // the result is a gesture, 有狼人/沒有狼人: no 他的身份為 (I10)
	{ID: Gambler, Name: "賭徒", Simplified: "赌徒", Category: CatGod,
		Steps: []StepInfo{{Kind: StepGambler, Confirm: true, Order: NightSlot{Pos: "10b", Secs: 30, Hurry: 20}}}},
	{ID: Merchant, Name: "黑市商人", Simplified: "黑市商人", Category: CatGod,
		Steps: []StepInfo{
			{Kind: StepMerchant, Confirm: true, Seats: []int{1, 2}, Order: NightSlot{Pos: "4b", First: true, Secs: 30, Hurry: 20, In003: Block003Mid,
				Moved: &NightSlot{Pos: "10d", Secs: 30, Hurry: 20, In003: Block003Named}, MovedBy: merchantAnyNight}},
			{Kind: StepLucky, Status: "幸運兒", Tapped: true, Order: NightSlot{Pos: "10e", Secs: 15, In003: Block003Named}},
		}},
	{ID: Chief, Name: "村長", Simplified: "村长", Category: CatVillager,
		Steps: []StepInfo{{Kind: StepChief, Order: NightSlot{Pos: "5a", Secs: 5, In003: Block003Named}}}},
	{ID: Elder, Name: "長老", Simplified: "长老", Category: CatGod,
		Steps: []StepInfo{{Kind: StepElder, Order: NightSlot{Pos: "5a", Secs: 5, In003: Block003Named}}}},
	{ID: WildChild, Name: "野孩子", Simplified: "野孩子", Category: CatVillager,
		Steps: []StepInfo{{Kind: StepWildChild, Confirm: true, Order: NightSlot{Pos: "4", First: true, Secs: 30, Hurry: 20, In003: Block003Lead}}}},
	{ID: HalfBlood, Name: "混血兒", Simplified: "混血儿", Category: CatVillager,
		Steps: []StepInfo{{Kind: StepHalfBlood, Confirm: true, Order: NightSlot{Pos: "4a", First: true, Secs: 30, Hurry: 20}}}},
	{ID: HiddenWolf, Name: "隱狼", Simplified: "隐狼", Side: SideWolf, SeenGood: true,
		Steps: []StepInfo{{Kind: StepHiddenWolf, Order: NightSlot{Pos: "8", First: true, Secs: 5, In003: Block003Hidden}}}},
	{ID: Bear, Name: "熊", Simplified: "熊", Category: CatGod,
		Steps: []StepInfo{{Kind: StepBear, Order: NightSlot{Pos: "11", Secs: 5}}}},
	{ID: Rogue, Name: "老流氓", Simplified: "老流氓", Category: CatVillager,
		Steps: []StepInfo{{Kind: StepRogue, Order: NightSlot{Pos: "16", First: true, Secs: 5}}}},
	{ID: Cupid, Name: "丘比特", Simplified: "丘比特",
		Steps: []StepInfo{
			{Kind: StepCupid, Confirm: true, Seats: []int{2}, Order: NightSlot{Pos: "2", First: true, Secs: 30, Hurry: 20, In003: Block003Lead}},
			{Kind: StepLovers, Unblocked: true, Name: "情侶", Wakes: WakesLovers, Tapped: true, Order: NightSlot{Pos: "3", First: true, Secs: 15, In003: Block003Lead}},
		}},
	{ID: Succubus, Name: "魅魔", Simplified: "魅魔", Side: SideWolf, WolvesFrom: 1, Explodes: true,
		Steps: []StepInfo{
			{Kind: StepSuccubus, Confirm: true, Order: NightSlot{Pos: "7a", First: true, Secs: 30, Hurry: 20, In003: Block003Named}},
			{Kind: StepSuccubusLovers, Unblocked: true, Name: "魅魔情侶", Wakes: WakesLovers, Tapped: true, Order: NightSlot{Pos: "7b", First: true, Secs: 30, In003: Block003Named}},
		}},
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

// hookRow is a row of the role table's hooks column: a role and the
// constructor of its hooks, in its own file (nil: traits only, no file).
type hookRow struct {
	id    Role
	hooks func() roleHooks
}

// roleHooksTab is the role table's hooks column, row for row in roleTab's
// order (TestHooksColumn holds it to the table and to the role files). It
// cannot be a field of roleTab: the hooks read the table, and Go refuses
// the initialization cycle (roleTab refers to hunterHooks refers to roleTab).
func roleHooksTab() [len(roleTab)]hookRow {
	return [...]hookRow{
		{Werewolf, werewolfHooks}, {Villager, nil}, {Seer, seerHooks}, {Witch, witchHooks},
		{Hunter, hunterHooks}, {Idiot, idiotHooks}, {Guard, guardHooks}, {WolfKing, nil},
		{WhiteWolfKing, whiteWolfKingHooks}, {WolfBeauty, wolfBeautyHooks}, {Knight, knightHooks},
		{Dreamweaver, dreamweaverHooks}, {Nightmare, nightmareHooks}, {EvilKnight, evilKnightHooks},
		{BloodMoon, bloodMoonHooks}, {DemonHunter, demonHunterHooks}, {EclipseQueen, eclipseQueenHooks},
		{Prince, princeHooks}, {WolfWitch, wolfWitchHooks}, {PureWhite, pureWhiteHooks},
		{Gargoyle, gargoyleHooks}, {Gravekeeper, gravekeeperHooks},
		{Thief, thiefHooks}, {SilenceElder, silenceElderHooks}, {Stalker, stalkerHooks},
		{Butterfly, butterflyHooks}, {Demon, demonHooks}, {Fox, foxHooks}, {Gambler, gamblerHooks},
		{Merchant, merchantHooks}, {Chief, elderHooks}, {Elder, elderHooks},
		{WildChild, wildChildHooks}, {HalfBlood, halfBloodHooks}, {HiddenWolf, hiddenWolfHooks},
		{Bear, bearHooks}, {Rogue, rogueHooks}, {Cupid, cupidHooks}, {Succubus, succubusHooks},
	}
}

// hooksFor returns a role's hooks: its rules, in its own file (none for a
// role of traits only, or one the table does not hold).
func hooksFor(r Role) roleHooks {
	tab := roleHooksTab()
	for i := range tab {
		if tab[i].id == r && tab[i].hooks != nil {
			return tab[i].hooks()
		}
	}
	return roleHooks{}
}

// nightDeathOrder is the order in which the roles' own night deaths resolve,
// after the knife and the poison: the hunt, the check kills, the
// reflection, the dream.
func nightDeathOrder() []Role {
	return []Role{DemonHunter, PureWhite, EvilKnight, Dreamweaver,
		Gambler,  // rules-more.md H1 (3): 賭徒's bet
		Stalker,  // rules-more.md H1 (4): 潛行者's 暗殺, after the bet
		Merchant, // rules-more.md H1 (5, 6): the lucky one's poison, then the failed trade
	}
}
