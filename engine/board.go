package engine

import "strings"

// Step is one night step of a board: whose eyes open, for how long, and when
// the hurry line ("X請迅猛") is said (seconds after the step opens; 0 = none).
type Step struct {
	Kind    StepKind
	Seconds int
	Hurry   int
	// Mark names a role the open line asks to raise a hand ("狼王請舉手示意"),
	// said on this night only when the board has that role.
	Mark Role
	// OpenOnly: the role opens and closes its eyes and does nothing (獵魔人
	// and 石像鬼 on night 1).
	OpenOnly bool
	// Lines swaps the step's lines for the board's own wording of the
	// manual's 語術: "FROM>TO" pairs separated by spaces; while the step
	// runs, line FROM is said as line TO ("-": not said). Example: 石像鬼守墓人's
	// witch says "女巫確認請閉眼" for "確認是他嗎？" + "女巫請閉眼".
	Lines string
}

// LineSwap returns the line said for line in this step: the swap of Lines,
// "" when the swap drops it, or line itself.
func (s Step) LineSwap(line string) string {
	for _, p := range strings.Fields(s.Lines) {
		if from, to, ok := strings.Cut(p, ">"); ok && from == line {
			if to == "-" {
				return ""
			}
			return to
		}
	}
	return line
}

// NightPlan is the night order for nights From..To (To = 0: every later night).
type NightPlan struct {
	From, To int
	Steps    []Step
}

// Board is a board definition: composition, night order and rule options.
type Board struct {
	ID      string
	Name    string
	Players int    // seats: 6..18
	Roles   []Role // the cards, as a multiset (order is not the deal): one a seat, and any more are bottom cards (a thief's two)
	Nights  []NightPlan
	Options Options
	Source  string // file the board came from, for messages
	// Win is the wolves' win condition (屠邊 by default, or 屠城).
	Win WinRule
	// Third lists the board's third camps as sets of seats: a camp wins
	// (第三方) when every living player belongs to it; the good side needs
	// every member out (rules-more.md D0.2).
	Third [][]int
	// Preset is the seed preset the board's options start from ("" = none;
	// seed003, seed001: PresetSettings).
	Preset string
}

// Bottom is the number of bottom cards: the cards beyond the seats.
func (b *Board) Bottom() int { return len(b.Cards()) - b.Players }

// Cards are the cards the deal shuffles: the composition, and two 村民 more
// under thief.extra_cards=two_villagers (rules-more.md D2 盜賊, G9: [001]
// "在游戏开始的时候加入两张额外的普通村民牌").
func (b *Board) Cards() []Role {
	c := append([]Role(nil), b.Roles...)
	if b.Options.ThiefExtraCards == "two_villagers" {
		c = append(c, Villager, Villager)
	}
	return c
}

// StepsFor returns the night order of night n (1-based).
func (b *Board) StepsFor(n int) []Step {
	for _, p := range b.Nights {
		if n >= p.From && (p.To == 0 || n <= p.To) {
			return p.Steps
		}
	}
	return nil
}

// Has reports whether the composition holds the role.
func (b *Board) Has(r Role) bool {
	for _, x := range b.Roles {
		if x == r {
			return true
		}
	}
	return false
}

// hasProtector reports whether the board has a night protector (守衛).
func (b *Board) hasProtector() bool {
	for _, r := range b.Roles {
		if r.row().Protects {
			return true
		}
	}
	return false
}

func containsCause(a []Cause, c Cause) bool {
	for _, x := range a {
		if x == c {
			return true
		}
	}
	return false
}
