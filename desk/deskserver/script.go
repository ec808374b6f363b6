package deskserver

import (
	"net/http"
	"strings"

	"wolftable/internal/hans"
)

// Web is the desk's web (Handler) in the desk's script (Options.Script),
// each browser's choice over it: every page but the big screen (/screen,
// chosen by its address: /screen?script=hans) shows the 繁/简 switch.
func (d *Desk) Web() http.Handler {
	return hans.Handler(d.Handler(), hans.Options{Venue: d.opts.Script, Switch: func(r *http.Request) bool {
		return !strings.HasPrefix(r.URL.Path, "/screen")
	}})
}
