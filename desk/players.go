package desk

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"wolftable/internal/atomicfile"
)

// The player registry (issue 29 item 1): who plays at the tournament, by
// id, kept in DATA/players.json (written atomically) and imported from a
// CSV file as Excel writes it (UTF-8 with or without its BOM, CRLF or LF
// line ends). Every bad line of an import is reported with its number and
// nothing of that file is taken: a registry is never half imported.
//
// Until the tables draw seats (item 3), DATA/players.csv maps a table's
// seat to a player: "T1,3,P001" lines, the player's id; a name there that
// is no registered id is shown as written (the older files named the
// player directly).

// Player is one registered player.
type Player struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Club     string `json:"club,omitempty"`
	Nickname string `json:"nickname,omitempty"`
}

// PlayersFile is the registry's file in a desk's data folder.
const PlayersFile = "players.json"

// LineError is one bad line of a CSV file: its number (from 1) and why
// (Chinese).
type LineError struct {
	Line   int
	Reason string
}

func (e LineError) Error() string { return fmt.Sprintf("第 %d 行：%s", e.Line, e.Reason) }

// LineErrors are every bad line of a file.
type LineErrors []LineError

func (l LineErrors) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

var playerIDRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// Bounds of a player's fields, in characters.
const (
	maxPlayerName = 40
	maxPlayerClub = 60
	// MaxPlayers bounds the registry.
	MaxPlayers = 5000
)

// Check reports what is wrong with a player (Chinese), nil when nothing.
func (p Player) Check() error {
	if !playerIDRE.MatchString(p.ID) {
		return fmt.Errorf("選手編號 %q 不行：要 1 到 32 個英數字、- 或 _", clip(p.ID, 40))
	}
	if p.Name == "" {
		return fmt.Errorf("選手 %s 沒有名字", p.ID)
	}
	for _, f := range []struct {
		what, v string
		max     int
	}{{"名字", p.Name, maxPlayerName}, {"俱樂部", p.Club, maxPlayerClub}, {"暱稱", p.Nickname, maxPlayerName}} {
		if !utf8.ValidString(f.v) {
			return fmt.Errorf("選手 %s 的%s不是 UTF-8 文字（請以「CSV UTF-8」存檔）", p.ID, f.what)
		}
		if n := utf8.RuneCountInString(f.v); n > f.max {
			return fmt.Errorf("選手 %s 的%s太長（%d 字，最多 %d 字）", p.ID, f.what, n, f.max)
		}
		if strings.TrimSpace(f.v) != f.v {
			return fmt.Errorf("選手 %s 的%s前後有空白", p.ID, f.what)
		}
		for _, r := range f.v {
			if unicode.IsControl(r) || r == unicode.ReplacementChar {
				return fmt.Errorf("選手 %s 的%s有控制字元或無法辨識的字元", p.ID, f.what)
			}
		}
	}
	return nil
}

// csvLines splits a CSV file as Excel saves it into its lines: the BOM
// dropped, CRLF or LF; each line with its number (from 1). A blank line
// or one starting with # is skipped. A quoted field spanning lines is not
// taken (a player's fields have no line breaks): that line is bad.
func csvLines(b []byte) (lines []csvLine, bad LineErrors) {
	s := strings.TrimPrefix(string(b), "\ufeff")
	for i, line := range strings.Split(s, "\n") {
		n := i + 1
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if !utf8.ValidString(line) {
			bad = append(bad, LineError{n, "不是 UTF-8 文字（Excel 請另存為「CSV UTF-8（逗號分隔）」）"})
			continue
		}
		r := csv.NewReader(strings.NewReader(line))
		r.FieldsPerRecord = -1
		rec, err := r.Read()
		if err == nil {
			if _, err2 := r.Read(); err2 == nil {
				err = errors.New("一行裡有換行")
			}
		}
		if err != nil {
			var pe *csv.ParseError
			why := err.Error()
			if errors.As(err, &pe) {
				why = pe.Err.Error()
				if errors.Is(pe.Err, csv.ErrQuote) || errors.Is(pe.Err, csv.ErrBareQuote) {
					why = "引號（\"）沒有成對，或出現在欄位中間"
				}
			}
			bad = append(bad, LineError{n, "無法讀取：" + why})
			continue
		}
		for k := range rec {
			rec[k] = strings.TrimSpace(rec[k])
		}
		lines = append(lines, csvLine{n, rec})
	}
	return lines, bad
}

type csvLine struct {
	n      int
	fields []string
}

// playerHeader reports whether a line is the registry's header row.
func playerHeader(f []string) bool {
	if len(f) == 0 {
		return false
	}
	switch strings.ToLower(f[0]) {
	case "id", "編號", "选手编号", "選手編號", "编号":
		return true
	}
	return false
}

// ParsePlayersCSV reads a registry's CSV: "編號,名字,俱樂部,暱稱" lines
// (club and nickname may be empty or missing; an optional header row).
// It returns the players of the good lines and every bad line with its
// number: a line of the wrong number of fields, a bad id, an empty name,
// an id given twice.
func ParsePlayersCSV(b []byte) ([]Player, LineErrors) {
	lines, bad := csvLines(b)
	var out []Player
	var at []int // each player's line
	first := map[string]int{}
	for i, l := range lines {
		if i == 0 && playerHeader(l.fields) {
			continue
		}
		if len(l.fields) < 2 || len(l.fields) > 4 {
			bad = append(bad, LineError{l.n, fmt.Sprintf("有 %d 欄；要是「編號,名字,俱樂部,暱稱」（俱樂部與暱稱可空白）", len(l.fields))})
			continue
		}
		f := append(l.fields, "", "")
		p := Player{ID: f[0], Name: f[1], Club: f[2], Nickname: f[3]}
		if err := p.Check(); err != nil {
			bad = append(bad, LineError{l.n, err.Error()})
			continue
		}
		if at, ok := first[p.ID]; ok {
			bad = append(bad, LineError{l.n, fmt.Sprintf("選手編號 %s 在第 %d 行已經出現過", p.ID, at)})
			continue
		}
		first[p.ID] = l.n
		out = append(out, p)
		at = append(at, l.n)
	}
	if len(out) > MaxPlayers { // the first player past the bound is the bad line
		bad = append(bad, LineError{at[MaxPlayers], fmt.Sprintf("選手太多（%d 位，最多 %d 位）：從這一行起放不下", len(out), MaxPlayers)})
		out = out[:MaxPlayers]
	}
	sort.SliceStable(bad, func(i, j int) bool { return bad[i].Line < bad[j].Line })
	return out, bad
}

// ReadPlayers reads the registry of a desk's data folder (none: empty),
// by id.
func ReadPlayers(data string) ([]Player, error) {
	b, err := os.ReadFile(filepath.Join(data, PlayersFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var list []Player
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, fmt.Errorf("desk: %s: %w", PlayersFile, err)
	}
	return list, nil
}

// registryMu serialises the registry's read-modify-writes within a
// process (two operators' edits at once; the CLI is another process,
// run before the day or between rounds).
var registryMu sync.Mutex

func writePlayers(data string, list []Player) error {
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	body, _ := json.MarshalIndent(list, "", "  ")
	return atomicfile.Write(filepath.Join(data, PlayersFile), append(body, '\n'), 0o640)
}

// ImportPlayers reads a registry CSV into the desk's registry: a player of
// an id already registered is updated, a new id added; nobody is removed.
// Any bad line refuses the whole file (LineErrors: every bad line) and
// the registry is left as it was. It returns how many were added and
// updated.
func ImportPlayers(data string, csvData []byte) (added, updated int, err error) {
	in, bad := ParsePlayersCSV(csvData)
	if len(bad) > 0 {
		return 0, 0, bad
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if len(in) == 0 {
		return 0, 0, LineErrors{{1, "檔案裡沒有任何選手"}}
	}
	cur, err := ReadPlayers(data)
	if err != nil {
		return 0, 0, err
	}
	at := map[string]int{}
	for i, p := range cur {
		at[p.ID] = i
	}
	for _, p := range in {
		if i, ok := at[p.ID]; ok {
			if cur[i] != p {
				updated++
			}
			cur[i] = p
			continue
		}
		at[p.ID] = len(cur)
		cur = append(cur, p)
		added++
	}
	if len(cur) > MaxPlayers {
		return 0, 0, fmt.Errorf("名冊會有 %d 位選手，最多 %d 位", len(cur), MaxPlayers)
	}
	return added, updated, writePlayers(data, cur)
}

// PutPlayer adds or changes one player of the registry (the desk's page).
func PutPlayer(data string, p Player) error {
	p.ID, p.Name, p.Club, p.Nickname = strings.TrimSpace(p.ID), strings.TrimSpace(p.Name), strings.TrimSpace(p.Club), strings.TrimSpace(p.Nickname)
	if err := p.Check(); err != nil {
		return err
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	cur, err := ReadPlayers(data)
	if err != nil {
		return err
	}
	for i := range cur {
		if cur[i].ID == p.ID {
			cur[i] = p
			return writePlayers(data, cur)
		}
	}
	if len(cur) >= MaxPlayers {
		return fmt.Errorf("名冊已滿（%d 位）", MaxPlayers)
	}
	return writePlayers(data, append(cur, p))
}

// RemovePlayer takes a player out of the registry. Games already stored
// keep their seats; the seat is then shown by the id.
func RemovePlayer(data, id string) error {
	registryMu.Lock()
	defer registryMu.Unlock()
	cur, err := ReadPlayers(data)
	if err != nil {
		return err
	}
	for i := range cur {
		if cur[i].ID == id {
			return writePlayers(data, append(cur[:i], cur[i+1:]...))
		}
	}
	return fmt.Errorf("名冊裡沒有選手編號 %s", id)
}

// playerCache is the registry as the store last read it, reread when the
// file changes (the CLI may import while the desk runs).
type playerCache struct {
	fi    os.FileInfo // the file read (atomicfile renames a new one in: a new inode)
	mod   time.Time
	size  int64
	known bool
	byID  map[string]Player
	err   error
}

// Players is the registry, by id (reread when DATA/players.json changed).
func (s *Store) Players() ([]Player, error) {
	byID, err := s.playersByID()
	list := make([]Player, 0, len(byID))
	for _, p := range byID {
		list = append(list, p)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	return list, err
}

func (s *Store) playersByID() (map[string]Player, error) {
	path := filepath.Join(s.data, PlayersFile)
	fi, err := os.Stat(path)
	s.pmu.Lock()
	defer s.pmu.Unlock()
	c := &s.players
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			*c = playerCache{byID: map[string]Player{}, known: true}
			return c.byID, nil
		}
		return c.byID, err
	}
	if c.known && c.fi != nil && os.SameFile(c.fi, fi) && fi.ModTime().Equal(c.mod) && fi.Size() == c.size {
		return c.byID, c.err
	}
	list, err := ReadPlayers(s.data)
	next := playerCache{fi: fi, mod: fi.ModTime(), size: fi.Size(), known: true, byID: map[string]Player{}, err: err}
	if err != nil && c.byID != nil {
		next.byID = c.byID // a broken file keeps the last good registry, and says so
	}
	for _, p := range list {
		next.byID[p.ID] = p
	}
	*c = next
	return c.byID, c.err
}

// SeatMap is DATA/players.csv: table/seat → the player's id (or, in an
// older file, the player's name).
type SeatMap map[string]string

// ParseSeatMap reads players.csv: "桌名,座位,選手編號" lines (BOM, CRLF
// accepted); every bad line with its number.
func ParseSeatMap(b []byte) (SeatMap, LineErrors) {
	lines, bad := csvLines(b)
	out := SeatMap{}
	first := map[string]int{}
	for i, l := range lines {
		f := l.fields
		if i == 0 && len(f) == 3 && (strings.EqualFold(f[0], "table") || f[0] == "桌名" || f[0] == "桌") {
			continue
		}
		if len(f) != 3 {
			bad = append(bad, LineError{l.n, fmt.Sprintf("有 %d 欄；要是「桌名,座位,選手編號」", len(f))})
			continue
		}
		if err := ValidName(f[0]); err != nil {
			bad = append(bad, LineError{l.n, fmt.Sprintf("桌名 %q 不行", clip(f[0], 40))})
			continue
		}
		var seat int
		if _, err := fmt.Sscanf(f[1], "%d", &seat); err != nil || fmt.Sprint(seat) != f[1] || seat < 1 || seat > MaxSeats {
			bad = append(bad, LineError{l.n, fmt.Sprintf("座位 %q 要是 1 到 %d", clip(f[1], 20), MaxSeats)})
			continue
		}
		if f[2] == "" || !utf8.ValidString(f[2]) || utf8.RuneCountInString(f[2]) > maxPlayerName {
			bad = append(bad, LineError{l.n, "選手編號空白或太長"})
			continue
		}
		key := fmt.Sprintf("%s/%d", f[0], seat)
		if at, ok := first[key]; ok {
			bad = append(bad, LineError{l.n, fmt.Sprintf("%s 第 %d 座在第 %d 行已經有人", f[0], seat, at)})
			continue
		}
		first[key] = l.n
		out[key] = f[2]
	}
	return out, bad
}

// readSeatMap reads DATA/players.csv (optional); a bad line is an error
// naming the file and every bad line.
func readSeatMap(path string) (SeatMap, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return SeatMap{}, nil
	}
	if err != nil {
		return nil, err
	}
	m, bad := ParseSeatMap(b)
	if len(bad) > 0 {
		return nil, fmt.Errorf("%s 有錯：\n%s", path, bad.Error())
	}
	return m, nil
}

// SeatPlayer is who sits at a table's seat as the desk knows it now
// (players.csv, names from the registry): the player's id and name, or
// "" and "" when the desk does not know.
func (s *Store) SeatPlayer(table string, seat int) (id, name string) {
	players, _ := s.playersByID()
	if id, ok := s.lockedPlans().open(table, seat); ok {
		if p, ok := players[id]; ok {
			return id, p.Name
		}
		return id, id
	}
	v, ok := s.seats[fmt.Sprintf("%s/%d", table, seat)]
	if !ok {
		return "", ""
	}
	if p, ok := players[v]; ok {
		return p.ID, p.Name
	}
	return "", v
}

// SeatMapProblems are the lines of players.csv whose player id is not in
// the registry (shown as written: an older file's names, or a typo), for
// the operator's page; none while the registry is empty.
func (s *Store) SeatMapProblems() []string {
	players, _ := s.playersByID()
	if len(players) == 0 {
		return nil
	}
	var out []string
	for k, v := range s.seats {
		if _, ok := players[v]; !ok {
			out = append(out, fmt.Sprintf("players.csv：%s 座的「%s」不是名冊裡的選手編號", k, v))
		}
	}
	sort.Strings(out)
	return out
}
