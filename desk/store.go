package desk

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"wolftable/engine"
	"wolftable/internal/atomicfile"
	"wolftable/journal"
)

// Game is one finished game the desk stored: what a record proves, for the
// results, the standings and the public JSON.
type Game struct {
	Hash        string `json:"hash"` // the journal's final hash (hex): the record's id
	Fingerprint string `json:"fingerprint"`
	Table       string `json:"table"`
	// Round is the table's round at the desk, given at arrival (the
	// table's next) and never renumbered; a late game has none (0) until
	// the operator accepts it into one (late.go).
	Round       int       `json:"round"`
	GameID      string    `json:"game"`
	File        string    `json:"file"` // the journal's file name on the table
	Board       string    `json:"board"`
	BoardName   string    `json:"board_name"`
	Winner      string    `json:"winner"` // 好人 狼人 流局 第三方
	Started     time.Time `json:"started"`
	Ended       time.Time `json:"ended"`
	SignatureOK bool      `json:"signature_ok"` // signed with the table's registered key
	Seats       []Seat    `json:"seats"`
	MVP         int       `json:"mvp,omitempty"` // entered at the desk (0 = none)
	SVP         int       `json:"svp,omitempty"`
	Received    time.Time `json:"received"`
	// Late says why the desk held the game for the operator instead of
	// counting it (Chinese; "" = counted at arrival), Decision what the
	// operator decided: DecisionAccepted (counted, in Round) or
	// DecisionSetAside.
	Late     string `json:"late,omitempty"`
	Decision string `json:"decision,omitempty"`
	// DecisionNote is the operator's reason for the decision (Chinese).
	DecisionNote string `json:"decision_note,omitempty"`
	// Void is why the organiser voided the game ("" = not voided): it
	// stays listed and leaves the standings (rounds.go).
	Void     string    `json:"void,omitempty"`
	VoidedAt time.Time `json:"voided_at,omitzero"`
}

// Seat is one seat of a finished game.
type Seat struct {
	Seat int `json:"seat"`
	// PlayerID is the registered player who sat there ("" when the desk
	// does not know), Player the name shown: the registry's name, or
	// table/seat.
	PlayerID string `json:"player_id,omitempty"`
	Player   string `json:"player"`
	Role     string `json:"role"`
	RoleName string `json:"role_name"`
	Camp     string `json:"camp"` // wolf villager god (the dealt card's)
	// Side is the side the seat played for at the end (好人 狼人 第三方;
	// the thief's kept card, a turned wild child, the lovers' camp): a win
	// is counted by it. Empty in records stored before it existed: the
	// dealt card's camp counts then.
	Side    string  `json:"side,omitempty"`
	Out     bool    `json:"out"`
	Penalty float64 `json:"penalty,omitempty"` // 扣分 given on the console, in total
	// DrawnID and DrawnName are who the signed journal's seat draw seats
	// here (journal.Header.Draw): they win over the round's plan and
	// players.csv (docs/rules-decisions.md). Empty without a draw.
	DrawnID   string `json:"drawn_id,omitempty"`
	DrawnName string `json:"drawn_name,omitempty"`
}

// Refusal is a record the desk did not count, and why (Chinese).
type Refusal struct {
	At      time.Time `json:"at"`
	Table   string    `json:"table"`
	Subject string    `json:"subject"`
	File    string    `json:"file,omitempty"`
	Hash    string    `json:"hash,omitempty"` // the final hash, when the journal reads
	Digest  string    `json:"digest"`         // sha256 of the bytes received
	Reason  string    `json:"reason"`
	Bytes   int       `json:"bytes"` // the record's size
	Kept    bool      `json:"kept"`  // its bytes are in DATA/refused/<digest>.wtj (false: past the table's quota)
	// Readmitted is the final hash of the game the desk stored from
	// these bytes later (Store.Readmit: once the table's key was right).
	Readmitted string `json:"readmitted,omitempty"`
}

// Outcome is what Ingest did with a record.
type Outcome int

const (
	Stored    Outcome = iota // a new game
	Duplicate                // the same record again: counted once
	Refused                  // not counted (Store.Refused says why)
)

func (o Outcome) String() string { return [...]string{"stored", "duplicate", "refused"}[o] }

// Store is the desk's records: DATA/records/<hash>.wtj (the journal as the
// table sent it) and <hash>.json (its Game), both written atomically, the
// .json first, so a record is stored once its .wtj exists; the refused
// records in DATA/refused.jsonl (their bytes in DATA/refused/).
type Store struct {
	data   string
	boards journal.BoardSource
	// Keys gives a table's registered public key (nil: not registered);
	// default: read from the registry (Tables).
	Keys func(table string) (ed25519.PublicKey, bool)

	mu      sync.Mutex
	games   map[string]*Game
	refused []Refusal
	seenBad map[string]bool          // subject and digest of the refused records listed
	quota   map[string]*refusedQuota // per table (refused.go)

	// RefusedBytes and RefusedList are each table's quota of refused
	// records: the bytes kept (DATA/refused/), and the refusals listed
	// (DATA/refused.jsonl); past them a refusal is only counted
	// (DefaultRefusedBytes, DefaultRefusedList when 0).
	RefusedBytes int64
	RefusedList  int
	awards       map[string]Award
	seats        SeatMap // table/seat → player id (DATA/players.csv)

	pmu     sync.Mutex
	players playerCache // the registry (players.go)
	lmu     sync.Mutex  // the organiser's log (orglog.go)

	rounds    []Round              // the organiser's rounds (rounds.go)
	sanctions []Sanction           // the desk's discipline (discipline.go)
	starts    map[string]time.Time // table/game → when the desk heard it start
	startsPer map[string]int
	// Now is the desk's clock (default time.Now): rounds' opening and
	// closing, a void's time.
	Now func() time.Time
}

// Award is the desk's MVP and SVP of a game (0 = none).
type Award struct {
	MVP int `json:"mvp,omitempty"`
	SVP int `json:"svp,omitempty"`
}

// OpenStore opens (or makes) the store of a desk's data folder and loads
// what it holds. get finds boards (nil: the built-in ones).
func OpenStore(data string, get journal.BoardSource) (*Store, error) {
	if get == nil {
		get = journal.BoardSource(builtinBoards)
	}
	s := &Store{data: data, boards: get, games: map[string]*Game{}, seenBad: map[string]bool{}, awards: map[string]Award{},
		quota: map[string]*refusedQuota{}}
	s.Keys = s.registryKey
	for _, d := range []string{s.recordsDir(), filepath.Join(data, "refused")} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			return nil, err
		}
	}
	files, err := filepath.Glob(filepath.Join(s.recordsDir(), "*"+journal.Extension))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		meta, err := os.ReadFile(strings.TrimSuffix(f, journal.Extension) + ".json")
		if err != nil {
			return nil, fmt.Errorf("desk: record %s has no metadata: %w", f, err)
		}
		var g Game
		if err := json.Unmarshal(meta, &g); err != nil {
			return nil, fmt.Errorf("desk: record %s: %w", f, err)
		}
		s.games[g.Hash] = &g
	}
	numberLegacy(s.games)
	if err := s.loadRefused(); err != nil {
		return nil, err
	}
	if b, err := os.ReadFile(filepath.Join(data, "awards.json")); err == nil {
		if err := json.Unmarshal(b, &s.awards); err != nil {
			return nil, fmt.Errorf("desk: awards.json: %w", err)
		}
	}
	if s.seats, err = readSeatMap(filepath.Join(data, "players.csv")); err != nil {
		return nil, err
	}
	if _, err := s.playersByID(); err != nil {
		return nil, err
	}
	if err := s.loadRounds(); err != nil {
		return nil, err
	}
	if err := s.loadStarts(); err != nil {
		return nil, err
	}
	if err := s.loadDiscipline(); err != nil {
		return nil, err
	}
	return s, nil
}

func builtinBoards(id string) (*engine.Board, error) { return boardsGet(id) }

func (s *Store) recordsDir() string { return filepath.Join(s.data, "records") }

func (s *Store) registryKey(table string) (ed25519.PublicKey, bool) {
	ts, err := Tables(s.data)
	if err != nil {
		return nil, false
	}
	for _, t := range ts {
		if t.Name == table {
			return t.PublicKey, true
		}
	}
	return nil, false
}

// Ingest takes a record received on subject (wolftable.table.<name>.record)
// with its message id ("" if none: a table sets none), verified and
// stored once, or refused with the reason. The error is the store's own
// trouble (the disk): the message must be delivered again.
func (s *Store) Ingest(subject, msgID, file string, data []byte) (Outcome, error) {
	out, _, err := s.IngestVerdict(subject, msgID, file, data)
	return out, err
}

// IngestVerdict is Ingest, with the verdict a table is answered (what it
// asked about its attempt): the fingerprint of a stored record, the
// reason of a refused one.
func (s *Store) IngestVerdict(subject, msgID, file string, data []byte) (Outcome, Verdict, error) {
	table, kind := SubjectTable(subject)
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	file = clipName(file)
	refuse := func(hash, reason string) (Outcome, Verdict, error) {
		reason = ClipReason(reason)
		err := s.refuse(Refusal{At: time.Now(), Table: table, Subject: subject, File: file, Hash: hash, Digest: digest, Reason: reason}, data)
		return Refused, Verdict{State: VerdictRefused, Reason: reason}, err
	}
	if table == "" || kind != KindRecord {
		return refuse("", fmt.Sprintf("主題 %q 不是桌子的紀錄主題（wolftable.table.<桌名>.record）", subject))
	}
	g, err := s.verify(table, data)
	if err != nil {
		hash := ""
		if j, lerr := journal.Load(bytes.NewReader(data)); lerr == nil {
			h := j.Head()
			hash = hex.EncodeToString(h[:])
		}
		return refuse(hash, err.Error())
	}
	if msgID != "" && msgID != g.Hash {
		return refuse(g.Hash, fmt.Sprintf("訊息編號 %.16s… 不是這份日誌的最終雜湊 %.16s…", msgID, g.Hash))
	}
	g.File = file
	s.mu.Lock()
	defer s.mu.Unlock()
	if o, ok := s.games[g.Hash]; ok {
		if o.Table != g.Table { // two tables registered with one key
			s.mu.Unlock()
			defer s.mu.Lock()
			return refuse(g.Hash, fmt.Sprintf("這份紀錄已經以桌子 %s 的名義收過（%s）：兩張桌子用了同一把簽章金鑰", o.Table, o.Fingerprint))
		}
		return Duplicate, Verdict{State: VerdictStored, Fingerprint: o.Fingerprint, Duplicate: true}, nil
	}
	for _, o := range s.games {
		if o.Table == g.Table && o.GameID == g.GameID {
			s.mu.Unlock()
			defer s.mu.Lock()
			return refuse(g.Hash, fmt.Sprintf("同一局（%s，桌子 %s）已有另一份紀錄 %s：同一局只算一次，結果不得更改", g.GameID, g.Table, o.Fingerprint))
		}
	}
	g.Received = time.Now().UTC()
	g.Round, g.Late = s.placeLocked(g)
	meta, _ := json.MarshalIndent(g, "", "  ")
	base := filepath.Join(s.recordsDir(), g.Hash)
	if err := atomicfile.Write(base+".json", meta, 0o640); err != nil {
		return Stored, Verdict{}, err
	}
	if err := atomicfile.Write(base+journal.Extension, data, 0o640); err != nil {
		return Stored, Verdict{}, err
	}
	s.games[g.Hash] = g
	return Stored, Verdict{State: VerdictStored, Fingerprint: g.Fingerprint}, nil
}

// Holds reports whether the store holds the record with this final hash
// for table (never another table's: issue 28 D1).
func (s *Store) Holds(table, hash string) (fingerprint string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.games[hash]
	if !ok || g.Table != table {
		return "", false
	}
	return g.Fingerprint, true
}

// clipName bounds a file name a table sent (a header: its own words).
func clipName(s string) string { return clip(s, 128) }

// verify checks a record for table: the hash chain and the end record's
// signature (journal.Load), its replay through the rules engine (the
// result replayed is the result signed), and that the signing key is the
// table's registered key. The error is in Chinese, for the organiser.
func (s *Store) verify(table string, data []byte) (*Game, error) {
	pub, ok := s.Keys(table)
	if !ok {
		return nil, fmt.Errorf("桌子 %s 沒有在總台登記", table)
	}
	return s.verifyKeys(table, data, []ed25519.PublicKey{pub})
}

// verifyStored is verify for a record stored already: signed by any key
// the table was registered with (rekeyed or removed since: TableKeys).
func (s *Store) verifyStored(table string, data []byte) (*Game, error) {
	var keys []ed25519.PublicKey
	if pub, ok := s.Keys(table); ok {
		keys = append(keys, pub)
	}
	old, err := TableKeys(s.data, table)
	if err != nil {
		return nil, err
	}
	keys = append(keys, old...)
	if len(keys) == 0 {
		return nil, fmt.Errorf("桌子 %s 沒有在總台登記過", table)
	}
	return s.verifyKeys(table, data, keys)
}

func (s *Store) verifyKeys(table string, data []byte, keys []ed25519.PublicKey) (*Game, error) {
	j, err := journal.Load(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s", journal.Explain(err))
	}
	end, ok := j.End()
	if !ok {
		return nil, fmt.Errorf("日誌沒有結束紀錄：對局未結束，證明不了任何結果")
	}
	if j.TornTail {
		return nil, fmt.Errorf("日誌結束紀錄之後有殘缺的資料")
	}
	sum := journal.Summary{Closed: true, Signed: end.Signed, SignedBy: end.PublicKey, Header: j.Header}
	var first error
	for i, pub := range keys {
		src := "總台登記的 " + table + " 公鑰"
		if i > 0 {
			src = "總台曾登記的 " + table + " 公鑰"
		}
		if err := sum.Check(journal.Policy{PublicKey: pub, KeySource: src}); err == nil {
			first = nil
			break
		} else if first == nil {
			first = err
		}
	}
	if first != nil {
		return nil, first
	}
	rv, err := journal.NewReview(j, s.boards)
	if err != nil {
		return nil, fmt.Errorf("%s", journal.Explain(err))
	}
	if rv.Result != end.Result {
		return nil, fmt.Errorf("結束紀錄寫的結果「%s」與重播的結果「%s」不同：結果被改過", end.Result, rv.Result)
	}
	g := &Game{Hash: rv.Hash, Fingerprint: rv.Fingerprint, Table: table, GameID: rv.Game, Board: rv.Board,
		BoardName: rv.BoardName, Winner: rv.Result, SignatureOK: true}
	if rv.Started != nil {
		g.Started = *rv.Started
	}
	if rv.Ended != nil {
		g.Ended = *rv.Ended
	} else {
		g.Ended = end.Wall
	}
	for _, sr := range rv.Deal {
		g.Seats = append(g.Seats, Seat{Seat: sr.Seat, Role: sr.Role, RoleName: sr.Name, Camp: sr.Camp, Side: sr.Side, Out: sr.Out, Penalty: sr.Penalty,
			DrawnID: sr.PlayerID, DrawnName: sr.Player})
	}
	return g, nil
}

// Games are the stored games the desk counts (a late game only once the
// operator accepted it): with their rounds, the desk's awards and the
// players' names, ordered by end time (then hash).
func (s *Store) Games() []Game {
	s.mu.Lock()
	list := make([]Game, 0, len(s.games))
	for _, g := range s.games {
		if g.Counted() {
			list = append(list, *g)
		}
	}
	awards := s.awards
	s.mu.Unlock()
	return s.finish(list, awards)
}

// Recompute reads every stored record again from DATA/records and
// verifies it as it was at its arrival (the table of each from its
// metadata): the games Standings must give the same table with.
func (s *Store) Recompute() ([]Game, error) {
	files, err := filepath.Glob(filepath.Join(s.recordsDir(), "*"+journal.Extension))
	if err != nil {
		return nil, err
	}
	var list []Game
	for _, f := range files {
		meta, err := os.ReadFile(strings.TrimSuffix(f, journal.Extension) + ".json")
		if err != nil {
			return nil, err
		}
		var m Game
		if err := json.Unmarshal(meta, &m); err != nil {
			return nil, err
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		g, err := s.verifyStored(m.Table, data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Base(f), err)
		}
		if g.Hash+journal.Extension != filepath.Base(f) {
			return nil, fmt.Errorf("%s holds the record %s", filepath.Base(f), g.Hash)
		}
		g.File, g.Received = m.File, m.Received
		g.Round, g.Late, g.Decision, g.DecisionNote = m.Round, m.Late, m.Decision, m.DecisionNote
		g.Void, g.VoidedAt = m.Void, m.VoidedAt
		list = append(list, *g)
	}
	all := map[string]*Game{}
	for i := range list {
		all[list[i].Hash] = &list[i]
	}
	numberLegacy(all)
	counted := list[:0:0]
	for _, g := range list {
		if g.Counted() {
			counted = append(counted, g)
		}
	}
	list = counted
	s.mu.Lock()
	awards := s.awards
	s.mu.Unlock()
	return s.finish(list, awards), nil
}

// finish orders games and adds the awards and the players: who sat where
// (players.csv) and their names (the registry).
func (s *Store) finish(list []Game, awards map[string]Award) []Game {
	players, _ := s.playersByID() // a broken registry file: the last good one (the page says so)
	plans := s.lockedPlans()
	for i := range list {
		g := &list[i]
		if a, ok := awards[g.Hash]; ok {
			g.MVP, g.SVP = a.MVP, a.SVP
		}
		seats := make([]Seat, len(g.Seats))
		copy(seats, g.Seats)
		for k := range seats {
			s.credit(g, &seats[k], plans, players)
		}
		g.Seats = seats
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if !a.Ended.Equal(b.Ended) {
			return a.Ended.Before(b.Ended)
		}
		return a.Hash < b.Hash
	})
	return list
}

// Record is a stored record's journal bytes.
func (s *Store) Record(hash string) ([]byte, error) {
	if len(hash) != 64 || strings.Trim(hash, "0123456789abcdef") != "" {
		return nil, os.ErrNotExist
	}
	return os.ReadFile(filepath.Join(s.recordsDir(), hash+journal.Extension))
}

// Review is a stored game's 復盤 (text, md or json).
func (s *Store) Review(hash, format string) (string, error) {
	data, err := s.Record(hash)
	if err != nil {
		return "", err
	}
	j, err := journal.Load(bytes.NewReader(data))
	if err != nil {
		return "", err
	}
	rv, err := journal.NewReview(j, s.boards)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	err = rv.Write(&b, format)
	return b.String(), err
}

// AwardOf is a game's MVP and SVP as entered (zero: none).
func (s *Store) AwardOf(hash string) Award {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.awards[hash]
}

// SetAward records the desk's MVP and SVP of a stored game (seats; 0 =
// none) in DATA/awards.json.

func (s *Store) SetAward(hash string, a Award) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.games[hash]
	if !ok {
		return fmt.Errorf("總台沒有紀錄 %s", hash)
	}
	for _, seat := range []int{a.MVP, a.SVP} {
		if seat < 0 || seat > len(g.Seats) {
			return fmt.Errorf("座位 %d 不在這局（%d 人）", seat, len(g.Seats))
		}
	}
	next := map[string]Award{}
	for k, v := range s.awards {
		next[k] = v
	}
	next[hash] = a
	body, _ := json.MarshalIndent(next, "", "  ")
	if err := atomicfile.Write(filepath.Join(s.data, "awards.json"), body, 0o640); err != nil {
		return err
	}
	s.awards = next
	return nil
}

// Game is one stored game (counted, late or set aside), with its awards
// and its players, as Games gives it.
func (s *Store) Game(hash string) (Game, bool) {
	s.mu.Lock()
	g, ok := s.games[hash]
	var c Game
	if ok {
		c = *g
	}
	awards := s.awards
	s.mu.Unlock()
	if !ok {
		return Game{}, false
	}
	return s.finish([]Game{c}, awards)[0], true
}

// Standings are the standings of the games the store counts under pack,
// with the desk's sanctions in force.
func (s *Store) Standings(p *Pack) []Row {
	games := s.Games()
	players, _ := s.playersByID()
	names := map[string]string{}
	for id, pl := range players {
		names[id] = pl.Name
	}
	return StandingsWith(p, games, s.Sanctions(), names)
}
