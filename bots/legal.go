package bots

// The legal players (Driver.Legal): each seat chooses among the engine's
// own choices (engine.Game.Choices), so no input is ever refused. They know
// no role: the words and keys are the steps' own declarations.

// legalTick makes the legal players' move in a new step: each seat that has
// choices picks one of them at random, or (one chance more than it has
// choices) passes, the choices asked again after every seat's move, as the
// game changed. It reports whether any seat moved.
func (d *Driver) legalTick() bool {
	moved, done := false, map[int]bool{}
	for i := 0; i < 4*d.G.Players()+4; i++ {
		seat, mine := 0, d.legal[:0]
		for _, c := range d.G.Choices() {
			if done[c.Seat] || (seat != 0 && c.Seat != seat) {
				continue
			}
			seat = c.Seat
			mine = append(mine, c)
		}
		d.legal = mine
		if seat == 0 {
			return moved
		}
		done[seat] = true
		k := d.rng.IntN(len(mine) + 1)
		if k == len(mine) {
			continue // this seat passes
		}
		c := mine[k]
		t := 0
		if len(c.Targets) > 0 {
			t = c.Targets[d.rng.IntN(len(c.Targets))]
		}
		for _, in := range c.Inputs(t) {
			if err := d.Apply(in); err != nil {
				d.Refused++ // a choice the engine offered, then refused: a defect
				break
			}
		}
		moved = true
		if d.G.StepSeq() != d.acted {
			return moved // the step closed
		}
	}
	return moved
}
