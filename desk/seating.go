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
	if err := checkPlanInput(players, tables, seats); err != nil {
		return nil, err
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
	met := meetings(ps, pairs)
	tableOf := make([]int, len(ps))
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
		c := planCost(tableOf, met)
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
		plan[name] = seatTable(at, had, rng)
	}
	return plan, nil
}

// meetings: met[i][j] is how often ps[i] and ps[j] met.
func meetings(ps []string, pairs Pairs) [][]int {
	met := make([][]int, len(ps))
	for i := range ps {
		met[i] = make([]int, len(ps))
		for j := range ps {
			if i != j {
				met[i][j] = pairs.Met(ps[i], ps[j])
			}
		}
	}
	return met
}

// planCost is how many repeated meetings the tables tableOf gives.
func planCost(tableOf []int, met [][]int) int {
	c := 0
	for i := range tableOf {
		for j := i + 1; j < len(tableOf); j++ {
			if tableOf[i] == tableOf[j] {
				c += met[i][j]
			}
		}
	}
	return c
}

// checkPlanInput refuses a plan that cannot be made: no table, a table
// size out of range, more players than seats, a player named twice.
func checkPlanInput(players, tables []string, seats int) error {
	if len(tables) == 0 {
		return fmt.Errorf("沒有桌子")
	}
	if seats < MinSeats || seats > MaxSeats {
		return fmt.Errorf("每桌人數要是 %d 到 %d", MinSeats, MaxSeats)
	}
	if len(players) > len(tables)*seats {
		return fmt.Errorf("%d 位選手坐不下 %d 桌（每桌 %d 人）", len(players), len(tables), seats)
	}
	seen := map[string]bool{}
	for _, p := range players {
		if seen[p] {
			return fmt.Errorf("選手 %s 重複", p)
		}
		seen[p] = true
	}
	return nil
}

// seatTable orders a table's players by seat: shuffled, then each player
// swapped away from the seats he had most.
func seatTable(at []string, had SeatHistory, rng *rand.Rand) []string {
	rng.Shuffle(len(at), func(i, j int) { at[i], at[j] = at[j], at[i] })
	for improved := true; improved; {
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
	return at
}

// plans are the locked plans of the rounds, for naming a game's seats.
type plans []Round

func (s *Store) lockedPlans() plans {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out plans
	for _, r := range s.rounds {
		if r.Locked {
			out = append(out, r)
		}
	}
	return out
}

// at is who the locked plan of round n seats at table's seat.
func (p plans) at(n int, table string, seat int) (string, bool) {
	for _, r := range p {
		if r.N == n {
			ps := r.Plan[table]
			if seat >= 1 && seat <= len(ps) {
				return ps[seat-1], true
			}
		}
	}
	return "", false
}

// open is who the open round's locked plan seats at table's seat.
func (p plans) open(table string, seat int) (string, bool) {
	for _, r := range p {
		if r.Open() && r.Has(table) {
			return p.at(r.N, table, seat)
		}
	}
	return "", false
}

// ProposeRoundPlan proposes the seating plan of open round n: every
// registered player not disqualified, at most seats a table, spread from
// the counted games so far. A locked plan is not replaced.
func (s *Store) ProposeRoundPlan(n, seats int) (Round, error) {
	pairs, had := History(s.Games())
	players, err := s.playersByID()
	if err != nil {
		return Round{}, err
	}
	dq := map[string]bool{}
	for _, sn := range s.Sanctions() {
		if sn.Kind == SanctionDQ && sn.Revoked == "" {
			dq[sn.Player] = true
		}
	}
	var ids []string
	for id := range players {
		if !dq[id] {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return Round{}, fmt.Errorf("名冊裡沒有可排的選手")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.planRoundLocked(n)
	if err != nil {
		return Round{}, err
	}
	plan, err := ProposePlan(ids, s.rounds[i].Tables, seats, pairs, had, uint64(n))
	if err != nil {
		return Round{}, err
	}
	next := append([]Round(nil), s.rounds...)
	next[i].Plan = plan
	if err := s.writeRoundsLocked(next); err != nil {
		return Round{}, err
	}
	return next[i], s.Log("plan", fmt.Sprint(n), fmt.Sprintf("第 %d 輪座位表：%d 位選手、%d 桌，重複同桌 %d 對", n, len(ids), len(plan), PlanCost(plan, pairs)))
}

// planRoundLocked is the index of round n, open and its plan not locked.
func (s *Store) planRoundLocked(n int) (int, error) {
	for i, r := range s.rounds {
		if r.N != n {
			continue
		}
		switch {
		case !r.Open():
			return 0, fmt.Errorf("第 %d 輪已經結束", n)
		case r.Locked:
			return 0, fmt.Errorf("第 %d 輪的座位表已鎖定", n)
		}
		return i, nil
	}
	return 0, fmt.Errorf("沒有第 %d 輪", n)
}

// SwapPlan swaps two players of round n's plan (not locked).
func (s *Store) SwapPlan(n int, a, b string) (Round, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.planRoundLocked(n)
	if err != nil {
		return Round{}, err
	}
	next := append([]Round(nil), s.rounds...)
	plan := map[string][]string{}
	for t, ps := range next[i].Plan {
		plan[t] = append([]string(nil), ps...)
	}
	find := func(id string) (string, int, bool) {
		for t, ps := range plan {
			for k, p := range ps {
				if p == id {
					return t, k, true
				}
			}
		}
		return "", 0, false
	}
	ta, ka, oka := find(a)
	tb, kb, okb := find(b)
	if !oka || !okb || a == b {
		return Round{}, fmt.Errorf("要選座位表裡兩位不同的選手")
	}
	plan[ta][ka], plan[tb][kb] = b, a
	next[i].Plan = plan
	if err := s.writeRoundsLocked(next); err != nil {
		return Round{}, err
	}
	return next[i], s.Log("plan", fmt.Sprint(n), fmt.Sprintf("第 %d 輪座位表：%s（%s %d 號）與 %s（%s %d 號）對調", n, a, ta, ka+1, b, tb, kb+1))
}

// LockPlan locks round n's plan: it names the round's games' players.
func (s *Store) LockPlan(n int) (Round, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.planRoundLocked(n)
	if err != nil {
		return Round{}, err
	}
	if len(s.rounds[i].Plan) == 0 {
		return Round{}, fmt.Errorf("第 %d 輪還沒有座位表", n)
	}
	next := append([]Round(nil), s.rounds...)
	next[i].Locked = true
	if err := s.writeRoundsLocked(next); err != nil {
		return Round{}, err
	}
	return next[i], s.Log("plan", fmt.Sprint(n), fmt.Sprintf("第 %d 輪座位表鎖定", n))
}
