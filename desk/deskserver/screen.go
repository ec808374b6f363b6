package deskserver

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"time"

	"wolftable/desk"
)

// The audience screen (issue 29 item 7): /screen, for a projector or an
// OBS browser source, shows the standings and every table's public state
// as late as the feed (names by seat once the game has started, the seats
// still lit, the sheriff, the result and the record's fingerprint at the
// end), pushed over server-sent events (/screen/events) with no reloads.
// Nothing newer than the feed delay is ever in it (PublicTables).

// Screen is what the audience screen shows.
type Screen struct {
	Title        string        `json:"title"`
	Pack         string        `json:"pack"`
	DelaySeconds int           `json:"delay_seconds"`
	Tables       []ScreenTable `json:"tables"`
	Standings    []desk.Row    `json:"standings"`
}

// ScreenTable is a table on the audience screen.
type ScreenTable struct {
	Name        string        `json:"name"`
	State       string        `json:"state"` // 尚無畫面, 等待開局, 對局中：第2夜, 已結束：好人
	BoardName   string        `json:"board_name,omitempty"`
	Seats       []ScreenSeat  `json:"seats,omitempty"`
	Result      string        `json:"result,omitempty"`
	Fingerprint string        `json:"fingerprint,omitempty"` // the record's, once over
	Votes       []ScreenVote  `json:"votes,omitempty"`       // the counted exile votes (screen_votes.go)
	Exiles      []ScreenExile `json:"exiles,omitempty"`
}

// ScreenSeat is a seat on the audience screen.
type ScreenSeat struct {
	N       int    `json:"n"`
	Player  string `json:"player,omitempty"` // once the game has started
	Lit     bool   `json:"lit"`
	Sheriff bool   `json:"sheriff,omitempty"`
}

// screenTop bounds the standings on the screen (a hall reads the top).
const screenTop = 24

// ScreenAt is the audience screen at now.
func (d *Desk) ScreenAt(now time.Time) Screen {
	sc := Screen{Title: d.title(), Pack: d.pack.Title, DelaySeconds: int(d.feedDelay() / time.Second), Tables: []ScreenTable{}}
	for _, p := range d.PublicTables(now) {
		st := ScreenTable{Name: p.Name}
		pt := pageTable{}
		if s := p.Status; s != nil {
			pt.HasStatus, pt.Phase, pt.Result = true, phaseWords(s.Phase), s.Result
			st.BoardName, st.Result = s.BoardName, s.Result
			lit := map[int]bool{}
			for _, a := range s.Alive {
				lit[a] = true
			}
			for n := 1; n <= min(s.Seats, desk.MaxSeats); n++ {
				seat := ScreenSeat{N: n, Lit: lit[n], Sheriff: s.Sheriff == n}
				if s.Phase != "" || s.Result != "" { // names once the game has started
					_, seat.Player = d.Store.SeatPlayer(p.Name, n)
				}
				st.Seats = append(st.Seats, seat)
			}
			st.Votes, st.Exiles = voteWords(s, func(n int) string {
				if n >= 1 && n <= len(st.Seats) {
					return st.Seats[n-1].Player
				}
				return ""
			})
			if s.Result != "" {
				for _, e := range p.Events {
					if e.Fingerprint != "" && (s.Game == "" || e.Game == "" || e.Game == s.Game) {
						st.Fingerprint = e.Fingerprint
					}
				}
			}
		}
		pt.stateWords()
		st.State = pt.State
		sc.Tables = append(sc.Tables, st)
	}
	rows := d.Standings()
	if len(rows) > screenTop {
		rows = rows[:screenTop]
	}
	sc.Standings = rows
	return sc
}

// maxScreens bounds the audience screens streaming at once.
const maxScreens = 64

func (d *Desk) screenPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := screenTmpl.Execute(w, map[string]any{"Title": d.title()}); err != nil {
		d.log.Warn("desk: screen page", "err", err)
	}
}

// screenEvents streams the screen: the state at once, then whenever it
// changes (checked every second), a comment every 15 s to keep the line.
func (d *Desk) screenEvents(w http.ResponseWriter, r *http.Request) {
	if n := d.screens.Add(1); n > maxScreens {
		d.screens.Add(-1)
		http.Error(w, "轉播畫面連線太多", http.StatusServiceUnavailable)
		return
	}
	defer d.screens.Add(-1)
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	write := func(s string) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
		if _, err := fmt.Fprint(w, s); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if !write("retry: 2000\n\n") {
		return
	}
	var last []byte
	tick := time.NewTicker(screenEvery)
	defer tick.Stop()
	quiet := time.Now()
	for {
		b, _ := json.Marshal(d.ScreenAt(time.Now()))
		if string(b) != string(last) {
			if !write("event: screen\ndata: " + string(b) + "\n\n") {
				return
			}
			last, quiet = b, time.Now()
		} else if time.Since(quiet) > 15*time.Second {
			if !write(": ping\n\n") {
				return
			}
			quiet = time.Now()
		}
		select {
		case <-r.Context().Done():
			return
		case <-d.quit:
			return
		case <-tick.C:
		}
	}
}

// screenEvery is how often a screen's state is checked for a change.
var screenEvery = time.Second

var screenTmpl = template.Must(template.New("screen").Parse(`<!doctype html>
<html lang="zh-Hant"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/desk.css"><title>{{.Title}}・轉播</title></head>
<body class="screen">
<header><h1 id="title">{{.Title}}</h1><p class="dim" id="delay"></p></header>
<main><section id="tables" class="screen-tables"></section>
<section><h2>積分榜</h2><table id="standings"><thead><tr><th>名次</th><th>選手</th><th>積分</th><th>場數</th><th>勝</th></tr></thead><tbody></tbody></table></section></main>
<p class="dim" id="link">連線中…</p>
<script src="/static/screen.js"></script>
</body></html>`))
