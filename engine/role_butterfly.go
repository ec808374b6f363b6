package engine

import "fmt"

// 花蝴蝶 (rules-more.md D2, H10, H17; seed 003 "每局游戏限两次，花蝴蝶在夜晚可以
// 抱一名其他玩家，法官唤醒这位玩家时给其手势，表示该玩家当晚至第二天发言前无法使用
// 技能…若花蝴蝶抱住某位狼人，所有狼人当晚无法杀人。花蝴蝶不能连续两晚抱同一位玩家"):
// her step runs every night before 守衛 and the wolves. She keys another
// living seat or WAVE, never last night's seat, at most twice a game (then
// 技能被禁止). The hugged player's night steps show 技能被禁止 and take no
// skill; a hugged player who wakes with the wolves means no kill tonight; a
// hugged hunter or 狼王 is shown "cannot" and has no shot if killed tonight.
// The hug ends when the exile-day speeches begin (H10): an exiled hunter
// shoots.

type butterflyState struct {
	tonight, last int // tonight's hug and last night's
	hugs          int // hugs given this game (at most 2)
}

const butterflyHugs = 2

func butterflyHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			nightfall: func(g *Game) { g.rs.butterfly.tonight = 0 },
			step:      butterflyStep,
			blocked:   func(g *Game, s int) bool { return g.rs.butterfly.tonight == s && g.day != g.night },
			dazed:     func(g *Game, s int) bool { return g.rs.butterfly.tonight == s },
			noKill: func(g *Game) bool {
				h := g.rs.butterfly.tonight
				return h > 0 && g.role(h).row().WakesWithWolves(g.night)
			},
			dawn: func(g *Game) { g.rs.butterfly.last = g.rs.butterfly.tonight },
		},
		death: deathHooks{
			// killed tonight while hugged: no shot; by day (exile) the hug is over
			noShot: func(g *Game, s int) bool {
				return g.day == g.night && g.rs.butterfly.tonight == s && g.seats[s].when == fmt.Sprintf("night-%d", g.night)
			},
		},
	}
}

func butterflyStep(g *Game, s *step, _ StepKind, live bool) bool {
	g.say("night.butterfly.ask")
	if live && g.rs.butterfly.hugs >= butterflyHugs && !g.nightBlocked(s.actors[0]) {
		g.cue(s.actors[0], "cue.blocked", s.actors[0]) // both hugs used (H17)
	}
	target, chosen := 0, false
	s.act = func(seat int, a Action, t int) error {
		switch a {
		case ActWave:
			target, chosen = 0, true
			return nil
		case ActTarget:
		default:
			return errf(ErrNotNow, "花蝴蝶 points at a seat (0 or wave = none)")
		}
		if t == 0 {
			target, chosen = 0, true
			return nil
		}
		if g.rs.butterfly.hugs >= butterflyHugs {
			return refuse(ErrRule, Error{Reason: ReasonSkillUsed, Role: Butterfly}, "花蝴蝶 has hugged twice")
		}
		if !g.living(t) {
			return refuse(ErrBadTarget, Error{Reason: ReasonTargetOut, Target: t}, "seat %d is out", t)
		}
		if t == seat {
			return refuse(ErrBadTarget, Error{Reason: ReasonSelf, Role: Butterfly}, "花蝴蝶 cannot hug herself")
		}
		if t == g.rs.butterfly.last {
			return refuse(ErrRule, Error{Reason: ReasonTwiceRunning, Role: Butterfly, Target: t}, "花蝴蝶 cannot hug seat %d two nights running", t)
		}
		target, chosen = t, true
		return nil
	}
	s.reset = func() { target, chosen = 0, false }
	s.keys = []Key{{Target: TargetSeat}, {Word: "不用", Target: TargetZero}, {Word: "不用", Press: []Action{ActWave}}} // 0: the key 0
	s.done = func() bool { return chosen }
	s.commit = func() {
		if target == 0 {
			return
		}
		g.rs.butterfly.tonight = target
		g.rs.butterfly.hugs++
		g.record(Record{Type: RecAction, Kind: string(ActionHug), By: s.actors[0], Target: target, When: g.when()})
	}
	return false
}
