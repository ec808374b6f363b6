package desk

import (
	"fmt"
	"math/rand/v2"
	"sort"
)

// Seating plans (issue 29 item 4): for a round, the desk proposes which
// players sit at which table so that opponents are spread — the fewest
// pairs of players who already met at a table, then each player away
// from the seats he had most — and the organiser swaps players and locks
// it. A locked plan names the players of the round's games by seat (the
// seat a player drew is the plan's until the tables draw their own).

// Pairs counts how often two players sat at one table: key a+"\x00"+b
// with a < b.
type Pairs map[string]int

func pairKey(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return a + "\x00" + b
}

// Met is how often a and b sat at one table.
func (p Pairs) Met(a, b string) int { return p[pairKey(a, b)] }

// SeatHistory counts the seats each player had: player → seat → games.
type SeatHistory map[string]map[int]int

// History is the pairs and the seats of the counted, not voided games
// (players the desk knows by id only).
func History(games []Game) (Pairs, SeatHistory) {
	pairs, seats := Pairs{}, SeatHistory{}
	for _, g := range games {
		if g.Void != "" || !g.Counted() {
			continue
		}
		var ids []string
		for _, s := range g.Seats {
			if s.PlayerID == "" {
				continue
			}
			ids = append(ids, s.PlayerID)
			if seats[s.PlayerID] == nil {
				seats[s.PlayerID] = map[int]int{}
			}
			seats[s.PlayerID][s.Seat]++
		}
		for i := range ids {
			for j := i + 1; j < len(ids); j++ {
				pairs[pairKey(ids[i], ids[j])]++
			}
		}
	}
	return pairs, seats
}

// PlanCost is a plan's repeated pairs: for every two players at one
// table, how often they met before.
func PlanCost(plan map[string][]string, pairs Pairs) int {
	c := 0
	for _, ps := range plan {
		for i := range ps {
			for j := i + 1; j < len(ps); j++ {
				c += pairs.Met(ps[i], ps[j])
			}
		}
	}
	return c
}

// ProposePlan seats players at tables (at most seats each, the tables
// filled evenly): the fewest repeated pairs found from several random
// starts improved by swaps, then within each table the seats each player
// had least. seed makes it reproducible. A plan lists each table's
// players by seat (index 0 is seat 1).
func ProposePlan(players, tables []string, seats int, pairs Pairs, had SeatHistory, seed uint64) (map[string][]string, error) {
	if len(tables) == 0 {
		return nil, fmt.Errorf("沒有桌子")
	}
	if seats < MinSeats || seats > MaxSeats {
		return nil, fmt.Errorf("每桌人數要是 %d 到 %d", MinSeats, MaxSeats)
	}
	if len(players) > len(tables)*seats {
		return nil, fmt.Errorf("%d 位選手坐不下 %d 桌（每桌 %d 人）", len(players), len(tables), seats)
	}
	seen := map[string]bool{}
	for _, p := range players {
		if seen[p] {
			return nil, fmt.Errorf("選手 %s 重複", p)
		}
		seen[p] = true
	}
	ps := append([]string(nil), players...)
	sort.Strings(ps)
	ts := append([]string(nil), tables...)
	sort.Strings(ts)
	// sizes: as even as can be
	size := make([]int, len(ts))
	for i := range ps {
		size[i%len(ts)]++
	}
	rng := rand.New(rand.NewPCG(seed, 0x5ea7))
	var best []int // best[k] is player k's table
	bestCost := -1
	met := make([][]int, len(ps)) // met[i][j]: how often ps[i] and ps[j] met
	for i := range ps {
		met[i] = make([]int, len(ps))
		for j := range ps {
			if i != j {
				met[i][j] = pairs.Met(ps[i], ps[j])
			}
		}
	}
	tableOf := make([]int, len(ps))
	cost := func() int {
		c := 0
		for i := range ps {
			for j := i + 1; j < len(ps); j++ {
				if tableOf[i] == tableOf[j] {
					c += met[i][j]
				}
			}
		}
		return c
	}
	with := func(x, t, but int) int { // x's meetings with table t's players but one
		c := 0
		for k := range ps {
			if k != x && k != but && tableOf[k] == t {
				c += met[x][k]
			}
		}
		return c
	}
	for start := 0; start < 8; start++ {
		order := rng.Perm(len(ps))
		k := 0
		for t := range ts {
			for n := 0; n < size[t]; n++ {
				tableOf[order[k]] = t
				k++
			}
		}
		c := cost()
		for improved := true; improved && c > 0; { // swap two players of two tables while it helps
			improved = false
			for i := range ps {
				for j := i + 1; j < len(ps); j++ {
					a, b := tableOf[i], tableOf[j]
					if a == b {
						continue
					}
					delta := with(i, b, j) + with(j, a, i) - with(i, a, j) - with(j, b, i)
					if delta < 0 {
						tableOf[i], tableOf[j] = b, a
						c += delta
						improved = true
					}
				}
			}
		}
		if bestCost < 0 || c < bestCost {
			bestCost, best = c, append([]int(nil), tableOf...)
		}
		if bestCost == 0 {
			break
		}
	}
	plan := map[string][]string{}
	for t, name := range ts {
		var at []string
		for k, tt := range best {
			if tt == t {
				at = append(at, ps[k])
			}
		}
		rng.Shuffle(len(at), func(i, j int) { at[i], at[j] = at[j], at[i] })
		for improved := true; improved; { // each player away from the seats he had most
			improved = false
			for i := range at {
				for j := i + 1; j < len(at); j++ {
					now := had[at[i]][i+1] + had[at[j]][j+1]
					swapped := had[at[i]][j+1] + had[at[j]][i+1]
					if swapped < now {
						at[i], at[j] = at[j], at[i]
						improved = true
					}
				}
			}
		}
		plan[name] = at
	}
	return plan, nil
}
