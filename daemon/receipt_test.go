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

// TestKeyJournaledOnce: a key event whose identity (hw.KeyEvent.ID) the
// journals already hold — one given in Config.KeysJournaled, from before
// a restart, or one this daemon journaled — is signed (the table acks it)
// and dropped, never journaled twice; a new one is journaled with its
// identity in the source (KeySource), which SourceKey reads back. An
// identity that is no valid one is not journaled, and not checked. Before,
// the daemon applied every key event it was given: a bridge's event
// journaled and then sent again to the next host process was journaled
// twice (a HAND press toggling 退水 twice).
func TestKeyJournaledOnce(t *testing.T) {
	g := newGame(t, "seer-witch-hunter-idiot", 1)
	tab := newTable(12)
	j := &memJournal{}
	old := "3.WAVE.down.1.1000"
	d, err := New(Config{Game: g, Table: tab, Clock: daemontest.NewFakeClock(time.Date(2026, 11, 29, 20, 15, 0, 0, time.UTC)), Journal: j,
		KeysJournaled: []string{old}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go d.Run(ctx)
	journaled := make(chan []Recorded, 1)
	send := func(id string) []Recorded {
		tab.events <- hw.Event{Kind: hw.EventKey, Key: hw.KeyEvent{Seat: 3, Key: hw.KeyWave, Edge: hw.Down, ID: id},
			Receipt: hw.NewReceipt(func() { journaled <- append([]Recorded(nil), j.recs...) })}
		select {
		case recs := <-journaled:
			return recs
		case <-time.After(10 * time.Second):
			t.Fatal("the receipt was not signed")
		}
		return nil
	}
	seat := func(recs []Recorded) (out []string) {
		for _, r := range recs {
			if r.In.Kind == engine.InSeat {
				out = append(out, r.Source)
			}
		}
		return out
	}
	if got := seat(send(old)); len(got) != 0 {
		t.Fatalf("a key event the journal held before the restart was journaled again: %q", got)
	}
	fresh := "3.WAVE.down.2.2000"
	got := seat(send(fresh))
	if len(got) != 1 || got[0] != "seat-3 key="+fresh || SourceKey(got[0]) != fresh {
		t.Fatalf("a new key event journaled as %q, want one input from \"seat-3 key=%s\"", got, fresh)
	}
	if got := seat(send(fresh)); len(got) != 1 {
		t.Fatalf("the same key event again: %d seat inputs, want 1", len(got))
	}
	if got := seat(send("bad id")); len(got) != 2 || got[1] != "seat-3" {
		t.Fatalf("a key event with an invalid identity: %q, want it journaled from plain seat-3", got)
	}
	for _, s := range []string{"seat-3", "pedal", "console:judge@192.0.2.1", "seat-3 key=", "bot key=1.OK.down.1.1"} {
		if id := SourceKey(s); id != "" {
			t.Errorf("SourceKey(%q) = %q, want none", s, id)
		}
	}
}
