package boards_test

import (
	"fmt"

	"wolftable/boards"
)

// Look a board up by its Chinese name and walk its first and second nights.
func ExampleGet() {
	b, err := boards.Get("預女獵愚")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.ID, b.Players, "players")
	for _, n := range []int{1, 2} {
		fmt.Printf("night %d:", n)
		for _, s := range b.StepsFor(n) {
			fmt.Printf(" %s %ds", s.Kind, s.Seconds)
			if s.Hurry > 0 {
				fmt.Printf(" (hurry at %ds)", s.Hurry)
			}
		}
		fmt.Println()
	}
	// Output:
	// seer-witch-hunter-idiot 12 players
	// night 1: wolves 90s (hurry at 60s) witch 30s (hurry at 15s) seer 30s hunter 10s idiot 5s
	// night 2: wolves 60s (hurry at 30s) witch 30s (hurry at 10s) seer 30s hunter 10s idiot 5s
}

// All lists the built-in boards, sorted by id.
func ExampleAll() {
	all, err := boards.All()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d boards, first %s, last %s\n", len(all), all[0].ID, all[len(all)-1].ID)
	// Output:
	// 36 boards, first black-market-003, last wolfking-guard
}

// A venue's own boards go through the same validator; errors name the file
// and line.
func ExampleParse() {
	_, err := boards.Parse("venue.board", []byte(`id venue-test
name 測試
players 12
roles werewolf*4 seer witch hunter idiot villager*4
night 1  wolves/90/hurry=60 witch/30/hurry=15 seer/30 guard/30
night 2- wolves/60/hurry=30 witch/30/hurry=10 seer/30
`))
	fmt.Println(err)
	// Output:
	// boards: venue.board:5: night 1: step "guard/30": guard (守衛) is not in the roles
}
