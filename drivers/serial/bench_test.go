package serial_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"wolftable/drivers/serial"
	"wolftable/firmware-bridge/emulator"
	"wolftable/firmware-bridge/protocol"
	"wolftable/hw"
)

// reportLatency reports the 50th and 99th percentiles of d, in ms, as
// metrics named prefix+"p50-ms" and prefix+"p99-ms".
func reportLatency(b *testing.B, prefix string, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	pct := func(p float64) float64 {
		i := min(len(d)-1, int(p*float64(len(d))+0.5)-1)
		return float64(d[max(i, 0)]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(0.50), prefix+"p50-ms")
	b.ReportMetric(pct(0.99), prefix+"p99-ms")
}

// BenchmarkKeyToEvent: a finger on a key of the emulated bridge until the
// driver delivers the key's down edge, through the pseudo-terminal at
// 115200 baud. "p50-ms"/"p99-ms" include the firmware's 5 ms debounce
// (core.DebounceMicros) and its 1 kHz scan; "wire-" starts when the
// firmware writes the KeyEvent frame: the line and the driver.
func BenchmarkKeyToEvent(b *testing.B) {
	sent := make(chan time.Time, 64)
	e, tb := setup(b, emulator.Config{
		OnKeySent: func(ev protocol.KeyEvent, retransmit bool, at time.Time) {
			if !retransmit && ev.Edge == protocol.EdgeDown {
				select {
				case sent <- at:
				default:
				}
			}
		},
	}, serial.Config{Seats: 12, Baud: 115200})
	var total, wire []time.Duration
	for i := 0; b.Loop(); i++ {
		seat, key := 1+i%12, protocol.Key(i%protocol.NumSeatKeys)
		hwKey, _ := hw.ParseKey(key.String())
		start := time.Now()
		must(b, e.Press(seat, key))
		next(b, tb, time.Second, "down", isKey(seat, hwKey, hw.Down))
		got := time.Now()
		total = append(total, got.Sub(start))
		select {
		case at := <-sent:
			wire = append(wire, got.Sub(at))
		case <-time.After(time.Second):
			b.Fatal("OnKeySent not called")
		}
		must(b, e.Release(seat, key))
		next(b, tb, time.Second, "up", isKey(seat, hwKey, hw.Up))
	}
	reportLatency(b, "", total)
	reportLatency(b, "wire-", wire)
}

// BenchmarkLightsToLEDs: SetLights until the emulated bridge's LEDs show
// the new state ("p50-ms"/"p99-ms").
func BenchmarkLightsToLEDs(b *testing.B) {
	e, tb := setup(b, emulator.Config{}, serial.Config{Seats: 12})
	lights := make([]hw.SeatLight, 12)
	want := make([]emulator.RGB, 12)
	ctx := context.Background()
	var d []time.Duration
	for i := 0; b.Loop(); i++ {
		s := i % 12
		if lights[s].Color == hw.Green {
			lights[s].Color, want[s] = hw.Red, emulator.RGB{R: 255}
		} else {
			lights[s].Color, want[s] = hw.Green, emulator.RGB{G: 255}
		}
		start := time.Now()
		must(b, tb.SetLights(lights))
		wait, cancel := context.WithTimeout(ctx, time.Second)
		must(b, e.WaitLights(wait, func(got []emulator.RGB) bool { return equalRGB(got, want) }))
		cancel()
		d = append(d, time.Since(start))
	}
	reportLatency(b, "", d)
}

// BenchmarkLightsAcked: SetLightsAcked, until the bridge's ack reaches the
// driver.
func BenchmarkLightsAcked(b *testing.B) {
	_, tb := setup(b, emulator.Config{}, serial.Config{Seats: 12})
	lights := make([]hw.SeatLight, 12)
	ctx := context.Background()
	var d []time.Duration
	for i := 0; b.Loop(); i++ {
		lights[i%12].Color = hw.Color(1 + i%3)
		start := time.Now()
		wait, cancel := context.WithTimeout(ctx, time.Second)
		must(b, tb.SetLightsAcked(wait, lights))
		cancel()
		d = append(d, time.Since(start))
	}
	reportLatency(b, "", d)
}
