package engine

// 隱狼 (rules-more.md D2, G26): wolf camp, but it does not wake with the
// wolves and every check (預言家, 狐狸, 熊) sees 好人 (RoleInfo.SeenGood). Its
// own step is an identification on night 1 ([004] #8: it shows the judge
// where it sits). It cannot explode (std) unless hiddenwolf.may_explode.
// Once every other wolf-camp player is out it wakes in the wolves' step and
// makes the kill alone (hiddenwolf.kills_alone, default on): the wolves'
// step runs as always, its actor being the hidden wolf.

func hiddenWolfHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			wolfStep: hiddenWolfAlone,
		},
		day: dayHooks{
			boom: hiddenWolfBoom,
		},
	}
}

// hiddenWolfBoom: its BOOM key in an explosion window.
func hiddenWolfBoom(g *Game, seat int, s *step) error {
	if !g.opt.HiddenWolfBoom {
		return refuse(ErrRule, Error{Reason: ReasonCannotExplode, Seat: seat, Role: HiddenWolf}, "隱狼 cannot explode (hiddenwolf.may_explode off)")
	}
	g.startExplode(seat, s)
	return nil
}

// hiddenWolfAlone: the seat is a living 隱狼 and no other wolf-camp player
// (other than hidden wolves) is alive.
func hiddenWolfAlone(g *Game, s int) bool {
	if !g.opt.HiddenWolfAlone || g.role(s) != HiddenWolf || !g.living(s) {
		return false
	}
	for x := 1; x <= g.n; x++ {
		if x != s && g.living(x) && g.role(x).IsWolf() && g.role(x) != HiddenWolf {
			return false
		}
	}
	return true
}
