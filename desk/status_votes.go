package desk

import (
	"fmt"

	"wolftable/engine"
)

// The day's votes and exiles in a table's status (issue 29 item 7): what
// the judge announces at the table once a vote is counted — who voted
// whom — and whom the day exiled. Public information, as the seats' lights
// are; the desk shows it to the audience only after the feed delay.

// PublicVote is one counted exile vote: Targets[i] is seat i+1's ballot
// (0: no ballot — abstained, dead, or not allowed to vote).
type PublicVote struct {
	Day     int    `json:"day"`
	Kind    string `json:"kind"` // exile, exile-pk (engine.VoteExile, engine.VoteExilePK)
	Targets []int  `json:"targets"`
}

// PublicExile is a day's exile: Seat 0 when nobody left the table.
type PublicExile struct {
	Day  int `json:"day"`
	Seat int `json:"seat"`
}

// Bounds of a status's votes and exiles: a table keeps its last
// MaxStatusVotes votes (a day has at most an exile vote and its PK) and
// every exile up to MaxStatusExiles; a status with more is dropped.
const (
	MaxStatusVotes  = 4
	MaxStatusExiles = 32
	maxVoteDay      = 999
)

// AddVote appends a counted vote record to the status's votes, the oldest
// dropped past MaxStatusVotes; a vote of another kind (the sheriff's) is
// left out. True when the status changed.
func (s *Status) AddVote(r *engine.Record) bool {
	kind := engine.VoteKind(r.Kind)
	if r.Ballots == nil || (kind != engine.VoteExile && kind != engine.VoteExilePK) {
		return false
	}
	v := PublicVote{Day: r.Day, Kind: r.Kind, Targets: make([]int, s.Seats)}
	for _, b := range r.Ballots.Votes {
		if b.Voter >= 1 && b.Voter <= s.Seats {
			v.Targets[b.Voter-1] = b.Target
		}
	}
	s.Votes = append(s.Votes, v)
	if n := len(s.Votes); n > MaxStatusVotes {
		s.Votes = append([]PublicVote(nil), s.Votes[n-MaxStatusVotes:]...)
	}
	return true
}

// AddExile appends a day's exile record; true when the status changed.
func (s *Status) AddExile(r *engine.Record) bool {
	if len(s.Exiles) >= MaxStatusExiles {
		return false
	}
	s.Exiles = append(s.Exiles, PublicExile{Day: r.Day, Seat: r.Seat})
	return true
}

// CopyVotes is s with its own copies of the votes and exiles (a snapshot
// to publish while the table's status moves on).
func (s Status) CopyVotes() Status {
	if s.Votes != nil {
		vs := make([]PublicVote, len(s.Votes))
		for i, v := range s.Votes {
			v.Targets = append([]int(nil), v.Targets...)
			vs[i] = v
		}
		s.Votes = vs
	}
	s.Exiles = append([]PublicExile(nil), s.Exiles...)
	return s
}

// checkVotes: at most MaxStatusVotes exile votes, each of a day 1..999
// in order, one ballot per seat, each 0 or a seat; at most
// MaxStatusExiles exiles, of days in order, each seat 0 or a seat.
func (s Status) checkVotes() error {
	if len(s.Votes) > MaxStatusVotes {
		return fmt.Errorf("%d votes: at most %d", len(s.Votes), MaxStatusVotes)
	}
	for i, v := range s.Votes {
		if v.Day < 1 || v.Day > maxVoteDay || (i > 0 && v.Day < s.Votes[i-1].Day) {
			return fmt.Errorf("vote %d: day %d out of 1..%d or out of order", i+1, v.Day, maxVoteDay)
		}
		if k := engine.VoteKind(v.Kind); k != engine.VoteExile && k != engine.VoteExilePK {
			return fmt.Errorf("vote %d: kind %q", i+1, clip(v.Kind, 16))
		}
		if len(v.Targets) != s.Seats {
			return fmt.Errorf("vote %d: %d ballots of %d seats", i+1, len(v.Targets), s.Seats)
		}
		for j, t := range v.Targets {
			if t < 0 || t > s.Seats {
				return fmt.Errorf("vote %d: seat %d voted %d, out of 0..%d", i+1, j+1, t, s.Seats)
			}
		}
	}
	if len(s.Exiles) > MaxStatusExiles {
		return fmt.Errorf("%d exiles: at most %d", len(s.Exiles), MaxStatusExiles)
	}
	for i, e := range s.Exiles {
		if e.Day < 1 || e.Day > maxVoteDay || (i > 0 && e.Day < s.Exiles[i-1].Day) {
			return fmt.Errorf("exile %d: day %d out of 1..%d or out of order", i+1, e.Day, maxVoteDay)
		}
		if e.Seat < 0 || e.Seat > s.Seats {
			return fmt.Errorf("exile %d: seat %d out of 0..%d", i+1, e.Seat, s.Seats)
		}
	}
	return nil
}
