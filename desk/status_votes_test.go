package desk

import (
	"encoding/json"
	"strings"
	"testing"

	"wolftable/engine"
)

// TestStatusVotesFit: the largest status Check accepts — every field at
// its bound, its text all characters JSON escapes six-fold — is within
// MaxLiveBytes, so a table's status never outgrows the desk's limit as
// its votes and exiles accumulate. Raising MaxStatusVotes to 16 fails it.
func TestStatusVotesFit(t *testing.T) {
	s := Status{Seats: MaxSeats, Phase: "night-999", Sheriff: MaxSeats, Result: string(engine.WinThird), Outbox: 1_000_000,
		Game: strings.Repeat("<", 64), Board: strings.Repeat("<", 64), BoardName: strings.Repeat("<", 96), Link: strings.Repeat("<", 200)}
	for i := 1; i <= MaxSeats; i++ {
		s.Alive = append(s.Alive, i)
	}
	for range MaxStatusVotes {
		v := PublicVote{Day: maxVoteDay, Kind: string(engine.VoteExilePK)}
		for range MaxSeats {
			v.Targets = append(v.Targets, MaxSeats)
		}
		s.Votes = append(s.Votes, v)
	}
	for range MaxStatusExiles {
		s.Exiles = append(s.Exiles, PublicExile{Day: maxVoteDay, Seat: MaxSeats})
	}
	if err := s.Check(); err != nil {
		t.Fatalf("the largest status is refused: %v", err)
	}
	b, _ := json.Marshal(s)
	if len(b) > MaxLiveBytes {
		t.Fatalf("the largest status is %d bytes, over MaxLiveBytes %d", len(b), MaxLiveBytes)
	}
}

// TestStatusVotesCheck: a vote or an exile out of range, out of order,
// of another kind, with a ballot per seat missing, or too many of them,
// is refused; a table's status keeps its last MaxStatusVotes exile votes
// and no sheriff vote.
func TestStatusVotesCheck(t *testing.T) {
	good := func() Status {
		return Status{Seats: 6, Votes: []PublicVote{{Day: 1, Kind: "exile", Targets: []int{2, 0, 2, 2, 1, 0}}},
			Exiles: []PublicExile{{Day: 1, Seat: 2}, {Day: 2, Seat: 0}}}
	}
	if err := good().Check(); err != nil {
		t.Fatalf("a good status: %v", err)
	}
	bad := map[string]func(*Status){
		"a ballot for seat 7 of 6": func(s *Status) { s.Votes[0].Targets[0] = 7 },
		"a negative ballot":        func(s *Status) { s.Votes[0].Targets[0] = -1 },
		"five ballots of six":      func(s *Status) { s.Votes[0].Targets = s.Votes[0].Targets[:5] },
		"a sheriff vote":           func(s *Status) { s.Votes[0].Kind = "sheriff" },
		"day 0":                    func(s *Status) { s.Votes[0].Day = 0 },
		"day 1000":                 func(s *Status) { s.Exiles[0].Day = 1000 },
		"exiles out of order":      func(s *Status) { s.Exiles[0].Day = 3 },
		"an exile of seat 7":       func(s *Status) { s.Exiles[1].Seat = 7 },
		"too many votes": func(s *Status) {
			for range MaxStatusVotes {
				s.Votes = append(s.Votes, s.Votes[0])
			}
		},
		"too many exiles": func(s *Status) {
			for range MaxStatusExiles {
				s.Exiles = append(s.Exiles, PublicExile{Day: 2})
			}
		},
	}
	for what, f := range bad {
		s := good().CopyVotes()
		f(&s)
		if s.Check() == nil {
			t.Errorf("%s: accepted", what)
		}
	}
	s := Status{Seats: 6}
	if s.AddVote(&engine.Record{Type: engine.RecVote, Kind: string(engine.VoteSheriff), Day: 1, Ballots: &engine.Ballots{}}) || len(s.Votes) != 0 {
		t.Error("a sheriff vote kept")
	}
	for day := 1; day <= MaxStatusVotes+3; day++ {
		s.AddVote(&engine.Record{Type: engine.RecVote, Kind: string(engine.VoteExile), Day: day,
			Ballots: &engine.Ballots{Votes: []engine.Vote{{Voter: 1, Target: 3}, {Voter: 6, Target: 1}, {Voter: 99, Target: 1}}}})
	}
	if len(s.Votes) != MaxStatusVotes || s.Votes[0].Day != 4 || s.Votes[MaxStatusVotes-1].Targets[0] != 3 || s.Votes[0].Targets[5] != 1 {
		t.Errorf("votes kept: %+v", s.Votes)
	}
	if err := s.Check(); err != nil {
		t.Errorf("the votes a table keeps are refused: %v", err)
	}
}
