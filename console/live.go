package console

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Live views: server-sent events. Each message is the whole state
// ("event: state", its version as the id), so a page that reconnects, or a
// second judge device, is in sync with the first message it gets.

// minGap coalesces bursts (a fast sim, a vote's tally lines) into one message.
const minGap = 100 * time.Millisecond

// The live streams open at once are bounded (limits: 200 public, 8 of one
// address, 16 for the judge on slots of their own); more get 503 and the
// pages fall back to retrying.

type hub struct {
	mu   sync.Mutex
	subs map[chan struct{}]struct{}
	drop chan struct{} // closed (and replaced) to end every stream
}

func (h *hub) subscribe() (ch, drop chan struct{}) {
	ch = make(chan struct{}, 1)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.subs[ch] = struct{}{}
	if h.drop == nil {
		h.drop = make(chan struct{})
	}
	return ch, h.drop
}

// dropAll ends every live stream; the pages reconnect on their own.
func (h *hub) dropAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.drop != nil {
		close(h.drop)
		h.drop = nil
	}
}

// dropStreams ends every live stream, the judge's and the public ones.
func (s *Server) dropStreams() {
	s.hub.dropAll()
	s.pubHub.dropAll()
}

func (h *hub) unsubscribe(ch chan struct{}) {
	h.mu.Lock()
	delete(h.subs, ch)
	h.mu.Unlock()
}

func (h *hub) notify() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

func (s *Server) publicEvents(w http.ResponseWriter, r *http.Request) {
	s.stream(w, r, &s.pubHub, func() (any, uint64) { st := s.publicState(); return st, st.Version }, nil, false)
}

func (s *Server) judgeEvents(w http.ResponseWriter, r *http.Request, _ []byte) {
	s.stream(w, r, &s.hub, func() (any, uint64) { st := s.judgeState(); return st, st.Version }, func() bool {
		_, ok := s.auth.session(r)
		return ok
	}, true)
}

// stream serves a live view until the client goes, the console closes or
// (judge) the session ends: then it sends "event: logout". Messages go out
// when h is notified (for the public view: only when what it shows
// changed), at most one per minGap after the last one sent.
func (s *Server) stream(rw http.ResponseWriter, r *http.Request, h *hub, render func() (any, uint64), valid func() bool, judge bool) {
	ip, _ := remoteIP(r)
	release, ok := s.streams.acquire(judge, ip, s.lim)
	if !ok {
		writeError(rw, http.StatusServiceUnavailable, "busy", "連線太多")
		return
	}
	defer release()
	rc := http.NewResponseController(rw)
	// A live stream outlives the server's read and write timeouts: no read
	// deadline (the client only closes), and each write gets its own.
	_ = rc.SetReadDeadline(time.Time{})
	w := deadlineWriter{rw, rc, s.lim.streamWrite}
	hdr := rw.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Accel-Buffering", "no")
	rw.WriteHeader(http.StatusOK)
	sub, drop := h.subscribe()
	defer h.unsubscribe(sub)
	beat := time.NewTicker(s.opt.Heartbeat)
	defer beat.Stop()
	if _, err := fmt.Fprint(w, "retry: 2000\n\n"); err != nil {
		return
	}
	var sent uint64
	var last time.Time
	send := func() bool {
		if valid != nil && !valid() {
			_, _ = fmt.Fprint(w, "event: logout\ndata: {}\n\n")
			_ = w.flush()
			return false
		}
		st, v := render()
		if v == sent && !last.IsZero() {
			return true
		}
		b, err := json.Marshal(st)
		if err != nil {
			return false
		}
		if _, err := fmt.Fprintf(w, "id: %d\nevent: state\ndata: %s\n\n", v, b); err != nil {
			return false
		}
		sent, last = v, time.Now()
		return w.flush() == nil
	}
	if !send() {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.quit:
			return
		case <-drop:
			return
		case <-beat.C:
			if valid != nil && !valid() {
				send()
				return
			}
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil || w.flush() != nil {
				return
			}
		case <-sub:
			if wait := minGap - time.Since(last); wait > 0 {
				t := time.NewTimer(wait)
				select {
				case <-t.C:
				case <-r.Context().Done():
					t.Stop()
					return
				case <-s.quit:
					t.Stop()
					return
				}
			}
			if !send() {
				return
			}
		}
	}
}
