package deskserver

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"wolftable/desk"
)

// What the desk knows of each table now: its last status, events and
// the statuses of the last feed delay, for the operator (live: Tables)
// and for the audience (delayed: PublicTables, FeedOf; issue 28 D4).

// tableState is one registered table's live state (d.mu held).
type tableState struct {
	name       string
	delay      time.Duration // the feed's delay: what is older than the entry it shows is dropped
	status     *desk.Status
	lastSeen   time.Time // the last message from it
	events     []liveEvent
	feed       []feedEntry // statuses as received, oldest first (feed.go)
	dropped    int         // live messages refused (too large, invalid)
	droppedLog time.Time
}

type liveEvent struct {
	desk.Event
	received time.Time
}

// Live is what the desk knows of a table now: the operator's view.
type Live struct {
	Name     string       `json:"name"`
	Status   *desk.Status `json:"status,omitempty"`
	LastSeen time.Time    `json:"last_seen"` // the last message from it
	Events   []desk.Event `json:"events"`    // the last starts, ends and penalties
	Dropped  int          `json:"dropped"`   // live messages refused since the start (too large, invalid)
}

// PublicTable is a table as the audience sees it: what the feed shows,
// FeedDelay late (the status of then, the events received before then),
// without the table's plumbing.
type PublicTable struct {
	Name         string       `json:"name"`
	DelaySeconds int          `json:"delay_seconds"`
	Status       *desk.Status `json:"status"` // null: nothing as old as the delay yet
	Events       []desk.Event `json:"events"`
}

func (d *Desk) loadTables() error {
	ts, err := desk.Tables(d.opts.Data)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	reg := map[string]bool{}
	for _, t := range ts {
		reg[t.Name] = true
		if d.tables[t.Name] == nil {
			d.tables[t.Name] = &tableState{name: t.Name, delay: d.feedDelay()}
		}
	}
	for name := range d.tables { // removed (desk table remove)
		if !reg[name] {
			delete(d.tables, name)
		}
	}
	return nil
}

// onLive takes a table's status or event: at most desk.MaxLiveBytes,
// validated (desk.Status.Check, desk.Event.Check), or dropped and counted
// (Live.Dropped; logged once a minute per table). Only registered tables
// are kept.
func (d *Desk) onLive(m *nats.Msg) {
	table, kind := desk.SubjectTable(m.Subject)
	if table == "" {
		return
	}
	now := time.Now()
	var s desk.Status
	var e desk.Event
	err := errTooLarge
	if len(m.Data) <= desk.MaxLiveBytes {
		if kind == desk.KindStatus {
			if err = json.Unmarshal(m.Data, &s); err == nil {
				err = s.Check()
			}
		} else if err = json.Unmarshal(m.Data, &e); err == nil {
			err = e.Check()
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	l := d.tables[table]
	if l == nil {
		return // not registered
	}
	l.lastSeen = now
	if err != nil {
		l.dropped++
		if now.Sub(l.droppedLog) > time.Minute {
			l.droppedLog = now
			d.log.Warn("desk: a table's live message dropped", "table", table, "kind", kind, "bytes", len(m.Data), "err", err, "dropped", l.dropped)
		}
		return
	}
	if kind == desk.KindStatus {
		s.Table = table
		l.status = &s
		l.record(s, now)
		return
	}
	e.Table = table
	if kind == desk.KindStart { // the time that places the game in a round (desk/rounds.go)
		if err := d.Store.NoteStart(table, e.Game, now); err != nil {
			d.log.Error("desk: a table's start not kept", "table", table, "err", err)
		}
	}
	l.events = append(l.events, liveEvent{Event: e, received: now})
	if len(l.events) > 20 {
		l.events = append(l.events[:0:0], l.events[len(l.events)-20:]...)
	}
}

var errTooLarge = fmt.Errorf("larger than %d bytes", desk.MaxLiveBytes)

// Tables are the live tables, by name: the operator's view.
func (d *Desk) Tables() []Live {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Live, 0, len(d.tables))
	for _, l := range d.tables {
		c := Live{Name: l.name, LastSeen: l.lastSeen, Events: []desk.Event{}, Dropped: l.dropped}
		for _, e := range l.events {
			c.Events = append(c.Events, e.Event)
		}
		if l.status != nil {
			s := *l.status
			c.Status = &s
		}
		out = append(out, c)
	}
	sortByName(out, func(l Live) string { return l.Name })
	return out
}

// PublicTables are the tables as the audience sees them at now: nothing
// newer than the feed delay.
func (d *Desk) PublicTables(now time.Time) []PublicTable {
	d.mu.Lock()
	defer d.mu.Unlock()
	cut := now.Add(-d.feedDelay())
	out := make([]PublicTable, 0, len(d.tables))
	for _, l := range d.tables {
		p := PublicTable{Name: l.name, DelaySeconds: int(d.feedDelay() / time.Second), Events: []desk.Event{}}
		if s, ok := delayed(l.feed, now, d.feedDelay()); ok {
			s = public(s)
			p.Status = &s
		}
		for _, e := range l.events {
			if !e.received.After(cut) {
				p.Events = append(p.Events, e.Event)
			}
		}
		out = append(out, p)
	}
	sortByName(out, func(p PublicTable) string { return p.Name })
	return out
}

// public is a status without the table's plumbing (outbox, link detail).
func public(s desk.Status) desk.Status {
	s.Outbox, s.Link = 0, ""
	return s
}
