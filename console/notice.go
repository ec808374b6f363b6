package console

import "context"

// Notice shows the judge a short message (Chinese) on the judge's page
// until the next game is attached or another notice replaces it: the
// journal's fingerprint at a game's end, an unfinished journal moved aside.
// The public page does not show it.
func (s *Server) Notice(text string) {
	s.settle(context.Background()) // after the events queued so far (a begin resets it)
	s.mu.Lock()
	s.judge.notice = text
	s.version++
	s.mu.Unlock()
	s.hub.notify()
}
