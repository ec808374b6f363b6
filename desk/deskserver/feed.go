package deskserver

import (
	"fmt"
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

// feedKeep bounds each table's feed history (on top of the pruning to
// the delay, and feedCoalesce: a status less than that after the last
// one replaces it, so a flood keeps at most delay/feedCoalesce entries).
const (
	feedKeep     = 1024
	feedCoalesce = 250 * time.Millisecond
)

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

// record keeps a received status for the feed (d.mu held): what is
// older than the entry the feed shows now is dropped.
func (l *tableState) record(s desk.Status, at time.Time) {
	if n := len(l.feed); n > 0 && at.Sub(l.feed[n-1].at) < feedCoalesce {
		l.feed[n-1] = feedEntry{at, s}
	} else {
		l.feed = append(l.feed, feedEntry{at, s})
	}
	cut := at.Add(-l.delay)
	keep := 0
	for i := len(l.feed) - 1; i >= 0; i-- {
		if !l.feed[i].at.After(cut) {
			keep = i
			break
		}
	}
	if len(l.feed)-keep > feedKeep {
		keep = len(l.feed) - feedKeep
	}
	if keep > 0 {
		l.feed = append(l.feed[:0:0], l.feed[keep:]...)
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
		s = public(s) // the table's plumbing is not the audience's
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

type feedSeat struct {
	N            int
	Lit, Sheriff bool
}

func (d *Desk) feedPage(w http.ResponseWriter, r *http.Request) {
	f, ok := d.FeedOf(r.PathValue("table"), time.Now())
	if !ok {
		d.fail(w, r, http.StatusNotFound, "找不到桌子：", "總台沒有登記這張桌子", "/")
		return
	}
	data := map[string]any{"Table": f.Table, "Delay": f.DelaySeconds, "Status": nil}
	if s := f.Status; s != nil {
		lit := map[int]bool{}
		for _, a := range s.Alive {
			lit[a] = true
		}
		var seats []feedSeat
		for n := 1; n <= min(s.Seats, desk.MaxSeats); n++ { // validated on arrival; bounded here too
			seats = append(seats, feedSeat{N: n, Lit: lit[n], Sheriff: s.Sheriff == n})
		}
		votes, exiles := voteWords(s, func(n int) string { return "" }) // the feed page names no one (seats only)
		data["Status"] = map[string]any{"BoardName": s.BoardName, "PhaseWords": phaseWords(s.Phase), "Result": s.Result, "Seats": seats,
			"Votes": votes, "Exiles": exiles}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := feedTmpl.Execute(w, data); err != nil {
		d.log.Warn("desk: feed page", "err", fmt.Sprint(err))
	}
}
