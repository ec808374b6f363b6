package webguard

import (
	"log/slog"
	"net/netip"
	"sync"
	"time"
)

// RejectLog logs refused logins without flooding the system log: the
// first after a quiet period at once, then one summary per period while
// they go on. Its timer runs only while logins are being refused. Set Log,
// Every and Name (the log lines' prefix: "console", "desk") before use.
type RejectLog struct {
	Log   *slog.Logger
	Every time.Duration
	Name  string

	mu        sync.Mutex
	timer     *time.Timer
	stopped   bool
	wrong     int
	throttled int
	keys      map[netip.Addr]bool
}

// Note counts a refused login: a wrong PIN, or one the throttle held.
func (l *RejectLog) Note(wrong bool, remote string, ip netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped {
		return
	}
	if l.timer == nil {
		reason := "throttled"
		if wrong {
			reason = "wrong PIN"
		}
		l.Log.Warn(l.Name+": login refused", "reason", reason, "remote", remote)
		l.timer = time.AfterFunc(l.Every, l.flush)
		return
	}
	if wrong {
		l.wrong++
	} else {
		l.throttled++
	}
	if l.keys == nil {
		l.keys = map[netip.Addr]bool{}
	}
	if len(l.keys) < MaxTracked {
		l.keys[Key(ip)] = true
	}
}

func (l *RejectLog) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped || l.wrong+l.throttled == 0 {
		l.timer = nil
		return
	}
	l.Log.Warn(l.Name+": logins refused since the last report", "wrong_pin", l.wrong, "throttled", l.throttled,
		"addresses", len(l.keys), "period", l.Every)
	l.wrong, l.throttled, l.keys = 0, 0, nil
	l.timer.Reset(l.Every)
}

// Stop ends the reports (nothing more is logged).
func (l *RejectLog) Stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
	if l.timer != nil {
		l.timer.Stop()
	}
}
