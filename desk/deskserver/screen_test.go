package deskserver

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wolftable/desk"
)

// TestScreenStream (issue 29 item 7): /screen/events pushes the screen at
// once and again when a table's delayed state changes, with no reload:
// the seats' names (players.csv, the registry) once the game has
// started, never a status newer than the feed delay; /screen is a page
// with a viewport and the script, without a refresh.
func TestScreenStream(t *testing.T) {
	data, _ := setup(t, 2)
	if _, _, err := desk.ImportPlayers(data, []byte("P1,王小明,,\nP2,林美玲,,\n")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(data, "players.csv"), []byte("T1,1,P1\nT1,2,P2\n"), 0o644)
	o := newOpClient(t, data)
	delay := o.d.feedDelay()
	now := time.Now()
	o.d.mu.Lock()
	o.d.tables = map[string]*tableState{
		"T1": {name: "T1", delay: delay, feed: []feedEntry{
			{now.Add(-delay - 10*time.Second), desk.Status{Seats: 9, Phase: "night-1", Alive: []int{1, 2, 3, 4, 5, 6, 7, 8, 9}, BoardName: "九人局"}},
			{now, desk.Status{Seats: 9, Phase: "day-3", Alive: []int{1}, Sheriff: 1}}, // too new for the audience
		}},
		"T2": {name: "T2", delay: delay},
	}
	o.d.mu.Unlock()
	old := screenEvery
	screenEvery = 50 * time.Millisecond
	defer func() { screenEvery = old }()

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", o.srv.URL+"/screen/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	rd := bufio.NewReader(resp.Body)
	next := func() Screen {
		t.Helper()
		for {
			line, err := rd.ReadString('\n')
			if err != nil {
				t.Fatalf("the stream: %v", err)
			}
			if b, ok := strings.CutPrefix(line, "data: "); ok {
				var s Screen
				if err := json.Unmarshal([]byte(b), &s); err != nil {
					t.Fatal(err)
				}
				return s
			}
		}
	}
	s := next()
	if len(s.Tables) != 2 || s.Tables[0].Name != "T1" || s.Tables[0].State != "對局中：第1夜" {
		t.Fatalf("the first screen: %+v", s.Tables)
	}
	seats := s.Tables[0].Seats
	if len(seats) != 9 || seats[0].Player != "王小明" || seats[1].Player != "林美玲" || seats[2].Player != "" || seats[0].Sheriff || !seats[8].Lit {
		t.Errorf("T1's seats: %+v (the day-3 status is newer than the delay)", seats)
	}
	if s.Tables[1].State != "尚無畫面" || s.Tables[1].Seats != nil {
		t.Errorf("T2: %+v", s.Tables[1])
	}
	o.d.mu.Lock() // the table moves on, and that moment is now older than the delay
	l := o.d.tables["T1"]
	l.feed = append(l.feed[:1:1], feedEntry{now.Add(-delay - time.Second), desk.Status{Seats: 9, Phase: "day-1", Alive: []int{1, 2, 3}, Sheriff: 2, BoardName: "九人局"}}, l.feed[1])
	o.d.mu.Unlock()
	s = next()
	if st := s.Tables[0]; st.State != "對局中：第1天" || !st.Seats[1].Sheriff || st.Seats[4].Lit {
		t.Errorf("the pushed screen: %+v", st)
	}
	_, page := o.get("/screen")
	if !strings.Contains(page, `name="viewport"`) || !strings.Contains(page, `src="/static/screen.js"`) || strings.Contains(page, "http-equiv") {
		t.Errorf("/screen:\n%s", page)
	}
}
