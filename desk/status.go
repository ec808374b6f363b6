package desk

import (
	"fmt"
	"math"
	"regexp"
	"time"
	"unicode/utf8"

	"wolftable/engine"
)

// Status is a table's public state, as it publishes it on
// wolftable.table.<name>.status: what anyone at the table can see, never a
// role, a night choice or a judge's cue (nothing hidden while a game runs).
type Status struct {
	Table     string    `json:"table"`
	Game      string    `json:"game,omitempty"` // the journal's game id
	Board     string    `json:"board,omitempty"`
	BoardName string    `json:"board_name,omitempty"`
	Phase     string    `json:"phase,omitempty"` // night-1, day-1; "" before the start
	Seats     int       `json:"seats,omitempty"`
	Alive     []int     `json:"alive,omitempty"`   // seats whose light is not off
	Sheriff   int       `json:"sheriff,omitempty"` // 0 = none
	Result    string    `json:"result,omitempty"`  // 好人 狼人 流局 第三方 once over
	LinkUp    bool      `json:"link_up"`           // the seat panels' link
	Link      string    `json:"link,omitempty"`
	Outbox    int       `json:"outbox"` // finished journals the desk has not acknowledged
	At        time.Time `json:"at"`     // when the table sent it (the heartbeat)
	// Votes and Exiles are the counted exile votes and the days' exiles,
	// as announced at the table (status_votes.go).
	Votes  []PublicVote  `json:"votes,omitempty"`
	Exiles []PublicExile `json:"exiles,omitempty"`
}

// Event is a start, end or penalty message (wolftable.table.<name>.start
// etc.): live information for the desk's page. What counts is the record.
type Event struct {
	Table  string  `json:"table"`
	Game   string  `json:"game,omitempty"`
	Board  string  `json:"board,omitempty"`
	Seat   int     `json:"seat,omitempty"`   // penalty
	Points float64 `json:"points,omitempty"` // penalty
	Result string  `json:"result,omitempty"` // end
	// Fingerprint (end) is the journal's fingerprint, never its full
	// final hash: the hash is published by the desk once the record is
	// stored (issue 28 D1).
	Fingerprint string    `json:"fingerprint,omitempty"`
	At          time.Time `json:"at"`
}

// MaxLiveBytes bounds a live message (status, start, end, penalty) and a
// table's question: the desk drops a larger one unread (issue 28 D3).
const MaxLiveBytes = 4 << 10

// Seat counts a table may report.
const (
	MinSeats = 6
	MaxSeats = 18
)

var phaseRE = regexp.MustCompile(`^(?:night|day)-[0-9]{1,3}$`)

func checkText(field, v string, max int) error {
	if len(v) > max || !utf8.ValidString(v) {
		return fmt.Errorf("%s: at most %d bytes of UTF-8", field, max)
	}
	return nil
}

func checkResult(r string) error {
	switch engine.Winner(r) {
	case engine.WinNone, engine.WinGood, engine.WinWolves, engine.WinVoid, engine.WinThird:
		return nil
	}
	return fmt.Errorf("result %q is no result", clip(r, 16))
}

// Check validates a status as it arrives at the desk: 6 to 18 seats, the
// lit seats among them (increasing, each once), the sheriff one of them or
// 0, a known phase and result, short strings. The desk keeps nothing else.
func (s Status) Check() error {
	if s.Seats < MinSeats || s.Seats > MaxSeats {
		return fmt.Errorf("seats %d: want %d to %d", s.Seats, MinSeats, MaxSeats)
	}
	if len(s.Alive) > s.Seats {
		return fmt.Errorf("%d seats alive of %d", len(s.Alive), s.Seats)
	}
	for i, a := range s.Alive {
		if a < 1 || a > s.Seats || (i > 0 && a <= s.Alive[i-1]) {
			return fmt.Errorf("alive: seat %d out of 1..%d or out of order", a, s.Seats)
		}
	}
	if s.Sheriff < 0 || s.Sheriff > s.Seats {
		return fmt.Errorf("sheriff %d out of 0..%d", s.Sheriff, s.Seats)
	}
	if s.Phase != "" && !phaseRE.MatchString(s.Phase) {
		return fmt.Errorf("phase %q", clip(s.Phase, 16))
	}
	if s.Outbox < 0 || s.Outbox > 1_000_000 {
		return fmt.Errorf("outbox %d", s.Outbox)
	}
	for _, f := range []struct {
		name, v string
		max     int
	}{{"game", s.Game, 64}, {"board", s.Board, 64}, {"board_name", s.BoardName, 96}, {"link", s.Link, 200}} {
		if err := checkText(f.name, f.v, f.max); err != nil {
			return err
		}
	}
	if err := s.checkVotes(); err != nil {
		return err
	}
	return checkResult(s.Result)
}

// Check validates a start, end or penalty message as it arrives.
func (e Event) Check() error {
	if e.Seat < 0 || e.Seat > MaxSeats {
		return fmt.Errorf("seat %d", e.Seat)
	}
	if math.IsNaN(e.Points) || math.Abs(e.Points) > 100 {
		return fmt.Errorf("points %v", e.Points)
	}
	for _, f := range []struct {
		name, v string
		max     int
	}{{"game", e.Game, 64}, {"board", e.Board, 64}, {"fingerprint", e.Fingerprint, 64}} {
		if err := checkText(f.name, f.v, f.max); err != nil {
			return err
		}
	}
	return checkResult(e.Result)
}
