package console

import (
	"net/http"

	"wolftable/internal/hans"
)

// InScript is h (the console's Server, or its redirect) answering in the
// venue's script ([venue] script), each browser's choice over it; the
// public page (/) shows the 繁/简 switch.
func InScript(h http.Handler, sc hans.Script) http.Handler {
	return hans.Handler(h, hans.Options{Venue: sc, Switch: func(r *http.Request) bool { return r.URL.Path == "/" }})
}
