package desk

import (
	"bytes"
	"embed"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Pack is a scoring pack (TOML, versioned): the points a tournament
// publishes. A tournament pins one; the standings are a pure function of
// the pack and the stored games (Standings).
//
//	name = "league"          # the pack's id
//	version = 1              # bump on any change of points
//	title = "聯賽"            # for the page
//	void = 0                 # each player of a 流局
//	survivor = 0             # extra for a player alive at the end (optional)
//	mvp = 2                  # the desk's MVP and SVP of a game
//	svp = 1.5
//	penalty_factor = 1       # points off per penalty point entered (1: as entered)
//	tiebreak = ["points", "wins", "mvp", "penalty", "games", "player"]  # also "ppg" (points per game), "h2h" (head to head)
//	warnings_per_deduction = 3  # every third warning at the desk is a deduction (0: none)
//	warning_deduction = 1       # of this many points
//	[win]                    # a player of the winning camp, by camp
//	good = 5                 # 好人 (villagers and gods)
//	wolf = 5
//	third = 5                # a third camp
//	[loss]
//	good = 0
//	wolf = 0
//	third = 0
//	[role]                   # extra for a win with a role (optional), by role id
//	seer = 0.5
type Pack struct {
	Name          string             `toml:"name"`
	Version       int                `toml:"version"`
	Title         string             `toml:"title"`
	Win           CampPoints         `toml:"win"`
	Loss          CampPoints         `toml:"loss"`
	Void          float64            `toml:"void"`
	Survivor      float64            `toml:"survivor"`
	Role          map[string]float64 `toml:"role"`
	MVP           float64            `toml:"mvp"`
	SVP           float64            `toml:"svp"`
	PenaltyFactor *float64           `toml:"penalty_factor"`
	TieBreak      []string           `toml:"tiebreak"`
	// WarningsPerDeduction turns the desk's warnings into deductions:
	// every n-th warning of a player takes WarningDeduction points
	// (default 1) off; 0: warnings are only counted.
	WarningsPerDeduction int     `toml:"warnings_per_deduction"`
	WarningDeduction     float64 `toml:"warning_deduction"`
}

// CampPoints are points by camp.
type CampPoints struct {
	Good  float64 `toml:"good"`
	Wolf  float64 `toml:"wolf"`
	Third float64 `toml:"third"`
}

func (c CampPoints) of(side string) float64 {
	switch side {
	case "good":
		return c.Good
	case "wolf":
		return c.Wolf
	}
	return c.Third
}

// TieBreaks are the keys a pack's tiebreak may list: more points, more
// wins, more MVPs, less penalty, fewer games, more points per game, more
// wins head to head (h2h: among the players still tied by the keys
// before it, the wins in the games a player shared with another of
// them); and
// "player", which orders a tie by name without breaking it (the rows
// keep one rank and say Tied).
var TieBreaks = []string{"points", "wins", "mvp", "penalty", "games", "ppg", "h2h", "player"}

//go:embed packs/*.toml
var packFS embed.FS

// Packs are the shipped packs' names.
func Packs() []string {
	ents, _ := packFS.ReadDir("packs")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".toml"))
	}
	return out
}

// LoadPack reads a shipped pack by name ("default", "league") or a TOML
// file by path.
func LoadPack(nameOrFile string) (*Pack, error) {
	if nameOrFile == "" {
		nameOrFile = "default"
	}
	data, err := packFS.ReadFile("packs/" + nameOrFile + ".toml")
	if err != nil {
		if data, err = os.ReadFile(nameOrFile); err != nil {
			return nil, fmt.Errorf("計分包 %q：不是內建的（%s），也讀不到檔案：%v", nameOrFile, strings.Join(Packs(), "、"), err)
		}
	}
	p, err := ParsePack(data)
	if err != nil {
		return nil, fmt.Errorf("計分包 %s：%v", nameOrFile, err)
	}
	return p, nil
}

// ParsePack reads a pack's TOML; unknown keys are refused.
func ParsePack(data []byte) (*Pack, error) {
	var p Pack
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, err
	}
	if p.Name == "" || p.Version < 1 {
		return nil, fmt.Errorf("要有 name 與 version（1 以上）")
	}
	if len(p.TieBreak) == 0 {
		p.TieBreak = []string{"points", "wins", "penalty", "player"}
	}
	for _, k := range p.TieBreak {
		ok := false
		for _, t := range TieBreaks {
			ok = ok || k == t
		}
		if !ok {
			return nil, fmt.Errorf("tiebreak %q 不認得（可用 %s）", k, strings.Join(TieBreaks, " "))
		}
	}
	return &p, nil
}

// ID is "name v<version>": what the standings say they were computed by.
func (p *Pack) ID() string { return fmt.Sprintf("%s v%d", p.Name, p.Version) }

// Row is one player's line of the standings.
type Row struct {
	Rank int `json:"rank"`
	// PlayerID is the registered player ("" when the desk does not know
	// who sat there), Player the name shown: the registry's, or table/seat.
	// Two players of one name are two rows.
	PlayerID string  `json:"player_id,omitempty"`
	Player   string  `json:"player"`
	Points   float64 `json:"points"`
	Games    int     `json:"games"`
	Wins     int     `json:"wins"`
	Losses   int     `json:"losses"`
	Voids    int     `json:"voids"`
	MVP      int     `json:"mvp"`
	SVP      int     `json:"svp"`
	Penalty  float64 `json:"penalty"`            // penalty points entered, in total (the judge's and the desk's)
	Warnings int     `json:"warnings,omitempty"` // the desk's warnings in force
	// DQ: disqualified at the desk: ranked after everyone, without a
	// rank (0); the games played stay counted for the others.
	DQ bool `json:"dq,omitempty"`
	// Tied: another row has the same rank (the pack's tie-breaks could
	// not part them): shown as a tie (並列).
	Tied bool `json:"tied,omitempty"`
}

// side is the camp a card plays for: good (villagers and gods), wolf, or
// third.
func side(camp string) string {
	switch camp {
	case "villager", "god":
		return "good"
	case "wolf":
		return "wolf"
	}
	return "third"
}

func winnerSide(w string) string {
	switch w {
	case "好人":
		return "good"
	case "狼人":
		return "wolf"
	case "第三方":
		return "third"
	}
	return "" // 流局
}

// Standings are the standings of games under pack: a pure function (the
// games in any order give the same rows, byte for byte). A voided game
// (Game.Void) counts for no one.
func Standings(p *Pack, games []Game) []Row { return StandingsWith(p, games, nil, nil) }

// StandingsWith are the standings with the desk's sanctions in force
// (discipline.go); names gives a sanctioned player's name by id when he
// has no game yet. A pure function too.
func StandingsWith(p *Pack, games []Game, sanctions []Sanction, names map[string]string) []Row {
	sorted := make([]*Game, len(games))
	for i := range games {
		sorted[i] = &games[i]
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Hash < sorted[j].Hash })
	factor := 1.0
	if p.PenaltyFactor != nil {
		factor = *p.PenaltyFactor
	}
	rows := map[string]*Row{}
	for _, g := range sorted {
		if g.Void != "" { // voided by the organiser: listed, not counted
			continue
		}
		ws := winnerSide(g.Winner)
		for _, s := range g.Seats {
			k := seatKey(s)
			r := rows[k]
			if r == nil {
				r = &Row{Player: s.Player, PlayerID: s.PlayerID}
				rows[k] = r
			}
			r.Games++
			r.score(p, g, s, ws)
			r.Penalty += s.Penalty
			r.Points -= s.Penalty * factor
		}
	}
	applySanctions(p, rows, sanctions, factor, func(id string) string {
		if n, ok := names[id]; ok {
			return n
		}
		return id
	})
	out := make([]Row, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	h2h := headToHead(p, out, sorted)
	cmp := func(a, b *Row) int { return cmpKeys(p.TieBreak, a, b, h2h) }
	sort.Slice(out, func(i, j int) bool {
		if out[i].DQ != out[j].DQ {
			return out[j].DQ
		}
		if c := cmp(&out[i], &out[j]); c != 0 {
			return c < 0
		}
		if out[i].Player != out[j].Player {
			return out[i].Player < out[j].Player
		}
		return out[i].PlayerID < out[j].PlayerID
	})
	for i := range out {
		if out[i].DQ {
			continue // no rank
		}
		if i > 0 && cmp(&out[i-1], &out[i]) == 0 {
			out[i].Rank = out[i-1].Rank
			out[i].Tied, out[i-1].Tied = true, true
		} else {
			out[i].Rank = i + 1
		}
	}
	return out
}

// score adds a seat of game g (won by side ws, "" for a void) to its
// player's row: the result's points, the survivor's, MVP and SVP.
func (r *Row) score(p *Pack, g *Game, s Seat, ws string) {
	sd := side(s.Camp)
	if s.Side != "" {
		sd = winnerSide(s.Side)
	}
	switch {
	case ws == "":
		r.Voids++
		r.Points += p.Void
	case sd == ws:
		r.Wins++
		r.Points += p.Win.of(sd) + p.Role[s.Role]
	default:
		r.Losses++
		r.Points += p.Loss.of(sd)
	}
	if !s.Out && ws != "" {
		r.Points += p.Survivor
	}
	if g.MVP == s.Seat {
		r.MVP++
		r.Points += p.MVP
	}
	if g.SVP == s.Seat {
		r.SVP++
		r.Points += p.SVP
	}
}

// seatKey is the standings' key of a seat's player: the id, or the name.
func seatKey(s Seat) string {
	if s.PlayerID != "" {
		return "id:" + s.PlayerID
	}
	return "name:" + s.Player
}

func rowKey(r *Row) string { return seatKey(Seat{PlayerID: r.PlayerID, Player: r.Player}) }

// headToHead is each player's wins head to head (nil when the pack does
// not break ties by h2h): the players tied by the keys before "h2h" are a
// group, and a player's h2h is his wins in the games (not voided) where
// another of his group also played.
func headToHead(p *Pack, rows []Row, games []*Game) map[string]int {
	at := -1
	for i, k := range p.TieBreak {
		if k == "h2h" {
			at = i
			break
		}
	}
	if at < 0 {
		return nil
	}
	pre := p.TieBreak[:at]
	order := make([]*Row, 0, len(rows))
	for i := range rows {
		if !rows[i].DQ {
			order = append(order, &rows[i])
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		if c := cmpKeys(pre, order[i], order[j], nil); c != 0 {
			return c < 0
		}
		return rowKey(order[i]) < rowKey(order[j])
	})
	group := map[string]int{}
	for i, r := range order {
		if i > 0 && cmpKeys(pre, order[i-1], r, nil) == 0 {
			group[rowKey(r)] = group[rowKey(order[i-1])]
		} else {
			group[rowKey(r)] = i
		}
	}
	out := map[string]int{}
	for _, g := range games {
		if g.Void != "" {
			continue
		}
		ws := winnerSide(g.Winner)
		in := map[int]int{} // group → its players in this game
		for _, s := range g.Seats {
			if gr, ok := group[seatKey(s)]; ok {
				in[gr]++
			}
		}
		for _, s := range g.Seats {
			gr, ok := group[seatKey(s)]
			if !ok || in[gr] < 2 || ws == "" {
				continue
			}
			sd := side(s.Camp)
			if s.Side != "" {
				sd = winnerSide(s.Side)
			}
			if sd == ws {
				out[seatKey(s)]++
			}
		}
	}
	return out
}

// cmpKeys compares two rows by the tie-break keys: <0 when a ranks above b.
func cmpKeys(keys []string, a, b *Row, h2h map[string]int) int {
	for _, k := range keys {
		var c int
		switch k {
		case "points":
			c = cmpF(b.Points, a.Points)
		case "wins":
			c = b.Wins - a.Wins
		case "mvp":
			c = b.MVP - a.MVP
		case "penalty":
			c = cmpF(a.Penalty, b.Penalty)
		case "games":
			c = a.Games - b.Games
		case "ppg":
			c = cmpF(ppg(b), ppg(a))
		case "h2h":
			c = h2h[rowKey(b)] - h2h[rowKey(a)]
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// ppg is a row's points per game.
func ppg(r *Row) float64 {
	if r.Games == 0 {
		return 0
	}
	return r.Points / float64(r.Games)
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
