package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"wolftable/engine"
)

// nightArgs reads a night decision's arguments by their form alone, never
// by the role: the runner maps them to the keys the step declares
// (keys.go), and the engine refuses what the step does not take. A card's
// name is the bottom card 盜賊 keeps; 5 眼鏡 is 黑市商人's lucky seat and
// gift (a gift by its number is a seat's key: 5 2); 刺, 救, 不用, 分歧 are
// words; 毒 5, 刀 5 a word and a seat; any other arguments are seats
// (預言家 3 5 with the glasses, 丘比特 3 7), as many as the role table's
// StepInfo.Seats allows.
func nightArgs(d Decision, name string, args []string) (Decision, error) {
	var err error
	if len(args) == 1 {
		if ri, ok := engine.LookupRole(args[0]); ok {
			d.Card = ri.ID // 盜賊 狼人: the bottom card kept, by name
			return d, nil
		}
	}
	switch {
	case len(args) == 1 && (word(args[0]) == "刺" || word(args[0]) == "不刺"):
		d.Word = word(args[0]) // 潛行者 刺 | 不刺
		return d, nil
	case len(args) == 2 && giftWord(args[1]) != "" && !isNumber(args[1]):
		// 黑市商人 5 眼鏡|毒藥|獵槍 (黑市商人 5 2 is two seats: the same keys)
		d.Word = giftWord(args[1])
		d.Seats, err = seatList(args[:1])
		return d, err
	case len(args) == 1 && (word(args[0]) == "分歧" || word(args[0]) == "救" || word(args[0]) == "不用"):
		d.Word = word(args[0])
		return d, nil
	case len(args) == 2 && (word(args[0]) == "毒" || word(args[0]) == "刀"):
		d.Word = word(args[0])
		d.Seats, err = seatList(args[1:])
		return d, err
	case len(args) >= 1:
		if d.Seats, err = seatList(args); err != nil {
			return d, err
		}
		return d, seatCount(d, name)
	}
	return d, fmt.Errorf("%s takes a seat number", name)
}

// isNumber: the token is all digits (a seat or a key).
func isNumber(tok string) bool {
	_, err := strconv.Atoi(tok)
	return err == nil
}

// seatCount checks the number of seats against what the role's first
// night step takes (the role table's StepInfo.Seats): 丘比特 links two
// seats or nobody (丘比特 0).
func seatCount(d Decision, name string) error {
	if len(d.Seats) == 1 && d.Seats[0] == 0 {
		return nil
	}
	ri := d.Role.Info()
	want := []int{1}
	if len(ri.Steps) > 0 && ri.Steps[0].Seats != nil {
		want = ri.Steps[0].Seats
	}
	if !slices.Contains(want, len(d.Seats)) {
		return fmt.Errorf("%s takes %s seats, or 0 for nobody, not %d", name, strings.Trim(fmt.Sprint(want), "[]"), len(d.Seats))
	}
	return nil
}

// giftWord reads 黑市商人's gift: 眼鏡, 毒藥 or 獵槍.
func giftWord(tok string) string {
	switch tok {
	case "眼鏡", "眼镜", "glasses", "1":
		return "眼鏡"
	case "毒藥", "毒药", "poison", "2":
		return "毒藥"
	case "獵槍", "猎枪", "槍", "枪", "gun", "3":
		return "獵槍"
	}
	return ""
}
