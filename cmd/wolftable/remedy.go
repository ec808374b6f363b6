package main

import (
	"fmt"
	"io"

	"wolftable/hw"
	"wolftable/hw/remedy"
)

// explainLinkDown passes t's events on and, when the link is down for a
// reason the technician can fix (the serial port's permission, a bridge
// of other USB IDs, a missing port), prints what to do, in Chinese, with
// the raw reason: once per reason while it lasts. The daemon still sees
// every event.
func explainLinkDown(t hw.Table, out io.Writer) hw.Table {
	w := &linkWatch{Table: t, events: make(chan hw.Event, 16)}
	go func() {
		defer close(w.events)
		last := ""
		for ev := range t.Events() {
			if ev.Kind == hw.EventLink {
				switch d := ev.Link.Detail; {
				case ev.Link.Up:
					last = ""
				case d != last:
					last = d
					if r, ok := remedy.ForText(d); ok {
						fmt.Fprintf(out, "座位連線中斷：%s\n", r.With(d))
					}
				}
			}
			w.events <- ev
		}
	}()
	return w
}

type linkWatch struct {
	hw.Table
	events chan hw.Event
}

func (w *linkWatch) Events() <-chan hw.Event { return w.events }
