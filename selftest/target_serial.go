package selftest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"wolftable/drivers/serial"
	"wolftable/firmware-bridge/protocol"
	"wolftable/hw"
)

// Link limits.
const (
	// MaxRTT is the slowest heartbeat round trip that passes, the host's
	// stalls during it taken out (one ping in ten may be slower still). USB
	// answers in a millisecond or two; the driver gives up on a bridge after
	// a second.
	MaxRTT = 100 * time.Millisecond
	// MinSoakRate is the fewest light frames a second the soak must see
	// acknowledged: far more than a game ever sends.
	MinSoakRate = 100
	// DefaultPings is how many heartbeats are timed on the idle link.
	DefaultPings = 20
)

// SerialTarget is a table on the seat-panel bridge (drivers/serial).
type SerialTarget struct {
	Config serial.Config // serial.ConfigFromHW plus a Software and Logger
	Soak   time.Duration // 0: no soak
	Pings  int           // 0: DefaultPings
	Lag    Lag           // the host's stalls; nil: none measured

	info  serial.Info
	table *serial.Table
}

var _ Target = (*SerialTarget)(nil)

// Mode implements Target.
func (s *SerialTarget) Mode() string { return string(hw.ModeSerial) }

// CheckLink implements Target: the bridge is found and answers Hello with
// a firmware and protocol version that fit; the raw contacts are read; the
// heartbeat round trip is timed idle and under load; the link is soaked
// with full-rate light frames; and the bridge's and the host's error
// counters must not move.
func (s *SerialTarget) CheckLink(ctx context.Context) (Features, []Check, bool) {
	cfg := s.Config
	f := Features{Seats: cfg.Seats, Table: "seat-panel bridge"}
	var checks []Check
	where := cfg.Port
	if where == "" {
		vid, pid := cfg.VID, cfg.PID
		if vid == "" {
			vid, pid = serial.DefaultVID, serial.DefaultPID
		}
		where = "USB ID " + strings.ToUpper(vid+":"+pid)
	}
	if cfg.Port != "" {
		if _, err := os.Stat(cfg.Port); err != nil {
			checks = append(checks, Check{Name: "bridge found", Status: Fail, Detail: fmt.Sprintf("no device at %s: is the bridge plugged in? (%v)", cfg.Port, err)})
			return f, checks, false
		}
	}
	pctx, cancel := context.WithTimeout(ctx, serial.DefaultProbeTimeout)
	info, err := serial.Probe(pctx, cfg)
	cancel()
	var he *serial.HandshakeError
	switch {
	case err == nil:
	case errors.Is(err, serial.ErrNoBridge):
		checks = append(checks, Check{Name: "bridge found", Status: Fail, Detail: err.Error() + ": is it plugged in?"})
		return f, checks, false
	case errors.As(err, &he):
		checks = append(checks, Check{Name: "bridge found", Status: Pass, Detail: he.Port},
			Check{Name: "hello", Status: Fail, Detail: he.Reason})
		return f, checks, false
	default:
		status := Fail
		if ctx.Err() != nil {
			status = NotRun
		}
		checks = append(checks, Check{Name: "bridge found", Status: Pass, Detail: where},
			Check{Name: "hello", Status: status, Detail: err.Error()})
		return f, checks, false
	}
	s.info = info
	f.Table = info.String()
	f.Seats = info.Seats
	found := info.Port
	if cfg.Port == "" {
		found += " (" + where + ")"
	}
	caps := strings.Join(info.Capabilities(), " ")
	if caps == "" {
		caps = "none"
	}
	checks = append(checks, Check{Name: "bridge found", Status: Pass, Detail: found},
		Check{Name: "hello", Status: Pass, Detail: fmt.Sprintf("firmware %v, protocol %d (host %d), %d seats, %d keys per seat, options: %s",
			info.Firmware, info.Protocol, protocol.LatestVersion, info.Seats, info.KeysPerSeat, caps)})
	f.Private = info.Caps&protocol.CapPrivateLED != 0
	f.Pedal = info.Caps&protocol.CapPedal != 0
	if !f.Pedal {
		f.NoPedal = "the bridge reports no pedal (its Hello lacks the pedal option): wire the pedal to the bridge"
	}
	keys := hw.Keys()[:min(max(info.KeysPerSeat, 0), len(hw.Keys()))]
	f.Keys = make([][]hw.Key, info.Seats)
	for i := range f.Keys {
		f.Keys[i] = keys
	}

	raw, err := openRaw(info.Port, cfg.Baud, s.Lag)
	if err != nil {
		checks = append(checks, Check{Name: "heartbeat", Status: Fail, Detail: err.Error()})
		return f, checks, false
	}
	pings := s.Pings
	if pings <= 0 {
		pings = DefaultPings
	}
	res, err := raw.session(info.Seats, pings, s.Soak)
	raw.close()
	if err != nil {
		checks = append(checks, Check{Name: "heartbeat", Status: Fail, Detail: err.Error()})
		return f, checks, false
	}
	checks = append(checks, rttCheck("heartbeat", res.rtts, res.lost, "idle"))
	if s.Soak > 0 {
		checks = append(checks, soakCheck(s.Soak, &res))
		checks = append(checks, rttCheck("heartbeat, load", res.loadRTTs, res.loadLost, "during the soak"))
	}
	checks = append(checks, countersCheck(&res))
	if res.keys == nil {
		checks = append(checks, Check{Name: "raw contacts", Status: Fail, Detail: "the bridge did not answer SelfTestDumpKeys"})
	} else {
		var closed []string
		for seat := 1; seat <= int(res.keys.Seats); seat++ {
			bits := res.keys.Bits[seat-1]
			for i, k := range keys {
				if bits&(1<<i) != 0 {
					f.ClosedAtStart = append(f.ClosedAtStart, SeatKey{seat, k})
					closed = append(closed, fmt.Sprintf("seat %d %v", seat, k))
				}
			}
		}
		d := "no key contact closed at the start"
		if len(closed) > 0 {
			d = "closed at the start (stuck, see keys): " + strings.Join(closed, ", ")
		}
		checks = append(checks, Check{Name: "raw contacts", Status: Pass, Detail: d})
	}
	return f, checks, true
}

func rttCheck(name string, rtts []timed, lost int, when string) Check {
	if len(rtts) == 0 {
		return Check{Name: name, Status: Fail, Detail: fmt.Sprintf("no ping answered (%d sent, %s)", lost, when)}
	}
	lo, hi := rtts[0].took, rtts[0].took
	var sum, busyStalled time.Duration
	slow, busy := 0, 0
	for _, r := range rtts {
		lo, hi, sum = min(lo, r.took), max(hi, r.took), sum+r.took
		switch {
		case r.took <= MaxRTT:
		case r.took-r.stalled <= MaxRTT:
			busy++ // the host's stall, not the link
			busyStalled += r.stalled
		default:
			slow++
		}
	}
	avg := sum / time.Duration(len(rtts))
	c := Check{Name: name, Status: Pass, Detail: fmt.Sprintf("round trip min %v, avg %v, max %v over %d pings %s",
		ms(lo), ms(avg), ms(hi), len(rtts), when)}
	switch {
	case lost > 0:
		c.Status = Fail
		c.Detail += fmt.Sprintf("; %d ping%s unanswered", lost, plural(lost))
	case slow*10 > len(rtts):
		// One late answer is the host being busy; many are the link.
		c.Status = Fail
		c.Detail += fmt.Sprintf("; %d over the %v limit", slow, MaxRTT)
	case slow > 0:
		c.Detail += fmt.Sprintf(" (%d over %v: the host was busy)", slow, MaxRTT)
	}
	if busy > 0 {
		c.Detail += fmt.Sprintf(" (%d over %v while the host stalled %v)", busy, MaxRTT, ms(busyStalled))
		what := "閒置時的心跳"
		if name != "heartbeat" {
			what = "負載測試中的心跳"
		}
		c.Warning = hostBusy(CompLink, fmt.Sprintf("%s有 %d 次往返超過 %v（最慢 %v）", what, busy, MaxRTT, ms(hi)), busyStalled).Message
	}
	return c
}

// ms rounds a duration for the report.
func ms(d time.Duration) time.Duration {
	if d < 10*time.Millisecond {
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(100 * time.Microsecond)
}

func soakCheck(d time.Duration, res *rawResult) Check {
	rate := 0.0
	if res.soak > 0 {
		rate = float64(res.acked) / res.soak.Seconds()
	}
	c := Check{Name: "soak", Status: Pass, Detail: fmt.Sprintf("%v of full-rate light frames: %d sent, %d acknowledged (%.0f/s)", d, res.sent, res.acked, rate)}
	switch {
	case res.soakErr != nil:
		c.Status = Fail
		c.Detail += "; " + res.soakErr.Error()
	case res.acked < res.sent:
		c.Status = Fail
		c.Detail += fmt.Sprintf("; %d never acknowledged", res.sent-res.acked)
	case rate < MinSoakRate:
		// The rate over the time the host ran: a host that stalled sent
		// nothing meanwhile.
		ran := res.soak - res.soakStalled
		if ran > 0 && float64(res.acked)/ran.Seconds() >= MinSoakRate {
			c.Detail += fmt.Sprintf(" (%.0f/s over the %v the host ran)", float64(res.acked)/ran.Seconds(), ms(ran))
			c.Warning = hostBusy(CompLink, fmt.Sprintf("燈號負載測試每秒只確認 %.0f 幀（低於 %d；扣除停頓後每秒 %.0f 幀）",
				rate, MinSoakRate, float64(res.acked)/ran.Seconds()), res.soakStalled).Message
			break
		}
		c.Status = Fail
		c.Detail += fmt.Sprintf("; under %d/s", MinSoakRate)
	}
	return c
}

func countersCheck(res *rawResult) Check {
	if !res.afterOK {
		return Check{Name: "counters", Status: Fail, Detail: "the bridge did not answer StatsRequest after the soak"}
	}
	b := protocol.Stats{
		CRCErrors:      res.after.CRCErrors - res.before.CRCErrors,
		Malformed:      res.after.Malformed - res.before.Malformed,
		Overruns:       res.after.Overruns - res.before.Overruns,
		QueueOverflows: res.after.QueueOverflows - res.before.QueueOverflows,
	}
	h := protocol.DecoderStats{
		CRCErrors: res.decAfter.CRCErrors - res.decBefore.CRCErrors,
		Malformed: res.decAfter.Malformed - res.decBefore.Malformed,
		Overruns:  res.decAfter.Overruns - res.decBefore.Overruns,
	}
	c := Check{Name: "counters", Status: Pass, Detail: fmt.Sprintf(
		"bridge: %d CRC errors, %d malformed, %d overruns, %d queue overflows; host: %d CRC errors, %d malformed, %d overruns (since the bridge booted: %d CRC, %d overruns; up %v)",
		b.CRCErrors, b.Malformed, b.Overruns, b.QueueOverflows, h.CRCErrors, h.Malformed, h.Overruns,
		res.after.CRCErrors, res.after.Overruns, (time.Duration(res.after.UptimeMillis) * time.Millisecond).Round(time.Second))}
	if b.CRCErrors+b.Malformed+b.Overruns+b.QueueOverflows+h.CRCErrors+h.Malformed+h.Overruns > 0 {
		c.Status = Fail
	}
	return c
}

// Open implements Target.
func (s *SerialTarget) Open(ctx context.Context) (hw.Table, error) {
	cfg := s.Config
	if cfg.Port == "" {
		cfg.Port = s.info.Port
	}
	cfg.WaitLink = serial.DefaultWaitLink
	t, err := serial.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	s.table = t
	return t, nil
}

// AfterOpen implements Target: the serial link was soaked before.
func (s *SerialTarget) AfterOpen(context.Context, hw.Table) []Check { return nil }

// Finish implements Target: the driver's counters over the test.
func (s *SerialTarget) Finish(hw.Table) []Check {
	if s.table == nil {
		return nil
	}
	st := s.table.Stats()
	c := Check{Name: "driver", Status: Pass, Detail: fmt.Sprintf(
		"%d connection%s; %d key events (%d retransmissions dropped); %d light frames sent, %d acknowledged; host decoder: %d CRC errors, %d malformed, %d overruns",
		st.Connects, plural(st.Connects), st.KeyEvents, st.Duplicates, st.LightsSent, st.LightsAcked,
		st.Decoder.CRCErrors, st.Decoder.Malformed, st.Decoder.Overruns)}
	var bad []string
	if st.Connects > 1 {
		bad = append(bad, fmt.Sprintf("reconnected %d times", st.Connects-1))
	}
	if st.Decoder.CRCErrors+st.Decoder.Overruns > 0 {
		bad = append(bad, "line errors")
	}
	if st.Synthesized > 0 {
		bad = append(bad, fmt.Sprintf("%d key edges lost for good", st.Synthesized))
	}
	if st.Dropped+st.TxDropped > 0 {
		bad = append(bad, fmt.Sprintf("%d events and %d frames dropped", st.Dropped, st.TxDropped))
	}
	if len(bad) > 0 {
		c.Status = Fail
		c.Detail += "; " + strings.Join(bad, ", ")
	}
	return []Check{c}
}
