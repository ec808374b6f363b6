package engine

// What a step accepts, declared once (issue 30 item 2): each step declares
// the things a seat may key in it as data (its Keys, set beside its act),
// and Choices expands them for the game as it stands, keeping only what the
// step's own act accepts now. The scenario runner, the bots and the console
// read the same words.

// TargetKind says what the target key that ends a choice means.
type TargetKind int

const (
	TargetNone  TargetKind = iota // no target: the gestures alone
	TargetSeat                    // a seat, 1..Players
	TargetZero                    // the key 0 (nobody, abstain, an empty knife)
	TargetCard                    // a bottom card, by its index 1..len(Bottom) (盜賊)
	TargetValue                   // one fixed key (Key.Value: 黑市商人's gifts)
)

// Key declares one thing a step takes from a seat: the gestures pressed
// first, in order, then the target key (if any), and the word for it (the
// word of the scenario format, docs/scenario-format.md; "" for a plain seat).
type Key struct {
	Word   string
	Press  []Action
	Target TargetKind
	Value  int // TargetValue: the key
}

// Choice is one thing a seat may do in the current step, as Choices offers
// it: press Press, then (when Target is not TargetNone) key one of Targets.
// Every input of a choice is accepted when given in order now.
type Choice struct {
	Seat    int
	Word    string
	Press   []Action
	Target  TargetKind
	Targets []int // the accepted targets (nil for TargetNone)
	Card    Role  // TargetCard: the card kept (Word is its name)
}

// Inputs are the inputs that make the choice, keying target t last (t is
// ignored for a choice without a target).
func (c Choice) Inputs(t int) []Input {
	var out []Input
	for _, a := range c.Press {
		out = append(out, SeatGesture(c.Seat, a))
	}
	if c.Target != TargetNone {
		out = append(out, SeatTarget(c.Seat, t))
	}
	return out
}

// StepKeys are the keys the current step declares, accepted now or not
// (nil when it takes no seat input): a caller that maps words to inputs
// (the scenario runner) gives them, and the engine refuses them with its
// reason when they do not apply now.
func (g *Game) StepKeys() []Key {
	if g.cur == nil || g.cur.act == nil {
		return nil
	}
	return append([]Key(nil), g.cur.keys...)
}

// Choices lists what the seats may key in the current step now, seat by
// seat in the order of the step's actors, each seat's in its step's order
// of Keys. Explosions (ActBoom, tried in a window by any seat) are not
// choices. Choices changes nothing: it tries each key with the step's own
// act and takes it back as the judge's undo does.
func (g *Game) Choices() []Choice {
	s := g.cur
	if s == nil || s.act == nil || s.reset == nil || g.over || g.paused {
		return nil
	}
	var out []Choice
	for _, seat := range s.actors {
		for _, k := range s.keys {
			if c, ok := g.probe(s, seat, k); ok {
				out = append(out, c...)
			}
		}
	}
	return out
}

// probe expands one key for one seat: the choice if its gestures are
// accepted and (with a target) at least one target is.
func (g *Game) probe(s *step, seat int, k Key) ([]Choice, bool) {
	mark := len(g.out)
	defer g.restore(s, mark)
	press := func() bool {
		for _, a := range k.Press {
			if g.accepts(s, Input{Kind: InSeat, Seat: seat, Action: a}) != nil {
				return false
			}
		}
		return true
	}
	if !press() {
		return nil, false
	}
	c := Choice{Seat: seat, Word: k.Word, Press: k.Press, Target: k.Target}
	if k.Target == TargetNone {
		return []Choice{c}, true
	}
	var cards []Choice
	for _, t := range g.candidates(k) {
		g.restore(s, mark)
		if !press() || g.accepts(s, Input{Kind: InSeat, Seat: seat, Action: ActTarget, Target: t}) != nil {
			continue
		}
		if k.Target == TargetCard {
			card := g.bottom[t-1]
			cards = append(cards, Choice{Seat: seat, Word: card.Name(), Target: TargetCard, Targets: []int{t}, Card: card})
			continue
		}
		c.Targets = append(c.Targets, t)
	}
	if k.Target == TargetCard {
		return cards, len(cards) > 0
	}
	return []Choice{c}, len(c.Targets) > 0
}

// candidates are the target keys a key's target may be.
func (g *Game) candidates(k Key) []int {
	var out []int
	switch k.Target {
	case TargetSeat:
		for t := 1; t <= g.n; t++ {
			out = append(out, t)
		}
	case TargetZero:
		out = []int{0}
	case TargetCard:
		for t := 1; t <= len(g.bottom); t++ {
			out = append(out, t)
		}
	case TargetValue:
		out = []int{k.Value}
	}
	return out
}

// accepts tries one seat input in step s as applySeat would (after its
// range checks), changing only the step-local state that restore takes
// back.
func (g *Game) accepts(s *step, in Input) error {
	if err := g.stepAllows(s, in); err != nil {
		return err
	}
	return s.act(in.Seat, in.Action, in.Target)
}

// restore puts the step back as its inputs left it: reset, the inputs
// replayed, the effects the tries emitted dropped.
func (g *Game) restore(s *step, mark int) {
	s.reset()
	for _, in := range s.inputs {
		_ = s.act(in.Seat, in.Action, in.Target) // accepted before: accepted again
	}
	g.out = g.out[:mark]
}
