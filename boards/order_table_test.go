package boards

import (
	"fmt"
	"reflect"
	"testing"

	"wolftable/engine"
)

// The night order derived from the role table's Order column
// (engine.NightSlot) equals the list it replaced, row for row, under
// every option that moves a step, in both presets; and every board in
// boards/data gets the same default nights from either.
func TestNightOrderFromTable(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, timing := range []string{"n1_first", "any_night_after_seer"} {
		o := engine.DefaultOptions()
		o.MerchantTiming = timing
		if got, want := noBlocks(seed004Order(o)), legacySeed004Order(o); !reflect.DeepEqual(got, want) {
			t.Errorf("merchant.timing %s: seed 004's order\n got %v\nwant %v", timing, got, want)
		}
		got1, gotLt := seed003Order(o)
		want1, wantLt := legacySeed003Order(o)
		if !reflect.DeepEqual(noBlocks(got1), want1) || !reflect.DeepEqual(noBlocks(gotLt), wantLt) {
			t.Errorf("merchant.timing %s: [003]'s order\n got %v / %v\nwant %v / %v", timing, noBlocks(got1), noBlocks(gotLt), want1, wantLt)
		}
		for _, preset := range []string{"seed004", "seed003"} {
			o.NightOrderPreset = preset
			for _, b := range all {
				got, err := seed004Nights(b.Roles, o)
				want, werr := legacyNights(b.Roles, o)
				if fmt.Sprint(err) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
					t.Errorf("%s (%s, %s):\n got %v %v\nwant %v %v", b.ID, timing, preset, got, err, want, werr)
				}
			}
		}
	}
}

// noBlocks drops the rows' [003] blocks, which the old list did not hold
// (seed003Order's result holds them to the old one).
func noBlocks(rows []orderRow) []orderRow {
	out := append([]orderRow(nil), rows...)
	for i := range out {
		out[i].in003 = 0
	}
	return out
}

// legacyNights is seed004Nights over the old lists.
func legacyNights(roles []engine.Role, o engine.Options) ([]engine.NightPlan, error) {
	placed := map[engine.StepKind]bool{engine.StepWhiteWolfKing: true}
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
	rows1 := legacySeed004Order(o)
	rowsLt := rows1
	if o.NightOrderPreset == "seed003" {
		rows1, rowsLt = legacySeed003Order(o)
	}
	var n1, later []engine.Step
	for _, row := range rows1 {
		placed[row.kind] = true
		if has(row.kind) {
			st := engine.Step{Kind: row.kind, Seconds: row.secs, Hurry: row.hurry}
			if row.kind == engine.StepWolves {
				st.Mark = specialWolf(roles)
			}
			n1 = append(n1, st)
		}
	}
	for _, row := range rowsLt {
		if row.first || !has(row.kind) {
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

// legacySeed004Order is boards/order.go's list before the order became a
// column of the role table (issue 30), kept to hold the column to it: E0.2 for the roles the engine plays, in order, with
// [004]'s night-1-only flags (rules-more.md I7: 白痴 and 騎士 too). E0.3:
// 狼人 90 s on night 1 and 60 s later, the hurry line with 30 s left; 30 s
// choice steps with the hurry line at 10 s left (女巫 as well); 守衛,
// 預言家, 狼美人 30 s; 情侶 and 幸運兒 15 s; 獵人 10 s; identification
// steps 5 s. 黑市商人 under merchant.timing any_night_after_seer moves to
// 10d's slot, every night (E0.2 4b).
func legacySeed004Order(o engine.Options) []orderRow {
	merchant := orderRow{pos: "4b", kind: engine.StepMerchant, first: true, secs: 30, hurry: 20}
	anyNight := o.MerchantTiming == "any_night_after_seer"
	if anyNight {
		merchant.pos, merchant.first = "10d", false
	}
	rows := []orderRow{
		{pos: "1", kind: engine.StepThief, first: true, secs: 30, hurry: 20},
		{pos: "2", kind: engine.StepCupid, first: true, secs: 30, hurry: 20},
		{pos: "3", kind: engine.StepLovers, first: true, secs: 15},
		{pos: "4", kind: engine.StepWildChild, first: true, secs: 30, hurry: 20},
		{pos: "4a", kind: engine.StepHalfBlood, first: true, secs: 30, hurry: 20},
	}
	if !anyNight {
		rows = append(rows, merchant)
	}
	rows = append(rows, []orderRow{
		{pos: "4f", kind: engine.StepButterfly, secs: 30, hurry: 20},
		{pos: "4g", kind: engine.StepDreamweaver, secs: 30},
		{pos: "5", kind: engine.StepGuard, secs: 30},
		{pos: "5a", kind: engine.StepChief, secs: 5},
		{pos: "5a", kind: engine.StepElder, secs: 5},
		{pos: "6", kind: engine.StepWolves, secs: 90, hurry: 60, later: 60, hurryLt: 30},
		{pos: "7", kind: engine.StepWolfBeauty, secs: 30},
		{pos: "7a", kind: engine.StepSuccubus, first: true, secs: 30, hurry: 20},
		{pos: "7b", kind: engine.StepSuccubusLovers, first: true, secs: 30},
		{pos: "7c", kind: engine.StepDemon, secs: 30, hurry: 20},
		{pos: "8", kind: engine.StepHiddenWolf, first: true, secs: 5},
		{pos: "9", kind: engine.StepWitch, secs: 30, hurry: 20},
		{pos: "10", kind: engine.StepSeer, secs: 30},
		{pos: "10a", kind: engine.StepFox, secs: 30, hurry: 20},
		{pos: "10b", kind: engine.StepGambler, secs: 30, hurry: 20},
		{pos: "10c", kind: engine.StepStalker, secs: 30, hurry: 20},
	}...)
	if anyNight {
		rows = append(rows, merchant)
	}
	return append(rows, []orderRow{
		{pos: "10e", kind: engine.StepLucky, secs: 15},
		{pos: "11", kind: engine.StepBear, secs: 5},
		{pos: "12", kind: engine.StepSilenceElder, secs: 30, hurry: 20},
		{pos: "13", kind: engine.StepHunter, secs: 10},
		{pos: "14", kind: engine.StepIdiot, first: true, secs: 5},  // [004] "14 白痴（仅首夜）" (I7)
		{pos: "15", kind: engine.StepKnight, first: true, secs: 5}, // [004] "15 骑士（仅首夜）" (I7)
		{pos: "16", kind: engine.StepRogue, first: true, secs: 5},
	}...)
}

// legacySeed003Named are the steps [003]'s generic order names, with H11's
// exceptions that keep their E0.2 places; every other step with a place is
// a god of "（猎人，白痴及其他神）".
var legacySeed003Named = map[engine.StepKind]bool{
	engine.StepThief: true, engine.StepCupid: true, engine.StepLovers: true, engine.StepWildChild: true,
	engine.StepMerchant: true, engine.StepButterfly: true,
	engine.StepHiddenWolf: true, engine.StepGuard: true, engine.StepChief: true, engine.StepElder: true,
	engine.StepWolves: true, engine.StepWolfBeauty: true, engine.StepSuccubus: true, engine.StepSuccubusLovers: true,
	engine.StepDemon: true, engine.StepWitch: true, engine.StepSeer: true, engine.StepLucky: true,
}

// legacySeed003Order is night_order.preset seed003 (E0.2's last paragraph, H11):
// [003]'s "盗贼，丘比特，情侣，野孩子，（猎人，白痴及其他神），隐狼，守卫，（狼人…），女巫，预言家".
// On night 1 the gods (every other good step, in E0.2 order) come right
// after 野孩子; 黑市商人 and 花蝴蝶 keep their E0.2 places before 守衛
// (after the gods, before 隱狼: docs/rules-decisions.md); 村長 stays after
// 守衛; 狼美人, 魅魔 and 惡魔 follow the wolves; 幸運兒 follows 預言家.
// On later nights the gods follow 幸運兒.
func legacySeed003Order(o engine.Options) (night1, later []orderRow) {
	// gods: "（猎人，白痴及其他神）"; mid: 黑市商人 (night 1) and 花蝴蝶 at their
	// E0.2 places, then 隱狼 opening [003]'s block; tail: the rest in E0.2
	// order (黑市商人 under any_night_after_seer stays after 預言家)
	var gods, lead, mid, hidden, tail []orderRow
	for _, r := range legacySeed004Order(o) {
		switch k := r.kind; {
		case !legacySeed003Named[k]:
			gods = append(gods, r)
		case k == engine.StepThief || k == engine.StepCupid || k == engine.StepLovers || k == engine.StepWildChild:
			lead = append(lead, r)
		case k == engine.StepButterfly || (k == engine.StepMerchant && r.first):
			mid = append(mid, r)
		case k == engine.StepHiddenWolf:
			hidden = append(hidden, r)
		default:
			tail = append(tail, r)
		}
	}
	mid = append(mid, hidden...)
	night1 = append(append(append(append(night1, lead...), gods...), mid...), tail...)
	later = append(append(append(later, lead...), mid...), tail...)
	later = append(later, gods...)
	return night1, later
}
