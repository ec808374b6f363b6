package script

import "wolftable/engine"

// tapped reports whether the night step of this kind is one whose row in
// the engine's role table says Tapped: its close line puts out the private
// indicators the judge's taps lit (Line.Untap).
func tapped(kind string) bool {
	si, ok := engine.StepKind(kind).Info()
	return ok && si.Tapped
}

// RoleSegment reports whether seg, a segment of a line's id, is a role's
// id (bear.roar, cupid.tap.ask, rogue.dies): a role's own day lines,
// which the voice studio shows under its part of skills and roles.
func RoleSegment(seg string) bool {
	ri, ok := engine.LookupRole(seg)
	return ok && string(ri.ID) == seg
}
