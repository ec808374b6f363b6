package selftest

import (
	"context"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Lag says how late the host ran: how long, between two instants, the
// self-test wanted to run and could not (other programs had the CPU, the
// machine swapped). Every wait of the self-test is counted in the host's
// running time, not the wall clock's: a busy host lengthens each wait by
// its own stalls (see patience), and a check that measures time (a round
// trip, a rate, an answer's delay) is set against the stalls before the
// table is blamed. A slow host is then a warning with the measured delay,
// never a fault of a seat or of the link.
type Lag interface {
	// Stalled returns how long the host stalled between from and to.
	Stalled(from, to time.Time) time.Duration
}

// noLag is a host that never stalls: plain wall-clock waits.
type noLag struct{}

func (noLag) Stalled(time.Time, time.Time) time.Duration { return 0 }

// LagMeter measures the host's stalls in two ways, and keeps the larger
// over each window of lagWindow:
//
//   - the lateness of its own wakes: a goroutine asks to wake every
//     lagPeriod, and a wake more than lagSlack late is a stall (the Go
//     scheduler behind, the process not let run);
//   - the kernel's accounting of the process's threads (Linux: the CPU time
//     each ran and the time each waited on a run queue,
//     /proc/self/task/*/schedstat): a thread that wanted the CPU for W while
//     the process ran C has its work slowed by W/(W+C) of the window, and by
//     W at most. This is what a host short of CPU looks like: the wakes come
//     on time, the work crawls;
//   - the clocks it watches (Watch): a loop of the self-test's own that
//     should count one every period, e.g. the emulated bridge's main loop,
//     which on a host short of CPU falls behind;
//   - the kernel's CPU pressure (Linux: /proc/pressure/cpu, the time some
//     task of the machine waited for a CPU): what the self-test does not run
//     itself is slowed too, the kernel's own work included (a serial line's
//     bytes are passed on by a kernel worker; a busy machine makes a
//     pseudo-terminal, or USB, answer late).
//
// Whatever they say, a window counts as stalled for maxSlow of it at most:
// a wait still ends on a host that is busy for good (ten times its length
// at most), and a starved meter, whose every wake is late, does not stretch
// it for ever.
type LagMeter struct {
	stop chan struct{}
	done chan struct{}

	mu     sync.Mutex
	stalls []stall       // in order, ended at most lagKeep ago
	last   time.Time     // when the meter last ran
	win    time.Time     // when the current window began
	late   time.Duration // the wakes' lateness in the current window
	sched  threadTimes   // the threads' times at the window's start; nil: not readable
	psi    time.Duration // the CPU pressure's total at the window's start; -1: not readable
	clocks []*watched
}

// watched is a clock of Watch's.
type watched struct {
	count  func() (n uint64, ok bool)
	period time.Duration
	last   uint64
	lastOK bool
}

// stall is a time in which the host stalled for amount (at most to-from,
// spread evenly over it).
type stall struct {
	from, to time.Time
	amount   time.Duration
}

const (
	lagPeriod = 4 * time.Millisecond
	// lagSlack is how late a wake may be without counting: a timer's
	// ordinary jitter.
	lagSlack = time.Millisecond
	// lagWindow is how often the threads' times are read.
	lagWindow = 20 * time.Millisecond
	// lagKeep is how long stalls are remembered: longer than any wait.
	lagKeep = 15 * time.Minute
	// maxSlow is the most of any time that counts as stalled: a busy
	// host's waits are ten times longer at most.
	maxSlow = 0.9
)

// StartLagMeter starts measuring until Stop or ctx is done.
func StartLagMeter(ctx context.Context) *LagMeter {
	now := time.Now()
	m := &LagMeter{stop: make(chan struct{}), done: make(chan struct{}), last: now, win: now, sched: readThreadTimes(), psi: readCPUPressure()}
	go m.run(ctx)
	return m
}

func (m *LagMeter) run(ctx context.Context) {
	defer close(m.done)
	t := time.NewTimer(lagPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-m.stop:
			return
		case <-t.C:
			// The channel's value is when the timer fired; the goroutine
			// runs later still on a busy host.
			now := time.Now()
			m.ran(now)
			if now.Sub(m.win) >= lagWindow {
				m.window(now, readThreadTimes(), readCPUPressure())
			}
			t.Reset(lagPeriod)
		}
	}
}

// ran records that the meter ran at now, late or not.
func (m *LagMeter) ran(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	due := m.last.Add(lagPeriod)
	m.last = now
	if late := now.Sub(due); late > lagSlack {
		m.late += late
	}
}

// Watch adds a clock to the meter: count should go up by one every period
// while the host runs it, and says whether it is running at all (ok false:
// stopped on purpose, e.g. the emulated bridge unplugged). The time it falls
// behind counts as the host's stall.
func (m *LagMeter) Watch(count func() (n uint64, ok bool), period time.Duration) {
	n, ok := count()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.clocks = append(m.clocks, &watched{count: count, period: period, last: n, lastOK: ok})
}

// window closes the window at now, with the threads' times and the CPU
// pressure then (nil, -1: not readable), and records its stall.
func (m *LagMeter) window(now time.Time, sched threadTimes, psi time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	span := now.Sub(m.win)
	var slow time.Duration // the host crawled
	if m.sched != nil && sched != nil {
		run, wait := sched.since(m.sched)
		if wait > 0 {
			slow = max(slow, min(wait, time.Duration(float64(span)*float64(wait)/float64(wait+run))))
		}
	}
	for _, c := range m.clocks {
		n, ok := c.count()
		if ok && c.lastOK && n >= c.last {
			slow = max(slow, span-time.Duration(n-c.last)*c.period)
		}
		c.last, c.lastOK = n, ok
	}
	if m.psi >= 0 && psi >= m.psi {
		slow = max(slow, psi-m.psi)
	}
	amount := capped(max(m.late, slow), span)
	if amount > 0 {
		m.stalls = append(m.stalls, stall{m.win, now, amount})
		if old := m.stalls[0]; now.Sub(old.to) > 2*lagKeep {
			i := sort.Search(len(m.stalls), func(i int) bool { return now.Sub(m.stalls[i].to) <= lagKeep })
			m.stalls = append(m.stalls[:0], m.stalls[i:]...)
		}
	}
	m.win, m.late, m.sched, m.psi = now, 0, sched, psi
}

// Stop stops the meter; what it measured stays.
func (m *LagMeter) Stop() {
	select {
	case <-m.stop:
	default:
		close(m.stop)
	}
	<-m.done
}

// Stalled implements Lag. A stall still going on (the meter is late now:
// the host has not let it run) counts up to now, whichever goroutine runs
// first after a freeze; so does the current window's lateness so far.
func (m *LagMeter) Stalled(from, to time.Time) time.Duration {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	i := sort.Search(len(m.stalls), func(i int) bool { return m.stalls[i].to.After(from) })
	var sum time.Duration
	for _, s := range m.stalls[i:] {
		sum += s.within(from, to)
	}
	if !m.stopped() {
		sum += stall{m.win, m.last, capped(m.late, m.last.Sub(m.win))}.within(from, to)
		if due := m.last.Add(lagPeriod); now.Sub(due) > lagSlack {
			sum += stall{due, now, capped(now.Sub(due), now.Sub(due))}.within(from, to)
		}
	}
	return sum
}

// capped is a stall of d in a time of span, counted maxSlow of span at most.
func capped(d, span time.Duration) time.Duration {
	return min(d, time.Duration(maxSlow*float64(span)))
}

// within is the part of the stall's amount that falls between from and to.
func (s stall) within(from, to time.Time) time.Duration {
	begin, end := s.from, s.to
	if from.After(begin) {
		begin = from
	}
	if to.Before(end) {
		end = to
	}
	if !end.After(begin) || s.amount <= 0 {
		return 0
	}
	span := s.to.Sub(s.from)
	if span <= 0 {
		return 0
	}
	return time.Duration(float64(s.amount) * float64(end.Sub(begin)) / float64(span))
}

func (m *LagMeter) stopped() bool {
	select {
	case <-m.done:
		return true
	default:
		return false
	}
}

// readCPUPressure reads the total time some task waited for a CPU
// (/proc/pressure/cpu); -1 where there is none.
func readCPUPressure() time.Duration {
	b, err := os.ReadFile("/proc/pressure/cpu")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "some ") {
			continue
		}
		for _, f := range strings.Fields(line) {
			if v, ok := strings.CutPrefix(f, "total="); ok {
				if us, err := strconv.ParseInt(v, 10, 64); err == nil {
					return time.Duration(us) * time.Microsecond
				}
			}
		}
	}
	return -1
}

// threadTimes are the process's threads' times as the kernel accounts
// them: by thread id, the CPU time run and the time waited to run.
type threadTimes map[int][2]time.Duration

// readThreadTimes reads /proc/self/task/*/schedstat; nil where there is
// none (not Linux, no schedstats).
func readThreadTimes() threadTimes {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil
	}
	tt := threadTimes{}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/schedstat")
		if err != nil {
			continue // the thread ended
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			continue
		}
		run, err1 := strconv.ParseInt(f[0], 10, 64)
		wait, err2 := strconv.ParseInt(f[1], 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		tt[tid] = [2]time.Duration{time.Duration(run), time.Duration(wait)}
	}
	if len(tt) == 0 {
		return nil
	}
	return tt
}

// since sums the threads' run and wait times since before (a thread new
// since then counts from its start).
func (tt threadTimes) since(before threadTimes) (run, wait time.Duration) {
	for tid, now := range tt {
		was := before[tid]
		if now[0] >= was[0] && now[1] >= was[1] {
			run += now[0] - was[0]
			wait += now[1] - was[1]
		}
	}
	return run, wait
}

// patience is a wait of d counted in the host's running time: it is over
// d after start plus however long the host stalled in between.
type patience struct {
	lag   Lag
	start time.Time
	d     time.Duration
}

func patient(lag Lag, d time.Duration) patience {
	if lag == nil {
		lag = noLag{}
	}
	return patience{lag: lag, start: time.Now(), d: d}
}

// left is how long is left at now: 0 or less once the wait is over.
func (p patience) left(now time.Time) time.Duration {
	return p.start.Add(p.d + p.lag.Stalled(p.start, now)).Sub(now)
}

// over reports whether the wait is over.
func (p patience) over() bool { return p.left(time.Now()) <= 0 }

// stalled is how long the host has stalled since the wait began.
func (p patience) stalled(now time.Time) time.Duration { return p.lag.Stalled(p.start, now) }

// context returns a context that is cancelled once the wait is over (or
// ctx is done).
func (p patience) context(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		t := time.NewTimer(max(p.left(time.Now()), 0))
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if d := p.left(time.Now()); d > 0 {
					t.Reset(d)
					continue
				}
				cancel()
				return
			}
		}
	}()
	return ctx, cancel
}

// sleep waits until the wait is over or ctx is done.
func (p patience) sleep(ctx context.Context) {
	pctx, cancel := p.context(ctx)
	defer cancel()
	<-pctx.Done()
}

// late says how late something that came at `at` was: how far past the
// nominal end of the wait (0 if in time), and the host's stall meanwhile.
func (p patience) late(at time.Time) (late, stalled time.Duration) {
	return max(at.Sub(p.start)-p.d, 0), p.lag.Stalled(p.start, at)
}
