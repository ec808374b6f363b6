package scenario

import "wolftable/engine"

// winnerOf reads the word of an `expect winner` line: a game's result, or
// 無 (无) for a game that has not ended.
func winnerOf(word string) (engine.Winner, bool) {
	switch word {
	case "好人":
		return engine.WinGood, true
	case "狼人":
		return engine.WinWolves, true
	case "流局":
		return engine.WinVoid, true
	case "第三方":
		return engine.WinThird, true
	case "無", "无":
		return engine.WinNone, true
	}
	return engine.WinNone, false
}

// resultOf is the game's result so far: WinNone until it is over.
func resultOf(g *engine.Game) engine.Winner {
	if over, w := g.Over(); over {
		return w
	}
	return engine.WinNone
}

// winnerWord is a result as an `expect winner` line writes it.
func winnerWord(w engine.Winner) string {
	if w == engine.WinNone {
		return "無"
	}
	return string(w)
}
