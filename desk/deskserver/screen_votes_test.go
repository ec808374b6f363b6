package deskserver

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"wolftable/desk/desktest"
)

// TestScreenExileAfterDelay (issue 29 item 7): a table plays a game; its
// status with day 1's exile, newer than the feed delay, is not on
// /screen/events; once that moment is older than the delay, the pushed
// screen shows the exile and the day's vote in words.
func TestScreenExileAfterDelay(t *testing.T) {
	data, _ := setup(t, 1)
	all := desktest.Statuses(t, desktest.Play(t, t.TempDir(), "seer-witch-hunter-idiot", 21, key(1), 0))
	ex := -1
	for i, s := range all {
		if len(s.Exiles) > 0 {
			ex = i
			break
		}
	}
	if ex < 1 || len(all[ex].Votes) == 0 {
		t.Fatalf("the game has no exile after a vote: %d statuses, exile at %d", len(all), ex)
	}
	o := newOpClient(t, data)
	delay := o.d.feedDelay()
	now := time.Now()
	o.d.mu.Lock()
	o.d.tables = map[string]*tableState{"T1": {name: "T1", delay: delay, feed: []feedEntry{
		{now.Add(-delay - 10*time.Second), all[ex-1]}, {now, all[ex]}}}}
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
	rd := bufio.NewReader(resp.Body)
	next := func() ScreenTable {
		t.Helper()
		for {
			line, err := rd.ReadString('\n')
			if err != nil {
				t.Fatalf("the stream: %v", err)
			}
			if b, ok := strings.CutPrefix(line, "data: "); ok {
				var s Screen
				if err := json.Unmarshal([]byte(b), &s); err != nil || len(s.Tables) != 1 {
					t.Fatalf("%v %s", err, b)
				}
				return s.Tables[0]
			}
		}
	}
	if st := next(); len(st.Exiles) != 0 {
		t.Fatalf("the exile is on the screen before the delay: %+v", st.Exiles)
	}
	o.d.mu.Lock()
	o.d.tables["T1"].feed[1].at = now.Add(-delay - time.Second)
	o.d.mu.Unlock()
	st := next()
	if len(st.Exiles) != 1 || !strings.HasPrefix(st.Exiles[0].Words, "第 1 天") || len(st.Votes) == 0 || !strings.Contains(strings.Join(st.Votes[0].Lines, ""), "←") {
		t.Fatalf("after the delay: exiles %+v, votes %+v", st.Exiles, st.Votes)
	}
}
