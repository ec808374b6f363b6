package desk

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"wolftable/internal/atomicfile"
)

// Late games (issue 28 D8). A table's rounds are given at arrival — its
// next round — and never renumbered. A game that arrives after a game of
// the same table that started later (a record held back, a practice game
// sent afterwards, a Pi whose clock went back: it has no RTC) is held
// for the operator instead of counted: accepted into a round, or set
// aside. Nothing renumbers the rounds already given.

// The operator's decisions on a late game.
const (
	DecisionAccepted = "accepted"
	DecisionSetAside = "set_aside"
)

// Counted reports whether the game counts: on time, or a late one the
// operator accepted.
func (g *Game) Counted() bool { return g.Late == "" || g.Decision == DecisionAccepted }

// placeLocked gives a game arriving now its round, or holds it as late
// (round 0, the reason). s.mu is held.
func (s *Store) placeLocked(g *Game) (round int, late string) {
	if len(s.rounds) > 0 {
		return s.placeRoundLocked(g)
	}
	top := 0
	for _, o := range s.games {
		if o.Table != g.Table || o.Decision == DecisionSetAside {
			continue
		}
		if o.Started.After(g.Started) && late == "" {
			late = fmt.Sprintf("比本桌已收到的紀錄 %s（第 %d 輪，%s 開局）更早開局（%s）：晚到的紀錄不自動計分，請總台決定併入哪一輪或擱置",
				o.Fingerprint, o.Round, o.Started.Format("01-02 15:04"), g.Started.Format("01-02 15:04"))
		}
		top = max(top, o.Round)
	}
	if late != "" {
		return 0, late
	}
	return top + 1, ""
}

// numberLegacy gives the games stored before rounds were kept (round 0,
// not late) their rounds by start time, after the table's last round.
func numberLegacy(games map[string]*Game) {
	var old []*Game
	top := map[string]int{}
	for _, g := range games {
		if g.Round == 0 && g.Late == "" {
			old = append(old, g)
		}
		top[g.Table] = max(top[g.Table], g.Round)
	}
	sort.Slice(old, func(i, j int) bool {
		if !old[i].Started.Equal(old[j].Started) {
			return old[i].Started.Before(old[j].Started)
		}
		return old[i].Hash < old[j].Hash
	})
	for _, g := range old {
		top[g.Table]++
		g.Round = top[g.Table]
	}
}

// Late lists the games held for the operator (pending and set aside),
// oldest arrival first.
func (s *Store) Late() []Game {
	s.mu.Lock()
	var list []Game
	for _, g := range s.games {
		if g.Late != "" {
			list = append(list, *g)
		}
	}
	awards := s.awards
	s.mu.Unlock()
	sort.Slice(list, func(i, j int) bool { return list[i].Received.Before(list[j].Received) })
	return s.finish(list, awards)
}

// Decide records the operator's decision on a late game: accepted into
// round (0: the table's next free round; a round another counted game of
// the table has is refused), or set aside. Kept in the game's metadata.
// Once the organiser has rounds, round is one of them (0: the last one
// the table plays in) with a game free for the table, and the decision
// is logged with the reason (note).
func (s *Store) Decide(hash string, accept bool, round int) (Game, error) {
	return s.DecideNote(hash, accept, round, "")
}

// DecideNote is Decide with the operator's reason.
func (s *Store) DecideNote(hash string, accept bool, round int, note string) (Game, error) {
	note = strings.TrimSpace(note)
	if len([]rune(note)) > 200 {
		return Game{}, fmt.Errorf("原因太長（最多 200 字）")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.games[hash]
	if !ok {
		return Game{}, fmt.Errorf("總台沒有紀錄 %.16s", hash)
	}
	if g.Late == "" {
		return Game{}, fmt.Errorf("紀錄 %s 不是晚到的紀錄：已在第 %d 輪計分", g.Fingerprint, g.Round)
	}
	next := *g
	next.DecisionNote = note
	if !accept {
		next.Decision, next.Round = DecisionSetAside, 0
	} else if len(s.rounds) > 0 {
		if round < 0 {
			return Game{}, fmt.Errorf("輪次 %d 不對", round)
		}
		if round == 0 {
			for _, r := range s.rounds {
				if r.Has(g.Table) {
					round = r.N
				}
			}
			if round == 0 {
				return Game{}, fmt.Errorf("桌子 %s 不在任何輪次：請填要併入的輪次", g.Table)
			}
		}
		r, ok := s.roundLocked(round)
		if !ok {
			return Game{}, fmt.Errorf("沒有第 %d 輪", round)
		}
		if c := s.roundCountLocked(round)[g.Table]; c >= r.Games {
			return Game{}, fmt.Errorf("桌子 %s 的第 %d 輪已有 %d 局（每桌 %d 局）：先作廢一局，或併入別的輪次", g.Table, round, c, r.Games)
		}
		next.Decision, next.Round = DecisionAccepted, round
	} else {
		top := 0
		for _, o := range s.games {
			if o.Table != g.Table || o.Hash == g.Hash || !o.Counted() {
				continue
			}
			if round > 0 && o.Round == round {
				return Game{}, fmt.Errorf("桌子 %s 的第 %d 輪已有紀錄 %s：一輪只算一局", g.Table, round, o.Fingerprint)
			}
			top = max(top, o.Round)
		}
		if round < 0 {
			return Game{}, fmt.Errorf("輪次 %d 不對", round)
		}
		if round == 0 {
			round = top + 1
		}
		next.Decision, next.Round = DecisionAccepted, round
	}
	meta, _ := json.MarshalIndent(&next, "", "  ")
	if err := atomicfile.Write(filepath.Join(s.recordsDir(), hash+".json"), meta, 0o640); err != nil {
		return Game{}, err
	}
	*g = next
	what := fmt.Sprintf("晚到的紀錄 %s（%s）併入第 %d 輪", next.Fingerprint, next.Table, next.Round)
	if !accept {
		what = fmt.Sprintf("晚到的紀錄 %s（%s）擱置", next.Fingerprint, next.Table)
	}
	if note != "" {
		what += "：" + note
	}
	return next, s.Log("decision", hash, what)
}
