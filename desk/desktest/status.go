package desktest

import (
	"testing"

	"wolftable/boards"
	"wolftable/desk"
	"wolftable/engine"
	"wolftable/journal"
)

// Statuses replays the journal at path and returns the public statuses a
// table publishes as the game goes (as cmd/wolftable's deskStatus does):
// one after each effect that changed the lights, the phase, the sheriff,
// the votes, the exiles or the result.
func Statuses(t testing.TB, path string) []desk.Status {
	t.Helper()
	j, err := journal.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	g, events, err := journal.Replay(j, boards.Get)
	if err != nil {
		t.Fatal(err)
	}
	s := desk.Status{Game: j.Header.GameID, Board: j.Header.Board, Seats: g.Players(), LinkUp: true}
	out := map[int]bool{}
	var all []desk.Status
	for _, ev := range events {
		x := ev.Effect
		changed := false
		switch {
		case x.Kind == engine.EffLight:
			off := x.Light == engine.LightOff
			changed = out[x.Seat] != off
			out[x.Seat] = off
		case x.Kind == engine.EffRecord && x.Record != nil:
			r := x.Record
			switch r.Type {
			case engine.RecPhase:
				s.Phase, changed = r.When, true
			case engine.RecSheriff:
				s.Sheriff, changed = r.Seat, true
			case engine.RecResult:
				s.Result, changed = r.Result, true
			case engine.RecVote:
				changed = s.AddVote(r)
			case engine.RecExile:
				changed = s.AddExile(r)
			}
		}
		if !changed {
			continue
		}
		s.Alive = nil
		for i := 1; i <= s.Seats; i++ {
			if !out[i] {
				s.Alive = append(s.Alive, i)
			}
		}
		all = append(all, s.CopyVotes())
	}
	return all
}
