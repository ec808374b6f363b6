package hwtest_test

import (
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"wolftable/hw"
	"wolftable/hw/hwtest"
)

var t0 = time.Date(2026, 1, 2, 20, 0, 0, 0, time.UTC)

func TestHistory(t *testing.T) {
	tb := hwtest.New(6)
	if got := tb.Lights(); !reflect.DeepEqual(got, make([]hw.SeatLight, 6)) {
		t.Errorf("lights before SetLights: %v", got)
	}
	frame := make([]hw.SeatLight, 6)
	for i := range frame {
		frame[i].Color = hw.Green
	}
	if err := tb.SetLights(frame); err != nil {
		t.Fatal(err)
	}
	frame[2] = hw.SeatLight{Color: hw.Red, Pulse: true}
	if err := tb.SetLights(frame); err != nil {
		t.Fatal(err)
	}
	frame[0].Color = hw.Blue // the table keeps copies, not the caller's slice
	h := tb.History()
	if len(h) != 2 || h[0][2].Color != hw.Green || h[1][2] != (hw.SeatLight{Color: hw.Red, Pulse: true}) || h[1][0].Color != hw.Green {
		t.Errorf("history %v", h)
	}
	if err := tb.SetLights(frame[:5]); err == nil {
		t.Error("SetLights accepted 5 lights for 6 seats")
	}
	tb.FailSetLights = errors.New("bus fault")
	if err := tb.SetLights(frame); err == nil || err.Error() != "bus fault" {
		t.Errorf("FailSetLights: %v", err)
	}
	if tb.Calls() != 4 || len(tb.History()) != 2 {
		t.Errorf("calls %d, history %d; want 4, 2", tb.Calls(), len(tb.History()))
	}
}

func TestInject(t *testing.T) {
	tb := hwtest.New(12)
	tb.Now = func() time.Time { return t0 }
	if err := tb.Press(3, hw.Key1, hw.KeyOK); err != nil {
		t.Fatal(err)
	}
	if err := tb.Pedal(hw.PedalDouble); err != nil {
		t.Fatal(err)
	}
	if err := tb.SetLink(false, "reconnecting"); err != nil {
		t.Fatal(err)
	}
	if err := tb.KeyDown(13, hw.KeyOK); err == nil {
		t.Error("seat 13 of 12 injected")
	}
	want := []hw.Event{
		{Kind: hw.EventKey, At: t0, Key: hw.KeyEvent{Seat: 3, Key: hw.Key1, Edge: hw.Down, At: t0}},
		{Kind: hw.EventKey, At: t0, Key: hw.KeyEvent{Seat: 3, Key: hw.Key1, Edge: hw.Up, At: t0}},
		{Kind: hw.EventKey, At: t0, Key: hw.KeyEvent{Seat: 3, Key: hw.KeyOK, Edge: hw.Down, At: t0}},
		{Kind: hw.EventKey, At: t0, Key: hw.KeyEvent{Seat: 3, Key: hw.KeyOK, Edge: hw.Up, At: t0}},
		{Kind: hw.EventPedal, At: t0, Pedal: hw.PedalDouble},
		{Kind: hw.EventLink, At: t0, Link: hw.Link{Up: false, Detail: "reconnecting"}},
	}
	for i, w := range want {
		if got := <-tb.Events(); got != w {
			t.Errorf("event %d: %+v\nwant %+v", i, got, w)
		}
	}
}

func TestClose(t *testing.T) {
	tb := hwtest.New(6)
	on := []hw.SeatLight{{Color: hw.Green}, {Color: hw.Red}, {}, {}, {}, {Color: hw.Blue}}
	if err := tb.SetLights(on); err != nil {
		t.Fatal(err)
	}
	if err := tb.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tb.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if !tb.Closed() {
		t.Error("not Closed")
	}
	if got := tb.Lights(); !reflect.DeepEqual(got, make([]hw.SeatLight, 6)) {
		t.Errorf("lights after Close: %v", got)
	}
	if err := tb.SetLights(on); !errors.Is(err, hwtest.ErrClosed) {
		t.Errorf("SetLights after Close: %v", err)
	}
	if err := tb.Pedal(hw.PedalShort); !errors.Is(err, hwtest.ErrClosed) {
		t.Errorf("Pedal after Close: %v", err)
	}
	if _, ok := <-tb.Events(); ok {
		t.Error("events channel open after Close")
	}
}

// An injection blocked on a full channel returns when the table closes.
func TestCloseUnblocksInjection(t *testing.T) {
	tb := hwtest.New(6)
	for range hwtest.Buffer {
		if err := tb.Pedal(hw.PedalShort); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() { errs <- tb.Pedal(hw.PedalLong) })
	}
	if err := tb.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if !errors.Is(err, hwtest.ErrClosed) {
			t.Errorf("blocked injection: %v", err)
		}
	}
	n := 0
	for range tb.Events() {
		n++
	}
	if n != hwtest.Buffer {
		t.Errorf("%d buffered events drained, want %d", n, hwtest.Buffer)
	}
}
