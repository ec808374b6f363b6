package script

import "wolftable/engine"

// tapped reports whether the night step of this kind is one whose row in
// the engine's role table says Tapped: its close line puts out the private
// indicators the judge's taps lit (Line.Untap).
func tapped(kind string) bool {
	si, ok := engine.StepKind(kind).Info()
	return ok && si.Tapped
}
