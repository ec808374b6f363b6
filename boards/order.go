package boards

import (
	"fmt"

	"wolftable/engine"
)

// Seed 004's night order (rules-more.md E0.2, issue 15 item 4): a board file
// with no night line gets, for nights 1 and 2-, every step of its
// composition in the merged master order below, with E0.3's default
// durations and hurry points. A role with no place in this table (part B's
// 攝夢人 boards order, 噩夢之影, 石像鬼 …) needs the board's own night lines.

// orderRow is one step of the master order.
type orderRow struct {
	pos     string          // E0.2's number, for the reader
	kind    engine.StepKind // the step
	first   bool            // night 1 only (N1)
	secs    int             // seconds on night 1
	hurry   int             // hurry point on night 1 (seconds after the open; 0 = none)
	later   int             // seconds on later nights (0 = as on night 1)
	hurryLt int             // hurry point on later nights (with later)
}

// seed004Order is E0.2 for the roles the engine plays, in order. E0.3:
// 狼人 90 s on night 1 and 60 s later, the hurry line with 30 s left; 30 s
// choice steps with the hurry line at 10 s left (女巫 as well); 守衛,
// 預言家, 狼美人 30 s; 獵人 10 s; identification steps 5 s.
func seed004Order() []orderRow {
	return []orderRow{
		{pos: "4", kind: engine.StepWildChild, first: true, secs: 30, hurry: 20},
		{pos: "4a", kind: engine.StepHalfBlood, first: true, secs: 30, hurry: 20},
		{pos: "4g", kind: engine.StepDreamweaver, secs: 30},
		{pos: "5", kind: engine.StepGuard, secs: 30},
		{pos: "6", kind: engine.StepWolves, secs: 90, hurry: 60, later: 60, hurryLt: 30},
		{pos: "7", kind: engine.StepWolfBeauty, secs: 30},
		{pos: "8", kind: engine.StepHiddenWolf, first: true, secs: 5},
		{pos: "9", kind: engine.StepWitch, secs: 30, hurry: 20},
		{pos: "10", kind: engine.StepSeer, secs: 30},
		{pos: "11", kind: engine.StepBear, secs: 5},
		{pos: "13", kind: engine.StepHunter, secs: 10},
		{pos: "14", kind: engine.StepIdiot, secs: 5},
		{pos: "15", kind: engine.StepKnight, secs: 5},
		{pos: "16", kind: engine.StepRogue, first: true, secs: 5},
	}
}

// seed004Nights builds the default night plans of a composition: night 1
// and nights 2-. The roles that act only inside the wolves' step (狼王,
// 白狼王 without a status step, 惡靈騎士, 血月使徒, 隱狼 alone) need no row.
func seed004Nights(roles []engine.Role) ([]engine.NightPlan, error) {
	placed := map[engine.StepKind]bool{}
	has := func(k engine.StepKind) bool {
		if k == engine.StepWolves {
			for _, r := range roles {
				if wakesWithWolves(r) {
					return true
				}
			}
			return false
		}
		r, _ := k.Role()
		for _, x := range roles {
			if x == r {
				return true
			}
		}
		return false
	}
	var n1, later []engine.Step
	for _, row := range seed004Order() {
		placed[row.kind] = true
		if !has(row.kind) {
			continue
		}
		n1 = append(n1, engine.Step{Kind: row.kind, Seconds: row.secs, Hurry: row.hurry})
		if row.first {
			continue
		}
		st := engine.Step{Kind: row.kind, Seconds: row.secs, Hurry: row.hurry}
		if row.later > 0 {
			st.Seconds, st.Hurry = row.later, row.hurryLt
		}
		later = append(later, st)
	}
	for _, r := range roles {
		for _, si := range r.Info().Steps {
			if !placed[si.Kind] {
				return nil, fmt.Errorf("%s (%s) has no place in seed 004's night order: write the board's night lines", r, r.Name())
			}
		}
	}
	return []engine.NightPlan{{From: 1, To: 1, Steps: n1}, {From: 2, Steps: later}}, nil
}
