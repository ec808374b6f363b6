package desk

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"wolftable/internal/atomicfile"
)

// Rounds (issue 29 item 2). The organiser opens a round — which tables,
// how many games each (five by default, as seed 002's sets) — and closes
// it. A game belongs to the round open at its table when it started: the
// time the desk heard the table's start (DATA/starts.jsonl, kept across a
// restart), or the journal's own start time when the desk did not hear it
// (the desk was down, the link was out). A game that started when no
// round was open at its table, or one past the round's games for that
// table, is held for the operator as a late game (late.go): assigned to a
// round or set aside, with a reason. A game can be voided with a reason:
// it stays listed, marked, and leaves the standings; a replay is the
// table's next game of the round. Every change is in the organiser's log.
//
// A desk where no round was ever opened numbers each table's games as
// before: its n-th game is its round n.

// DefaultRoundGames is how many games each table plays in a round unless
// the organiser says otherwise (seed 002: 五局比賽).
const DefaultRoundGames = 5

// MaxRoundGames bounds a round's games per table.
const MaxRoundGames = 50

// Round is one round the organiser opened.
type Round struct {
	N      int       `json:"n"`
	Tables []string  `json:"tables"`
	Games  int       `json:"games"` // per table
	Opened time.Time `json:"opened"`
	Closed time.Time `json:"closed,omitzero"` // zero: open
	// Plan is the round's seating plan (seating.go): each table's
	// players by seat (index 0 is seat 1); once Locked it names the
	// players of the round's games.
	Plan   map[string][]string `json:"plan,omitempty"`
	Locked bool                `json:"locked,omitempty"`
}

// Open reports whether the round is open.
func (r Round) Open() bool { return r.Closed.IsZero() }

// Has reports whether table plays in the round.
func (r Round) Has(table string) bool {
	for _, t := range r.Tables {
		if t == table {
			return true
		}
	}
	return false
}

// covers reports whether a game of table started at t belongs to the round.
func (r Round) covers(table string, t time.Time) bool {
	return r.Has(table) && !t.Before(r.Opened) && (r.Open() || t.Before(r.Closed))
}

// RoundsFile is the organiser's rounds in a desk's data folder.
const RoundsFile = "rounds.json"

func (s *Store) loadRounds() error {
	b, err := os.ReadFile(filepath.Join(s.data, RoundsFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &s.rounds); err != nil {
		return fmt.Errorf("desk: %s: %w", RoundsFile, err)
	}
	return nil
}

// writeRoundsLocked writes next as the rounds (s.mu held) and takes it.
func (s *Store) writeRoundsLocked(next []Round) error {
	body, _ := json.MarshalIndent(next, "", "  ")
	if err := atomicfile.Write(filepath.Join(s.data, RoundsFile), append(body, '\n'), 0o640); err != nil {
		return err
	}
	s.rounds = next
	return nil
}

// Rounds are the rounds the organiser opened, in order.
func (s *Store) Rounds() []Round {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Round, len(s.rounds))
	copy(out, s.rounds)
	return out
}

func (s *Store) clock() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// OpenRound opens the next round for tables (registered ones; each in no
// other open round), games each (0: DefaultRoundGames).
func (s *Store) OpenRound(tables []string, games int) (Round, error) {
	if games == 0 {
		games = DefaultRoundGames
	}
	if games < 1 || games > MaxRoundGames {
		return Round{}, fmt.Errorf("每桌局數要是 1 到 %d", MaxRoundGames)
	}
	if len(tables) == 0 {
		return Round{}, errors.New("要選至少一張桌子")
	}
	reg, err := Tables(s.data)
	if err != nil {
		return Round{}, err
	}
	known := map[string]bool{}
	for _, t := range reg {
		known[t.Name] = true
	}
	seen := map[string]bool{}
	var list []string
	for _, t := range tables {
		if !known[t] {
			return Round{}, fmt.Errorf("桌子 %q 沒有在總台登記", clip(t, 40))
		}
		if !seen[t] {
			seen[t] = true
			list = append(list, t)
		}
	}
	sort.Strings(list)
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.rounds {
		n = max(n, r.N)
		if !r.Open() {
			continue
		}
		for _, t := range list {
			if r.Has(t) {
				return Round{}, fmt.Errorf("桌子 %s 還在第 %d 輪（尚未結束）：先結束那一輪", t, r.N)
			}
		}
	}
	r := Round{N: n + 1, Tables: list, Games: games, Opened: s.clock().UTC()}
	next := append(append([]Round(nil), s.rounds...), r)
	if err := s.writeRoundsLocked(next); err != nil {
		return Round{}, err
	}
	return r, s.Log("round", fmt.Sprint(r.N), fmt.Sprintf("開始第 %d 輪：%s，每桌 %d 局", r.N, strings.Join(list, "、"), games))
}

// CloseRound closes an open round: a game its tables start afterwards
// belongs to no round until the next one opens.
func (s *Store) CloseRound(n int) (Round, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := append([]Round(nil), s.rounds...)
	for i := range next {
		if next[i].N != n {
			continue
		}
		if !next[i].Open() {
			return Round{}, fmt.Errorf("第 %d 輪已經結束了", n)
		}
		next[i].Closed = s.clock().UTC()
		if !next[i].Closed.After(next[i].Opened) {
			next[i].Closed = next[i].Opened.Add(time.Nanosecond)
		}
		if err := s.writeRoundsLocked(next); err != nil {
			return Round{}, err
		}
		r := next[i]
		count := s.roundCountLocked(r.N)
		var parts []string
		for _, t := range r.Tables {
			parts = append(parts, fmt.Sprintf("%s %d／%d 局", t, count[t], r.Games))
		}
		return r, s.Log("round", fmt.Sprint(n), fmt.Sprintf("結束第 %d 輪：%s", n, strings.Join(parts, "、")))
	}
	return Round{}, fmt.Errorf("沒有第 %d 輪", n)
}

// RoundCount is how many games of each table count in round n (counted,
// not voided).
func (s *Store) RoundCount(n int) map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.roundCountLocked(n)
}

func (s *Store) roundCountLocked(n int) map[string]int {
	out := map[string]int{}
	for _, g := range s.games {
		if g.Round == n && g.Counted() && g.Void == "" {
			out[g.Table]++
		}
	}
	return out
}

func (s *Store) roundLocked(n int) (Round, bool) {
	for _, r := range s.rounds {
		if r.N == n {
			return r, true
		}
	}
	return Round{}, false
}

// placeRoundLocked is placeLocked once the organiser has rounds: the
// round open at the game's table when it started, or late (round 0, why).
func (s *Store) placeRoundLocked(g *Game) (int, string) {
	at, heard := s.startedAt(g.Table, g.GameID)
	if !heard {
		at = g.Started
	}
	how := "總台收到開局"
	if !heard {
		how = "日誌記載的開局"
	}
	for _, r := range s.rounds {
		if !r.covers(g.Table, at) {
			continue
		}
		if c := s.roundCountLocked(r.N)[g.Table]; c >= r.Games {
			return 0, fmt.Sprintf("第 %d 輪本桌已有 %d 局（每桌 %d 局）：多出來的一局不自動計分，請總台決定併入哪一輪或擱置", r.N, c, r.Games)
		}
		return r.N, ""
	}
	return 0, fmt.Sprintf("%s時間（%s）本桌沒有進行中的輪次：不自動計分，請總台決定併入哪一輪或擱置", how, at.Local().Format("01-02 15:04:05"))
}

// The desk's record of the tables' starts: DATA/starts.jsonl, one line
// per game (the first start heard), at most maxStarts per table.
const (
	startsFile = "starts.jsonl"
	maxStarts  = 2000
)

type startLine struct {
	Table string    `json:"table"`
	Game  string    `json:"game"`
	At    time.Time `json:"at"`
}

func (s *Store) loadStarts() error {
	s.starts = map[string]time.Time{}
	s.startsPer = map[string]int{}
	f, err := os.Open(filepath.Join(s.data, startsFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l startLine
		if json.Unmarshal(sc.Bytes(), &l) != nil { // a torn last line
			continue
		}
		k := l.Table + "/" + l.Game
		if _, ok := s.starts[k]; !ok {
			s.starts[k] = l.At
			s.startsPer[l.Table]++
		}
	}
	return sc.Err()
}

// NoteStart records when the desk heard a table start a game (the live
// start event): the time that places the game in a round. Only the first
// start of a game counts; a table's starts are bounded.
func (s *Store) NoteStart(table, game string, at time.Time) error {
	if table == "" || game == "" {
		return nil
	}
	k := table + "/" + game
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.starts[k]; ok || s.startsPer[table] >= maxStarts {
		return nil
	}
	b, _ := json.Marshal(startLine{Table: table, Game: clip(game, 64), At: at.UTC()})
	if err := appendLine(filepath.Join(s.data, startsFile), b); err != nil {
		return err
	}
	s.starts[k] = at.UTC()
	s.startsPer[table]++
	return nil
}

// startedAt is when the desk heard a game start (s.mu held).
func (s *Store) startedAt(table, game string) (time.Time, bool) {
	t, ok := s.starts[table+"/"+game]
	return t, ok
}

// Void voids a stored game with a reason (a judge's error, a replay): it
// stays listed, marked, with the reason, and leaves the standings.
func (s *Store) Void(hash, reason string) (Game, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return Game{}, errors.New("作廢要寫原因")
	}
	if len([]rune(reason)) > 200 {
		return Game{}, errors.New("原因太長（最多 200 字）")
	}
	s.mu.Lock()
	g, ok := s.games[hash]
	if !ok {
		s.mu.Unlock()
		return Game{}, fmt.Errorf("總台沒有紀錄 %.16s", hash)
	}
	if g.Void != "" {
		s.mu.Unlock()
		return Game{}, fmt.Errorf("紀錄 %s 已經作廢了（%s）", g.Fingerprint, g.Void)
	}
	next := *g
	next.Void, next.VoidedAt = reason, s.clock().UTC()
	meta, _ := json.MarshalIndent(&next, "", "  ")
	if err := atomicfile.Write(filepath.Join(s.recordsDir(), hash+".json"), meta, 0o640); err != nil {
		s.mu.Unlock()
		return Game{}, err
	}
	*g = next
	s.mu.Unlock()
	round := "未計分"
	if next.Round > 0 {
		round = fmt.Sprintf("第 %d 輪", next.Round)
	}
	return next, s.Log("void", hash, fmt.Sprintf("作廢 %s %s 的對局 %s：%s", next.Table, round, next.Fingerprint, reason))
}
