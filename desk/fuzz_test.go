package desk_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wolftable/desk"
)

// FuzzStatusCheck: whatever bytes a table sends on its status subject,
// decoding and checking never panics, and a status Check accepts is one
// the desk may render: 6 to 18 seats, the lit seats among them, in order,
// each once, the sheriff one of them or none, short text.
func FuzzStatusCheck(f *testing.F) {
	for _, s := range []string{
		`{"seats":12,"alive":[1,2,3],"sheriff":2,"phase":"day-1","board":"seer-witch-hunter-idiot","board_name":"預女獵愚"}`,
		`{"seats":3000000,"alive":[1]}`,
		`{"seats":12,"alive":[0,13]}`,
		`{"seats":12,"alive":[3,3]}`,
		`{"seats":9,"result":"好人","link_up":true,"outbox":2}`,
		`{"seats":12,"phase":"night-999"}`,
		`{"seats":-1}`,
		`{"seats":6,"votes":[{"day":1,"kind":"exile","targets":[2,0,2,2,1,0]}],"exiles":[{"day":1,"seat":2}]}`,
		`{"seats":6,"votes":[{"day":1,"kind":"exile","targets":[7]}],"exiles":[{"day":0,"seat":9}]}`,
		`[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s desk.Status
		if json.Unmarshal(b, &s) != nil || s.Check() != nil {
			return
		}
		if s.Seats < desk.MinSeats || s.Seats > desk.MaxSeats || len(s.Alive) > s.Seats || s.Sheriff < 0 || s.Sheriff > s.Seats {
			t.Fatalf("accepted: %+v", s)
		}
		for i, a := range s.Alive {
			if a < 1 || a > s.Seats || (i > 0 && a <= s.Alive[i-1]) {
				t.Fatalf("accepted alive %v of %d seats", s.Alive, s.Seats)
			}
		}
		if len(s.BoardName)+len(s.Board)+len(s.Game)+len(s.Link)+len(s.Phase)+len(s.Result) > 512 {
			t.Fatalf("accepted long text: %+v", s)
		}
		if len(s.Votes) > desk.MaxStatusVotes || len(s.Exiles) > desk.MaxStatusExiles {
			t.Fatalf("accepted %d votes and %d exiles", len(s.Votes), len(s.Exiles))
		}
		for _, v := range s.Votes {
			if len(v.Targets) != s.Seats {
				t.Fatalf("accepted a vote of %d ballots for %d seats", len(v.Targets), s.Seats)
			}
			for _, x := range v.Targets {
				if x < 0 || x > s.Seats {
					t.Fatalf("accepted a ballot for seat %d of %d", x, s.Seats)
				}
			}
		}
		for _, e := range s.Exiles {
			if e.Seat < 0 || e.Seat > s.Seats {
				t.Fatalf("accepted an exile of seat %d of %d", e.Seat, s.Seats)
			}
		}
	})
}

// FuzzEventCheck: an event's bytes never panic the check, and an accepted
// event has a seat of the table's range and bounded points.
func FuzzEventCheck(f *testing.F) {
	for _, s := range []string{`{"seat":3,"points":1.5}`, `{"result":"狼人","fingerprint":"ABCD EFGH"}`, `{"seat":99}`, `{"points":1e308}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var e desk.Event
		if json.Unmarshal(b, &e) != nil || e.Check() != nil {
			return
		}
		if e.Seat < 0 || e.Seat > desk.MaxSeats || e.Points > 100 || e.Points < -100 {
			t.Fatalf("accepted: %+v", e)
		}
	})
}

// FuzzReadCreds: a credentials file of any bytes is read or refused with
// an error, never a panic; one that is read has a usable NKEY and pins.
func FuzzReadCreds(f *testing.F) {
	dir := f.TempDir()
	p, err := desk.AddTable(dir, "T1", nil, "nats://192.0.2.5:4222")
	if err != nil {
		f.Fatal(err)
	}
	good, _ := os.ReadFile(p)
	f.Add(good)
	f.Add([]byte("table = 'T1'\nuser = 'table-T1'\npassword = 'x'\nsubject = 'wolftable.table.T1'\n"))
	f.Add([]byte(strings.Replace(string(good), "sha256:", "sha1:", 1)))
	f.Add([]byte("table = 'T1'\nnkey = 'SUAxx'\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "x.creds")
		os.WriteFile(path, b, 0o600)
		c, err := desk.ReadCreds(path)
		if err != nil {
			return
		}
		if _, err := c.NKeyPublic(); err != nil {
			t.Fatalf("read, but its NKEY is not usable: %v", err)
		}
		if _, err := desk.ClientTLS(c.TLSPins); err != nil {
			t.Fatalf("read, but its pins are not usable: %v", err)
		}
	})
}
