package journal

import (
	"encoding/hex"
	"time"

	"wolftable/engine"
)

// Review is the game record a tournament files (復盤), built from a
// journal and its replay: the setup, every phase with its wall-clock span
// and every entry of the engine's game record in it, each seat's fate and
// the result. Show prints it; its JSON form is Show's "json" format.
type Review struct {
	Game      string            `json:"game"`
	File      string            `json:"file,omitempty"`
	Software  string            `json:"software"`
	Format    int               `json:"format"`
	Board     string            `json:"board"`
	BoardName string            `json:"board_name"`
	Players   int               `json:"players"`
	Seats     int               `json:"table_seats"`
	Seed      uint64            `json:"seed,string"`
	Options   map[string]string `json:"options"`
	Deal      []SeatReview      `json:"seats"`
	Bottom    []CardReview      `json:"bottom,omitempty"`  // the bottom cards (底牌), in the header's order
	Created   time.Time         `json:"created"`           // the journal's header
	Started   *time.Time        `json:"started,omitempty"` // the start record
	Ended     *time.Time        `json:"ended,omitempty"`   // the result
	Seconds   *int64            `json:"seconds,omitempty"` // started to ended
	Result    string            `json:"result"`            // 好人 狼人 流局, "" = none yet
	Closed    bool              `json:"closed"`            // the journal has its end record
	Records   int               `json:"records"`           // the header included
	Inputs    int               `json:"inputs"`
	Refused   int               `json:"refused"` // inputs the engine refused
	TornTail  bool              `json:"torn_tail"`
	TornBytes int64             `json:"torn_bytes,omitempty"`
	// Fingerprint is the final hash's short form (Fingerprint) of a closed
	// journal, the one the judge wrote on the score sheet; Hash the whole
	// final hash (hex). SignedBy is the public key (FormatPublicKey) that
	// signed the end record, "" when it is not signed: `record verify`
	// checks that it is the table's registered key.
	Fingerprint string        `json:"fingerprint,omitempty"`
	Hash        string        `json:"final_hash,omitempty"`
	SignedBy    string        `json:"signed_by,omitempty"`
	Phases      []PhaseReview `json:"phases"`
}

// CardReview is a bottom card: a card dealt beyond the seats.
type CardReview struct {
	Role string `json:"role"`
	Name string `json:"name"`
	Camp string `json:"camp"`
}

// SeatReview is one seat: its role and how its game went.
type SeatReview struct {
	Seat int    `json:"seat"`
	Role string `json:"role"`      // engine role id
	Name string `json:"role_name"` // 狼人, 預言家, …
	Camp string `json:"camp"`      // wolf | villager | god
	// Side is the side the seat played for at the end (好人 狼人 第三方):
	// the thief's kept card, a turned wild child, the lovers' camp.
	Side    string  `json:"side"`
	Out     bool    `json:"out"`
	Deaths  []Death `json:"deaths,omitempty"`
	Penalty float64 `json:"penalty,omitempty"` // points deducted, in total
	// Player and PlayerID are who the header's seat draw seats here (none
	// without a draw).
	Player   string `json:"player,omitempty"`
	PlayerID string `json:"player_id,omitempty"`
}

// Death is one cause of a seat going out.
type Death struct {
	Cause string `json:"cause"`
	When  string `json:"when"` // night-2, day-3
}

// PhaseReview is a night or a day: when it began and ended on the wall
// clock and the record entries in it. A phase ends when the next begins, or
// at the result; the last phase of an unfinished game at the last record.
type PhaseReview struct {
	Phase   string    `json:"phase"` // night-1, day-1
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"`
	Seconds int64     `json:"seconds"`
	Entries []Entry   `json:"entries"`
}

// Entry is one entry of the engine's game record (engine.Record), with the
// wall time and source of the journal record whose input caused it.
type Entry struct {
	Wall   time.Time `json:"wall"`
	Record int       `json:"record"` // the journal record
	Source string    `json:"source"`
	Type   string    `json:"type"`           // engine.RecordType
	Kind   string    `json:"kind,omitempty"` // action, vote or speech kind
	Seat   int       `json:"seat"`
	By     int       `json:"by"`
	Target int       `json:"target"`
	Day    int       `json:"day,omitempty"`
	Cause  string    `json:"cause,omitempty"`
	When   string    `json:"when,omitempty"`
	Result string    `json:"result,omitempty"`
	Role   string    `json:"role,omitempty"`
	Points float64   `json:"points,omitempty"`
	// Votes (票型) and Tally of a vote entry. Sheriff is the seat whose
	// ballot weighed the sheriff's weight (0 = none).
	Votes   []VoteEntry  `json:"votes,omitempty"`
	Tally   []TallyEntry `json:"tally,omitempty"`
	Sheriff int          `json:"sheriff,omitempty"`
}

// VoteEntry is one ballot: Target 0 = abstained.
type VoteEntry struct {
	Voter  int `json:"voter"`
	Target int `json:"target"`
}

// TallyEntry is one seat's total: Halves in half-votes, Votes = Halves/2.
type TallyEntry struct {
	Seat   int     `json:"seat"`
	Halves int     `json:"halves"`
	Votes  float64 `json:"votes"`
}

// NewReview replays the journal (Replay, with get) and builds its review.
func NewReview(j *Journal, get BoardSource) (*Review, error) {
	g, events, err := Replay(j, get)
	if err != nil {
		return nil, err
	}
	h := &j.Header
	b := g.Board()
	rv := &Review{
		Game: h.GameID, File: j.Path, Software: h.Software, Format: h.Format,
		Board: h.Board, BoardName: b.Name, Players: len(h.Deal), Seats: h.Seats, Seed: h.Seed,
		Options: h.Options, Created: h.Start, Closed: j.Finished(),
		Records: len(j.Records) + 1, TornTail: j.TornTail, TornBytes: j.TornBytes,
		Phases: []PhaseReview{},
	}
	if end, ok := j.End(); ok {
		head := j.Head()
		rv.Fingerprint, rv.Hash = Fingerprint(head), hex.EncodeToString(head[:])
		if end.Signed {
			rv.SignedBy = FormatPublicKey(end.PublicKey[:])
		}
	}
	rv.Deal = seatReviews(h)
	for _, r := range h.Bottom {
		rv.Bottom = append(rv.Bottom, CardReview{Role: string(r), Name: r.Name(), Camp: campName(r.Camp())})
	}
	for _, r := range j.Records {
		switch r.Kind {
		case KindStart:
			t := r.Wall
			rv.Started = &t
		case KindInput:
			rv.Inputs++
		}
	}
	sheriff := 0
	var cur *PhaseReview
	for _, ev := range events {
		if ev.Refused != nil {
			rv.Refused++
			continue
		}
		if ev.Effect.Kind != engine.EffRecord || ev.Effect.Record == nil {
			continue
		}
		r := ev.Effect.Record
		if r.Type == engine.RecPhase {
			if cur != nil {
				cur.End = ev.Wall
			}
			rv.Phases = append(rv.Phases, PhaseReview{Phase: r.When, Start: ev.Wall, Entries: []Entry{}})
			cur = &rv.Phases[len(rv.Phases)-1]
			continue
		}
		if cur == nil { // never with the engine of today: a phase comes first
			rv.Phases = append(rv.Phases, PhaseReview{Phase: "setup", Start: ev.Wall, Entries: []Entry{}})
			cur = &rv.Phases[len(rv.Phases)-1]
		}
		e := Entry{Wall: ev.Wall, Record: ev.Record, Source: ev.Source, Type: string(r.Type), Kind: r.Kind,
			Seat: r.Seat, By: r.By, Target: r.Target, Day: r.Day, Cause: string(r.Cause), When: r.When,
			Result: r.Result, Role: string(r.Role), Points: r.Points}
		if r.Ballots != nil {
			e.Votes = []VoteEntry{}
			for _, v := range r.Ballots.Votes {
				e.Votes = append(e.Votes, VoteEntry{v.Voter, v.Target})
				if v.Voter == sheriff {
					e.Sheriff = sheriff
				}
			}
			e.Tally = []TallyEntry{}
			for _, t := range r.Ballots.Tally {
				e.Tally = append(e.Tally, TallyEntry{t.Seat, t.Halves, float64(t.Halves) / 2})
			}
		}
		seat := func(s int) *SeatReview {
			if s >= 1 && s <= len(rv.Deal) {
				return &rv.Deal[s-1]
			}
			return &SeatReview{}
		}
		switch r.Type {
		case engine.RecSheriff:
			sheriff = r.Seat
		case engine.RecDeath:
			sr := seat(r.Seat)
			sr.Out = true
			sr.Deaths = append(sr.Deaths, Death{Cause: string(r.Cause), When: r.When})
		case engine.RecPenalty:
			seat(r.Seat).Penalty += r.Points
		case engine.RecResult:
			rv.Result = r.Result
			t := ev.Wall
			rv.Ended = &t
		}
		cur.Entries = append(cur.Entries, e)
	}
	if cur != nil {
		switch {
		case rv.Ended != nil && !rv.Ended.Before(cur.Start):
			cur.End = *rv.Ended
		case len(j.Records) > 0:
			cur.End = j.Records[len(j.Records)-1].Wall
		default:
			cur.End = cur.Start
		}
	}
	for i := range rv.Deal {
		rv.Deal[i].Side = string(g.PlaysFor(i + 1))
	}
	for i := range rv.Phases {
		p := &rv.Phases[i]
		p.Seconds = seconds(p.End.Sub(p.Start))
	}
	if rv.Started != nil && rv.Ended != nil {
		s := seconds(rv.Ended.Sub(*rv.Started))
		rv.Seconds = &s
	}
	return rv, nil
}

func seconds(d time.Duration) int64 { return int64(d.Round(time.Second) / time.Second) }

func campName(c engine.Camp) string {
	switch c {
	case engine.CampWolf:
		return "wolf"
	case engine.CampVillager:
		return "villager"
	case engine.CampGod:
		return "god"
	}
	return "unknown"
}

// seatReviews are the header's seats: each one's card and, with a seat
// draw, its player.
func seatReviews(h *Header) []SeatReview {
	var out []SeatReview
	for i, r := range h.Deal {
		sr := SeatReview{Seat: i + 1, Role: string(r), Name: r.Name(), Camp: campName(r.Camp())}
		if i < len(h.Draw) {
			sr.Player, sr.PlayerID = h.Draw[i].Name, h.Draw[i].PlayerID
		}
		out = append(out, sr)
	}
	return out
}
