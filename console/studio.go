package console

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"
)

// The voice studio (錄音室): the page /studio and the API under
// /api/judge/voice/, served by Options.Studio (audio/studio's Handler)
// behind the judge's session. Every request needs the session (401), and
// every request that changes something (PUT, POST) also the CSRF token and
// a same-origin request (403), and no game on the table (409): recording
// and activating wait for the game's end, so that nothing the studio does
// takes the daemon's CPU or changes its voice in the middle of a game.
// Uploads and archives may take minutes on a phone's Wi-Fi: their request
// gets studioDeadline instead of the server's 20 s. A change admitted
// before a game and still running when one starts (Attach: from the
// console, the pedal or --autostart) is cancelled: its request's context
// ends with errGameStarted, and the studio stops (an import between two
// clips, answering 409 cancelled with what it saved), so that nothing of
// it runs into night 1.

const studioDeadline = 5 * time.Minute

// errGameStarted is why the studio's changes in flight were cancelled.
var errGameStarted = errors.New("對局開始了 / a game started")

// studioChanges are the studio's changes in flight.
type studioChanges struct {
	mu      sync.Mutex
	next    uint64
	cancels map[uint64]context.CancelCauseFunc
}

// add registers a change; done unregisters it.
func (c *studioChanges) add(parent context.Context) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancelCause(parent)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancels == nil {
		c.cancels = map[uint64]context.CancelCauseFunc{}
	}
	c.next++
	id := c.next
	c.cancels[id] = cancel
	return ctx, func() {
		c.mu.Lock()
		delete(c.cancels, id)
		c.mu.Unlock()
		cancel(nil)
	}
}

// cancelAll cancels every change in flight and reports how many.
func (c *studioChanges) cancelAll(cause error) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.cancels)
	for id, cancel := range c.cancels {
		cancel(cause)
		delete(c.cancels, id)
	}
	return n
}

func (s *Server) studioAPI() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.judged(w, r) {
			return
		}
		if s.opt.Studio == nil {
			writeError(w, http.StatusNotFound, "no_studio", "這張桌子沒有開錄音室")
			return
		}
		if changes(r) {
			// registered first, then checked: a game attached before is in
			// the views once settled, one attached after cancels ctx
			ctx, done := s.studioChanges.add(r.Context())
			defer done()
			s.settle(ctx)
			if _, on := s.running(); on || ctx.Err() != nil {
				writeError(w, http.StatusConflict, "game_on", "對局進行中：請在這局結束後再錄音或切換語音")
				return
			}
			r = r.WithContext(ctx)
		}
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Now().Add(studioDeadline)) // not supported by a test recorder
		_ = rc.SetWriteDeadline(time.Now().Add(studioDeadline))
		s.opt.Studio.ServeHTTP(w, r)
	})
}
