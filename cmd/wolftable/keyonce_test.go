package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/daemon"
	"wolftable/drivers/serial"
	"wolftable/engine"
	"wolftable/firmware-bridge/emulator"
	"wolftable/firmware-bridge/protocol"
	"wolftable/hw"
	"wolftable/journal"
)

// noAck is the table of a host killed after the journal had each seat
// key's input and before its ack went out: the receipts of seat keys are
// never signed, so the bridge never hears that the event was taken.
type noAck struct {
	hw.Table
	events chan hw.Event
}

func newNoAck(t hw.Table) *noAck {
	n := &noAck{Table: t, events: make(chan hw.Event)}
	go func() {
		defer close(n.events)
		for ev := range t.Events() {
			if ev.Kind == hw.EventKey && ev.Key.Seat > 0 {
				ev.Receipt = nil
			}
			n.events <- ev
		}
	}()
	return n
}

func (n *noAck) Events() <-chan hw.Event { return n.events }

// keyHost runs one serve process's game on the bridge at port: the
// journal in dir resumed (or a new game), the daemon as serve assembles it
// (gameRun), until stop; kill: a host that never acks seat keys (noAck).
// Each seat HAND journaled is told on journaled.
func keyHost(t *testing.T, port, dir string, kill bool, stop <-chan struct{}, journaled chan<- struct{}) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	b, err := boards.Get("seer-witch-hunter-idiot")
	if err != nil {
		t.Error(err)
		return
	}
	tab, err := serial.Open(context.Background(), serial.Config{Port: port, Seats: 12, HoldAcks: true, Logger: quiet})
	if err != nil {
		t.Error(err)
		return
	}
	defer tab.Close()
	var table hw.Table = tab
	if kill {
		table = newNoAck(tab)
	}
	speed, bots := 1.0, false
	deal, bottom := engine.DealCards(b, 7)
	tg, err := newOrResumed(dir, true, b, 7, deal, bottom, 12, speed, io.Discard, nil)
	if err != nil {
		t.Error(err)
		return
	}
	defer tg.close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-stop; cancel() }()
	gr := &gameRun{tg: tg, table: table, flags: &gameFlags{speed: &speed, bots: &bots}, log: quiet, host: newGameHost(),
		tr: &transcript{w: io.Discard, speed: speed},
		listeners: []func(daemon.Event){func(ev daemon.Event) {
			if in := ev.Input; in != nil && in.Kind == engine.InSeat && in.Action == engine.ActHand && journaled != nil {
				journaled <- struct{}{}
			}
		}}}
	gr.run(ctx)
}

// journaledHands are the sources of the seat HAND inputs in the one
// unfinished journal of dir.
func journaledHands(t *testing.T, dir string) []string {
	list, err := journal.Unfinished(dir)
	if err != nil || len(list) != 1 {
		t.Fatalf("unfinished journals: %v, %v; want the one game", list, err)
	}
	j, err := journal.Read(list[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	var hands []string
	for _, r := range j.Records {
		if r.Kind == journal.KindInput && r.Input.Kind == engine.InSeat && r.Input.Action == engine.ActHand {
			hands = append(hands, r.Source)
		}
	}
	return hands
}

// TestBridgeKeyOnceAfterKill: serve's table on the seat-panel bridge
// (HoldAcks) journals seat 3's HAND and dies before the ack reaches the
// bridge; the bridge sends the press again to the next host, which resumes
// the journal: the press is acked and in the journal once. Before, the
// next host journaled it a second time (its memory of the acks it owed
// died with the first), and a HAND that toggles 退水 flipped the ruling
// back.
func TestBridgeKeyOnceAfterKill(t *testing.T) {
	acked := make(chan protocol.KeyEvent, 16)
	e, err := emulator.Start(context.Background(), emulator.Config{Link: filepath.Join(t.TempDir(), "bridge"),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), OnKeyAcked: func(ev protocol.KeyEvent, _ time.Time) { acked <- ev }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	dir := filepath.Join(t.TempDir(), "journals")

	stop1, done1, journaled := make(chan struct{}), make(chan struct{}), make(chan struct{}, 4)
	go func() { defer close(done1); keyHost(t, e.Path(), dir, true, stop1, journaled) }()
	time.Sleep(200 * time.Millisecond) // the link up and the game started
	if err := e.Tap(3, protocol.KeyHand); err != nil {
		t.Fatal(err)
	}
	select {
	case <-journaled:
	case <-time.After(10 * time.Second):
		t.Fatal("the first host did not journal seat 3's HAND")
	}
	time.Sleep(300 * time.Millisecond) // three retransmissions: none is taken again
	close(stop1)                       // killed: the ack never went out
	<-done1
	select {
	case ev := <-acked:
		t.Fatalf("the bridge was acked %+v by the host that never signed", ev)
	default:
	}

	stop2, done2 := make(chan struct{}), make(chan struct{})
	go func() { defer close(done2); keyHost(t, e.Path(), dir, false, stop2, nil) }()
	for _, want := range []protocol.Edge{protocol.EdgeDown, protocol.EdgeUp} { // the press sent again, then its release
		select {
		case ev := <-acked:
			if ev.Seat != 3 || ev.Key != protocol.KeyHand || ev.Edge != want {
				t.Fatalf("the bridge was acked %+v, want seat 3's HAND %v", ev, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the next host did not ack seat 3's HAND %v", want)
		}
	}
	close(stop2)
	<-done2

	hands := journaledHands(t, dir)
	if len(hands) != 1 {
		t.Fatalf("seat 3's one HAND press is journaled %d times, from %q; want once", len(hands), hands)
	}
	if daemon.SourceKey(hands[0]) == "" {
		t.Errorf("the HAND was journaled from %q, without its key event's identity", hands[0])
	}
}
