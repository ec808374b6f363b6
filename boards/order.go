package boards

import (
	"fmt"
	"sort"
	"strconv"

	"wolftable/engine"
)

// Seed 004's night order (rules-more.md E0.2, issue 15 item 4): a board file
// with no night line gets, for nights 1 and 2-, every step of its
// composition in the merged master order, with E0.3's default durations
// and hurry points. Each step's place is a column of its row in the role
// table (engine.StepInfo.Order): a step with no place there (part B's
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
	in003   engine.Block003 // its block in [003]'s order
}

// seed004Order is E0.2 for the roles the engine plays, in order: every
// step with a place in the role table, by its place (its number, then its
// letter, then the table's order), under the options o (黑市商人 under
// merchant.timing any_night_after_seer moves to 10d's slot, every night).
func seed004Order(o engine.Options) []orderRow {
	var rows []orderRow
	for _, ri := range engine.Roles() {
		for _, si := range ri.Steps {
			sl := si.SlotFor(o)
			if sl.Pos == "" || sl.Skip {
				continue
			}
			rows = append(rows, orderRow{pos: sl.Pos, kind: si.Kind, first: sl.First, secs: sl.Secs, hurry: sl.Hurry,
				later: sl.Later, hurryLt: sl.HurryLater, in003: sl.In003})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return posLess(rows[i].pos, rows[j].pos) })
	return rows
}

// posLess orders E0.2's numbers: "4" < "4a" < "4b" < "5" < "10" < "10a".
func posLess(a, b string) bool {
	na, sa := splitPos(a)
	nb, sb := splitPos(b)
	if na != nb {
		return na < nb
	}
	return sa < sb
}

// splitPos splits "10a" into 10 and "a".
func splitPos(p string) (int, string) {
	i := 0
	for i < len(p) && p[i] >= '0' && p[i] <= '9' {
		i++
	}
	n, _ := strconv.Atoi(p[:i])
	return n, p[i:]
}

// seed003Order is night_order.preset seed003 (E0.2's last paragraph, H11):
// [003]'s "盗贼，丘比特，情侣，野孩子，（猎人，白痴及其他神），隐狼，守卫，（狼人…），女巫，预言家".
// On night 1 the gods (every step [003] does not name, in E0.2 order) come
// right after 野孩子; 黑市商人 and 花蝴蝶 keep their E0.2 places before 守衛
// (after the gods, before 隱狼: docs/rules-decisions.md); 村長 stays after
// 守衛; 狼美人, 魅魔 and 惡魔 follow the wolves; 幸運兒 follows 預言家.
// On later nights the gods follow 幸運兒. Each step's block is a column of
// the role table (engine.NightSlot.In003).
func seed003Order(o engine.Options) (night1, later []orderRow) {
	var gods, lead, mid, hidden, tail []orderRow
	for _, r := range seed004Order(o) {
		switch r.in003 {
		case engine.Block003God:
			gods = append(gods, r)
		case engine.Block003Lead:
			lead = append(lead, r)
		case engine.Block003Mid:
			mid = append(mid, r)
		case engine.Block003Hidden:
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

// specialWolf is the special wolf night 1's wolves' step asks to show
// itself ([004] "6 狼人（特殊技能狼人手势示意）", "狼美人狼人睁眼相互确认，特殊身份狼人手势示意";
// rules-more.md I7): the first card of the composition, other than 狼人,
// that wakes with the wolves on night 1 ("" = none).
func specialWolf(roles []engine.Role) engine.Role {
	for _, r := range roles {
		if ri := r.Info(); r != engine.Werewolf && ri.WakesWithWolves(1) {
			return r
		}
	}
	return ""
}

// seed004Nights builds the default night plans of a composition: night 1
// and nights 2-, in seed 004's order or, under night_order.preset seed003,
// in [003]'s. The roles that act only inside the wolves' step (狼王,
// 惡靈騎士, 血月使徒) need no place, nor a step the table marks Skip
// (白狼王's status step, which no seed-003/001 board has: D1).
func seed004Nights(roles []engine.Role, o engine.Options) ([]engine.NightPlan, error) {
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
	rows1 := seed004Order(o)
	rowsLt := rows1
	if o.NightOrderPreset == "seed003" {
		rows1, rowsLt = seed003Order(o)
	}
	var n1, later []engine.Step
	for _, row := range rows1 {
		placed[row.kind] = true
		if has(row.kind) {
			st := engine.Step{Kind: row.kind, Seconds: row.secs, Hurry: row.hurry}
			if row.kind == engine.StepWolves {
				st.Mark = specialWolf(roles) // night 1 only, as on seed 000's boards
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
			if !placed[si.Kind] && !si.Order.Skip {
				return nil, fmt.Errorf("%s (%s) has no place in seed 004's night order: write the board's night lines", r, r.Name())
			}
		}
	}
	return []engine.NightPlan{{From: 1, To: 1, Steps: n1}, {From: 2, Steps: later}}, nil
}
