package daemon

import (
	"context"
	"testing"
	"time"

	"wolftable/daemon/daemontest"
	"wolftable/engine"
	"wolftable/hw"
)

// TestReceiptAfterJournal: a table event's receipt is signed only once
// the journal has the input it made (a kill before then leaves the
// bridge holding the key, to send it again), and also for an event that
// makes no input (a release), so that the table is never left waiting.
// Before, the daemon did not sign receipts at all.
func TestReceiptAfterJournal(t *testing.T) {
	g := newGame(t, "seer-witch-hunter-idiot", 1)
	tab := newTable(12)
	j := &memJournal{}
	d, err := New(Config{Game: g, Table: tab, Clock: daemontest.NewFakeClock(time.Date(2026, 11, 29, 20, 15, 0, 0, time.UTC)), Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go d.Run(ctx)
	journaled := make(chan []Recorded, 1)
	send := func(k hw.Key, e hw.Edge) []Recorded {
		tab.events <- hw.Event{Kind: hw.EventKey, Key: hw.KeyEvent{Seat: 3, Key: k, Edge: e},
			Receipt: hw.NewReceipt(func() { journaled <- append([]Recorded(nil), j.recs...) })} // on the daemon's goroutine
		select {
		case recs := <-journaled:
			return recs
		case <-time.After(10 * time.Second):
			t.Fatal("the receipt was not signed")
		}
		return nil
	}
	recs := send(hw.KeyWave, hw.Down)
	if n := len(recs); n == 0 || recs[n-1].Source != "seat-3" || recs[n-1].In != engine.SeatGesture(3, engine.ActWave) {
		t.Fatalf("when the receipt was signed the journal held %+v, not the press", recs)
	}
	if after := send(hw.KeyWave, hw.Up); len(after) != len(recs) {
		t.Fatalf("a release journaled %d records", len(after)-len(recs))
	}
}
