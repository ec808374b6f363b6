package engine

// Seed 001's wording (lines.wording seed001, set by preset seed001;
// rules-more.md I6): [001] 法官主持发言流程与套路 "请法官严格遵守上述主持的规范用语，不得给场外，
// 必要环节不得跳过！". Where [001]'s 主持 script words a line differently from
// seed 000's 語術, the seed-001 boards say [001]'s: the opening, 盜賊, 守衛,
// the wolves, 女巫, 預言家, 獵人, 白痴, the 丘比特 tap script, daybreak and
// the election, and the three votes. [001] has no "確認是他嗎？": its steps
// close on their close line. The rest (speeches, tallies, deaths, the hurry
// lines, 退水) keep seed 000's words; 丘比特, 情侶 and 長老 already say [001]'s.

// seed001Lines are the lines said for line under seed 001's wording, in a
// step of kind k ("" by day); none = not said. A long sentence of [001] is
// said as two or three lines (a clip of the voice lasts at most 10 s), the
// votes end on their shared "允許棄票，跟票無效！3~2~1".
func seed001Lines(line string, k StepKind) []string {
	const count = "vote.count.seed001"
	switch line {
	case "game.start", "night.thief.open", "night.guard.open", "night.seer.open", "day.dawn", "exile.pk",
		"night.witch.victim", "night.witch.ask":
		return []string{line + ".seed001"}
	case "night.hunter.status":
		return []string{"night.hunter.status.seed001", "night.hunter.cannot.seed001"}
	case "vote.sheriff":
		return []string{"vote.sheriff.seed001", "vote.sheriff.raise.seed001", count}
	case "vote.exile", "vote.exile-pk":
		return []string{line + ".seed001", count}
	case "vote.sheriff-pk", "vote.sheriff-pk.never-ran":
		return []string{"vote.sheriff-pk.seed001", count} // [001] (4) 依然只有未竞选者能投票
	case "night.wolves.ask", "night.wolves.ask.marked":
		return []string{"night.wolves.ask.seed001"}
	case "night.idiot.open.baichi", "night.idiot.wake.baichi", "night.idiot.open", "night.idiot.wake":
		return []string{"night.idiot.open.seed001"}
	case "night.seer.result":
		if k == StepSeer {
			return []string{"night.seer.result.seed001"}
		}
	case "night.lovers.open":
		return []string{"cupid.tap.ask"} // the tap script opens the 情侶 step (role_cupid.go)
	case "election.lights":
		return []string{"election.open.seed001"} // 天亮了，现在开始警长竞选竞选开始！ (the table lights the candidates)
	case "night.confirm":
		return nil // [001]'s steps have no 確認是他嗎？
	}
	return []string{line}
}

// worded applies the board's wording (lines.wording) to a line: the lines
// to say for it.
func (g *Game) worded(line string) []string {
	if g.opt.Wording != "seed001" {
		return []string{line}
	}
	var k StepKind
	if c := g.cur; c != nil && c.name == WaitNight {
		k = c.night
	}
	return seed001Lines(line, k)
}
