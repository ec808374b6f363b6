package console

import (
	"fmt"

	"wolftable/engine"
	"wolftable/script"
)

// seatStatus is what the god view shows beyond a seat's card: the lucky one
// of 黑市商人 with the gift and whether it is spent (a wolf lucky one got
// nothing), and 村長/長老's lives and the penalty.
func seatStatus(g *engine.Game) map[int][]string {
	out := map[int][]string{}
	if seat, gift, used := g.Lucky(); seat > 0 {
		switch {
		case gift == "":
			out[seat] = append(out[seat], "幸運兒（狼人：未獲得技能）")
		case used:
			out[seat] = append(out[seat], "幸運兒："+script.GiftLabel(gift)+"（已用）")
		default:
			out[seat] = append(out[seat], "幸運兒："+script.GiftLabel(gift))
		}
	}
	seats, lives, penalty := g.ElderLives()
	for _, s := range seats {
		out[s] = append(out[s], fmt.Sprintf("%s：剩%d條命", g.RoleOf(s).Name(), lives))
		if penalty {
			out[s] = append(out[s], "出局懲罰：所有好人失去技能")
		}
	}
	return out
}
