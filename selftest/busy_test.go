package selftest

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"wolftable/hw/hwtest"
)

// testLag is the host's real stalls (a LagMeter; nil: none) plus stalls a
// test injects: a slow host on demand, whatever the machine does besides.
type testLag struct {
	real *LagMeter

	mu     sync.Mutex
	stalls []stall
	open   []*time.Time // stalls still going on: their start
}

func newTestLag(t *testing.T) *testLag {
	m := StartLagMeter(t.Context())
	t.Cleanup(m.Stop)
	return &testLag{real: m}
}

// stall starts an injected stall; it lasts until end is called.
func (l *testLag) stall() (end func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	from := time.Now()
	l.open = append(l.open, &from)
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			for i, o := range l.open {
				if o == &from {
					l.open = append(l.open[:i], l.open[i+1:]...)
					break
				}
			}
			now := time.Now()
			l.stalls = append(l.stalls, stall{from, now, now.Sub(from)})
		})
	}
}

func (l *testLag) Stalled(from, to time.Time) time.Duration {
	l.mu.Lock()
	all := append([]stall(nil), l.stalls...)
	for _, o := range l.open {
		now := time.Now()
		all = append(all, stall{*o, now, now.Sub(*o)})
	}
	l.mu.Unlock()
	var sum time.Duration
	if l.real != nil {
		sum = l.real.Stalled(from, to)
	}
	for _, s := range all {
		sum += s.within(from, to)
	}
	return sum
}

// TestLagMeterStalled: the meter sums over a time what it measured, its
// late wakes and its threads' waits for the CPU, a stall going on now
// included.
func TestLagMeterStalled(t *testing.T) {
	t.Parallel()
	t0 := time.Now()
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	m := &LagMeter{stop: make(chan struct{}), done: make(chan struct{}), last: t0, win: t0,
		sched: threadTimes{1: {0, 0}, 2: {time.Second, time.Second}}}
	close(m.done) // no goroutine: the test drives it
	// 0…100 ms (no CPU pressure to read): the wakes on time, but thread 1 waited 50 ms for the CPU
	// and ran 50 ms (slowed by half); thread 2 ended, thread 3 was idle.
	for ms := 4; ms <= 100; ms += 4 {
		m.ran(at(ms))
	}
	m.window(at(100), threadTimes{1: {50 * time.Millisecond, 50 * time.Millisecond}, 3: {0, 0}}, -1)
	// 100…200 ms: one wake 80 ms late; the threads unreadable.
	m.ran(at(104))
	m.ran(at(188))
	m.ran(at(192))
	m.ran(at(196))
	m.ran(at(200))
	m.window(at(200), nil, -1)
	// 200…300 ms: thread 3 waited 10 ms, ran 0.1 ms: no more than its wait.
	m.sched = threadTimes{3: {0, 0}}
	m.window(at(300), threadTimes{3: {100 * time.Microsecond, 10 * time.Millisecond}}, 0)
	// 300…400 ms: some task of the machine waited for a CPU all along: a
	// crawl, counted 90% at most.
	m.window(at(400), nil, 100*time.Millisecond)
	for _, c := range []struct {
		from, to int
		want     time.Duration
	}{
		{0, 300, 140 * time.Millisecond},
		{0, 100, 50 * time.Millisecond},
		{50, 150, 65 * time.Millisecond},
		{200, 300, 10 * time.Millisecond},
		{300, 400, 90 * time.Millisecond},
		{400, 500, 0},
	} {
		if got := m.Stalled(at(c.from), at(c.to)); got != c.want {
			t.Errorf("stalled %d…%d ms: %v, want %v", c.from, c.to, got, c.want)
		}
	}
	// A meter that has not run for a while (and is not stopped) is being
	// stalled now: that counts up to now (90% of it: a host stalled for
	// good still lets waits end).
	now := time.Now()
	live := &LagMeter{stop: make(chan struct{}), done: make(chan struct{}), last: now.Add(-time.Second), win: now.Add(-time.Second)}
	if got := live.Stalled(now.Add(-2*time.Second), time.Now()); got < 800*time.Millisecond || got > 900*time.Millisecond {
		t.Errorf("a stall going on now: %v", got)
	}
	// A whole window of late wakes counts 90% too.
	frozen := &LagMeter{stop: make(chan struct{}), done: make(chan struct{}), last: t0, win: t0}
	close(frozen.done)
	frozen.ran(at(1000))
	frozen.window(at(1000), nil, -1)
	if got := frozen.Stalled(t0, at(1000)); got != 900*time.Millisecond {
		t.Errorf("a window of a frozen host: %v", got)
	}
	// The kernel's accounting, where there is one (Linux with schedstats;
	// elsewhere the meter has its wakes only).
	if tt := readThreadTimes(); len(tt) == 0 {
		t.Log("no thread times in /proc/self/task: the meter measures its late wakes only")
	} else if _, ok := tt[os.Getpid()]; !ok {
		t.Errorf("the main thread %d is not among the threads read: %v", os.Getpid(), tt)
	}
	// A running meter: a patience of 10 ms is over after 10 ms at least.
	real := StartLagMeter(t.Context())
	defer real.Stop()
	p := patient(real, 10*time.Millisecond)
	p.sleep(t.Context())
	if d := time.Since(p.start); d < 10*time.Millisecond {
		t.Errorf("slept %v", d)
	}
}

// TestRunLateAnswerIsAWarning: the technician answers seat 2's lights long
// after the wait (300 ms) while the host is stalled: the answer stands, the
// seat passes, and the report warns in Chinese with the measured delay.
func TestRunLateAnswerIsAWarning(t *testing.T) {
	t.Parallel()
	late := 900 * time.Millisecond
	rep, _, lines := runFake(t, 6, func(_ *hwtest.Table, s *scripted, _ *fakeSound) {
		s.lateLights = map[int]time.Duration{2: late}
	})
	if !rep.Passed || len(rep.Problems) != 0 {
		t.Fatalf("a late answer on a stalled host failed the test: %+v", rep.Problems)
	}
	if c := rep.Seat(2).Lights; c.Status != Pass || !strings.Contains(c.Detail, "：主機停頓 ") {
		t.Errorf("seat 2 lights: %+v", c)
	}
	// (A busy machine may add warnings of its own.)
	i := slices.IndexFunc(rep.Warnings, func(w Problem) bool { return w.Seat == 2 })
	if i < 0 {
		t.Fatalf("no warning for seat 2: %+v", rep.Warnings)
	}
	w := rep.Warnings[i]
	if w.Component != CompLights || !strings.HasPrefix(w.Message, "主機忙碌：2號燈號的回答在 ") ||
		!strings.Contains(w.Message, "上限 300 毫秒") || !strings.Contains(w.Message, "不算故障") {
		t.Errorf("warning: %+v", w)
	}
	// the measured delay: at least the technician's
	var took time.Duration
	var n float64
	var unit string
	if _, err := fmt.Sscanf(strings.TrimPrefix(w.Message, "主機忙碌：2號燈號的回答在 "), "%g %s", &n, &unit); err == nil {
		switch {
		case strings.HasPrefix(unit, "毫秒"):
			took = time.Duration(n * float64(time.Millisecond))
		case strings.HasPrefix(unit, "秒"):
			took = time.Duration(n * float64(time.Second))
		}
	}
	if took < late-50*time.Millisecond { // rounded to 0.1 s
		t.Errorf("the warning's delay %v is less than the %v the answer took: %s", took, late, w.Message)
	}
	var b bytes.Buffer
	rep.WriteText(&b)
	if !strings.Contains(b.String(), "注意：主機忙碌，不是故障\n  - 2號座位 燈號：主機忙碌：") {
		t.Errorf("text report:\n%s", b.String())
	}
	if !strings.Contains(strings.Join(lines, "\n"), "[燈號]    注意 主機忙碌：2號燈號的回答") {
		t.Errorf("progress:\n%s", strings.Join(lines, "\n"))
	}
}

// TestRunNoAnswerAfterStall: a technician who never answers fails the
// lights, but only once the host has run the whole wait: the wait is
// lengthened by the host's stall (500 ms injected at the start).
func TestRunNoAnswerAfterStall(t *testing.T) {
	t.Parallel()
	var asked, failed time.Time
	stalled := 500 * time.Millisecond
	rep, _, _ := runFake(t, 6, func(_ *hwtest.Table, s *scripted, _ *fakeSound) {
		s.silent = true
		lag := s.lag
		s.onJudge = func(seat int) {
			if seat == 1 {
				asked = time.Now()
				end := lag.stall()
				time.AfterFunc(stalled, end)
			}
		}
		s.onLook = func(seat int) {
			if seat == 2 && failed.IsZero() {
				failed = time.Now()
			}
		}
	})
	c := rep.Seat(1).Lights
	if c.Status != Fail || !strings.HasPrefix(c.Detail, "300 毫秒 內沒有回答（其間主機停頓 ") {
		t.Fatalf("seat 1 lights: %+v", c)
	}
	if d := failed.Sub(asked); d < stalled+scriptedPace.Answer {
		t.Errorf("seat 1 failed %v after it was asked, before the wait and the stall (%v) were over", d, stalled+scriptedPace.Answer)
	}
}

// TestRunKeyReleasedLate: the last key comes up after the quiet time but
// within the settle time: it was released, not stuck (the emulated run
// under load showed "stuck BOOM (never released)").
func TestRunKeyReleasedLate(t *testing.T) {
	t.Parallel()
	rep, _, _ := runFake(t, 6, func(tb *hwtest.Table, s *scripted, _ *fakeSound) {
		s.pace = Pace{Answer: time.Second, Settle: time.Hour, Quiet: 20 * time.Millisecond}
		s.holdLast = map[int]time.Duration{3: 200 * time.Millisecond}
	})
	if k := rep.Seat(3).Keys; k.Status != Pass || len(k.Stuck) != 0 {
		t.Errorf("seat 3 keys: %+v", k)
	}
	// One held for good is still stuck: Settle bounds the wait.
	rep, _, _ = runFake(t, 6, func(tb *hwtest.Table, s *scripted, _ *fakeSound) {
		s.holdLast = map[int]time.Duration{3: time.Hour}
	})
	if k := rep.Seat(3).Keys; k.Status != Fail || strings.Join(k.Stuck, " ") != "BOOM" || !strings.Contains(k.Detail, "BOOM（一直沒放開）") {
		t.Errorf("seat 3 keys, BOOM held: %+v", k)
	}
}

// TestLinkChecksHostStall: a round trip or a soak rate that the host's
// stall explains passes with a warning; one it does not explain fails.
func TestLinkChecksHostStall(t *testing.T) {
	t.Parallel()
	var rtts []timed
	for range 9 {
		rtts = append(rtts, timed{took: 2 * time.Millisecond})
	}
	busy := append(rtts, timed{took: 300 * time.Millisecond, stalled: 250 * time.Millisecond}, timed{took: 150 * time.Millisecond, stalled: 100 * time.Millisecond})
	c := rttCheck("heartbeat", busy, 0, "idle")
	if c.Status != Pass || !strings.HasPrefix(c.Warning, "主機忙碌：閒置時的心跳有 2 次往返超過 100ms（最慢 300ms），其間主機停頓 350 毫秒") {
		t.Errorf("explained: %+v", c)
	}
	slow := append(rtts, timed{took: 300 * time.Millisecond, stalled: 10 * time.Millisecond}, timed{took: 200 * time.Millisecond})
	if c := rttCheck("heartbeat", slow, 0, "idle"); c.Status != Fail || c.Warning != "" || !strings.Contains(c.Detail, "2 次超過 100ms 的上限") {
		t.Errorf("not explained: %+v", c)
	}

	res := rawResult{soak: time.Second, soakStalled: 300 * time.Millisecond, sent: 90, acked: 90}
	if c := soakCheck(time.Second, &res); c.Status != Pass || !strings.Contains(c.Warning, "燈號負載測試每秒只確認 90 幀") {
		t.Errorf("soak explained: %+v", c)
	}
	res.soakStalled = 50 * time.Millisecond
	if c := soakCheck(time.Second, &res); c.Status != Fail || c.Warning != "" {
		t.Errorf("soak not explained: %+v", c)
	}
}

// TestUnderrunsHostStall: the speaker's stall watch firing while the host
// was stalled as long is a warning; with the host running, a fault.
func TestUnderrunsHostStall(t *testing.T) {
	t.Parallel()
	lag := &testLag{} // injected stalls only: the verdicts must not move with the machine's
	rec := newLogRecorder(nil)
	s := &Speaker{log: rec, Lag: lag}
	end := lag.stall()
	time.Sleep(20 * time.Millisecond)
	end()
	at := time.Now()
	rec.add(logged{text: "speaker: the sound device stopped playing", at: at, quiet: 510 * time.Millisecond})
	if c := s.underruns(0); c.Status != Pass || !strings.HasPrefix(c.Warning, "主機忙碌：音效裝置曾停止取樣") {
		t.Errorf("explained: %+v", c)
	}
	rec.add(logged{text: "speaker: the sound device stopped playing", at: time.Now(), quiet: 2 * time.Second})
	if c := s.underruns(1); c.Status != Fail || c.Warning != "" {
		t.Errorf("not explained: %+v", c)
	}
}

func (h *logRecorder) add(l logged) {
	h.mu.Lock()
	defer h.mu.Unlock()
	*h.recs = append(*h.recs, l)
}
