package serial

import (
	"io"
	"time"

	"wolftable/firmware-bridge/protocol"
)

// Pacer spaces what the host writes to the bridge so that the bridge never
// gets more than protocol.HostPaceBytes in any protocol.HostPaceMicros:
// TinyGo's USB receive buffer on the Pico holds 128 bytes and drops what
// does not fit, and the firmware drains it about every millisecond (a
// little less often while it writes the LEDs). That is 32 KB/s, far more
// than a table sends; only a session's start, a full Lights or a soak
// ever waits, for a few milliseconds. The zero Pacer is ready to use; it
// is not safe for concurrent use.
type Pacer struct {
	recent []pacedWrite // the writes of the last window, oldest first
}

type pacedWrite struct {
	at time.Time
	n  int
}

const (
	paceBytes  = protocol.HostPaceBytes
	paceWindow = protocol.HostPaceMicros * time.Microsecond
)

// Write writes p to w in pieces of at most HostPaceBytes, each once the
// last HostPaceMicros have room for it. It returns how much was written
// and the first error.
func (pc *Pacer) Write(w io.Writer, p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		k := min(len(p), paceBytes)
		pc.wait(k)
		n, err := w.Write(p[:k])
		written += n
		if err != nil {
			return written, err
		}
		p = p[k:]
	}
	return written, nil
}

// wait returns once n more bytes fit in the last window, and counts them.
func (pc *Pacer) wait(n int) {
	for {
		now := time.Now()
		used := 0
		keep := pc.recent[:0]
		for _, r := range pc.recent {
			if now.Sub(r.at) < paceWindow {
				keep = append(keep, r)
				used += r.n
			}
		}
		pc.recent = keep
		if used+n <= paceBytes || len(pc.recent) == 0 {
			pc.recent = append(pc.recent, pacedWrite{now, n})
			return
		}
		time.Sleep(pc.recent[0].at.Add(paceWindow).Sub(now))
	}
}
