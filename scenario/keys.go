package scenario

import (
	"fmt"
	"strings"

	"wolftable/engine"
)

// A night decision is given through the keys its step declares
// (engine.Game.StepKeys, the same declarations the engine's Choices offers
// from): the decision's word picks the key (女巫 救, 女巫 毒 5, 潛行者 刺,
// 黑市商人 5 眼鏡 …), a bottom card picks the thief's card key, and plain
// seats are keyed as the step's seat key (0: its first key for none). The
// engine accepts or refuses each input with its own reason, so a
// scenario means what it meant when every role was spelt out here.

// nightKeys applies night decision d in night step p.
func (r *runner) nightKeys(p engine.Prompt, d Decision) *RunError {
	fail := func(format string, a ...any) *RunError {
		return &RunError{Line: d.Line, Msg: fmt.Sprintf(format, a...)}
	}
	a := p.Actors[0]
	keys := r.g.StepKeys()
	switch {
	case d.Word == "分歧": // the actors point apart (the first at nobody)
		var ins []engine.Input
		for i, x := range p.Actors {
			t := 0
			if i > 0 {
				t = r.someSeat(x)
			}
			ins = append(ins, engine.SeatTarget(x, t))
		}
		return r.seatInputs(d, ins...)
	case d.Card != "":
		k := 0
		for i, c := range r.g.Bottom() {
			if c == d.Card && k == 0 {
				k = i + 1
			}
		}
		if _, ok := findKey(keys, func(k engine.Key) bool { return k.Target == engine.TargetCard }); !ok || k == 0 {
			return fail("%s %s: the bottom cards are %s", d.Role.Name(), d.Card.Name(), roleNames(r.g.Bottom()))
		}
		return r.seatInputs(d, engine.SeatTarget(a, k))
	case d.Word != "" && !stepWord(d.Word):
		return r.wordKeys(d, a, keys)
	}
	if _, ok := findKey(keys, func(k engine.Key) bool { return k.Word == "" && k.Target == engine.TargetSeat }); !ok {
		return fail("%s takes %s", d.Role.Name(), keyWords(keys))
	}
	for _, s := range d.Seats {
		if e := r.seatKey(d, p, keys, s); e != nil {
			return e
		}
	}
	return nil
}

// wordKeys keys the word's key; seats before it when the word comes after
// them (黑市商人 5 眼鏡: the lucky seat, then the gift's key).
func (r *runner) wordKeys(d Decision, a int, keys []engine.Key) *RunError {
	byWord := func(k engine.Key) bool { return k.Word == d.Word }
	k, ok := findKey(keys, byWord)
	seats := d.Seats
	if !ok || (k.Target != engine.TargetSeat && len(seats) > 0) {
		for _, s := range seats {
			if e := r.seatInputs(d, engine.SeatTarget(a, s)); e != nil {
				return e
			}
		}
		seats = nil
		keys = r.g.StepKeys()
		if k, ok = findKey(keys, byWord); !ok {
			return &RunError{Line: d.Line, Msg: fmt.Sprintf("%s takes %s, not %s", d.Role.Name(), keyWords(keys), d.Word)}
		}
	}
	ins := gestures(a, k)
	switch k.Target {
	case engine.TargetSeat:
		if len(seats) != 1 {
			return &RunError{Line: d.Line, Msg: fmt.Sprintf("%s %s takes a seat", d.Role.Name(), d.Word)}
		}
		ins = append(ins, engine.SeatTarget(a, seats[0]))
	case engine.TargetZero:
		ins = append(ins, engine.SeatTarget(a, 0))
	case engine.TargetValue:
		ins = append(ins, engine.SeatTarget(a, k.Value))
	}
	return r.seatInputs(d, ins...)
}

// seatKey keys seat s for every actor of the step (the wolves all point);
// 0 is the step's first key for none (a wave, or the key 0).
func (r *runner) seatKey(d Decision, p engine.Prompt, keys []engine.Key, s int) *RunError {
	var ins []engine.Input
	none, hasNone := findKey(keys, func(k engine.Key) bool {
		return k.Word != "" && (k.Word == "不用" || k.Target == engine.TargetZero)
	})
	for _, x := range p.Actors {
		switch {
		case s != 0 || !hasNone:
			ins = append(ins, engine.SeatTarget(x, s))
		default:
			ins = append(ins, gestures(x, none)...)
			if none.Target == engine.TargetZero {
				ins = append(ins, engine.SeatTarget(x, 0))
			}
		}
	}
	return r.seatInputs(d, ins...)
}

func gestures(seat int, k engine.Key) []engine.Input {
	var ins []engine.Input
	for _, a := range k.Press {
		ins = append(ins, engine.SeatGesture(seat, a))
	}
	return ins
}

func findKey(keys []engine.Key, match func(engine.Key) bool) (engine.Key, bool) {
	for _, k := range keys {
		if match(k) {
			return k, true
		}
	}
	return engine.Key{}, false
}

// keyWords lists the words of a step's keys, for an error.
func keyWords(keys []engine.Key) string {
	var w []string
	for _, k := range keys {
		switch {
		case k.Word != "" && k.Target == engine.TargetSeat:
			w = append(w, k.Word+" N")
		case k.Word != "":
			w = append(w, k.Word)
		case k.Target == engine.TargetCard:
			w = append(w, "a bottom card")
		default:
			w = append(w, "a seat")
		}
	}
	return strings.Join(w, " | ")
}
