package engine

// Deal shuffles a board's cards with a seeded generator (A2) and returns
// the seats' cards (DealCards also returns the bottom cards).
func Deal(b *Board, seed uint64) []Role {
	seats, _ := DealCards(b, seed)
	return seats
}

// DealCards shuffles a board's cards with a seeded generator (A2): the
// first Players cards go to seats 1..Players, the rest are the bottom cards.
//
// A board with bottom cards is dealt again from the same generator while
// its bottom is forbidden (rules-more.md D2 盜賊 "Deal", G10, H9: two
// wolf-camp cards, or 盜賊 and a wolf-camp card); a board without bottom
// cards is shuffled once, exactly as before.
func DealCards(b *Board, seed uint64) (seats, bottom []Role) {
	d := b.Cards()
	r := seed ^ 0xD1B54A32D192ED03
	for try := 0; ; try++ {
		for i := len(d) - 1; i > 0; i-- {
			j := int(splitmix(&r) % uint64(i+1))
			d[i], d[j] = d[j], d[i]
		}
		if b.Players < 0 || b.Players >= len(d) {
			return d, nil
		}
		if !forbiddenBottom(d[b.Players:], b.Options.ThiefTwoWolves == "allow") || try >= maxRedeals {
			return d[:b.Players:b.Players], d[b.Players:]
		}
	}
}

// maxRedeals bounds the redeals of a board whose every bottom is forbidden
// (no seed gives one; this only keeps Deal total).
const maxRedeals = 1000
