package engine

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

	StepThief          StepKind = "thief"          // 盜賊: keeps one of the two bottom cards (night 1)
	StepSilenceElder   StepKind = "silenceelder"   // 禁言長老: silences a seat for the next day
	StepStalker        StepKind = "stalker"        // 潛行者: shown the seat he may assassinate, OK or WAVE
	StepButterfly      StepKind = "butterfly"      // 花蝴蝶: hugs another seat
	StepDemon          StepKind = "demon"          // 惡魔 alone after the wolves: 是神民 / 不是神民
	StepFox            StepKind = "fox"            // 狐狸: three seats in a row, 有狼人 / 沒有狼人
	StepGambler        StepKind = "gambler"        // 賭徒: one bet a game
	StepMerchant       StepKind = "merchant"       // 黑市商人: night 1, the lucky one and the gift
	StepLucky          StepKind = "lucky"          // 幸運兒: the lucky one (a status), every night
	StepChief          StepKind = "chief"          // 村長: identification
	StepElder          StepKind = "elder"          // 長老: identification
	StepWildChild      StepKind = "wildchild"      // 野孩子: picks the model (night 1)
	StepHalfBlood      StepKind = "halfblood"      // 混血兒: picks the one it follows (night 1)
	StepHiddenWolf     StepKind = "hiddenwolf"     // 隱狼: identification (night 1)
	StepBear           StepKind = "bear"           // 熊: identification (every night)
	StepRogue          StepKind = "rogue"          // 老流氓: identification (night 1)
	StepCupid          StepKind = "cupid"          // 丘比特: links two seats (night 1)
	StepLovers         StepKind = "lovers"         // 情侶: both lovers open their eyes (night 1)
	StepSuccubus       StepKind = "succubus"       // 魅魔 alone: picks her lover (night 1)
	StepSuccubusLovers StepKind = "succubuslovers" // 魅魔情侶: 魅魔 and her lover open their eyes (night 1)
)

// StepKinds lists every known night step kind.
func StepKinds() []StepKind {
	return []StepKind{StepGuard, StepWolves, StepWolfBeauty, StepWitch, StepSeer, StepHunter,
		StepIdiot, StepKnight, StepWhiteWolfKing, StepDreamweaver, StepNightmare, StepDemonHunter,
		StepEclipseQueen, StepPrince, StepWolfWitch, StepPureWhite, StepGargoyle, StepGargoyleKill, StepGravekeeper,
		StepThief, StepSilenceElder, StepStalker, StepButterfly, StepDemon, StepFox, StepGambler,
		StepMerchant, StepLucky, StepChief, StepElder,
		StepWildChild, StepHalfBlood, StepHiddenWolf, StepBear, StepRogue,
		StepCupid, StepLovers, StepSuccubus, StepSuccubusLovers}
}

// NeededSteps are the steps a board with their role must wake on some
// night (StepInfo.Needed: the game's backbone), in the role table's order.
func NeededSteps() []StepKind {
	var out []StepKind
	for i := range roleTab {
		for j := range roleTab[i].Steps {
			if roleTab[i].Steps[j].Needed {
				out = append(out, roleTab[i].Steps[j].Kind)
			}
		}
	}
	return out
}

// stepInfo finds the role that acts in a step and the step's traits.
func (k StepKind) info() (*RoleInfo, StepInfo, bool) {
	for i := range roleTab {
		for j := range roleTab[i].Steps { // by index: a row is large (StepInfo.Order)
			if st := &roleTab[i].Steps[j]; st.Kind == k {
				return &roleTab[i], *st, true
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

// Info is the step's row in its role's Steps (the role table); ok is false
// for an unknown kind.
func (k StepKind) Info() (StepInfo, bool) {
	_, si, ok := k.info()
	return si, ok
}

// Name is who the step wakes in Traditional Chinese: the step's own Name,
// else its role's (the kind itself for an unknown kind).
func (k StepKind) Name() string {
	ri, si, ok := k.info()
	switch {
	case !ok:
		return string(k)
	case si.Name != "":
		return si.Name
	}
	return ri.Name
}

// stepHooks returns the step's traits and the hooks of the role acting in it.
func (k StepKind) stepHooks() (StepInfo, roleHooks) {
	ri, si, ok := k.info()
	if !ok {
		return si, roleHooks{}
	}
	return si, hooksFor(ri.ID)
}
