package engine

// Grief by day (rules-more.md D2 情侶): the partner of a player who goes
// out by day dies of grief in the same batch, or in a turn of its own.

// joinGrief: the seats that died of grief (殉情) with a day death of batch b
// join it right after that seat, with its last words (A10: out at the same
// time). said announces each "X號玩家殉情" — at once after the death that
// caused it ([001] (8) "法官在宣布该玩家出局后要立即宣布情侣中的另一方“殉情”",
// rules-more.md I8) — and skills asks each for the skill, after the dead
// lover's own question.
func (g *Game) joinGrief(b *batch, after int) (said, skills []func()) {
	for _, s := range g.cs.together {
		b.insertAfter(after, s, b.wordsOf(after))
		after = s
		said = append(said, func() { g.say("day.grief", s) })
		skills = append(skills, func() { g.skillStep(b, s) })
	}
	g.cs.together = nil
	return said, skills
}

// griefTasks: the turn of seats that died of grief by day with a death that
// has no batch (an explosion, a duel, a take, a charm, a DQ): "X號玩家殉情",
// then skill, badge, last words and leaving as a batch of their own.
func (g *Game) griefTasks() []func() {
	if len(g.cs.together) == 0 {
		return nil
	}
	b := &batch{}
	var t []func()
	for _, s := range g.cs.together {
		b.entries = append(b.entries, lwEntry{seat: s, words: true})
		t = append(t, func() { g.say("day.grief", s) })
	}
	g.cs.together = nil
	return append(t, g.deathTasks(b)...)
}
