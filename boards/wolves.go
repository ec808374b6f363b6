package boards

import (
	"slices"

	"wolftable/engine"
)

// A board with a wolf pack (a role that wakes with the wolves) gives the
// wolves a step every night: a night plan without one is a night the
// wolves do not kill, which a board file almost never means (a plan
// copied without its first step). It is refused unless the file says so:
//
//	allow night-without-wolves
//
// The check is the file's (Parse), not Validate's: a board built in code
// says what it means.

const allowNoWolves = "night-without-wolves"

// allow reads an allow line: one permission, written once.
func (p *parser) allow(n int, words []string) error {
	if len(words) != 1 || words[0] != allowNoWolves {
		return p.errorf(n, "allow wants %s", allowNoWolves)
	}
	return p.once(n, "allow "+allowNoWolves, &p.at.allowNoWolves)
}

// wolvesEveryNight refuses a night plan without a wolves step on a board
// with a wolf pack, unless the file allows it.
func (p *parser) wolvesEveryNight() error {
	i := nightWithoutWolves(p.b)
	if p.at.allowNoWolves != 0 || i < 0 {
		return nil
	}
	plan := p.b.Nights[i]
	return p.errorf(p.at.night(i), "第 %s 夜沒有狼人步驟（狼人這幾夜不殺人）：請加上 wolves/秒數；板子本意如此就寫一行 allow %s / night %s has no wolves step",
		nightSpec(plan), allowNoWolves, nightSpec(plan))
}

// nightWithoutWolves is the index of the first night plan without a
// wolves step on a board with a wolf pack; -1 when there is none.
func nightWithoutWolves(b *engine.Board) int {
	if !hasWolfPack(b) {
		return -1
	}
	for i, plan := range b.Nights {
		if !slices.ContainsFunc(plan.Steps, func(s engine.Step) bool { return s.Kind == engine.StepWolves }) {
			return i
		}
	}
	return -1
}
