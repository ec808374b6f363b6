package engine

// 狼人 (rules.md B): the wolves' step, where every role that wakes with the
// wolves (RoleInfo.WolvesFrom) points, and the shared kill.

func werewolfHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			step: wolvesStep,
		},
	}
}

// wolvesStep: every wolf points; the kill happens only when all of them
// agree before time runs out, else 空刀. On a night the pack cannot kill (a
// wolf hugged by 花蝴蝶 or a plain wolf feared by 噩夢之影) the judge is
// cued 技能被禁止 for every wolf of the step as it opens ([003] 21 "法官唤醒这位
// 玩家时给其手势"; [000] 噩夢之影 "狼人請選擇今晚要擊殺的目標（如果被恐懼則提示不可發動技能）"):
// the cue is the judge's, the step keeps its lines and its whole window.
func wolvesStep(g *Game, s *step, _ StepKind, _ bool) bool {
	g.say("night.wolves.ask")
	if g.noKill() {
		for _, a := range s.actors {
			g.cue(a, "cue.blocked", a)
		}
	}
	point := map[int]int{}
	s.act = func(seat int, a Action, t int) error {
		if a != ActTarget {
			return errf(ErrNotNow, "the wolves point at a seat (0 = empty knife)")
		}
		if g.noKill() {
			return refuse(ErrRule, Error{Reason: ReasonBlocked, Seat: seat, Role: Werewolf}, "a wolf is feared or hugged tonight: the wolves cannot kill")
		}
		if t != 0 && !g.living(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
		}
		if t != 0 && g.role(t).row().NoKnife {
			// 狼美人, 惡魔 ("恶魔无法自刀"): the pack cannot pick the seat
			return refuse(ErrRule, Error{Reason: ReasonCannotTarget, Role: Werewolf, Target: t}, "%s cannot be knifed by the pack", g.role(t).Name())
		}
		point[seat] = t
		return nil
	}
	s.reset = func() { point = map[int]int{} }
	s.keys = []Key{{Target: TargetSeat}, {Word: "空刀", Target: TargetZero}}
	s.agreed = func() (int, bool) {
		target := -1
		for _, a := range s.actors {
			if !g.living(a) && !contains(g.exploded, a) {
				continue // DQ'd
			}
			t, ok := point[a]
			if !ok || (target >= 0 && t != target) {
				return 0, false
			}
			target = t
		}
		return target, target >= 0
	}
	s.done = func() bool { _, ok := s.agreed(); return ok }
	s.commit = func() {
		if t, ok := s.agreed(); ok {
			g.ns.kill = t
			g.record(Record{Type: RecAction, Kind: string(ActionKill), Target: t, When: g.when()})
		} else {
			g.record(Record{Type: RecAction, Kind: string(ActionKill), Target: 0, When: g.when()})
		}
	}
	return false
}

// noKill: a board role forbids the wolves' kill tonight.
func (g *Game) noKill() bool {
	for i := range g.hooks {
		if h := g.hooks[i].night.noKill; h != nil && h(g) {
			return true
		}
	}
	return false
}
