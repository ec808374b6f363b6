package deskserver

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"wolftable/desk"
)

// The votes and exiles of a table's delayed status, in words for the
// audience screen and the public feed page (issue 29 item 7): who voted
// whom, as the judge announced it, and whom each day exiled.

// ScreenVote is one counted exile vote: its title and, per seat voted
// for, who voted it ("3 號（王小明）← 1、4、5 號"), then the abstentions.
type ScreenVote struct {
	Day   int      `json:"day"`
	Title string   `json:"title"` // 第 1 天放逐投票
	Lines []string `json:"lines"`
}

// ScreenExile is one day's exile in words.
type ScreenExile struct {
	Day   int    `json:"day"`
	Seat  int    `json:"seat,omitempty"` // 0: nobody
	Words string `json:"words"`          // 第 1 天放逐：3 號（王小明）
}

// seatWords is a seat as the audience reads it: "3 號", with the
// player's name once known.
func seatWords(n int, name func(int) string) string {
	if p := name(n); p != "" {
		return fmt.Sprintf("%d 號（%s）", n, p)
	}
	return fmt.Sprintf("%d 號", n)
}

// seatList is "1、4、5 號".
func seatList(seats []int) string {
	s := make([]string, len(seats))
	for i, n := range seats {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, "、") + " 號"
}

// voteWords puts a status's votes and exiles in words; name gives a
// seat's player ("" when unknown or before the start).
func voteWords(s *desk.Status, name func(int) string) ([]ScreenVote, []ScreenExile) {
	var votes []ScreenVote
	for _, v := range s.Votes {
		title := fmt.Sprintf("第 %d 天放逐投票", v.Day)
		if v.Kind == "exile-pk" { // engine.VoteExilePK (desk.Status.Check allows exile and exile-pk only)
			title = fmt.Sprintf("第 %d 天放逐 PK 投票", v.Day)
		}
		by := map[int][]int{}
		var none []int
		for i, t := range v.Targets {
			if t == 0 {
				none = append(none, i+1)
			} else {
				by[t] = append(by[t], i+1)
			}
		}
		targets := make([]int, 0, len(by))
		for t := range by {
			targets = append(targets, t)
		}
		sort.Slice(targets, func(i, j int) bool { // the most votes first, then by seat
			a, b := targets[i], targets[j]
			return len(by[a]) > len(by[b]) || (len(by[a]) == len(by[b]) && a < b)
		})
		sv := ScreenVote{Day: v.Day, Title: title, Lines: []string{}}
		for _, t := range targets {
			sv.Lines = append(sv.Lines, fmt.Sprintf("%s ← %s（%d 票）", seatWords(t, name), seatList(by[t]), len(by[t])))
		}
		if len(none) > 0 && len(none) < len(v.Targets) {
			sv.Lines = append(sv.Lines, "沒有投票："+seatList(none))
		}
		votes = append(votes, sv)
	}
	var exiles []ScreenExile
	for _, e := range s.Exiles {
		w := fmt.Sprintf("第 %d 天無人被放逐", e.Day)
		if e.Seat > 0 {
			w = fmt.Sprintf("第 %d 天放逐：%s", e.Day, seatWords(e.Seat, name))
		}
		exiles = append(exiles, ScreenExile{Day: e.Day, Seat: e.Seat, Words: w})
	}
	return votes, exiles
}
