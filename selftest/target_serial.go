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
			checks = append(checks, Check{Name: "bridge found", Status: Fail, Detail: fmt.Sprintf("%s 沒有裝置：橋接板插上了嗎？（%v）", cfg.Port, err)})
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
		checks = append(checks, Check{Name: "bridge found", Status: Fail, Detail: "橋接板插上了嗎？" + err.Error()})
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
	f.Table = fmt.Sprintf("座位面板橋接板，韌體 %v，%d 個座位，在 %s", info.Firmware, info.Seats, info.Port)
	f.Seats = info.Seats
	found := info.Port
	if cfg.Port == "" {
		found += "（" + where + "）"
	}
	caps := capWords(info.Capabilities())
	checks = append(checks, Check{Name: "bridge found", Status: Pass, Detail: found},
		Check{Name: "hello", Status: Pass, Detail: fmt.Sprintf("韌體 %v，協定 %d（主機 %d），%d 個座位，每座 %d 個鍵，選項：%s",
			info.Firmware, info.Protocol, protocol.LatestVersion, info.Seats, info.KeysPerSeat, caps)})
	f.Private = info.Caps&protocol.CapPrivateLED != 0
	f.Pedal = info.Caps&protocol.CapPedal != 0
	if !f.Pedal {
		f.NoPedal = "橋接板回報沒有踏板（它的 Hello 沒有 pedal 選項）：請把踏板接到橋接板"
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
	checks = append(checks, rttCheck("heartbeat", res.rtts, res.lost, "閒置時"))
	if s.Soak > 0 {
		checks = append(checks, soakCheck(s.Soak, &res))
		checks = append(checks, rttCheck("heartbeat, load", res.loadRTTs, res.loadLost, "負載測試中"))
	}
	checks = append(checks, countersCheck(&res))
	if res.keys == nil {
		checks = append(checks, Check{Name: "raw contacts", Status: Fail, Detail: "橋接板沒有回答按鍵接點的查詢（SelfTestDumpKeys）"})
	} else {
		var closed []string
		for seat := 1; seat <= int(res.keys.Seats); seat++ {
			bits := res.keys.Bits[seat-1]
			for i, k := range keys {
				if bits&(1<<i) != 0 {
					f.ClosedAtStart = append(f.ClosedAtStart, SeatKey{seat, k})
					closed = append(closed, fmt.Sprintf("%d號 %v", seat, k))
				}
			}
		}
		d := "開始時沒有閉合的按鍵接點"
		if len(closed) > 0 {
			d = "開始時已閉合（卡住了，見按鍵）：" + strings.Join(closed, "、")
		}
		checks = append(checks, Check{Name: "raw contacts", Status: Pass, Detail: d})
	}
	return f, checks, true
}

func rttCheck(name string, rtts []timed, lost int, when string) Check {
	if len(rtts) == 0 {
		return Check{Name: name, Status: Fail, Detail: fmt.Sprintf("%s沒有任何心跳回應（送出 %d 個）", when, lost)}
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
	c := Check{Name: name, Status: Pass, Detail: fmt.Sprintf("%s %d 次心跳往返：最快 %v，平均 %v，最慢 %v",
		when, len(rtts), ms(lo), ms(avg), ms(hi))}
	switch {
	case lost > 0:
		c.Status = Fail
		c.Detail += fmt.Sprintf("；%d 次沒有回應", lost)
	case slow*10 > len(rtts):
		// One late answer is the host being busy; many are the link.
		c.Status = Fail
		c.Detail += fmt.Sprintf("；%d 次超過 %v 的上限", slow, MaxRTT)
	case slow > 0:
		c.Detail += fmt.Sprintf("（%d 次超過 %v：主機忙碌）", slow, MaxRTT)
	}
	if busy > 0 {
		c.Detail += fmt.Sprintf("（%d 次超過 %v，其間主機停頓 %v）", busy, MaxRTT, ms(busyStalled))
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
	c := Check{Name: "soak", Status: Pass, Detail: fmt.Sprintf("全速燈號幀 %v：送出 %d，確認 %d（每秒 %.0f 幀）", d, res.sent, res.acked, rate)}
	switch {
	case res.soakErr != nil:
		c.Status = Fail
		c.Detail += "；" + res.soakErr.Error()
	case res.acked < res.sent:
		c.Status = Fail
		c.Detail += fmt.Sprintf("；%d 幀始終沒有確認", res.sent-res.acked)
	case rate < MinSoakRate:
		// The rate over the time the host ran: a host that stalled sent
		// nothing meanwhile.
		ran := res.soak - res.soakStalled
		if ran > 0 && float64(res.acked)/ran.Seconds() >= MinSoakRate {
			c.Detail += fmt.Sprintf("（主機運行的 %v 內每秒 %.0f 幀）", ms(ran), float64(res.acked)/ran.Seconds())
			c.Warning = hostBusy(CompLink, fmt.Sprintf("燈號負載測試每秒只確認 %.0f 幀（低於 %d；扣除停頓後每秒 %.0f 幀）",
				rate, MinSoakRate, float64(res.acked)/ran.Seconds()), res.soakStalled).Message
			break
		}
		c.Status = Fail
		c.Detail += fmt.Sprintf("；低於每秒 %d 幀", MinSoakRate)
	}
	return c
}

func countersCheck(res *rawResult) Check {
	if !res.afterOK {
		return Check{Name: "counters", Status: Fail, Detail: "負載測試後橋接板沒有回答計數的查詢（StatsRequest）"}
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
		"橋接板：CRC 錯誤 %d、格式錯誤 %d、溢位 %d、佇列滿 %d；主機：CRC 錯誤 %d、格式錯誤 %d、溢位 %d（橋接板開機以來：CRC 錯誤 %d、溢位 %d；已開機 %v）",
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
		"連線 %d 次；按鍵事件 %d 個（丟棄重送 %d 個）；燈號幀送出 %d、確認 %d；主機解碼：CRC 錯誤 %d、格式錯誤 %d、溢位 %d",
		st.Connects, st.KeyEvents, st.Duplicates, st.LightsSent, st.LightsAcked,
		st.Decoder.CRCErrors, st.Decoder.Malformed, st.Decoder.Overruns)}
	var bad []string
	if st.Connects > 1 {
		bad = append(bad, fmt.Sprintf("重新連線 %d 次", st.Connects-1))
	}
	if st.Decoder.CRCErrors+st.Decoder.Overruns > 0 {
		bad = append(bad, "線路有錯誤")
	}
	if st.Synthesized > 0 {
		bad = append(bad, fmt.Sprintf("%d 個按鍵變化永久遺失", st.Synthesized))
	}
	if st.Dropped+st.TxDropped > 0 {
		bad = append(bad, fmt.Sprintf("丟棄 %d 個事件與 %d 幀", st.Dropped, st.TxDropped))
	}
	if len(bad) > 0 {
		c.Status = Fail
		c.Detail += "；" + strings.Join(bad, "、")
	}
	return []Check{c}
}
