package deskserver

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"wolftable/desk"
)

// TestAudienceFeedDelay: the feed serves a table's public status only once
// it is older than the delay — never the newest one early — and no table's
// plumbing (outbox, link) reaches it.
func TestAudienceFeedDelay(t *testing.T) {
	d := &Desk{opts: Options{FeedDelay: time.Minute}, tables: map[string]*tableState{}, log: slog.New(slog.DiscardHandler)}
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	l := &tableState{name: "T1", delay: time.Minute}
	d.tables["T1"] = l
	l.record(desk.Status{Table: "T1", Phase: "night-1", Seats: 9, Alive: []int{1, 2, 3, 4, 5, 6, 7, 8, 9}, Outbox: 2, Link: "ok"}, t0)
	l.record(desk.Status{Table: "T1", Phase: "day-1", Seats: 9, Alive: []int{1, 2, 3, 4, 6, 7, 8, 9}}, t0.Add(40*time.Second))
	l.record(desk.Status{Table: "T1", Phase: "day-1", Seats: 9, Alive: []int{1, 2, 3, 4, 6, 7, 9}, Result: "好人"}, t0.Add(90*time.Second))

	for _, c := range []struct {
		after time.Duration
		phase string
		alive int
		none  bool
	}{
		{30 * time.Second, "", 0, true}, // nothing a minute old yet
		{60 * time.Second, "night-1", 9, false},
		{100 * time.Second, "day-1", 8, false}, // the 40 s status; the 90 s one (the result) is not yet due
		{150 * time.Second, "day-1", 7, false},
	} {
		f, ok := d.FeedOf("T1", t0.Add(c.after))
		if !ok {
			t.Fatal("no feed for T1")
		}
		if c.none {
			if f.Status != nil {
				t.Errorf("at +%v: %+v, want nothing yet", c.after, f.Status)
			}
			continue
		}
		if f.Status == nil || f.Status.Phase != c.phase || len(f.Status.Alive) != c.alive {
			t.Errorf("at +%v: %+v, want %s with %d lit", c.after, f.Status, c.phase, c.alive)
			continue
		}
		if f.Status.Result != "" && c.after < 150*time.Second {
			t.Errorf("at +%v: the result is in the feed before its delay", c.after)
		}
		if f.Status.Outbox != 0 || f.Status.Link != "" || f.DelaySeconds != 60 {
			t.Errorf("at +%v: %+v", c.after, f)
		}
	}
	if _, ok := d.FeedOf("T9", t0); ok {
		t.Error("a feed for an unknown table")
	}

	// the HTTP side: JSON and the page, 404 for an unknown table
	srv := httptest.NewServer(d.Handler())
	defer srv.Close()
	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := get("/api/public/feed/T1")
	var f Feed
	if code != 200 || json.Unmarshal([]byte(body), &f) != nil || f.Table != "T1" {
		t.Errorf("feed JSON: %d %s", code, body)
	}
	if code, body := get("/feed/T1"); code != 200 || !strings.Contains(body, "轉播延遲 60 秒") {
		t.Errorf("feed page: %d %s", code, body)
	}
	if code, _ := get("/feed/T9"); code != 404 {
		t.Errorf("unknown table: %d", code)
	}
}
