package engine

// NightSlot is a night step's place in seed 004's master night order
// (rules-more.md E0.2), the order the board loader gives a board with no
// night lines (boards/order.go), with E0.3's default duration and hurry
// point: a column of the step's row in the role table (StepInfo.Order).
type NightSlot struct {
	// Pos is E0.2's number ("4b"): the steps go by its number, then its
	// letter, then the role table's order. "" = no place: a board with the
	// step writes its own night lines.
	Pos        string
	First      bool     // night 1 only (N1)
	Secs       int      // seconds on night 1
	Hurry      int      // hurry point on night 1 (seconds after the open; 0 = none)
	Later      int      // seconds on later nights (0 = as on night 1)
	HurryLater int      // hurry point on later nights (with Later)
	In003      Block003 // its block in [003]'s order (night_order.preset seed003, H11)
	// Skip: the default order leaves the step out and asks no place for it
	// (白狼王's status step, which no seed-003/001 board has: D1).
	Skip bool
	// Moved is the step's place when MovedBy holds for the game's options
	// (黑市商人 under merchant.timing any_night_after_seer: 10d, every
	// night; E0.2 4b).
	Moved   *NightSlot
	MovedBy func(Options) bool
}

// Block003 is where [003]'s generic order ("盗贼，丘比特，情侣，野孩子，
// （猎人，白痴及其他神），隐狼，守卫，（狼人…），女巫，预言家") puts a step.
type Block003 int

const (
	Block003God    Block003 = iota // one of "（猎人，白痴及其他神）": every step [003] does not name
	Block003Lead                   // named before the gods (盜賊, 丘比特, 情侶, 野孩子)
	Block003Mid                    // keeps its E0.2 place after the gods, before 隱狼 (黑市商人 on night 1, 花蝴蝶)
	Block003Hidden                 // 隱狼, opening [003]'s block after the gods
	Block003Named                  // the rest [003] names, in E0.2 order after 隱狼
)

// SlotFor is the step's place under the options o (Moved when MovedBy
// holds).
func (s StepInfo) SlotFor(o Options) NightSlot {
	if s.Order.Moved != nil && s.Order.MovedBy != nil && s.Order.MovedBy(o) {
		return *s.Order.Moved
	}
	return s.Order
}
