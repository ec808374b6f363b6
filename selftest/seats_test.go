package selftest

import (
	"testing"
	"time"
)

// TestEmulatedNineSeats: `selftest --emulate --seats 9` passes on a
// healthy 9-seat emulated table (issue 15 item 2): nine seats' lights and
// keys, every seat's 17 keys, and no tenth seat.
func TestEmulatedNineSeats(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the emulated run takes 15 s")
	}
	code, out, rep, took := cli(t, TableOptions{Emulate: true, Soak: time.Second, Seats: 9})
	t.Logf("9-seat emulated run: exit %d in %v", code, took.Round(100*time.Millisecond))
	for _, w := range rep.Warnings {
		t.Logf("warning (a busy machine): %v", w)
	}
	if code != 0 || !rep.Passed || len(rep.Problems) != 0 {
		t.Fatalf("exit %d, passed %v, problems %+v\n%s", code, rep.Passed, rep.Problems, out)
	}
	if rep.Seats != 9 || len(rep.SeatResults) != 9 || !rep.Emulated {
		t.Fatalf("report: %d seats, %d seat results, emulated %v", rep.Seats, len(rep.SeatResults), rep.Emulated)
	}
	for i, s := range rep.SeatResults {
		if s.Seat != i+1 || len(s.Keys.Presses) != 17 {
			t.Errorf("seat result %d: seat %d, presses %v", i, s.Seat, s.Keys.Presses)
		}
	}
}
