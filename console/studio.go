package console

import (
	"net/http"
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
// gets studioDeadline instead of the server's 20 s.

const studioDeadline = 5 * time.Minute

func (s *Server) studioAPI() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.judged(w, r) {
			return
		}
		if s.opt.Studio == nil {
			writeError(w, http.StatusNotFound, "no_studio", "這張桌子沒有開錄音室")
			return
		}
		if _, on := s.running(); on && changes(r) {
			writeError(w, http.StatusConflict, "game_on", "對局進行中：請在這局結束後再錄音或切換語音")
			return
		}
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Now().Add(studioDeadline)) // not supported by a test recorder
		_ = rc.SetWriteDeadline(time.Now().Add(studioDeadline))
		s.opt.Studio.ServeHTTP(w, r)
	})
}
