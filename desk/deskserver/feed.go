package deskserver

import (
	"fmt"
	"html/template"
	"net/http"
	"time"

	"wolftable/desk"
)

// The audience feed (issue 16 item 6): per table, the public view as it was
// FeedDelay ago — board, phase, the seats still lit, the sheriff and, once
// the game is over, its result. The desk enforces the delay: a status is
// served only once it is older than the delay, so a broadcast never runs
// ahead of the room (what a player's face gives away at the table reaches
// the stream late). A status never holds a role, a night choice or a cue
// (desk.Status); the result is the end of the game, said aloud at the table.

// DefaultFeedDelay is the audience feed's delay when Options.FeedDelay is 0.
const DefaultFeedDelay = 60 * time.Second

// feedKeep bounds each table's feed history.
const feedKeep = 2000

// feedEntry is a status as the desk received it.
type feedEntry struct {
	at time.Time
	s  desk.Status
}

func (d *Desk) feedDelay() time.Duration {
	if d.opts.FeedDelay > 0 {
		return d.opts.FeedDelay
	}
	return DefaultFeedDelay
}

// record keeps a received status for the feed (d.mu held).
func (l *Live) record(s desk.Status, at time.Time) {
	l.feed = append(l.feed, feedEntry{at, s})
	if len(l.feed) > feedKeep {
		l.feed = append(l.feed[:0:0], l.feed[len(l.feed)-feedKeep:]...)
	}
}

// delayed is the newest status received at or before now-delay, or false.
func delayed(feed []feedEntry, now time.Time, delay time.Duration) (desk.Status, bool) {
	cut := now.Add(-delay)
	for i := len(feed) - 1; i >= 0; i-- {
		if !feed[i].at.After(cut) {
			return feed[i].s, true
		}
	}
	return desk.Status{}, false
}

// Feed is a table's delayed public view: the status of FeedDelay ago.
type Feed struct {
	Table        string       `json:"table"`
	DelaySeconds int          `json:"delay_seconds"`
	Status       *desk.Status `json:"status"` // null: nothing as old as the delay yet
}

// FeedOf returns the table's feed now, or false for an unknown table.
func (d *Desk) FeedOf(table string, now time.Time) (Feed, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	l := d.tables[table]
	if l == nil {
		return Feed{}, false
	}
	f := Feed{Table: table, DelaySeconds: int(d.feedDelay() / time.Second)}
	if s, ok := delayed(l.feed, now, d.feedDelay()); ok {
		s.Outbox, s.Link = 0, "" // the table's plumbing is not the audience's
		f.Status = &s
	}
	return f, true
}

func (d *Desk) feedJSON(w http.ResponseWriter, r *http.Request) {
	f, ok := d.FeedOf(r.PathValue("table"), time.Now())
	if !ok {
		http.Error(w, "沒有這張桌子 / no such table", http.StatusNotFound)
		return
	}
	writeJSON(w, f)
}

var feedTmpl = template.Must(template.New("feed").Parse(`<!doctype html>
<html lang="zh-Hant"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">
<title>{{.Table}} 轉播</title>
<style>body{font-family:sans-serif;background:#111;color:#eee;margin:2em}
.seat{display:inline-block;width:2.2em;height:2.2em;line-height:2.2em;text-align:center;margin:.2em;border-radius:50%;background:#2a2}
.off{background:#444;color:#888}.sheriff{outline:3px solid #e33}</style></head><body>
<h1>{{.Table}}</h1>
<p>轉播延遲 {{.Delay}} 秒</p>
{{with .Status}}
<p>{{.BoardName}}　{{.PhaseWords}}{{if .Result}}　結果：{{.Result}}{{end}}</p>
<div>{{range .Seats}}<span class="seat{{if not .Lit}} off{{end}}{{if .Sheriff}} sheriff{{end}}">{{.N}}</span>{{end}}</div>
{{else}}<p>尚無畫面（還沒有比延遲更早的狀態）</p>{{end}}
</body></html>`))

type feedSeat struct {
	N            int
	Lit, Sheriff bool
}

func (d *Desk) feedPage(w http.ResponseWriter, r *http.Request) {
	f, ok := d.FeedOf(r.PathValue("table"), time.Now())
	if !ok {
		http.Error(w, "沒有這張桌子 / no such table", http.StatusNotFound)
		return
	}
	data := map[string]any{"Table": f.Table, "Delay": f.DelaySeconds, "Status": nil}
	if s := f.Status; s != nil {
		lit := map[int]bool{}
		for _, a := range s.Alive {
			lit[a] = true
		}
		var seats []feedSeat
		for n := 1; n <= s.Seats; n++ {
			seats = append(seats, feedSeat{N: n, Lit: lit[n], Sheriff: s.Sheriff == n})
		}
		data["Status"] = map[string]any{"BoardName": s.BoardName, "PhaseWords": phaseWords(s.Phase), "Result": s.Result, "Seats": seats}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := feedTmpl.Execute(w, data); err != nil {
		d.log.Warn("desk: feed page", "err", fmt.Sprint(err))
	}
}
