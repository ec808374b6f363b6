package console

import (
	"io/fs"
	"net/http"
	"unicode/utf8"
)

// staticFiles serves the embedded files and nothing else: no directory
// listing, 404 for any other name (a name that is not a valid path, too).
func staticFiles(fsys fs.FS) http.Handler {
	files := http.FileServerFS(fsys)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Path
		if !utf8.ValidString(name) || !fs.ValidPath(name) {
			http.NotFound(w, r)
			return
		}
		if fi, err := fs.Stat(fsys, name); err != nil || fi.IsDir() {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}
