package console

import (
	"crypto/rand"
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"wolftable/journal"
)

// The seat draw (issue 29 item 3): before each game the table knows its
// players for the round (the desk's roster, or names the judge types when
// the desk is away) and draws their seats, at random with crypto/rand or
// as the players drew paper numbers (a manual draw). The draw goes into
// the journal's header (journal.Header.Draw), so it is signed with the
// game, and the desk credits every seat by it.

// Player is one player of the table's roster.
type Player struct {
	ID   string `json:"id,omitempty"` // the desk's player id; "" for a name typed at the table
	Name string `json:"name"`
}

// maxDrawName bounds a typed name, in characters.
const maxDrawName = 40

// checkRoster refuses a roster the table cannot draw for seats seats: the
// wrong number of players, a blank or overlong name, a name or id twice.
func checkRoster(roster []Player, seats int) error {
	if len(roster) != seats {
		return fmt.Errorf("名單有 %d 位選手，這局要 %d 位", len(roster), seats)
	}
	names, ids := map[string]bool{}, map[string]bool{}
	for i, p := range roster {
		name := strings.TrimSpace(p.Name)
		switch {
		case name == "" || name != p.Name:
			return fmt.Errorf("名單第 %d 位沒有名字（或名字前後有空白）", i+1)
		case !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxDrawName:
			return fmt.Errorf("名單第 %d 位的名字太長（最多 %d 字）", i+1, maxDrawName)
		case names[name]:
			return fmt.Errorf("名單裡「%s」出現兩次", name)
		case p.ID != "" && ids[p.ID]:
			return fmt.Errorf("名單裡選手編號 %s 出現兩次", p.ID)
		}
		names[name], ids[p.ID] = true, p.ID != ""
	}
	return nil
}

// RandomDraw draws the roster's seats with crypto/rand: every player one
// seat, seats 1..len(roster).
func RandomDraw(roster []Player) ([]journal.Drawn, error) {
	if err := checkRoster(roster, len(roster)); err != nil {
		return nil, err
	}
	order := append([]Player(nil), roster...)
	for i := len(order) - 1; i > 0; i-- { // Fisher–Yates
		j, err := rand.Int(rand.Reader, big.NewInt(int64(i+1)))
		if err != nil {
			return nil, fmt.Errorf("抽座位失敗：%v", err)
		}
		k := int(j.Int64())
		order[i], order[k] = order[k], order[i]
	}
	out := make([]journal.Drawn, len(order))
	for i, p := range order {
		out[i] = journal.Drawn{Seat: i + 1, PlayerID: p.ID, Name: p.Name}
	}
	return out, nil
}

// ManualDraw takes the draw as the players drew it: seatOf[i] is the seat
// (1..len) of roster[i]. A seat given twice, one left empty, or one out of
// range is refused with the judge's words.
func ManualDraw(roster []Player, seatOf []int) ([]journal.Drawn, error) {
	n := len(roster)
	if err := checkRoster(roster, n); err != nil {
		return nil, err
	}
	if len(seatOf) != n {
		return nil, fmt.Errorf("抽籤結果有 %d 個座位，名單有 %d 位選手", len(seatOf), n)
	}
	out := make([]journal.Drawn, n)
	for i, s := range seatOf {
		if s < 1 || s > n {
			return nil, fmt.Errorf("%s 的座位 %d 不在 1 到 %d 號之間", roster[i].Name, s, n)
		}
		if prev := out[s-1]; prev.Seat != 0 {
			return nil, fmt.Errorf("%d號座位重複：%s 和 %s 都抽到 %d號", s, prev.Name, roster[i].Name, s)
		}
		out[s-1] = journal.Drawn{Seat: s, PlayerID: roster[i].ID, Name: roster[i].Name}
	}
	var missing []string
	for i, d := range out {
		if d.Seat == 0 {
			missing = append(missing, fmt.Sprintf("%d號", i+1))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("沒有人抽到 %s", strings.Join(missing, "、"))
	}
	return out, nil
}

// ParseRoster reads the names the judge types (or a scanner gives) when
// the desk is away: one player a line, "編號,名字" or the name alone;
// blank lines skipped. Every bad line is refused with its number.
func ParseRoster(text string) ([]Player, error) {
	var out []Player
	for i, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		p := Player{Name: line}
		if id, name, ok := strings.Cut(line, ","); ok {
			p = Player{ID: strings.TrimSpace(id), Name: strings.TrimSpace(name)}
		}
		if p.Name == "" || !utf8.ValidString(p.Name) || utf8.RuneCountInString(p.Name) > maxDrawName || len(p.ID) > 32 || strings.ContainsAny(p.ID+p.Name, ",\t") {
			return nil, fmt.Errorf("第 %d 行「%.40s」看不懂：要是「編號,名字」或只有名字（最多 %d 字）", i+1, line, maxDrawName)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("名單是空的")
	}
	return out, nil
}
