package serial_test

import (
	"testing"
	"time"

	"wolftable/drivers/serial"
	"wolftable/firmware-bridge/emulator"
	"wolftable/firmware-bridge/protocol"
	"wolftable/hw"
)

// TestHoldAcks: with Config.HoldAcks a seat key's event is acked to the
// bridge only when its receipt is signed. A host that took the event and
// went away before signing (a daemon killed before the journal had the
// input) has not acked it, and the next host gets it again; once the
// receipt is signed the bridge is acked, once. Without HoldAcks the first
// host's ack on arrival made the bridge forget the press, and the second
// host never saw it: the press was lost. The event has the same identity
// (hw.KeyEvent.ID) at both hosts, by which the daemon knows it journaled
// it already.
func TestHoldAcks(t *testing.T) {
	acked := make(chan protocol.KeyEvent, 8)
	e := startEmulator(t, emulator.Config{OnKeyAcked: func(ev protocol.KeyEvent, _ time.Time) { acked <- ev }})
	first := open(t, serial.Config{Port: e.Path(), HoldAcks: true})
	next(t, first, 5*time.Second, "link up", func(ev hw.Event) bool { return ev.Kind == hw.EventLink && ev.Link.Up })
	must(t, e.Press(4, protocol.KeyWave))
	ev := next(t, first, 5*time.Second, "seat 4 WAVE down", isKey(4, hw.KeyWave, hw.Down))
	if ev.Receipt == nil {
		t.Fatal("a held event without a receipt")
	}
	time.Sleep(300 * time.Millisecond) // three retransmission periods
	if n := e.Stats().KeyEventsAcked; n != 0 || len(acked) != 0 {
		t.Fatalf("the bridge was acked %d times before the receipt was signed", n)
	}
	if again := keyEvents(first, 100*time.Millisecond); len(again) != 0 {
		t.Fatalf("the retransmissions were delivered again: %+v", again)
	}
	first.Close() // the host dies without signing

	second := open(t, serial.Config{Port: e.Path(), HoldAcks: true})
	id := ev.Key.ID
	ev = next(t, second, 5*time.Second, "seat 4 WAVE down, again", isKey(4, hw.KeyWave, hw.Down))
	if id == "" || ev.Key.ID != id {
		t.Fatalf("the event sent again to the next host has the identity %q, the first %q: want one, the same", ev.Key.ID, id)
	}
	ev.Receipt.Done()
	ev.Receipt.Done() // twice: one ack
	select {
	case a := <-acked:
		if a.Seat != 4 || a.Key != protocol.KeyWave || a.Edge != protocol.EdgeDown {
			t.Fatalf("acked %+v", a)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the signed receipt did not ack the bridge")
	}
	must(t, e.Release(4, protocol.KeyWave)) // the next edge comes once the first is acked
	up := next(t, second, 5*time.Second, "seat 4 WAVE up", isKey(4, hw.KeyWave, hw.Up))
	if up.Key.ID == "" || up.Key.ID == id {
		t.Fatalf("the release has the identity %q, the press %q: want another", up.Key.ID, id)
	}
	up.Receipt.Done()
	select {
	case <-acked:
	case <-time.After(5 * time.Second):
		t.Fatal("the release was not acked")
	}
	if n := e.Stats().KeyEventsAcked; n != 2 {
		t.Fatalf("%d acks, want 2", n)
	}
}
