package desk

import "fmt"

// The seat draw (issue 29 item 3): the table draws its players' seats
// before each game and writes the draw into the journal's header, signed
// with the game; the desk credits every seat to the player the signed
// journal names. A journal without a draw (an older one, a casual game)
// is credited by the round's locked plan, then players.csv.

// credit names the player of a game's seat: the signed journal's seat
// draw when it has one (its id, the registry's name for it; a name typed
// at the table without an id is the registered player of that name when
// exactly one has it); else the locked plan of the game's round, else
// players.csv, else table/seat.
func (s *Store) credit(g *Game, st *Seat, plans plans, players map[string]Player) {
	key := fmt.Sprintf("%s/%d", g.Table, st.Seat)
	st.Player, st.PlayerID = key, ""
	switch {
	case st.DrawnID != "":
		st.Player, st.PlayerID = st.DrawnName, st.DrawnID
		if p, ok := players[st.DrawnID]; ok {
			st.Player = p.Name
		}
		return
	case st.DrawnName != "":
		st.Player = st.DrawnName
		if id, ok := uniqueName(players, st.DrawnName); ok {
			st.PlayerID = id
		}
		return
	}
	if id, ok := plans.at(g.Round, g.Table, st.Seat); ok {
		st.Player, st.PlayerID = id, id
		if p, ok := players[id]; ok {
			st.Player = p.Name
		}
	} else if v, ok := s.seats[key]; ok {
		if p, ok := players[v]; ok {
			st.Player, st.PlayerID = p.Name, p.ID
		} else {
			st.Player = v // an older players.csv: the name itself
		}
	}
}

// uniqueName is the id of the one registered player named name.
func uniqueName(players map[string]Player, name string) (string, bool) {
	found := ""
	for id, p := range players {
		if p.Name == name {
			if found != "" {
				return "", false
			}
			found = id
		}
	}
	return found, found != ""
}

// KindRoster is the subject kind of a table's question for its players of
// the round (wolftable.table.<name>.roster, request/reply as KindAsk): the
// desk answers from the open round's locked seating plan for that table.
const KindRoster = "roster"

// RosterPlayer is one player of a table's roster.
type RosterPlayer struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
}

// Roster is the desk's answer to a table's roster question: the open
// round and the table's players in the plan's order, or, when the desk
// has none for the table, Reason (Chinese) and no players.
type Roster struct {
	Round   int            `json:"round,omitempty"`
	Players []RosterPlayer `json:"players,omitempty"`
	Reason  string         `json:"reason,omitempty"`
}

// Roster is table's roster for the open round: the locked plan's players
// at that table with their registered names, in the plan's order (the
// table draws their seats).
func (s *Store) Roster(table string) Roster {
	players, _ := s.playersByID()
	s.mu.Lock()
	var open *Round
	var plan []string
	for i := range s.rounds {
		if r := s.rounds[i]; r.Open() && r.Has(table) {
			open, plan = &r, append([]string(nil), r.Plan[table]...)
		}
	}
	s.mu.Unlock()
	switch {
	case open == nil:
		return Roster{Reason: fmt.Sprintf("總台沒有 %s 桌正在進行的輪次", table)}
	case !open.Locked:
		return Roster{Round: open.N, Reason: fmt.Sprintf("第 %d 輪的座位表還沒鎖定", open.N)}
	case len(plan) == 0:
		return Roster{Round: open.N, Reason: fmt.Sprintf("第 %d 輪的座位表沒有 %s 桌的選手", open.N, table)}
	}
	out := Roster{Round: open.N}
	for _, id := range plan {
		name := id
		if p, ok := players[id]; ok {
			name = p.Name
		}
		out.Players = append(out.Players, RosterPlayer{ID: id, Name: name})
	}
	return out
}
